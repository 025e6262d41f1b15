/**
 * The live engine's persistence port: listener claims and leases, recordings
 * and logs, issuances, denials and resolutions. One function per statement
 * (or per small group of statements that only make sense together), each
 * taking the connection or transaction to run on, so the listener runner
 * writes a whole batch of decisions in ONE transaction: the events it
 * consumed, what it decided on them, and its resume point, fenced by its
 * lease (`holdLease`), commit together or not at all.
 */
import { and, asc, eq, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import type { Db, DbOrTx, Tx } from '../db/client.js';
import { chunks, nowPlusMicros } from '../db/sql-helpers.js';
import type { BrandSnapshot } from '../modules/issuances/issuances.table.js';
import { questionIssuances, type QuestionIssuanceRow } from '../modules/issuances/issuances.table.js';
import { brands, type BrandRow } from '../modules/brands/brands.table.js';
import { questionDefinitions, type QuestionDefinitionRow } from '../modules/definitions/definitions.table.js';
import { questionIssuanceDenials } from '../modules/denials/denials.table.js';
import { questionGroups, type QuestionGroupRow } from '../modules/groups/groups.table.js';
import { leagues, type LeagueRow } from '../modules/leagues/leagues.table.js';
import { listenerEvents, listenerLogLines, matchListeners, type MatchListenerRow } from '../modules/listeners/listeners.table.js';
import { matches, type MatchRow } from '../modules/matches/matches.table.js';
import { questionSponsorships } from '../modules/sponsorships/sponsorships.table.js';
import type { FeedEvent } from '../domain/sports/events.js';
import { dedupeKey } from './feed/push-client.js';

/** A listener's process no longer holds its lease (another process took the listener over): it must write nothing more. */
export class LeaseLostError extends Error {
  constructor(listenerId: string) {
    super(`listener ${listenerId}: the lease is held by another process`);
    this.name = 'LeaseLostError';
  }
}

export type NewIssuance = typeof questionIssuances.$inferInsert;
export type NewDenial = typeof questionIssuanceDenials.$inferInsert;

/** What a listener runs a match with; reread while it runs (definitions, groups, overrides and the sponsor may be edited). */
export interface MatchCatalogRows {
  match: MatchRow;
  league: LeagueRow;
  definitions: QuestionDefinitionRow[];
  groups: QuestionGroupRow[];
  matchSponsor: BrandRow | null;
}

/** What the match's listeners have decided so far; read once, when a listener starts. */
export interface MatchDecisions {
  /** The match's in-game issuances. */
  issuances: QuestionIssuanceRow[];
  /** `definition_id|trigger_event_id` of every recorded denial. */
  deniedKeys: string[];
}

export interface LogLine {
  level: 'debug' | 'info' | 'warn' | 'error';
  message: string;
  at?: Date;
}

export type ProgressValues = Partial<
  Pick<MatchListenerRow, 'lastSeq' | 'eventsConsumed' | 'eventsTotal' | 'issuedCount' | 'deniedCount' | 'resolvedCount' | 'lastEventAt' | 'stateStore' | 'error'>
>;

/** In-game questions of matches in these statuses can no longer resolve. */
const STOPPED_MATCH_STATUSES = ['closed', 'cancelled', 'postponed'];

export type EngineStore = ReturnType<typeof createEngineStore>;

export function createEngineStore({
  db,
  brandSnapshot,
  settleTx,
}: {
  db: Db;
  brandSnapshot: (brand: BrandRow) => BrandSnapshot;
  /** Runs inside every settling transaction, whoever settles (scoring of the answers). */
  settleTx: (tx: Tx, row: QuestionIssuanceRow) => Promise<void>;
}) {
  /** Runs `fn` in a transaction (a savepoint inside one already open). */
  const transaction = <T>(fn: (tx: Tx) => Promise<T>, q: DbOrTx = db): Promise<T> => q.transaction(fn);

  /**
   * Moves an open issuance to resolved, voided or revoked; a row that is no
   * longer open is left alone (never re-graded). `settleTx` (scoring) runs in
   * the same transaction.
   */
  async function settleIssuance(
    {
      id,
      status,
      correct,
      resolvedSeq,
      resolutionEventId,
    }: { id: string; status: 'resolved' | 'voided' | 'revoked'; correct: string | null; resolvedSeq: number | null; resolutionEventId: string | null },
    q: DbOrTx = db,
  ): Promise<QuestionIssuanceRow | undefined> {
    return transaction(async (tx) => {
      const [row] = await tx
        .update(questionIssuances)
        .set({ status, correctAnswerIdentifier: correct, resolvedAt: sql`now()`, resolvedSeq, resolutionEventId, updatedAt: sql`now()` })
        .where(and(eq(questionIssuances.id, id), inArray(questionIssuances.status, ['open', 'locked'])))
        .returning();
      if (row) await settleTx(tx, row);
      return row;
    }, q);
  }

  /** Settles the rows an UPDATE ... RETURNING moved (scoring each in the same transaction). */
  async function scored(tx: Tx, rows: QuestionIssuanceRow[]): Promise<QuestionIssuanceRow[]> {
    for (const row of rows) await settleTx(tx, row);
    return rows;
  }

  /**
   * Settles every open in-game question of a match (their answers score void):
   * `revoked` when an operator stopped its listener, `voided` when nothing can
   * resolve them any more. Returns the rows settled, for the after-commit hooks.
   */
  async function settleOpenOfMatch(matchId: string, status: 'revoked' | 'voided', tx: Tx): Promise<QuestionIssuanceRow[]> {
    const rows = await tx
      .update(questionIssuances)
      .set({ status, correctAnswerIdentifier: null, resolvedAt: sql`now()`, updatedAt: sql`now()` })
      .where(and(eq(questionIssuances.matchId, matchId), eq(questionIssuances.kind, 'in_game'), eq(questionIssuances.status, 'open')))
      .returning();
    return scored(tx, rows);
  }

  /** Marks the queued and running listeners of a match to stop; queued ones stop at once. */
  async function requestStop(matchId: string, q: DbOrTx = db): Promise<string[]> {
    return transaction(async (tx) => {
      const active = await tx
        .select({ id: matchListeners.id, status: matchListeners.status })
        .from(matchListeners)
        .where(and(eq(matchListeners.matchId, matchId), inArray(matchListeners.status, ['queued', 'running'])))
        .for('update');
      if (!active.length) return [];
      const queued = active.filter((l) => l.status === 'queued').map((l) => l.id);
      const running = active.filter((l) => l.status === 'running').map((l) => l.id);
      if (queued.length) await tx.update(matchListeners).set({ status: 'stopped', stopRequested: true, finishedAt: sql`now()` }).where(inArray(matchListeners.id, queued));
      // A running listener stops at its next heartbeat; it can no longer be claimed meanwhile.
      if (running.length) await tx.update(matchListeners).set({ stopRequested: true }).where(inArray(matchListeners.id, running));
      return active.map((l) => l.id);
    }, q);
  }

  return {
    transaction,

    /**
     * A queued listener for the match, or the queued/running one it already
     * has (one active listener per match is settled by a partial unique index).
     */
    async enqueue(values: { matchId: string; source: 'feed' | 'replay'; feedUrl?: string | null; replayMatchId?: string | null; speed?: number | null }): Promise<{ listener: MatchListenerRow; created: boolean }> {
      const [created] = await db
        .insert(matchListeners)
        .values({ ...values, status: 'queued' })
        .onConflictDoNothing()
        .returning();
      if (created) return { listener: created, created: true };
      const [active] = await db
        .select()
        .from(matchListeners)
        .where(and(eq(matchListeners.matchId, values.matchId), inArray(matchListeners.status, ['queued', 'running'])))
        .limit(1);
      if (!active) throw new Error(`could not enqueue a listener for match ${values.matchId}`);
      return { listener: active, created: false };
    },

    /** Claims one queued listener, or a running one whose lease ran out (its process died). */
    async claim({ workerId, leaseMs }: { workerId: string; leaseMs: number }): Promise<MatchListenerRow | undefined> {
      const [listener] = await db
        .update(matchListeners)
        .set({
          status: 'running',
          claimedBy: workerId,
          heartbeatAt: sql`now()`,
          leaseExpiresAt: sql`now() + (${leaseMs} * interval '1 millisecond')`,
          startedAt: sql`coalesce(${matchListeners.startedAt}, now())`,
        })
        .where(
          eq(
            matchListeners.id,
            sql`(
              select id from ${matchListeners}
              where (status = 'queued' or (status = 'running' and lease_expires_at < now())) and not stop_requested
              order by created_at
              for update skip locked
              limit 1
            )`,
          ),
        )
        .returning();
      return listener;
    },

    /** Renews the lease; false when another process has taken the listener over (or it was removed). */
    async renew({ id, workerId, leaseMs }: { id: string; workerId: string; leaseMs: number }): Promise<{ owned: boolean; stopRequested: boolean }> {
      const [row] = await db
        .update(matchListeners)
        .set({ heartbeatAt: sql`now()`, leaseExpiresAt: sql`now() + (${leaseMs} * interval '1 millisecond')` })
        .where(and(eq(matchListeners.id, id), eq(matchListeners.claimedBy, workerId), eq(matchListeners.status, 'running')))
        .returning({ stopRequested: matchListeners.stopRequested });
      return { owned: Boolean(row), stopRequested: row?.stopRequested ?? false };
    },

    /**
     * The lease fence of a batch: the listener row, locked for the rest of the
     * transaction, must still be claimed by this worker. A process that lost
     * its lease (another took the listener over while it could not reach the
     * database) gets a LeaseLostError and its transaction writes nothing; a
     * claim by another process waits for a batch in flight.
     */
    async holdLease({ listenerId, workerId }: { listenerId: string; workerId: string }, tx: Tx): Promise<void> {
      const [owned] = await tx
        .select({ id: matchListeners.id })
        .from(matchListeners)
        .where(and(eq(matchListeners.id, listenerId), eq(matchListeners.claimedBy, workerId), eq(matchListeners.status, 'running')))
        .for('update');
      if (!owned) throw new LeaseLostError(listenerId);
    },

    /** Saves progress (the resume point, counters, state store) and renews the lease, while the lease is ours. */
    async saveProgress({ id, workerId, leaseMs, values }: { id: string; workerId: string; leaseMs?: number; values: ProgressValues }, q: DbOrTx = db): Promise<boolean> {
      const rows = await q
        .update(matchListeners)
        .set({ ...values, ...(leaseMs ? { heartbeatAt: sql`now()`, leaseExpiresAt: sql`now() + (${leaseMs} * interval '1 millisecond')` } : {}) })
        .where(and(eq(matchListeners.id, id), eq(matchListeners.claimedBy, workerId)))
        .returning({ id: matchListeners.id });
      return rows.length > 0;
    },

    /** Hands a listener back to the queue (graceful shutdown): another process picks it up at once. */
    async release({ id, workerId }: { id: string; workerId: string }, q: DbOrTx = db): Promise<void> {
      await q
        .update(matchListeners)
        .set({ status: 'queued', claimedBy: null, leaseExpiresAt: null })
        .where(and(eq(matchListeners.id, id), eq(matchListeners.claimedBy, workerId), eq(matchListeners.status, 'running')));
    },

    async finish({ id, workerId, status, error }: { id: string; workerId: string | null; status: 'completed' | 'stopped' | 'failed'; error?: string | null }, q: DbOrTx = db): Promise<void> {
      await q
        .update(matchListeners)
        .set({ status, error: error ?? null, finishedAt: sql`now()`, leaseExpiresAt: null })
        .where(and(eq(matchListeners.id, id), workerId ? eq(matchListeners.claimedBy, workerId) : undefined, inArray(matchListeners.status, ['queued', 'running'])));
    },

    /** Records consumed feed messages, one row per message (its content key: a redelivery is not recorded twice). */
    async recordEvents({ listenerId, matchId, events }: { listenerId: string; matchId: string; events: FeedEvent[] }, q: DbOrTx = db): Promise<void> {
      for (const chunk of chunks(events)) {
        await q
          .insert(listenerEvents)
          .values(
            chunk.map((e) => ({ listenerId, matchId, seq: e.seq, providerEventId: e.provider_event_id, operation: e.operation, eventKey: dedupeKey(e), event: e as unknown as Record<string, unknown> })),
          )
          .onConflictDoNothing();
      }
    },

    /** What a listener consumed, in arrival order (a takeover rebuilds its event store from it). */
    async listenerRecording(listenerId: string, q: DbOrTx = db): Promise<FeedEvent[]> {
      const rows = await q.select({ event: listenerEvents.event }).from(listenerEvents).where(eq(listenerEvents.listenerId, listenerId)).orderBy(asc(listenerEvents.id));
      return rows.map((r) => r.event as unknown as FeedEvent);
    },

    /** Every message recorded for a match (all its listeners), in arrival order, each message once (by content, not seq). */
    async matchRecording(matchId: string, q: DbOrTx = db): Promise<FeedEvent[]> {
      const rows = await q
        .select({ key: listenerEvents.eventKey, event: listenerEvents.event })
        .from(listenerEvents)
        .where(eq(listenerEvents.matchId, matchId))
        .orderBy(asc(listenerEvents.id));
      const seen = new Set<string>();
      const out: FeedEvent[] = [];
      for (const r of rows) {
        // Keys of rows recorded before keys existed differ in form: the event's own key decides.
        const key = dedupeKey(r.event as unknown as FeedEvent);
        if (seen.has(key)) continue;
        seen.add(key);
        out.push(r.event as unknown as FeedEvent);
      }
      return out;
    },

    async nextLogLine(listenerId: string): Promise<number> {
      const [row] = await db
        .select({ n: sql<number>`coalesce(max(${listenerLogLines.lineNo}), 0)::int` })
        .from(listenerLogLines)
        .where(eq(listenerLogLines.listenerId, listenerId));
      return (row?.n ?? 0) + 1;
    },

    async writeLog({ listenerId, firstLineNo, lines }: { listenerId: string; firstLineNo: number; lines: LogLine[] }, q: DbOrTx = db): Promise<void> {
      let n = firstLineNo;
      for (const chunk of chunks(lines)) {
        await q
          .insert(listenerLogLines)
          .values(chunk.map((l) => ({ listenerId, lineNo: n++, level: l.level, message: l.message.slice(0, 4000), at: l.at ?? new Date() })))
          .onConflictDoNothing();
      }
    },

    /** The catalog a listener runs a match with, in three queries. */
    async matchCatalog(matchId: string): Promise<MatchCatalogRows | undefined> {
      const [row] = await db
        .select({ match: matches, league: leagues, matchSponsor: brands })
        .from(matches)
        .innerJoin(leagues, eq(leagues.id, matches.leagueId))
        .leftJoin(brands, eq(brands.id, matches.sponsorBrandId))
        .where(eq(matches.id, matchId));
      if (!row) return undefined;
      const definitions = await db
        .select()
        .from(questionDefinitions)
        .where(and(eq(questionDefinitions.leagueId, row.league.id), eq(questionDefinitions.isArchived, false)))
        .orderBy(asc(questionDefinitions.createdAt), asc(questionDefinitions.id));
      const groups = await db.select().from(questionGroups).where(eq(questionGroups.leagueId, row.league.id));
      return { ...row, definitions, groups };
    },

    /** The decisions already taken on a match (a listener taking over or replaying repeats none). */
    async matchDecisions(matchId: string): Promise<MatchDecisions> {
      const issuances = await db.select().from(questionIssuances).where(and(eq(questionIssuances.matchId, matchId), eq(questionIssuances.kind, 'in_game')));
      const denied = await db
        .select({ definitionId: questionIssuanceDenials.definitionId, triggerEventId: questionIssuanceDenials.triggerEventId })
        .from(questionIssuanceDenials)
        .where(eq(questionIssuanceDenials.matchId, matchId));
      return { issuances, deniedKeys: denied.map((d) => `${d.definitionId}|${d.triggerEventId}`) };
    },

    /**
     * Inserts an issuance, stamping the best free sponsorship slot of the
     * match on it. Returns undefined when this trigger already issued (a feed
     * read again by a later listener of the match).
     */
    async insertIssuance({ values, earlierPeriods }: { values: NewIssuance; earlierPeriods: string[] }, tx: Tx): Promise<QuestionIssuanceRow | undefined> {
      const slot = await pickSlot(tx, {
        matchId: values.matchId,
        questionNumber: values.questionNumber ?? null,
        definitionId: values.definitionId ?? null,
        period: values.period ?? null,
        earlierPeriods,
        pivotal: Boolean(values.isPivotalMoment),
      });
      let sponsor: BrandSnapshot | null = null;
      if (slot) {
        const [brand] = await tx.select().from(brands).where(eq(brands.id, slot.brandId));
        if (brand) sponsor = brandSnapshot(brand);
      }
      // Only the trigger's own index means "already issued"; any other clash (a question number) is an error, never a silent skip.
      const [row] = await tx
        .insert(questionIssuances)
        .values({ ...values, sponsorBrandId: sponsor?.id ?? null, sponsorBrand: sponsor })
        .onConflictDoNothing({ target: [questionIssuances.matchId, questionIssuances.definitionId, questionIssuances.triggerEventId] })
        .returning();
      if (!row) return undefined;
      if (slot) await tx.update(questionSponsorships).set({ questionIssuanceId: row.id, stampedAt: sql`now()` }).where(eq(questionSponsorships.id, slot.id));
      return row;
    },

    /** Settles an in-game question found by its trigger (match, definition, triggering event); scoring in the same transaction. */
    async settleByTrigger(
      k: { matchId: string; definitionId: string; triggerEventId: string; status: 'resolved' | 'voided'; correct: string | null; resolvedSeq: number; resolutionEventId: string },
      tx: Tx,
    ): Promise<QuestionIssuanceRow | undefined> {
      const rows = await tx
        .update(questionIssuances)
        .set({ status: k.status, correctAnswerIdentifier: k.correct, resolvedAt: sql`now()`, resolvedSeq: k.resolvedSeq, resolutionEventId: k.resolutionEventId, updatedAt: sql`now()` })
        .where(
          and(
            eq(questionIssuances.matchId, k.matchId),
            eq(questionIssuances.definitionId, k.definitionId),
            eq(questionIssuances.triggerEventId, k.triggerEventId),
            inArray(questionIssuances.status, ['open', 'locked']),
          ),
        )
        .returning();
      return (await scored(tx, rows))[0];
    },

    /**
     * Records blocked attempts (each once per match, definition and triggering
     * event), a thousand per statement, listed in the order decided.
     */
    async insertDenials(values: NewDenial[], q: DbOrTx = db): Promise<void> {
      let position = 0;
      for (const chunk of chunks(values)) {
        await q
          .insert(questionIssuanceDenials)
          .values(chunk.map((v) => ({ ...v, createdAt: nowPlusMicros(position++) })))
          .onConflictDoNothing();
      }
    },

    settleIssuance,
    settleOpenOfMatch,

    async updateMatch(matchId: string, values: Partial<typeof matches.$inferInsert>, q: DbOrTx = db): Promise<void> {
      await q
        .update(matches)
        .set({ ...values, updatedAt: sql`now()` })
        .where(eq(matches.id, matchId));
    },

    /** Live matches with a feed that should have a listener and have none (auto-dispatch). */
    async matchesToDispatch({ horizonMinutes, anyFeed }: { horizonMinutes: number; anyFeed: boolean }): Promise<MatchRow[]> {
      return db
        .select()
        .from(matches)
        .where(
          and(
            eq(matches.autoDispatchListener, true),
            eq(matches.isTest, false),
            anyFeed ? undefined : sql`${matches.feedUrl} is not null`,
            inArray(matches.status, ['scheduled', 'live', 'break']),
            lte(matches.scheduled, sql`now() + (${horizonMinutes} * interval '1 minute')`),
            sql`${matches.scheduled} > now() - interval '12 hours'`,
            // Not while one is active, not after one completed or an operator stopped one; a failed one is retried after a minute.
            sql`not exists (select 1 from ${matchListeners} l where l.match_id = ${matches.id} and (l.status in ('queued', 'running', 'completed', 'stopped') or (l.status = 'failed' and l.finished_at > now() - interval '1 minute')))`,
          ),
        )
        .limit(50);
    },

    requestStop,

    /**
     * The match stops being played here (an operator's stop, a demo match
     * retired): its listeners stop and its open in-game questions are settled
     * (`revoked` by an operator, `voided` otherwise), in one transaction.
     * Returns the stopped listeners and the settled rows (for the hooks).
     */
    async stopMatch(matchId: string, status: 'revoked' | 'voided'): Promise<{ stopped: string[]; settled: QuestionIssuanceRow[] }> {
      return transaction(async (tx) => ({ stopped: await requestStop(matchId, tx), settled: await settleOpenOfMatch(matchId, status, tx) }));
    },

    /** Settles the match's open in-game questions (see settleOpenOfMatch), in a transaction of its own. */
    async revokeOpenIssuances(matchId: string, status: 'revoked' | 'voided' = 'revoked'): Promise<QuestionIssuanceRow[]> {
      return transaction((tx) => settleOpenOfMatch(matchId, status, tx));
    },

    /**
     * The safety net: voids open in-game questions that nothing can resolve
     * any more, those of matches closed, cancelled or postponed, or with no
     * queued or running listener (a listener whose process died is still
     * running until another takes it over: its questions wait for it).
     */
    async voidOrphaned(): Promise<QuestionIssuanceRow[]> {
      return transaction(async (tx) => {
        const rows = await tx
          .update(questionIssuances)
          .set({ status: 'voided', correctAnswerIdentifier: null, resolvedAt: sql`now()`, updatedAt: sql`now()` })
          .where(
            and(
              eq(questionIssuances.kind, 'in_game'),
              eq(questionIssuances.status, 'open'),
              sql`exists (
                select 1 from ${matches} m where m.id = ${questionIssuances.matchId} and (
                  m.status in (${sql.join(
                    STOPPED_MATCH_STATUSES.map((s) => sql`${s}`),
                    sql`, `,
                  )})
                  or not exists (select 1 from ${matchListeners} l where l.match_id = m.id and l.status in ('queued', 'running'))
                ))`,
            ),
          )
          .returning();
        return scored(tx, rows);
      });
    },

    /**
     * Running listeners whose stop was requested but whose process is gone
     * (lease ran out): stopped here. Returns their matches, whose open
     * questions the caller revokes (nobody else will).
     */
    async reapStopped(): Promise<string[]> {
      const rows = await db
        .update(matchListeners)
        .set({ status: 'stopped', finishedAt: sql`now()` })
        .where(and(eq(matchListeners.status, 'running'), eq(matchListeners.stopRequested, true), or(isNull(matchListeners.leaseExpiresAt), sql`${matchListeners.leaseExpiresAt} < now()`)))
        .returning({ matchId: matchListeners.matchId });
      return rows.map((r) => r.matchId);
    },
  };
}

/**
 * The slot a new issuance takes: the slot for its question number, else one
 * targeting its definition, else one for its period, else a best-effort
 * period slot left from an earlier period, else a next-available slot.
 * Pivotal moments take only slots targeting their definition.
 */
async function pickSlot(
  tx: DbOrTx,
  q: { matchId: string; questionNumber: number | null; definitionId: string | null; period: string | null; earlierPeriods: string[]; pivotal: boolean },
): Promise<{ id: string; brandId: string } | undefined> {
  const s = questionSponsorships;
  const number = q.pivotal ? null : q.questionNumber;
  const earlier = q.pivotal || !q.earlierPeriods.length ? sql`false` : sql`(${s.strategy} = 'period' and ${s.bestEffort} and ${inArray(s.targetPeriod, q.earlierPeriods)})`;
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
