/**
 * Question sponsorship slots: a brand's claims on questions of a match.
 *
 * An assignment runs in one transaction for all its matches. The brand is
 * locked FOR KEY SHARE and the matches FOR UPDATE (in id order) before
 * anything is counted, so concurrent assignments on a match run one after the
 * other and the capacity rule holds; a question number is unique per match by
 * the partial unique index, whose violation answers 409.
 */
import { randomInt } from 'node:crypto';
import type { components } from '../../../generated/api-types.js';
import type { Db } from '../../db/client.js';
import type { AppError } from '../../errors.js';
import { isUniqueViolation, pgErrorDetail, quote } from '../../errors.js';
import { brandErrors } from '../brands/brands.errors.js';
import { matchErrors } from '../matches/matches.errors.js';
import { sponsorshipErrors } from './sponsorships.errors.js';
import { periodsOfSport } from '../../domain/sports/league-registry.js';
import {
  deleteBrandSlots,
  insertSlots,
  listBrandSlots,
  lockBrand,
  lockDefinitions,
  lockMatches,
  slotsOnMatches,
  type NewQuestionSponsorship,
  type SponsorableMatch,
} from './sponsorships.repository.js';
import type { QuestionSponsorshipRow, SponsorBrand } from './sponsorships.table.js';
import { notStarted } from '../../domain/vocabulary.js';

type AssignmentInput = components['schemas']['QuestionSponsorshipAssignment'];
type SlotInput = components['schemas']['QuestionSponsorshipSlotInput'];
type Strategy = components['schemas']['SponsorshipStrategy'];

/**
 * Statuses in which a match's slots may change: before kick-off. A postponed
 * match has not started and will be played later, so it stays editable; a
 * cancelled one will never be played.
 */
/** A match's slots are editable until kick-off. */
export const sponsorshipEditable = notStarted;

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const NUMBER_INDEX = 'question_sponsorships_number_uq';

/** A slot whose target has the right type for its strategy (checked before any match is looked at). */
type CheckedSlot =
  | { index: number; strategy: 'question_number'; target: number; bestEffort: boolean }
  | { index: number; strategy: 'period'; target: string; bestEffort: boolean }
  | { index: number; strategy: 'next_available'; target: null; bestEffort: boolean }
  | { index: number; strategy: 'definition'; target: string; bestEffort: boolean };

export interface MatchAssignment {
  matchId: string;
  removedCount: number;
  createdCount: number;
  /** Every slot of the brand on the match after the assignment. */
  slots: QuestionSponsorshipRow[];
}

export type SponsorshipsService = ReturnType<typeof createSponsorshipsService>;

/** Slots for random_percent: round(cap x percent / 100), rounding halves up as JS Math.round does. */
export const randomSlotCount = (questionMaxCount: number, percent: number) => Math.round((questionMaxCount * percent) / 100);

export function createSponsorshipsService({ db }: { db: Db }) {
  return {
    /** The brand's slots (all, or on the given matches only; an empty list gives none). 404 for an unknown brand. */
    async list({
      brandId,
      matchIds,
      limit = 1000,
      offset = 0,
    }: {
      brandId: string;
      matchIds?: readonly string[] | undefined;
      limit?: number;
      offset?: number;
    }): Promise<{ brand: SponsorBrand; slots: QuestionSponsorshipRow[] }> {
      const found = await listBrandSlots({ db, brandId, matchIds, page: { limit, offset } });
      if (!found) throw brandErrors.notFound();
      return found;
    },

    async assign({
      brandId: requestedBrandId,
      input,
    }: {
      brandId: string;
      input: AssignmentInput;
    }): Promise<{ brand: SponsorBrand; matches: MatchAssignment[] }> {
      const replace = input.replace_existing_for_brand ?? true;
      const slotsGiven = input.slots !== undefined && input.slots.length > 0;
      const randomPercent = input.random_percent;
      // PostgreSQL answers uuids in lowercase; ids differing only in case are the same match.
      const matchIds = [...new Set(input.match_ids.map((id) => id.toLowerCase()))];

      try {
        return await db.transaction(async (tx) => {
          const brandRow = await lockBrand({ tx, id: requestedBrandId });
          if (!brandRow) throw brandErrors.notFound();
          // The stored id (lowercase), compared below with the brand ids of existing slots.
          const brandId = brandRow.id;

          if (slotsGiven && randomPercent !== undefined) {
            throw sponsorshipErrors.slotsAndRandom();
          }
          const clearing = !slotsGiven && randomPercent === undefined;
          if (clearing && !(input.slots !== undefined && replace)) {
            throw sponsorshipErrors.nothingToAssign();
          }
          const slots = (input.slots ?? []).map(checkSlotShape);

          const locked = await lockMatches({ tx, ids: matchIds });
          const byId = new Map(locked.map((m) => [m.id, m]));
          const missing = matchIds.find((id) => !byId.has(id));
          if (missing) throw matchErrors.notFound(missing);
          for (const id of matchIds) {
            const match = byId.get(id)!;
            if (!sponsorshipEditable.has(match.status)) throw sponsorshipErrors.matchNotEditable(id, match.status);
          }

          const definitionIds = [...new Set(slots.flatMap((s) => (s.strategy === 'definition' ? [s.target] : [])))];
          const definitions = new Map((await lockDefinitions({ tx, ids: definitionIds })).map((d) => [d.id, d]));
          for (const id of matchIds) checkSlotTargets(slots, byId.get(id)!, definitions);
          const duplicate = firstDuplicateNumber(slots);
          if (duplicate !== undefined) throw sponsorshipErrors.duplicateNumber(duplicate);

          const existing = await slotsOnMatches({ tx, matchIds });
          const removed = replace ? await deleteBrandSlots({ tx, brandId, matchIds }) : [];

          const values: Omit<NewQuestionSponsorship, 'createdAt'>[] = [];
          const created = new Map<string, number>();
          for (const id of matchIds) {
            const match = byId.get(id)!;
            // What stays on the match: every slot, less this brand's when they are being replaced.
            const staying = existing.filter((s) => s.matchId === id && !(replace && s.brandId === brandId));
            const planned = randomPercent !== undefined ? randomNumberSlots(match, randomPercent, staying) : slots.map((s) => toValues(s));
            if (planned.length && staying.length + planned.length > match.questionMaxCount) {
              throw sponsorshipErrors.overCapacity(id, match.questionMaxCount, staying.length, planned.length);
            }
            created.set(id, planned.length);
            for (const v of planned) values.push({ ...v, brandId, matchId: id });
          }
          await insertSlots({ tx, values });

          const after = (await listBrandSlots({ db: tx, brandId, matchIds }))!;
          return {
            brand: after.brand,
            matches: matchIds.map((id) => ({
              matchId: id,
              removedCount: removed.filter((m) => m === id).length,
              createdCount: created.get(id) ?? 0,
              slots: after.slots.filter((s) => s.matchId === id),
            })),
          };
        });
      } catch (err) {
        if (isUniqueViolation(err, NUMBER_INDEX)) throw numberTaken(err);
        throw err;
      }
    },
  };
}

function checkSlotShape(slot: SlotInput, index: number): CheckedSlot {
  const target = slot.target ?? null;
  const bestEffort = slot.best_effort ?? true;
  const invalid = (need: string) =>
    sponsorshipErrors.invalidTarget(`slots[${index}]`, `strategy ${slot.strategy} needs ${need}, got ${quote(JSON.stringify(target) ?? 'nothing')}`);
  const strategy: Strategy = slot.strategy;
  switch (strategy) {
    case 'question_number':
      if (typeof target !== 'number' || !Number.isInteger(target)) throw invalid('an integer question number as target');
      return { index, strategy, target, bestEffort };
    case 'period':
      if (typeof target !== 'string') throw invalid('a period key (a string) as target');
      return { index, strategy, target, bestEffort };
    case 'next_available':
      if (target !== null) throw invalid('no target');
      return { index, strategy, target, bestEffort };
    case 'definition':
      if (typeof target !== 'string' || !UUID_RE.test(target)) throw invalid('the id of an in-game question definition as target');
      return { index, strategy, target: target.toLowerCase(), bestEffort };
  }
}

function firstDuplicateNumber(slots: CheckedSlot[]): number | undefined {
  const seen = new Set<number>();
  for (const s of slots) {
    if (s.strategy !== 'question_number') continue;
    if (seen.has(s.target)) return s.target;
    seen.add(s.target);
  }
  return undefined;
}

/** The targets that depend on the match: number range, period keys of its sport, definitions of its league. */
function checkSlotTargets(slots: CheckedSlot[], match: SponsorableMatch, definitions: Map<string, { leagueId: string; isArchived: boolean }>): void {
  const invalid = (slot: CheckedSlot, why: string) => sponsorshipErrors.invalidTarget(`slots[${slot.index}] on match ${match.id}`, why);
  for (const slot of slots) {
    if (slot.strategy === 'question_number' && (slot.target < 1 || slot.target > match.questionMaxCount)) {
      throw invalid(slot, `question number ${slot.target} is outside 1..${match.questionMaxCount} (the match's question_max_count)`);
    }
    if (slot.strategy === 'period') {
      const periods = periodsOfSport(match.sport);
      if (!periods.includes(slot.target))
        throw invalid(slot, `${quote(String(slot.target))} is not a period of ${match.sport}; the periods are ${periods.join(', ')}`);
    }
    if (slot.strategy === 'definition') {
      const def = definitions.get(slot.target);
      if (!def || def.leagueId !== match.leagueId)
        throw invalid(slot, `${quote(String(slot.target))} is not an in-game question definition of the match's league`);
      if (def.isArchived) throw invalid(slot, `question definition ${slot.target} is archived and is never issued`);
    }
  }
}

function toValues(slot: CheckedSlot): Omit<NewQuestionSponsorship, 'brandId' | 'matchId' | 'createdAt'> {
  return {
    strategy: slot.strategy,
    targetNumber: slot.strategy === 'question_number' ? slot.target : null,
    targetPeriod: slot.strategy === 'period' ? slot.target : null,
    targetDefinitionId: slot.strategy === 'definition' ? slot.target : null,
    bestEffort: slot.bestEffort,
  };
}

/** round(cap x percent / 100) question_number slots on distinct numbers drawn uniformly among the free ones (in number order). */
function randomNumberSlots(
  match: SponsorableMatch,
  percent: number,
  staying: { targetNumber: number | null }[],
): Omit<NewQuestionSponsorship, 'brandId' | 'matchId' | 'createdAt'>[] {
  const count = randomSlotCount(match.questionMaxCount, percent);
  if (!count) return [];
  const taken = new Set(staying.flatMap((s) => (s.targetNumber === null ? [] : [s.targetNumber])));
  const free: number[] = [];
  for (let n = 1; n <= match.questionMaxCount; n++) if (!taken.has(n)) free.push(n);
  if (free.length < count) throw sponsorshipErrors.notEnoughNumbers(match.id, count, free.length, match.questionMaxCount);
  // Partial Fisher-Yates: the first `count` places end up a uniform draw without repetition.
  for (let i = 0; i < count; i++) {
    const j = i + randomInt(free.length - i);
    [free[i], free[j]] = [free[j]!, free[i]!];
  }
  return free
    .slice(0, count)
    .sort((a, b) => a - b)
    .map((n) => ({ strategy: 'question_number', targetNumber: n, targetPeriod: null, targetDefinitionId: null, bestEffort: true }));
}

/** The unique violation of a question number, as a 409 naming the number and the match when the driver tells them. */
function numberTaken(err: unknown): AppError {
  const detail = pgErrorDetail(err);
  const m = detail && /\(match_id, target_number\)=\(([0-9a-f-]+), (\d+)\)/i.exec(detail);
  return sponsorshipErrors.numberTaken(m ? { questionNumber: m[2]!, matchId: m[1]! } : undefined);
}
