/**
 * Rules of a match's feed URL, the provider push feed its listener connects
 * to. Operators attach it (PATCH), schedule providers carry it; either way
 * the service will later open a connection to it, so it is checked the same
 * way wherever it comes from:
 *
 * - an `http:` or `https:` URL of at most FEED_URL_MAX_LENGTH characters;
 * - no credentials in it: no user name or password, no query parameter
 *   named like a secret (a key, a token, a password, a signature). The URL
 *   is shown to every admin and written to listener logs, which are
 *   downloadable, so a secret in it would leak;
 * - unless private addresses are allowed (FEED_ALLOW_PRIVATE_ADDRESSES), a
 *   host that is not a local, private or reserved IP address nor a name of
 *   this machine or network. Names are resolved only when the listener
 *   connects; that check (a name that resolves to a private address) belongs
 *   to the feed client.
 */
import { nonPublicHost } from '../../net/public-address.js';
import { matchErrors } from './matches.errors.js';

export const FEED_URL_MAX_LENGTH = 2048;

/** Query parameter names that carry credentials (compared in lowercase, `-` read as `_`). */
const SECRET_PARAMS = new Set(['key', 'api_key', 'apikey', 'access_key', 'auth', 'authorization', 'sig', 'signature', 'credential', 'credentials']);
const SECRET_PARTS = ['token', 'secret', 'password', 'passwd'];

export interface FeedUrlPolicy {
  /** Hosts on loopback and private networks are accepted (development and tests). */
  allowPrivateAddresses: boolean;
}

/** What is wrong with the feed URL, or null when it may be attached. */
export function feedUrlProblem(raw: string, policy: FeedUrlPolicy): string | null {
  if (raw.length > FEED_URL_MAX_LENGTH) return `is longer than ${FEED_URL_MAX_LENGTH} characters`;
  if (raw.trim() !== raw || raw === '') return 'must be a URL without surrounding spaces';
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'is not a URL';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return `must be an http or https URL, not ${url.protocol.replace(/:$/, '')}`;
  if (!url.hostname) return 'has no host';
  if (url.username || url.password) return 'must not carry a user name or password; feed URLs are shown to admins and written to listener logs';
  for (const name of url.searchParams.keys()) {
    const n = name.toLowerCase().replaceAll('-', '_');
    if (SECRET_PARAMS.has(n) || SECRET_PARTS.some((part) => n.includes(part))) {
      return `must not carry credentials (query parameter '${name}'); feed URLs are shown to admins and written to listener logs`;
    }
  }
  if (!policy.allowPrivateAddresses) {
    const refusal = nonPublicHost(url);
    if (refusal) return `must name a public host: ${refusal} (FEED_ALLOW_PRIVATE_ADDRESSES allows such feeds)`;
  }
  return null;
}

/** The feed URL as stored (the parsed URL's normal form), or a 400 naming the field and what is wrong. */
export function checkFeedUrl(raw: string, policy: FeedUrlPolicy, field = 'feed_url'): string {
  const problem = feedUrlProblem(raw, policy);
  if (problem) throw matchErrors.invalidFeedUrl(field, problem);
  return new URL(raw).href;
}
