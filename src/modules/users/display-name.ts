/**
 * Display names: what a leaderboard shows for a player.
 *
 * A player may set a `display_name`; leaderboards show it, else the
 * username, else `Player` and the first 8 characters of the user's id. The
 * email is never shown. A display name is normalized (Unicode NFC, runs of
 * white space made one space, trimmed) and then must be 2 to 32 characters
 * (code points), hold no control or invisible formatting characters (Unicode
 * categories Cc and Cf: bidirectional overrides, zero-width joiners), not
 * look like an email address (no `@` followed by a dotted name), and carry
 * none of the words of a small profanity list (compared on a folded form:
 * lowercase, accents and common digit or symbol stand-ins removed).
 */
import { userErrors } from './users.errors.js';

export const DISPLAY_NAME_MIN = 2;
export const DISPLAY_NAME_MAX = 32;

/** Control, format (zero-width, bidi), line and paragraph separator characters. */
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u;
const EMAIL_LIKE = /[^\s@]+@[^\s@]+\.[^\s@]+/u;
/** What boards show for a user with neither display name nor username (leaderboardName): nobody may pose as one. */
const FALLBACK_LIKE = /^player [0-9a-f]{8}$/iu;
/** Refused anywhere in the folded name, spaces between letters ignored. */
const ANYWHERE = ['fuck', 'shit', 'nigger', 'nigga', 'faggot'];
/** Refused at the start of a word (Scunthorpe stays playable). */
const WORD_START = ['cunt', 'whore', 'wanker', 'asshole', 'bitch', 'retard'];
/** Refused as whole words (or their plural) only: each is also part of harmless words (Dickens, Hitchcock, Cockburn). */
const WORDS = ['dick', 'cock', 'pussy', 'slut', 'twat', 'fag', 'bastard', 'piss', 'nazi', 'rape', 'porn', 'tits', 'ass'];
const STAND_INS: Record<string, string> = { '0': 'o', '1': 'i', '3': 'e', '4': 'a', '5': 's', '7': 't', '@': 'a', $: 's', '!': 'i', '|': 'i', '+': 't' };

/** Lowercase, accents stripped, stand-ins replaced; every other non-letter becomes a space. */
function fold(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[0134578@$!|+]/g, (c) => STAND_INS[c] ?? c)
    .replace(/[^\p{L}]+/gu, ' ');
}

/** Whether a text holds control or invisible formatting characters (tabs and line breaks aside, which become spaces). */
export const hasInvisible = (value: string): boolean => INVISIBLE.test(value.replace(/[\t\n\r]/g, ' '));

/** The word of the profanity list a name carries, if any. */
export function profanityIn(name: string): string | undefined {
  const folded = fold(name);
  const squashed = folded.replace(/ /g, '');
  const hit = ANYWHERE.find((w) => squashed.includes(w));
  if (hit) return hit;
  const list = folded.split(' ').filter(Boolean);
  const words = new Set(list);
  return WORD_START.find((w) => list.some((word) => word.startsWith(w))) ?? WORDS.find((w) => words.has(w) || words.has(`${w}s`));
}

/**
 * The stored form of a display name (null clears it: blank means none), or a
 * 400 naming the rule it breaks.
 */
export function normalizeDisplayName(value: string | null): string | null {
  if (value === null) return null;
  if (hasInvisible(value)) throw userErrors.displayNameInvalid('must not contain control or invisible formatting characters');
  const name = value.normalize('NFC').replace(/\s+/gu, ' ').trim();
  if (!name) return null;
  const length = [...name].length;
  if (length < DISPLAY_NAME_MIN || length > DISPLAY_NAME_MAX) {
    throw userErrors.displayNameInvalid(`must be ${DISPLAY_NAME_MIN} to ${DISPLAY_NAME_MAX} characters once spaces are trimmed (it has ${length})`);
  }
  if (EMAIL_LIKE.test(name)) throw userErrors.displayNameInvalid('must not look like an email address');
  if (FALLBACK_LIKE.test(name)) throw userErrors.displayNameInvalid("must not look like the name of a player without one ('Player' and 8 hex digits)");
  if (profanityIn(name)) throw userErrors.displayNameInvalid('contains a word that is not allowed');
  return name;
}

/** What leaderboards show for a user: the display name, else the username, else `Player` and the id's first 8 characters. */
export function leaderboardName(user: { id: string; username: string | null; displayName: string | null }): string {
  return user.displayName ?? user.username ?? `Player ${user.id.slice(0, 8)}`;
}
