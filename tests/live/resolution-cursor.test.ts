/**
 * The live stream's catch-up cursor: every settlement of a match is numbered
 * (`resolution_seq`: 1, 2, 3, ... in commit order, with no gaps), its
 * `resolution` message carries the number, the snapshots carry each match's
 * latest, and `GET /api/matches/{match_id}/resolutions?after=` lists exactly
 * the `resolution` messages numbered after a cursor, so a client that missed
 * some (its socket closed, a `resync`) gets every one back. On PGlite and
 * PostgreSQL; the commit order of concurrent settlers needs PostgreSQL's
 * connections.
 */
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { matchErrors } from '../../src/modules/matches/matches.errors.js';
import { questionIssuances, type QuestionIssuanceRow } from '../../src/modules/issuances/issuances.table.js';
import { expectError } from '../helpers/errors.js';
import { createMatch, follow, UNKNOWN_ID } from '../helpers/factories.js';
import { insertIssuance } from '../helpers/engine-rows.js';
import { openStream, type StreamClient, type StreamMessage } from '../helpers/live-client.js';
import { testDatabaseUrl } from '../helpers/pg-url.js';
import { registerUser, startTestApp, type TestApp, type TestUser } from '../helpers/test-app.js';

let app: TestApp;
const clients: StreamClient[] = [];

beforeAll(async () => {
  app = await startTestApp();
});
afterAll(async () => {
  for (const c of clients) await c.close().catch(() => {});
  await app?.close();
});

/** Settles as the engine does: scoring in the settling transaction, subscribers after commit. */
async function settle(row: QuestionIssuanceRow, status: 'resolved' | 'voided' | 'revoked', correct: string | null = null): Promise<void> {
  const { store, hooks } = app.services.engine;
  const settled = await store.settleIssuance({ id: row.id, status, correct, resolvedSeq: null, resolutionEventId: null });
  if (!settled) throw new Error(`issuance ${row.id} did not settle`);
  await hooks.onSettled!(settled);
}

async function answer(user: TestUser, issuanceId: string, choice: string) {
  const res = await app.request('PUT', '/api/question-answers', {
    token: user.token,
    body: { question_issuance_id: issuanceId, selected_answer_identifier: choice },
  });
  expect([200, 201]).toContain(res.status);
}

async function connected(user: TestUser) {
  const client = await openStream(app, user.token);
  clients.push(client);
  const { open } = await client.ready();
  return Object.assign(client, { open });
}

const seqOf = (open: StreamMessage, matchId: string) =>
  (open.matches as { match_id: string; resolution_seq: number }[]).find((m) => m.match_id === matchId)?.resolution_seq;

const resolutions = (user: TestUser, matchId: string, query: { after?: number; limit?: number } = {}) =>
  app.request('GET', `/api/matches/${matchId}/resolutions`, { token: user.token, query });

const numbers = async (matchId: string) =>
  (
    await app.services.database.db
      .select({ id: questionIssuances.id, seq: questionIssuances.resolutionSeq })
      .from(questionIssuances)
      .where(eq(questionIssuances.matchId, matchId))
  ).reduce((m, r) => m.set(r.id, r.seq), new Map<string, number | null>());

describe('numbered settlements', () => {
  it("numbers each match's settlements 1, 2, 3 in order, on its resolution messages and in the snapshots", async () => {
    const [a, b] = [await createMatch(app, { status: 'live' }), await createMatch(app, { status: 'live' })];
    const player = await registerUser(app);
    await follow(app, player.id, a.id);
    await follow(app, player.id, b.id);
    const socket = await connected(player);
    expect(seqOf(socket.open, a.id)).toBe(0);
    expect(seqOf(socket.open, b.id)).toBe(0);

    const [a1, a2, a3, b1] = [
      await insertIssuance(app, { matchId: a.id }),
      await insertIssuance(app, { matchId: a.id }),
      await insertIssuance(app, { matchId: a.id }),
      await insertIssuance(app, { matchId: b.id }),
    ];
    await settle(a1, 'resolved', 'home');
    await settle(b1, 'voided');
    await settle(a2, 'voided');
    await settle(a3, 'revoked');
    const got: StreamMessage[] = [];
    for (let i = 0; i < 4; i++) got.push(await socket.take('resolution'));
    // The order is each match's own: two matches' messages may interleave either way.
    const ofMatch = (id: string) => got.filter((m) => m.match.id === id).map((m) => [m.question_issuance_id, m.resolution_seq]);
    expect(ofMatch(a.id)).toEqual([
      [a1.id, 1],
      [a2.id, 2],
      [a3.id, 3],
    ]);
    expect(ofMatch(b.id)).toEqual([[b1.id, 1]]);

    // A settled row written again keeps its number; an unsettled one has none.
    await app.services.database.db
      .update(questionIssuances)
      .set({ updatedAt: sql`now()` })
      .where(eq(questionIssuances.id, a1.id));
    const open = await insertIssuance(app, { matchId: a.id });
    expect(Object.fromEntries(await numbers(a.id))).toEqual({ [a1.id]: 1, [a2.id]: 2, [a3.id]: 3, [open.id]: null });

    // A new socket starts from each match's latest number.
    const again = await connected(player);
    expect(seqOf(again.open, a.id)).toBe(3);
    expect(seqOf(again.open, b.id)).toBe(1);
  });
});

describe('GET /api/matches/{match_id}/resolutions', () => {
  it('lists the resolution messages after a cursor, as the stream sent them, with the caller’s own answer', async () => {
    const match = await createMatch(app, { status: 'live' });
    const [player, other] = [await registerUser(app), await registerUser(app)];
    await follow(app, player.id, match.id);
    const socket = await connected(player);
    const rows = [
      await insertIssuance(app, { matchId: match.id, points: 25 }),
      await insertIssuance(app, { matchId: match.id }),
      await insertIssuance(app, { matchId: match.id }),
    ];
    await answer(player, rows[0]!.id, 'home');
    await answer(player, rows[1]!.id, 'away');
    await settle(rows[0]!, 'resolved', 'home');
    await settle(rows[1]!, 'resolved', 'home');
    await settle(rows[2]!, 'voided');
    const sent = [await socket.take('resolution'), await socket.take('resolution'), await socket.take('resolution')];
    expect(sent.map((m) => m.resolution_seq)).toEqual([1, 2, 3]);
    expect(sent[0]!.answer).toEqual({ selected_answer_identifier: 'home', outcome: 'correct', points_awarded: 25 });

    // Everything, then after a cursor, then a page at a time: exactly what the stream sent.
    expect((await resolutions(player, match.id)).body).toEqual(sent);
    expect((await resolutions(player, match.id, { after: 1 })).body).toEqual(sent.slice(1));
    expect((await resolutions(player, match.id, { after: 1, limit: 1 })).body).toEqual([sent[1]]);
    expect((await resolutions(player, match.id, { after: 3 })).body).toEqual([]);
    // Another player, who never followed the match, reads the same settlements with their own (absent) answers.
    const theirs = (await resolutions(other, match.id)).body as StreamMessage[];
    expect(theirs.map((m) => [m.question_issuance_id, m.resolution_seq, m.answer])).toEqual(sent.map((m) => [m.question_issuance_id, m.resolution_seq, null]));
  });

  it('gives a client that was away everything settled meanwhile, from its cursor', async () => {
    const match = await createMatch(app, { status: 'live' });
    const player = await registerUser(app);
    await follow(app, player.id, match.id);
    const socket = await connected(player);
    const rows = await Promise.all([1, 2, 3, 4].map(() => insertIssuance(app, { matchId: match.id })));
    await settle(rows[0]!, 'voided');
    const cursor = (await socket.take('resolution')).resolution_seq as number;
    await socket.close();
    // Away: three settle.
    for (const row of rows.slice(1)) await settle(row, 'voided');
    const back = await connected(player);
    expect(seqOf(back.open, match.id)).toBe(4);
    const missed = (await resolutions(player, match.id, { after: cursor })).body as StreamMessage[];
    expect(missed.map((m) => m.question_issuance_id)).toEqual(rows.slice(1).map((r) => r.id));
    expect(missed.map((m) => m.resolution_seq)).toEqual([2, 3, 4]);
  });

  it('answers 404 for an unknown match, 401 without a key and 422 for a cursor or limit out of range', async () => {
    const player = await registerUser(app);
    const match = await createMatch(app);
    expectError(await resolutions(player, UNKNOWN_ID), matchErrors.notFound);
    expect((await app.request('GET', `/api/matches/${match.id}/resolutions`)).status).toBe(401);
    for (const query of [{ after: -1 }, { limit: 0 }, { limit: 501 }])
      expect((await resolutions(player, match.id, query)).status, JSON.stringify(query)).toBe(422);
    expect((await resolutions(player, match.id)).body).toEqual([]);
  });
});

describe.skipIf(!testDatabaseUrl())('the numbers follow commit order (PostgreSQL: concurrent transactions need connections of their own)', () => {
  it('gives the lower number to the settlement committed first, whichever settled first, and takes back a rolled-back one', async () => {
    const match = await createMatch(app, { status: 'live' });
    const [first, second, undone, last] = await Promise.all([1, 2, 3, 4].map(() => insertIssuance(app, { matchId: match.id })));
    const db = app.services.database.db;
    const voidIt = (id: string) => sql`update question_issuances set status = 'voided', resolved_at = now() where id = ${id}`;

    // `first` settles first but commits last.
    let commitFirst!: () => void;
    const held = new Promise<void>((resolve) => (commitFirst = resolve));
    let settledFirst!: () => void;
    const firstSettled = new Promise<void>((resolve) => (settledFirst = resolve));
    const slow = db.transaction(async (tx) => {
      await tx.execute(voidIt(first!.id));
      settledFirst();
      await held;
    });
    await firstSettled;
    await db.transaction(async (tx) => {
      await tx.execute(voidIt(second!.id));
    });
    commitFirst();
    await slow;
    // Rolled back: its number is not used.
    await db
      .transaction(async (tx) => {
        await tx.execute(voidIt(undone!.id));
        tx.rollback();
      })
      .catch(() => {});
    await db.execute(voidIt(last!.id));
    expect(Object.fromEntries(await numbers(match.id))).toEqual({ [second!.id]: 1, [first!.id]: 2, [undone!.id]: null, [last!.id]: 3 });
  });
});
