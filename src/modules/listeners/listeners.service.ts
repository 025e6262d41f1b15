/**
 * Match listeners: operators' view (listeners grouped by match, their text
 * logs and their event recordings) and control (enqueueing a listener,
 * stopping a match's listeners with its open questions). The live engine
 * claims, leases and records through the same repository.
 */
import type { components } from '../../../generated/api-types.js';
import type { Db } from '../../db/client.js';
import { listenerErrors } from './listeners.errors.js';
import { settleOpenOfMatch } from '../issuances/issuances.public.js';
import type { Events } from '../../events/catalogue.js';
import { endTestMatchPlay } from '../matches/matches.public.js';
import type { QuestionIssuanceRow } from '../issuances/issuances.table.js';
import type { LeaguesService } from '../leagues/leagues.service.js';
import { MATCH_LIST_LIMIT } from '../matches/matches.service.js';
import { parseTimeRange, utcDay } from '../shared/time-range.js';
import { toFeedEvent, toListenerLogLine, toLogFileLine, toMatchListenerDto, toMatchRef } from './listeners.mapper.js';
import {
  allLogLines,
  enqueueListener,
  eventsOfListener,
  findListener,
  listenersOfMatches,
  logLinesAfter,
  matchesScheduledIn,
  requestStop,
  type EnqueueValues,
} from './listeners.repository.js';
import type { MatchListenerRow } from './listeners.table.js';

type Schemas = components['schemas'];

export type ListenersService = ReturnType<typeof createListenersService>;

export function createListenersService({
  db,
  leagues,
  events,
  now = () => new Date(),
}: {
  db: Db;
  leagues: Pick<LeaguesService, 'bySlug'>;
  /** Settling emits `settling` in the transaction and `settled` after its commit (src/events/catalogue.ts). */
  events: Events;
  now?: () => Date;
}) {
  async function listener(id: string): Promise<MatchListenerRow> {
    const row = await findListener({ db, id });
    if (!row) throw listenerErrors.notFound();
    return row;
  }

  return {
    /** A queued listener for the match, or the queued/running one it already has. */
    enqueue: (values: EnqueueValues) => enqueueListener({ db, values }),

    /**
     * The match stops being played here (an operator's stop, a demo match
     * retired): its listeners stop (a queued one at once, a running one at
     * its next heartbeat) and its open in-game questions are settled
     * (`revoked` by an operator, `voided` otherwise), in one transaction;
     * then `settled` is emitted for each question settled. With `endTestMatch`
     * (an operator's stop), a test match in play ends there too (play over,
     * no result: nothing else would ever end it; starting its listener again
     * replays it). Idempotent.
     */
    async stopMatch(
      matchId: string,
      status: 'revoked' | 'voided',
      { endTestMatch = false }: { endTestMatch?: boolean } = {},
    ): Promise<{ stopped: string[]; settled: QuestionIssuanceRow[]; ended: boolean }> {
      const result = await db.transaction(async (tx) => ({
        stopped: await requestStop({ tx, matchId }),
        settled: await settleOpenOfMatch({ tx, events, matchId, status }),
        ended: endTestMatch ? await endTestMatchPlay({ tx, id: matchId }) : false,
      }));
      for (const row of result.settled) await events.emit({ type: 'settled', row });
      if (result.ended) await events.emit({ type: 'matchChanged', matchId, values: { status: 'ended' } });
      return result;
    },

    /**
     * A league's matches with kick-off in [from, to) (both or neither; the
     * current UTC day by default), the first 1,000 by kick-off (as the match
     * list), each with its listeners newest first: two queries after the league's.
     */
    async grouped({
      league,
      scheduledFrom,
      scheduledTo,
    }: {
      league: string;
      scheduledFrom?: string | undefined;
      scheduledTo?: string | undefined;
    }): Promise<Schemas['MatchListenerGroup'][]> {
      const leagueRow = await leagues.bySlug(league);
      const range = parseTimeRange({ name: 'scheduled', from: scheduledFrom, to: scheduledTo, error: listenerErrors.invalidRange }) ?? utcDay(now());
      const matchRows = await matchesScheduledIn({ db, leagueId: leagueRow.id, ...range, limit: MATCH_LIST_LIMIT });
      const byMatch = new Map<string, Schemas['MatchListener'][]>(matchRows.map((m) => [m.id, []]));
      for (const row of await listenersOfMatches({ db, matchIds: matchRows.map((m) => m.id) })) byMatch.get(row.matchId)!.push(toMatchListenerDto(row));
      return matchRows.map((m) => ({ match: toMatchRef(m, leagueRow.slug), listeners: byMatch.get(m.id)! }));
    },

    /** Log lines after `after`, oldest first; `last_line_no` is the last one returned, or `after` when none is. */
    async log({ listenerId, after, limit }: { listenerId: string; after: number; limit: number }): Promise<Schemas['ListenerLog']> {
      await listener(listenerId);
      const lines = await logLinesAfter({ db, listenerId, after, limit });
      return { listener_id: listenerId, lines: lines.map(toListenerLogLine), last_line_no: lines.length ? lines[lines.length - 1]!.lineNo : after };
    },

    /** The whole log as text lines, read page by page while it is sent (404 before anything is sent). */
    async logFile(listenerId: string): Promise<{ filename: string; lines: AsyncIterable<string> }> {
      const row = await listener(listenerId);
      async function* lines() {
        for await (const page of allLogLines({ db, listenerId })) yield page.map(toLogFileLine).join('');
      }
      return { filename: `listener-${row.id.slice(0, 8)}.log`, lines: lines() };
    },

    /** Every message the listener consumed, in the order it consumed them, updates and deletes included. */
    async recording(listenerId: string): Promise<{ filename: string; recording: Schemas['EventRecording'] }> {
      const row = await listener(listenerId);
      const events = (await eventsOfListener({ db, listenerId })).map(toFeedEvent);
      return {
        filename: `listener-${row.id.slice(0, 8)}-events.json`,
        recording: { listener_id: row.id, match_id: row.matchId, event_count: events.length, events },
      };
    },
  };
}
