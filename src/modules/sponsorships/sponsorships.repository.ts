import { and, asc, eq, getTableColumns, inArray, isNull, or, sql } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../../db/client.js';
import { chunks, nowPlusMicros } from '../../db/sql-helpers.js';
import { brands } from '../brands/brands.table.js';
import { questionDefinitions } from '../definitions/definitions.table.js';
import { leagues } from '../leagues/leagues.table.js';
import { matches } from '../matches/matches.table.js';
import { questionSponsorships, type QuestionSponsorshipRow, type SponsorBrand } from './sponsorships.table.js';

export type NewQuestionSponsorship = typeof questionSponsorships.$inferInsert;

/** The columns of a `SponsorBrand`, for selects that show a brand beside other rows. */
export const sponsorBrandColumns = {
  id: brands.id,
  name: brands.name,
  primaryColor: brands.primaryColor,
  secondaryColor: brands.secondaryColor,
  logoKey: brands.logoKey,
};

/** Listing order: match, question number (numbered slots first), creation, id. */
const slotOrder = [
  asc(questionSponsorships.matchId),
  asc(questionSponsorships.targetNumber),
  asc(questionSponsorships.createdAt),
  asc(questionSponsorships.id),
];

/**
 * A brand and its slots, in one query (the brand left-joined to its slots, so
 * a brand without slots still comes back). `matchIds` undefined: every slot;
 * an empty list: none. Undefined result: no such brand.
 */
export async function listBrandSlots({
  db,
  brandId,
  matchIds,
  page,
}: {
  db: DbOrTx;
  brandId: string;
  matchIds?: readonly string[] | undefined;
  /** A page of the slots (the assignment's own read takes them all). */
  page?: { limit: number; offset: number };
}): Promise<{ brand: SponsorBrand; slots: QuestionSponsorshipRow[] } | undefined> {
  const matchFilter = matchIds === undefined ? undefined : matchIds.length ? inArray(questionSponsorships.matchId, [...matchIds]) : sql`false`;
  const query = db
    .select({ brand: sponsorBrandColumns, slot: getTableColumns(questionSponsorships) })
    .from(brands)
    .leftJoin(questionSponsorships, and(eq(questionSponsorships.brandId, brands.id), matchFilter))
    .where(eq(brands.id, brandId))
    .orderBy(...slotOrder);
  const rows = page ? await query.limit(page.limit).offset(page.offset) : await query;
  if (!rows.length) {
    // Past the last page there is no row at all: whether the brand exists decides between [] and 404.
    if (!page?.offset) return undefined;
    const [brand] = await db.select(sponsorBrandColumns).from(brands).where(eq(brands.id, brandId));
    return brand ? { brand, slots: [] } : undefined;
  }
  return { brand: rows[0]!.brand, slots: rows.flatMap((r) => (r.slot ? [r.slot] : [])) };
}

/**
 * The brand, locked FOR KEY SHARE until the transaction ends: a concurrent
 * delete of the brand waits (its slots cascade only after we commit), while
 * edits of its name or colors go on.
 */
export async function lockBrand({ tx, id }: { tx: Tx; id: string }): Promise<{ id: string } | undefined> {
  const [row] = await tx.select({ id: brands.id }).from(brands).where(eq(brands.id, id)).for('key share');
  return row;
}

export interface SponsorableMatch {
  id: string;
  status: string;
  leagueId: string;
  sport: string;
  /** The match's question_max_count override, or its league's default. */
  questionMaxCount: number;
}

/**
 * The matches, locked FOR UPDATE in id order (so two transactions locking
 * overlapping sets cannot deadlock). Every writer of a match's slots takes
 * this lock first, which serializes the count-then-insert of the capacity rule.
 * Their leagues are locked FOR SHARE before, so a league update lowering the
 * default cap waits for these slots and then counts them (and the cap read
 * here is the one in force until this transaction commits).
 */
export async function lockMatches({ tx, ids }: { tx: Tx; ids: readonly string[] }): Promise<SponsorableMatch[]> {
  await tx
    .select({ id: leagues.id })
    .from(leagues)
    .where(
      inArray(
        leagues.id,
        tx
          .select({ leagueId: matches.leagueId })
          .from(matches)
          .where(inArray(matches.id, [...ids])),
      ),
    )
    .orderBy(asc(leagues.id))
    .for('share');
  return tx
    .select({
      id: matches.id,
      status: matches.status,
      leagueId: matches.leagueId,
      sport: leagues.sport,
      questionMaxCount: sql<number>`coalesce(${matches.questionMaxCount}, ${leagues.defaultQuestionMaxCount})`.mapWith(Number),
    })
    .from(matches)
    .innerJoin(leagues, eq(leagues.id, matches.leagueId))
    .where(inArray(matches.id, [...ids]))
    .orderBy(asc(matches.id))
    .for('update', { of: matches });
}

/** In-game definitions by id, locked FOR KEY SHARE so none is deleted before the slots pointing at it are committed. */
export async function lockDefinitions({ tx, ids }: { tx: Tx; ids: readonly string[] }): Promise<{ id: string; leagueId: string; isArchived: boolean }[]> {
  if (!ids.length) return [];
  return tx
    .select({ id: questionDefinitions.id, leagueId: questionDefinitions.leagueId, isArchived: questionDefinitions.isArchived })
    .from(questionDefinitions)
    .where(inArray(questionDefinitions.id, [...ids]))
    .for('key share');
}

/** Every slot (of any brand) on the matches: who holds it and which number it targets. */
export async function slotsOnMatches({
  tx,
  matchIds,
}: {
  tx: Tx;
  matchIds: readonly string[];
}): Promise<{ matchId: string; brandId: string; targetNumber: number | null }[]> {
  return tx
    .select({ matchId: questionSponsorships.matchId, brandId: questionSponsorships.brandId, targetNumber: questionSponsorships.targetNumber })
    .from(questionSponsorships)
    .where(inArray(questionSponsorships.matchId, [...matchIds]));
}

/** Removes the brand's slots on the matches; returns the match id of each removed slot. */
export async function deleteBrandSlots({ tx, brandId, matchIds }: { tx: Tx; brandId: string; matchIds: readonly string[] }): Promise<string[]> {
  const rows = await tx
    .delete(questionSponsorships)
    .where(and(eq(questionSponsorships.brandId, brandId), inArray(questionSponsorships.matchId, [...matchIds])))
    .returning({ matchId: questionSponsorships.matchId });
  return rows.map((r) => r.matchId);
}

/**
 * Inserts the slots, a thousand per statement (an assignment over 200 matches
 * with high caps places tens of thousands), listed in the order given.
 */
export async function insertSlots({ tx, values }: { tx: Tx; values: Omit<NewQuestionSponsorship, 'createdAt'>[] }): Promise<void> {
  let position = 0;
  for (const chunk of chunks(values)) await tx.insert(questionSponsorships).values(chunk.map((v) => ({ ...v, createdAt: nowPlusMicros(position++) })));
}

/**
 * The slot a new issuance takes: the slot for its question number, else one
 * targeting its definition, else one for its period, else a best-effort
 * period slot left from an earlier period, else a next-available slot.
 * Pivotal moments take only slots targeting their definition.
 */
export async function pickSlot({
  tx,
  ...q
}: {
  tx: Tx;
  matchId: string;
  questionNumber: number | null;
  definitionId: string | null;
  period: string | null;
  earlierPeriods: string[];
  pivotal: boolean;
}): Promise<{ id: string; brandId: string } | undefined> {
  const s = questionSponsorships;
  const number = q.pivotal ? null : q.questionNumber;
  const earlier =
    q.pivotal || !q.earlierPeriods.length ? sql`false` : sql`(${s.strategy} = 'period' and ${s.bestEffort} and ${inArray(s.targetPeriod, q.earlierPeriods)})`;
  const candidates = or(
    number !== null ? eq(s.targetNumber, number) : undefined,
    q.definitionId ? eq(s.targetDefinitionId, q.definitionId) : undefined,
    !q.pivotal && q.period ? and(eq(s.strategy, 'period'), eq(s.targetPeriod, q.period)) : undefined,
    earlier,
    q.pivotal ? undefined : eq(s.strategy, 'next_available'),
  );
  const [slot] = await tx
    .select({ id: s.id, brandId: s.brandId })
    .from(s)
    .where(and(eq(s.matchId, q.matchId), isNull(s.questionIssuanceId), candidates))
    .orderBy(
      sql`case
        when ${number !== null ? sql`${s.targetNumber} = ${number}` : sql`false`} then 0
        when ${q.definitionId ? sql`${s.targetDefinitionId} = ${q.definitionId}` : sql`false`} then 1
        when ${q.period ? sql`${s.strategy} = 'period' and ${s.targetPeriod} = ${q.period}` : sql`false`} then 2
        when ${s.strategy} = 'period' then 3
        else 4 end`,
      asc(s.createdAt),
    )
    .limit(1)
    .for('update', { skipLocked: true });
  return slot;
}

/** Stamps the slot with the issuance that took it (in the issuing transaction). */
export async function stampSlot({ tx, slotId, issuanceId }: { tx: Tx; slotId: string; issuanceId: string }): Promise<void> {
  await tx
    .update(questionSponsorships)
    .set({ questionIssuanceId: issuanceId, stampedAt: sql`now()` })
    .where(eq(questionSponsorships.id, slotId));
}

/** Copies a match's slots (strategy, target, brand, creation time) onto another match, unstamped: one statement. */
export async function copySlots({ tx, fromMatchId, toMatchId }: { tx: Tx; fromMatchId: string; toMatchId: string }): Promise<void> {
  await tx.execute(sql`
    insert into ${questionSponsorships} (brand_id, match_id, strategy, target_number, target_period, target_definition_id, best_effort, created_at)
    select brand_id, ${toMatchId}, strategy, target_number, target_period, target_definition_id, best_effort, created_at
    from ${questionSponsorships} where match_id = ${fromMatchId}`);
}

/** Frees every slot of the match again (unstamped: the next questions take them). */
export async function unstampSlotsOfMatch({ tx, matchId }: { tx: Tx; matchId: string }): Promise<void> {
  await tx.update(questionSponsorships).set({ questionIssuanceId: null, stampedAt: null }).where(eq(questionSponsorships.matchId, matchId));
}
