/**
 * Operator control of a match's listeners: test matches cloned from closed
 * ones (replaying their recording), starting a test match's listener, and
 * stopping listeners. Cloning and starting are unavailable in the main
 * (production) environment.
 */
import { count, eq } from 'drizzle-orm';
import type { AppEnv } from '../../config.js';
import type { Db } from '../../db/client.js';
import { matchErrors } from '../matches/matches.errors.js';
import { matchControlErrors } from './match-control.errors.js';
import type { ListenersService } from '../listeners/listeners.service.js';
import { listenerEvents, type MatchListenerRow } from '../listeners/listeners.table.js';
import { deleteDenialsOfMatch } from '../denials/denials.repository.js';
import { deleteIssuancesOfMatch } from '../issuances/issuances.repository.js';
import { deleteListenersOfMatch, enqueueListener } from '../listeners/listeners.repository.js';
import { insertFollow, insertMatch, resetToKickOff } from '../matches/matches.repository.js';
import { matches } from '../matches/matches.table.js';
import { copySlots, unstampSlotsOfMatch } from '../sponsorships/sponsorships.repository.js';

export const DEFAULT_REPLAY_SPEED = 10;

export type MatchControlService = ReturnType<typeof createMatchControlService>;

export function createMatchControlService({
  db,
  appEnv,
  listeners,
  onFollowChanged,
}: {
  db: Db;
  appEnv: AppEnv;
  /** Enqueues replay listeners and stops a match's listeners (with its open questions). */
  listeners: Pick<ListenersService, 'enqueue' | 'stopMatch'>;
  /** Called after the clone committed: the creator's open sockets start receiving the test match. */
  onFollowChanged?: (change: { userId: string; matchId: string; following: boolean }) => Promise<void>;
}) {
  const refuseInMain = (what: string) => {
    if (appEnv === 'main') throw matchControlErrors.unavailableInMain(what);
  };

  return {
    /**
     * A test match from a closed match: settings, allowlists, sponsor and
     * sponsorship slots copied; the creator recorded and following it (no
     * quota); a listener enqueued replaying the original's recorded events.
     */
    async clone({
      matchId,
      actorId,
      speed = DEFAULT_REPLAY_SPEED,
      start = 'now',
    }: {
      matchId: string;
      actorId: string;
      speed?: number;
      start?: 'now' | 'paused';
    }): Promise<string> {
      refuseInMain('cloning a match');
      return db
        .transaction(async (tx) => {
          const [original] = await tx.select().from(matches).where(eq(matches.id, matchId)).for('share');
          if (!original) throw matchErrors.notFound();
          if (original.status !== 'closed') throw matchControlErrors.notClosed(original.status);
          const [recorded] = await tx.select({ n: count() }).from(listenerEvents).where(eq(listenerEvents.matchId, matchId));
          if (!recorded?.n) throw matchControlErrors.nothingToReplay('not recorded');
          const copy = await insertMatch({
            db: tx,
            values: {
              srId: `test:${original.srId}:${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`,
              leagueId: original.leagueId,
              homeTeam: original.homeTeam,
              awayTeam: original.awayTeam,
              scheduled: new Date(),
              venue: original.venue,
              isTest: true,
              clonedFromMatchId: original.id,
              createdByUserId: actorId,
              autoDispatchListener: false,
              questionMaxCount: original.questionMaxCount,
              questionMinIntervalSeconds: original.questionMinIntervalSeconds,
              questionPeriodDistribution: original.questionPeriodDistribution,
              questionPoints: original.questionPoints,
              answerWindowSeconds: original.answerWindowSeconds,
              questionProbability: original.questionProbability,
              questionDefinitionAllowlist: original.questionDefinitionAllowlist,
              matchQuestionDefinitionAllowlist: original.matchQuestionDefinitionAllowlist,
              sponsorBrandId: original.sponsorBrandId,
            },
          });
          await copySlots({ tx, fromMatchId: original.id, toMatchId: copy.id });
          // The creator follows the test match; test matches take no quota.
          await insertFollow({ db: tx, values: { userId: actorId, matchId: copy.id, following: true, countsTowardQuota: false } });
          return copy.id;
        })
        .then(async (id) => {
          await onFollowChanged?.({ userId: actorId, matchId: id, following: true });
          if (start === 'now') await listeners.enqueue({ matchId: id, source: 'replay', replayMatchId: matchId, speed });
          return id;
        });
    },

    /**
     * Enqueues (or returns the active) replay listener of a test match; 409
     * when the active one replays at another speed than the one asked for.
     * `restart`: the replay starts again from the beginning (see resetReplay).
     */
    async startListener({ matchId, speed, restart = false }: { matchId: string; speed?: number | undefined; restart?: boolean }): Promise<MatchListenerRow> {
      refuseInMain('starting a listener by hand');
      const [match] = await db.select().from(matches).where(eq(matches.id, matchId));
      if (!match) throw matchErrors.notFound();
      if (!match.isTest) throw matchErrors.notTest('start-listener');
      if (!match.clonedFromMatchId) throw matchControlErrors.nothingToReplay('not a clone');
      const values = { matchId, source: 'replay' as const, replayMatchId: match.clonedFromMatchId, speed: speed ?? DEFAULT_REPLAY_SPEED };
      if (restart) {
        // Its open questions are revoked (players see them go), then everything the earlier runs left goes.
        await listeners.stopMatch(matchId, 'revoked');
        return db.transaction(async (tx) => {
          // The match row first: a concurrent restart waits here, then finds the new listener.
          await tx.select({ id: matches.id }).from(matches).where(eq(matches.id, matchId)).for('update');
          // A listener still running loses its lease with its row: its next batch writes nothing.
          await deleteListenersOfMatch({ tx, matchId });
          await deleteIssuancesOfMatch({ tx, matchId });
          await deleteDenialsOfMatch({ tx, matchId });
          await unstampSlotsOfMatch({ tx, matchId });
          await resetToKickOff({ tx, id: matchId });
          return (await enqueueListener({ db: tx, values })).listener;
        });
      }
      if (match.status === 'closed') throw matchControlErrors.alreadyPlayed();
      const { listener, created } = await listeners.enqueue(values);
      if (!created && speed !== undefined && listener.speed !== speed) {
        throw matchControlErrors.listenerActive(listener.status, listener.speed, speed);
      }
      return listener;
    },

    /**
     * Stops the match's listeners (a queued one at once, a running one at its
     * next heartbeat) and revokes its open in-game questions. Idempotent.
     */
    async stopListener(matchId: string): Promise<{ stopped: string[]; revoked: number }> {
      const [match] = await db.select({ id: matches.id }).from(matches).where(eq(matches.id, matchId));
      if (!match) throw matchErrors.notFound();
      const { stopped, settled } = await listeners.stopMatch(matchId, 'revoked');
      return { stopped, revoked: settled.length };
    },
  };
}
