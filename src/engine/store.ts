/**
 * The live engine's persistence port: listener claims and leases, recordings
 * and logs, issuances, denials and resolutions, each a statement of the
 * module that owns its table (listeners, issuances, sponsorships, denials,
 * matches: one writer per table). This store only composes them, each taking
 * the connection or transaction to run on, so the listener runner writes a
 * whole batch of decisions in ONE transaction: the events it consumed, what
 * it decided on them, and its resume point, fenced by its lease
 * (`holdLease`), commit together or not at all.
 */
import type { Db, DbOrTx, Tx } from '../db/client.js';
import type { FeedEvent } from '../domain/sports/events.js';
import { findBrand } from '../modules/brands/brands.public.js';
import type { BrandRow } from '../modules/brands/brands.table.js';
import { activeInGameDefinitionsOfLeague } from '../modules/definitions/definitions.public.js';
import type { QuestionDefinitionRow } from '../modules/definitions/definitions.table.js';
import { deniedOfMatch, insertDenials, type NewDenial } from '../modules/denials/denials.public.js';
import { listGroups } from '../modules/groups/groups.public.js';
import type { QuestionGroupRow } from '../modules/groups/groups.table.js';
import * as issuanceSql from '../modules/issuances/issuances.public.js';
import type { NewIssuance, SettlingEvents } from '../modules/issuances/issuances.public.js';
import type { BrandSnapshot, QuestionIssuanceRow } from '../modules/issuances/issuances.table.js';
import type { LeagueRow } from '../modules/leagues/leagues.table.js';
import * as listenerSql from '../modules/listeners/listeners.public.js';
import type { EnqueueValues, LogLine, ProgressValues } from '../modules/listeners/listeners.public.js';
import type { MatchListenerRow } from '../modules/listeners/listeners.table.js';
import { matchWithLeagueAndSponsor, updateMatchRow } from '../modules/matches/matches.public.js';
import type { matches, MatchRow } from '../modules/matches/matches.table.js';
import { pickSlot, stampSlot } from '../modules/sponsorships/sponsorships.public.js';

export { LeaseLostError } from '../modules/listeners/listeners.public.js';
export type { LogLine, NewDenial, NewIssuance, ProgressValues };

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

export type EngineStore = ReturnType<typeof createEngineStore>;

export function createEngineStore({
  db,
  brandSnapshot,
  events,
}: {
  db: Db;
  brandSnapshot: (brand: BrandRow) => BrandSnapshot;
  /** Every settling transaction emits `settling` through it, whoever settles (the scoring of the answers). */
  events: SettlingEvents;
}) {
  /** Runs `fn` in a transaction (a savepoint inside one already open). */
  const transaction = <T>(fn: (tx: Tx) => Promise<T>, q: DbOrTx = db): Promise<T> => q.transaction(fn);

  /** Moves an open issuance to resolved, voided or revoked (see issuances.repository), with its scoring, in a transaction. */
  const settleIssuance = (
    k: { id: string; status: 'resolved' | 'voided' | 'revoked'; correct: string | null; resolvedSeq: number | null; resolutionEventId: string | null },
    q: DbOrTx = db,
  ): Promise<QuestionIssuanceRow | undefined> => transaction((tx) => issuanceSql.settleIssuance({ tx, events, ...k }), q);

  const settleOpenOfMatch = (matchId: string, status: 'revoked' | 'voided', tx: Tx): Promise<QuestionIssuanceRow[]> =>
    issuanceSql.settleOpenOfMatch({ tx, events, matchId, status });

  const requestStop = (matchId: string, q: DbOrTx = db): Promise<string[]> => transaction((tx) => listenerSql.requestStop({ tx, matchId }), q);

  return {
    transaction,

    /** A queued listener for the match, or the queued/running one it already has. */
    enqueue: (values: EnqueueValues) => listenerSql.enqueueListener({ db, values }),

    /**
     * Claims one queued listener, or a running one whose lease ran out (its process died), with its log line
     * ("claimed by ..., taking over after N events") in the same transaction: a process killed right after a claim
     * still leaves the record of it.
     */
    claim: ({ workerId, leaseMs }: { workerId: string; leaseMs: number }): Promise<MatchListenerRow | undefined> =>
      transaction(async (tx) => {
        const l = await listenerSql.claimListener({ db: tx, workerId, leaseMs });
        if (!l) return undefined;
        const message = `claimed by ${workerId}${l.eventsConsumed ? ` (taking over after ${l.eventsConsumed} events, seq ${l.lastSeq})` : ''}`;
        const firstLineNo = await listenerSql.nextLogLine({ db: tx, listenerId: l.id });
        await listenerSql.writeLog({ db: tx, listenerId: l.id, firstLineNo, lines: [{ level: 'info', message }] });
        return l;
      }),

    /** Renews the lease; false when another process has taken the listener over (or it was removed). */
    renew: (k: { id: string; workerId: string; leaseMs: number }) => listenerSql.renewLease({ db, ...k }),

    /** The lease fence of a batch (see listeners.repository `holdLease`). */
    holdLease: ({ listenerId, workerId }: { listenerId: string; workerId: string }, tx: Tx): Promise<void> =>
      listenerSql.holdLease({ tx, listenerId, workerId }),

    /** Saves progress (the resume point, counters, state store) and renews the lease, while the lease is ours. */
    saveProgress: (k: { id: string; workerId: string; leaseMs?: number; values: ProgressValues }, q: DbOrTx = db): Promise<boolean> =>
      listenerSql.saveListenerProgress({ db: q, ...k }),

    /** Hands a listener back to the queue (graceful shutdown): another process picks it up at once. */
    release: (k: { id: string; workerId: string }, q: DbOrTx = db): Promise<void> => listenerSql.releaseListener({ db: q, ...k }),

    finish: (k: { id: string; workerId: string | null; status: 'completed' | 'stopped' | 'failed'; error?: string | null }, q: DbOrTx = db): Promise<void> =>
      listenerSql.finishListener({ db: q, ...k }),

    /** Records consumed feed messages, one row per message (a redelivery is not recorded twice). */
    recordEvents: (k: { listenerId: string; matchId: string; events: FeedEvent[] }, q: DbOrTx = db): Promise<void> => listenerSql.recordEvents({ db: q, ...k }),

    /** What a listener consumed, in arrival order (a takeover rebuilds its event store from it). */
    listenerRecording: (listenerId: string, q: DbOrTx = db): Promise<FeedEvent[]> => listenerSql.listenerRecording({ db: q, listenerId }),

    /** Every message recorded for a match (all its listeners), in arrival order, each message once. */
    matchRecording: (matchId: string, q: DbOrTx = db): Promise<FeedEvent[]> => listenerSql.matchRecording({ db: q, matchId }),

    nextLogLine: (listenerId: string): Promise<number> => listenerSql.nextLogLine({ db, listenerId }),

    writeLog: (k: { listenerId: string; firstLineNo: number; lines: LogLine[] }, q: DbOrTx = db): Promise<void> => listenerSql.writeLog({ db: q, ...k }),

    /** The catalog a listener runs a match with, in three queries. */
    async matchCatalog(matchId: string): Promise<MatchCatalogRows | undefined> {
      const row = await matchWithLeagueAndSponsor({ db, id: matchId });
      if (!row) return undefined;
      const definitions = await activeInGameDefinitionsOfLeague({ db, leagueId: row.league.id });
      const groups = await listGroups({ db, leagueId: row.league.id });
      return { ...row, definitions, groups };
    },

    /** The decisions already taken on a match (a listener taking over or replaying repeats none). */
    async matchDecisions(matchId: string): Promise<MatchDecisions> {
      const issuances = await issuanceSql.inGameIssuancesOfMatch({ db, matchId });
      const denied = await deniedOfMatch({ db, matchId });
      return { issuances, deniedKeys: denied.map((d) => `${d.definitionId}|${d.triggerEventId}`) };
    },

    /**
     * Inserts an issuance, stamping the best free sponsorship slot of the
     * match on it. Returns undefined when this trigger already issued (a feed
     * read again by a later listener of the match).
     */
    async insertIssuance({ values, earlierPeriods }: { values: NewIssuance; earlierPeriods: string[] }, tx: Tx): Promise<QuestionIssuanceRow | undefined> {
      const slot = await pickSlot({
        tx,
        matchId: values.matchId,
        questionNumber: values.questionNumber ?? null,
        definitionId: values.definitionId ?? null,
        period: values.period ?? null,
        earlierPeriods,
        pivotal: Boolean(values.isPivotalMoment),
      });
      let sponsor: BrandSnapshot | null = null;
      if (slot) {
        const brand = await findBrand({ db: tx, id: slot.brandId });
        if (brand) sponsor = brandSnapshot(brand);
      }
      const row = await issuanceSql.insertInGameIssuance({ tx, values: { ...values, sponsorBrandId: sponsor?.id ?? null, sponsorBrand: sponsor } });
      if (row && slot) await stampSlot({ tx, slotId: slot.id, issuanceId: row.id });
      return row;
    },

    /** Settles an in-game question found by its trigger (match, definition, triggering event); scoring in the same transaction. */
    settleByTrigger: (
      k: {
        matchId: string;
        definitionId: string;
        triggerEventId: string;
        status: 'resolved' | 'voided';
        correct: string | null;
        resolvedSeq: number;
        resolutionEventId: string;
      },
      tx: Tx,
    ): Promise<QuestionIssuanceRow | undefined> => issuanceSql.settleByTrigger({ tx, events, ...k }),

    /** Records blocked attempts (each once per match, definition and triggering event), in the order decided. */
    insertDenials: (values: NewDenial[], q: DbOrTx = db): Promise<void> => insertDenials({ db: q, values }),

    settleIssuance,
    settleOpenOfMatch,

    updateMatch: (matchId: string, values: Partial<typeof matches.$inferInsert>, q: DbOrTx = db): Promise<void> =>
      updateMatchRow({ db: q, id: matchId, values }),

    /** Live matches with a feed that should have a listener and have none (auto-dispatch). */
    matchesToDispatch: ({ horizonMinutes, anyFeed }: { horizonMinutes: number; anyFeed: boolean }): Promise<MatchRow[]> =>
      listenerSql.matchesToDispatch({ db, horizonMinutes, anyFeed }),

    requestStop,

    /** Settles the match's open in-game questions (see settleOpenOfMatch), in a transaction of its own. */
    revokeOpenIssuances: (matchId: string, status: 'revoked' | 'voided' = 'revoked'): Promise<QuestionIssuanceRow[]> =>
      transaction((tx) => settleOpenOfMatch(matchId, status, tx)),

    /** The safety net: voids open in-game questions that nothing can resolve any more (see issuances.repository). */
    voidOrphaned: (): Promise<QuestionIssuanceRow[]> => transaction((tx) => issuanceSql.voidOrphaned({ tx, events })),

    /** Running listeners whose stop was requested but whose process is gone: stopped here. Returns their matches. */
    reapStopped: (): Promise<string[]> => listenerSql.reapStopped({ db }),
  };
}
