/**
 * Every reaction to a domain event, in one place: read an event's entry to
 * know who reacts when it happens. The catalogue (src/events/catalogue.ts)
 * says what each event carries and where it is handled; the type `Reactions`
 * is mapped over it, so an event left out (or a new one nobody handles)
 * fails the type check.
 *
 * local: emitted in this process, inside the transaction or after its commit.
 * bus:   heard from the cross-process bus in every process (this one too):
 *        what the others did, and what the database's triggers report
 *        (drizzle/0011_*: a user or key row changed; 0017_*: the leagues).
 *        Kinds the live stream alone delivers list nothing here: the stream
 *        subscribes to the bus itself when it is attached (src/live/hub.ts).
 */
import type { LeaderboardWriter } from '../engine/leaderboard-writer.js';
import type { LiveBus } from '../live/bus.js';
import { publishFollowChange, publishIssued, publishMatchChanged, publishSettled } from '../live/publishers.js';
import type { Logger } from '../logger.js';
import type { KeyCache } from '../modules/auth/key-cache.js';
import { scoreSettledIssuance } from '../modules/answers/scoring.js';
import type { EngineSubscriber } from '../modules/issuances/issuance-subscriber.js';
import type { LeaderboardsService } from '../modules/leaderboards/leaderboards.service.js';
import type { LeagueListCache } from '../modules/leagues/league-cache.js';
import type { UserRow } from '../modules/users/users.table.js';
import { metrics } from '../observability/metrics.js';
import type { Reactions } from './dispatcher.js';

export interface ReactionDeps {
  logger: Logger;
  bus: Pick<LiveBus, 'publish' | 'announcesTableChanges'>;
  keyCache: Pick<KeyCache, 'invalidateUser' | 'flush'>;
  leagueCache: Pick<LeagueListCache, 'invalidate'>;
  leaderboards: Pick<LeaderboardsService, 'enqueueSettlement' | 'rebuildUser' | 'forgetPages'>;
  push: Pick<EngineSubscriber, 'onIssued' | 'onSettled'>;
  /** The boards' writers (the SQL applier; with REDIS_URL, the writer of the boards in Redis): kicked when there is something to write. */
  leaderboardWriters: Pick<LeaderboardWriter, 'kick'>[];
  /** Mails a verification link to the user's current email. */
  mailVerification(user: UserRow): Promise<void>;
}

export function reactions(d: ReactionDeps): Reactions {
  // A verification link for a new address; the change itself stands if the link could not be made.
  const mailVerification = async (user: UserRow) => {
    try {
      await d.mailVerification(user);
    } catch (err) {
      d.logger.warn({ err, user_id: user.id }, 'the email-verification link could not be made; the player can ask for another');
    }
  };
  const kickWriters = () => d.leaderboardWriters.forEach((w) => w.kick());
  return {
    local: {
      // In the settling transaction, whoever settles (the engine, an operator's stop or revocation, the orphan sweep).
      settling: [
        ({ tx, row }) => scoreSettledIssuance(tx, row),
        // Queued for the boards; the worker's applier applies it after the commit (docs/decisions.md#leaderboard-tables).
        ({ tx, row }) => d.leaderboards.enqueueSettlement(tx, row),
      ],
      // In the transaction that hid, showed, (de)activated or moved a user to another time zone.
      boardInputsChanged: [({ tx, userId }) => d.leaderboards.rebuildUser(tx, userId)],

      issued: [({ row }) => metrics.issuances.inc({ kind: row.kind }), ({ row }) => d.push.onIssued?.(row), ({ row }) => publishIssued(d.bus, row)],
      settled: [
        ({ row }) => metrics.resolutions.inc({ status: row.status }),
        ({ row }) => d.push.onSettled?.(row),
        ({ row }) => publishSettled(d.bus, row),
        ({ row }) => row.status !== 'locked' && kickWriters(),
      ],
      matchChanged: [({ matchId, values }) => publishMatchChanged(d.bus, matchId, values)],

      // This process's own write: its caches forget the user at the commit, before the request is answered
      // (the other processes learn it from the trigger's `user` on the bus, below).
      userChanged: [
        ({ userId }) => d.keyCache.invalidateUser(userId),
        // Cached board pages carry names (their rows and ranks are versioned, names are not).
        ({ shown }) => shown && d.leaderboards.forgetPages(),
        // Hidden, shown, (de)activated: their rows were rebuilt; the writer of the boards in Redis computes them again.
        ({ shown }) => shown && kickWriters(),
        // Where the database's trigger does not announce it (Redis), this commit does, to every process.
        ({ userId }) => !d.bus.announcesTableChanges && d.bus.publish({ k: 'user', u: userId }),
      ],
      // Refused at once here; every process (this one too) closes the user's sockets on the bus's `keys`.
      keysRevoked: [({ userId }) => d.keyCache.invalidateUser(userId), ({ userId }) => d.bus.publish({ k: 'keys', u: userId })],
      followChanged: [(change) => publishFollowChange(d.bus, change)],
      // The trigger reports it to every process too; this one's next list reads the change whatever the bus's delay.
      leaguesChanged: [() => d.leagueCache.invalidate(), () => !d.bus.announcesTableChanges && d.bus.publish({ k: 'leagues' })],
      boardChanged: [({ matchId }) => d.bus.publish({ k: 'board', m: matchId })],
      boardsApplied: [() => kickWriters()],
      matchDeleted: [({ matchId }) => d.bus.publish({ k: 'gone', m: matchId })],
      registered: [({ user }) => mailVerification(user)],
      emailChanged: [({ user }) => mailVerification(user)],
    },
    bus: {
      issued: [],
      locked: [],
      match: [],
      follow: [],
      gone: [],
      settled: [],
      board: [],
      keys: [({ u }) => d.keyCache.invalidateUser(u)],
      // The trigger's: a user row or one of their keys changed, whoever wrote it (the API, scripts, an operator's SQL).
      user: [({ u }) => d.keyCache.invalidateUser(u), () => d.leaderboards.forgetPages(), () => kickWriters()],
      leagues: [() => d.leagueCache.invalidate()],
      // Events of a gap may be lost: everything kept is dropped.
      resync: [() => d.keyCache.flush(), () => d.leagueCache.invalidate(), () => d.leaderboards.forgetPages()],
    },
  };
}
