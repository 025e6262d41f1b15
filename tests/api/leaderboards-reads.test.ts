/**
 * The reads of a board at scale: a cached first page and point counts per
 * board version, and the players ahead on the same points counted through
 * the index or, for a large points total, from an in-process copy of the
 * total at its version.
 * Whatever a read is served from, it must equal the one-statement read
 * (`boardForDelivery`, every rank counted through the index) at the same
 * state, through settlements that move players in and out of ties, renames,
 * and a second service (another process) reading the same boards.
 */
import { eq, inArray } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { rebuildAll } from '../../src/modules/leaderboards/leaderboards.applier.repository.js';
import { ALL_TIME_START, boardForDelivery } from '../../src/modules/leaderboards/leaderboards.repository.js';
import { createLeaderboardsService } from '../../src/modules/leaderboards/leaderboards.service.js';
import { leaderboardPointCounts } from '../../src/modules/leaderboards/leaderboards.table.js';
import { users } from '../../src/modules/users/users.table.js';
import type { TestUser } from '../helpers/test-app.js';
import { liveMatchWithCrowd, playQuestion } from '../helpers/leaderboards.js';
import { useTestApp } from '../helpers/use-test-app.js';

const { app } = useTestApp();
const db = () => app.services.database.db;

const play = (matchId: string, answers: [TestUser, 'home' | 'away'][], outcome: 'home' | 'away', points = 10) =>
  playQuestion(app, matchId, answers, outcome, { points });

/** Every player's row and rank and the first page, as the one-statement read counts them (nothing cached). */
async function reference(matchId: string, ids: string[]) {
  const found = await boardForDelivery({
    db: db(),
    key: { scope: 'match', scopeId: matchId, period: 'all_time', periodStart: ALL_TIME_START },
    top: 100,
    userIds: ids,
  });
  return found!;
}

const waitFor = async (cond: () => boolean) => {
  for (let i = 0; i < 200 && !cond(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
};

describe('reads from cached pages and tie copies', () => {
  it('equal the one-statement read for every player, through settlements that move players in and out of ties, and renames', async () => {
    const { match, crowd, ids } = await liveMatchWithCrowd(app, 12);
    const rows = async () => db().select().from(users).where(inArray(users.id, ids));
    // This service ranks every points total from a copy (none is small enough to count in the read); a second one
    // (another process's) with the default, reading the same boards.
    const copies = createLeaderboardsService({ db: db(), leagues: app.services.leagues, tieScanMax: 0 });
    const other = app.services.leaderboards;

    const check = async () => {
      const ref = await reference(match.id, ids);
      for (const viewer of await rows()) {
        for (const svc of [copies, other]) {
          const board = await svc.match(match.id, { offset: 0, limit: 100 }, viewer);
          const expected = ref.mine.get(viewer.id);
          expect(board.me?.rank).toBe(expected?.rank);
          expect(board.me?.points).toBe(expected?.points);
          expect(board.player_count).toBe(ref.playerCount);
          expect(board.rows.map((r) => [r.rank, r.user_id, r.display_name, r.points])).toEqual(ref.top.map((r) => [r.rank, r.userId, r.name, r.points]));
        }
      }
    };

    // Two totals: six right (10 points), six wrong (0).
    await play(
      match.id,
      crowd.map((u, i) => [u, i % 2 ? 'home' : 'away']),
      'home',
    );
    await check();
    // The copies load in the background; once there, reads rank from them.
    await waitFor(() => copies.cacheState().ties >= 2);
    expect(copies.cacheState().ties).toBe(2);
    const before = copies.cacheState().tieCopies;
    await check();
    expect(copies.cacheState().tieCopies).toBeGreaterThan(before);
    expect(copies.cacheState().pageHits).toBeGreaterThan(0);

    // Some of each total change places (the versions move: pages and copies at the old ones are not used again).
    await play(
      match.id,
      crowd.slice(0, 6).map((u, i) => [u, i < 3 ? 'home' : 'away']),
      'home',
    );
    await check();
    await new Promise((resolve) => setTimeout(resolve, 1100));
    await check();
    await waitFor(() => copies.cacheState().ties >= 3);
    await check();
    // A right answer worth no points moves a player inside their total (a correct answer more, the same points): the
    // total's version moves as well, and its copy at the old one is not used.
    const copied = copies.cacheState().tieCopies;
    await play(match.id, [[crowd[8]!, 'home']], 'home', 0);
    await check();
    await new Promise((resolve) => setTimeout(resolve, 1100));
    await check();
    await waitFor(() => copies.cacheState().tieCopies > copied + ids.length);
    await check();

    // A rename shows on the next read of a cached page.
    const res = await app.request('PATCH', '/api/users/me', { token: crowd[1]!.token, body: { display_name: 'Renamed Right Away' } });
    expect(res.status).toBe(200);
    // The application's own service empties its pages on the write; the second one stands for another process, which the
    // bus's announcement of the change empties.
    copies.forgetPages();
    await check();

    // A rebuild (a user's or every board's) moves the versions too.
    await db().transaction((tx) => rebuildAll({ tx }));
    await check();
    const counts = await db().select().from(leaderboardPointCounts);
    expect(counts.every((c) => c.version > 0)).toBe(true);
    await db().update(users).set({ hiddenFromLeaderboards: true }).where(eq(users.id, ids[0]!));
    await db().transaction((tx) => app.services.leaderboards.rebuildUser(tx, ids[0]!));
    const ref = await reference(match.id, ids);
    expect(ref.mine.has(ids[0]!)).toBe(false);
    await check();
    expect(copies.cacheState().fallbacks).toBe(0);
    // While a copy was stale, ranks were counted through the index, from the total's end for the players an older copy
    // placed in its second half.
    expect(copies.cacheState().tieScans).toBeGreaterThan(copies.cacheState().tieScansFromEnd);
    expect(copies.cacheState().tieScansFromEnd).toBeGreaterThan(0);
  });
});
