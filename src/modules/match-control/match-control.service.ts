/**
 * Operator control of a match's listeners: test matches cloned from closed
 * ones (replaying their recording), starting a test match's listener, and
 * stopping listeners. Cloning and starting are unavailable in the main
 * (production) environment.
 */
import type { AppEnv } from '../../config.js';
import type { Db } from '../../db/client.js';
import type { Events } from '../../events/catalogue.js';
import { matchErrors } from '../matches/matches.errors.js';
import { matchControlErrors } from './match-control.errors.js';
import type { ListenersService } from '../listeners/listeners.service.js';
import type { MatchListenerRow } from '../listeners/listeners.table.js';
import { deleteDenialsOfMatch } from '../denials/denials.public.js';
import { deleteIssuancesOfMatch, moveMatchQuestionsClosing } from '../issuances/issuances.public.js';
import { deleteListenersOfMatch, enqueueListener, recordedEventCount } from '../listeners/listeners.public.js';
import { findMatchRow, insertFollow, insertMatch, kickOffNow, resetToKickOff } from '../matches/matches.public.js';
import { copySlots, unstampSlotsOfMatch } from '../sponsorships/sponsorships.public.js';

export const DEFAULT_REPLAY_SPEED = 10;

/**
 * A clone made paused kicks off when an operator starts it; until then (at
 * most this long after the clone) its Match questions are open to answers.
 */
export const PAUSED_CLONE_KICKOFF_MS = 3600_000;

export type MatchControlService = ReturnType<typeof createMatchControlService>;

export function createMatchControlService({
  db,
  appEnv,
  listeners,
  events,
  issueMatchQuestions,
}: {
  db: Db;
  appEnv: AppEnv;
  /** Enqueues replay listeners and stops a match's listeners (with its open questions). */
  listeners: Pick<ListenersService, 'enqueue' | 'stopMatch'>;
  /** `followChanged` after the clone committed: the creator's open sockets start receiving the test match. */
  events: Events;
  /** Issues every Match question of a match before kick-off that it does not have yet (the engine's issuance, whatever the leads). */
  issueMatchQuestions?: (matchId: string) => Promise<number>;
}) {
  const refuseInMain = (what: string) => {
    if (appEnv === 'main') throw matchControlErrors.unavailableInMain(what);
  };

  return {
    /**
     * A test match from a closed match: settings, allowlists, sponsor and
     * sponsorship slots copied; the creator recorded and following it (no
     * quota); its Match questions issued before its kick-off; a listener
     * enqueued replaying the original's recorded events. Started `now`, it
     * kicks off at once (its Match questions lock as the replay starts);
     * `paused`, when an operator starts it (PAUSED_CLONE_KICKOFF_MS at most),
     * its Match questions answerable until then.
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
          const original = await findMatchRow({ db: tx, id: matchId, lock: 'share' });
          if (!original) throw matchErrors.notFound();
          if (original.status !== 'closed') throw matchControlErrors.notClosed(original.status);
          if (!(await recordedEventCount({ db: tx, matchId }))) throw matchControlErrors.nothingToReplay('not recorded');
          const copy = await insertMatch({
            db: tx,
            values: {
              srId: `test:${original.srId}:${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`,
              leagueId: original.leagueId,
              homeTeam: original.homeTeam,
              awayTeam: original.awayTeam,
              scheduled: new Date(Date.now() + (start === 'paused' ? PAUSED_CLONE_KICKOFF_MS : 0)),
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
              minAnswerSeconds: original.minAnswerSeconds,
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
          await events.emit({ type: 'followChanged', userId: actorId, matchId: id, following: true });
          // Before the replay starts: a question issued after kick-off would never be open.
          await issueMatchQuestions?.(id);
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
      const match = await findMatchRow({ db, id: matchId });
      if (!match) throw matchErrors.notFound();
      if (!match.isTest) throw matchErrors.notTest('start-listener');
      if (!match.clonedFromMatchId) throw matchControlErrors.nothingToReplay('not a clone');
      const values = { matchId, source: 'replay' as const, replayMatchId: match.clonedFromMatchId, speed: speed ?? DEFAULT_REPLAY_SPEED };
      if (restart) {
        // Its open questions are revoked (players see them go), then everything the earlier runs left goes.
        await listeners.stopMatch(matchId, 'revoked');
        const listener = await db.transaction(async (tx) => {
          // The match row first: a concurrent restart waits here, then finds the new listener.
          await findMatchRow({ db: tx, id: matchId, lock: 'update' });
          // A listener still running loses its lease with its row: its next batch writes nothing.
          await deleteListenersOfMatch({ tx, matchId });
          await deleteIssuancesOfMatch({ tx, matchId });
          await deleteDenialsOfMatch({ tx, matchId });
          await unstampSlotsOfMatch({ tx, matchId });
          await resetToKickOff({ tx, id: matchId });
          return (await enqueueListener({ db: tx, values })).listener;
        });
        // From the beginning: its Match questions again, as its clone had them (they lock as the replay kicks off).
        await issueMatchQuestions?.(matchId);
        return listener;
      }
      if (match.status === 'closed') throw matchControlErrors.alreadyPlayed();
      // A paused clone kicks off now: its open Match questions close now, and lock as the replay starts.
      if (match.status === 'scheduled' && match.scheduled.getTime() > Date.now()) {
        await db.transaction(async (tx) => {
          await kickOffNow({ tx, id: matchId });
          await moveMatchQuestionsClosing({ tx, srIds: [match.srId] });
        });
      }
      const { listener, created } = await listeners.enqueue(values);
      if (!created && speed !== undefined && listener.speed !== speed) {
        throw matchControlErrors.listenerActive(listener.status, listener.speed, speed);
      }
      return listener;
    },

    /**
     * Stops the match's listeners (a queued one at once, a running one at its
     * next heartbeat) and revokes its open in-game questions; a test match in
     * play ends (no result), since nothing else would end it. Idempotent.
     */
    async stopListener(matchId: string): Promise<{ stopped: string[]; revoked: number }> {
      const match = await findMatchRow({ db, id: matchId });
      if (!match) throw matchErrors.notFound();
      const { stopped, settled } = await listeners.stopMatch(matchId, 'revoked', { endTestMatch: true });
      return { stopped, revoked: settled.length };
    },
  };
}
