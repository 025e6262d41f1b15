/**
 * Live delivery through Redis (REDIS_URL set), against the real server:
 * the publisher reads each message once and puts it on its match's stream;
 * a process reads only the matches its sockets follow and no database for
 * delivery; after a gap (its reader's connection killed, or paused) it goes
 * on from its cursor with nothing lost; a cursor trimmed away resyncs that
 * match once; key revocations reach the other process on the control stream,
 * and its key cache is not used while it cannot hear them.
 *
 * Two apps on one PostgreSQL database and one Redis prefix stand for two API
 * processes (PostgreSQL only: PGlite has one connection); one app runs on
 * either database.
 */
import { eq } from 'drizzle-orm';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RedisConfig } from '../../src/config.js';
import { idAfter, trimmedPast, type RedisLiveBus } from '../../src/live/redis-bus.js';
import type { QuestionIssuanceRow } from '../../src/modules/issuances/issuances.table.js';
import { matches } from '../../src/modules/matches/matches.table.js';
import { waitFor } from '../helpers/engine.js';
import { insertIssuance } from '../helpers/engine-rows.js';
import { createMatch, follow } from '../helpers/factories.js';
import { openStream, type StreamClient, type StreamMessage } from '../helpers/live-client.js';
import { testDatabaseUrl } from '../helpers/pg-url.js';
import { dropPrefix, testRedisConfig } from '../helpers/redis.js';
import { registerUser, startTestApp, statementsDuring, type TestApp, type TestUser } from '../helpers/test-app.js';

const issue = (app: TestApp, row: QuestionIssuanceRow) => app.services.engine.hooks.onIssued!(row);

async function settle(app: TestApp, row: QuestionIssuanceRow, status: 'resolved' | 'voided', correct: string | null = null) {
  const { store, hooks } = app.services.engine;
  const settled = await store.settleIssuance({ id: row.id, status, correct, resolvedSeq: null, resolutionEventId: null });
  if (!settled) throw new Error(`issuance ${row.id} did not settle`);
  await hooks.onSettled!(settled);
  return settled;
}

async function answer(app: TestApp, user: TestUser, issuanceId: string, choice: string) {
  const res = await app.request('PUT', '/api/question-answers', {
    token: user.token,
    body: { question_issuance_id: issuanceId, selected_answer_identifier: choice },
  });
  if (res.status !== 200 && res.status !== 201) throw new Error(`answer: ${res.status} ${res.text}`);
}

async function connected(app: TestApp, user: TestUser): Promise<StreamClient> {
  const client = await openStream(app, user.token);
  await client.ready();
  return client;
}

const bus = (app: TestApp) => app.services.liveBus as RedisLiveBus;
/** A question as sent, without the seconds remaining (counted by each process when it sends). */
const question = ({ question: { seconds_remaining: _s, ...rest } }: StreamMessage) => rest;

describe('stream positions', () => {
  it('orders ids by time, then sequence', () => {
    expect(idAfter('1700000000001-0', '1700000000000-5')).toBe(true);
    expect(idAfter('1700000000000-10', '1700000000000-9')).toBe(true);
    expect(idAfter('1700000000000-9', '1700000000000-9')).toBe(false);
    expect(idAfter('0-0', '1-0')).toBe(false);
  });

  it('sees entries trimmed past a cursor from XINFO STREAM, and nothing while the cursor is still there', () => {
    const info = (length: number, added: number, first: string, last: string) => [
      'length',
      length,
      'last-generated-id',
      last,
      'max-deleted-entry-id',
      '0-0',
      'entries-added',
      added,
      'recorded-first-entry-id',
      first,
    ];
    expect(trimmedPast(info(3, 3, '5-0', '7-0'), '5-0')).toBeNull();
    expect(trimmedPast(info(3, 10, '5-0', '7-0'), '5-0')).toBeNull();
    expect(trimmedPast(info(3, 10, '5-0', '7-0'), '4-0')).toEqual({ from: '4-18446744073709551615' });
    expect(trimmedPast(info(3, 10, '5-2', '7-0'), '4-0')).toEqual({ from: '5-1' });
    expect(trimmedPast(info(0, 10, '0-0', '7-0'), '4-0')).toEqual({ from: '7-0' });
    expect(trimmedPast(info(0, 10, '0-0', '7-0'), '7-0')).toBeNull();
    expect(trimmedPast(info(2, 3, '5-0', '7-0'), '0-0')).toEqual({ from: '4-18446744073709551615' });
  });
});

describe('live delivery through Redis, one process', () => {
  const redis = testRedisConfig('live1');
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ config: { redis } });
  });
  afterAll(async () => {
    await app?.close();
    await dropPrefix(redis);
  });

  it('carries the whole message on the match stream and reads no database to deliver it', async () => {
    expect(app.services.liveBus.announcesTableChanges).toBe(false);
    const match = await createMatch(app);
    const user = await registerUser(app);
    await follow(app, user.id, match.id);
    const client = await connected(app, user);
    expect(bus(app).watched()).toEqual([match.id]);
    const row = await insertIssuance(app, { matchId: match.id });

    // The publisher's read, then nothing: the hub sends what the stream carried.
    const { statements } = await statementsDuring(app, async () => {
      await issue(app, row);
      await client.take('question');
    });
    expect(statements.filter((s) => /question_issuances/.test(s))).toHaveLength(1);

    const raw = new Redis(redis.url);
    try {
      const entries = (await raw.xrange(bus(app).matchStream(match.id), '-', '+')) as [string, string[]][];
      const event = JSON.parse(entries.at(-1)![1][1]!);
      expect(event).toMatchObject({ k: 'issued', i: row.id, m: match.id, q: { question_issuance_id: row.id, question_text: row.questionText } });
    } finally {
      raw.disconnect();
    }

    await answer(app, user, row.id, 'home');
    await settle(app, row, 'resolved', 'home');
    expect((await client.take('resolution')).answer).toEqual({ selected_answer_identifier: 'home', outcome: 'correct', points_awarded: 10 });
    await client.close();
    await waitFor(async () => bus(app).watched().length === 0, { what: 'the match to be no longer read once its last socket closed' });
  });
});

describe.skipIf(!testDatabaseUrl())('live delivery through Redis, two processes (PostgreSQL)', () => {
  let redis: RedisConfig;
  let a: TestApp;
  let b: TestApp;
  let raw: Redis;
  beforeAll(async () => {
    redis = testRedisConfig('live2');
    a = await startTestApp({ config: { redis } });
    b = await startTestApp({ databaseUrl: a.db.url!, config: { redis } });
    raw = new Redis(redis.url);
  });
  afterAll(async () => {
    raw?.disconnect();
    await b?.close();
    await a?.close();
    await dropPrefix(redis);
  });

  it('a question issued and resolved once reaches a socket on each process, identical, and costs the other process no statement', async () => {
    const match = await createMatch(a);
    const other = await createMatch(a);
    const [u1, u2, u3] = [await registerUser(a), await registerUser(a), await registerUser(a)];
    for (const u of [u1, u2, u3]) await follow(a, u.id, match.id);
    const onA = await connected(a, u1);
    const onB = await connected(b, u2);
    const alsoB = await connected(b, u3);
    // B reads the streams of the matches its sockets follow, and no other.
    expect(bus(b).watched()).toEqual([match.id]);

    const row = await insertIssuance(a, { matchId: match.id });
    const { statements } = await statementsDuring(b, async () => {
      await issue(a, row);
      const [qa, qb] = [await onA.take('question'), await onB.take('question')];
      expect(question(qb)).toEqual(question(qa));
      await alsoB.take('question');
      await answer(a, u1, row.id, 'home');
      await answer(a, u2, row.id, 'away');
      await settle(a, row, 'resolved', 'home');
      const [ra, rb, rc] = [await onA.take('resolution'), await onB.take('resolution'), await alsoB.take('resolution')];
      expect(ra.answer).toEqual({ selected_answer_identifier: 'home', outcome: 'correct', points_awarded: 10 });
      expect(rb.answer).toEqual({ selected_answer_identifier: 'away', outcome: 'incorrect', points_awarded: 0 });
      expect(rc.answer).toBeNull();
      expect({ ...rb, answer: null }).toEqual({ ...ra, answer: null });
      // Another match's question reaches nobody here, and B does not read its stream.
      await issue(a, await insertIssuance(a, { matchId: other.id }));
      await a.services.database.db.update(matches).set({ homeScore: 1 }).where(eq(matches.id, match.id));
      await a.services.engine.hooks.onMatchChanged!(match.id, { homeScore: 1 });
      expect((await onB.take('match_state')).match.home_score).toBe(1);
    });
    // Every request above went to A: B read nothing to deliver.
    expect(statements).toEqual([]);
    await onB.expectNone('question', 100);
    for (const c of [onA, onB, alsoB]) await c.close();
  });

  it("goes on from its cursor after its reader's connection is killed: nothing lost, no resync", async () => {
    const match = await createMatch(a);
    const user = await registerUser(a);
    await follow(a, user.id, match.id);
    const onB = await connected(b, user);
    const killed = await killReader(b);
    expect(killed).toBe(1);
    const rows = [];
    for (let n = 0; n < 3; n++) {
      const row = await insertIssuance(a, { matchId: match.id });
      await issue(a, row);
      rows.push(row);
    }
    for (const row of rows) expect((await onB.take('question')).question.question_issuance_id).toBe(row.id);
    await waitFor(async () => b.services.liveBus.listening, { what: "B's reader to be back" });
    expect(onB.messages.filter((m) => m.type === 'resync')).toEqual([]);
    await onB.close();
  });

  it('after a pause of its reader, delivers what was published meanwhile, in order, without a resync', async () => {
    const match = await createMatch(a);
    const user = await registerUser(a);
    await follow(a, user.id, match.id);
    const onB = await connected(b, user);
    bus(b).suspend();
    expect(b.services.liveBus.listening).toBe(false);
    const row = await insertIssuance(a, { matchId: match.id });
    await issue(a, row);
    await answer(a, user, row.id, 'away');
    await settle(a, row, 'voided');
    await onB.expectNone('question', 100);
    bus(b).resume();
    expect((await onB.take('question')).question.question_issuance_id).toBe(row.id);
    expect((await onB.take('resolution')).answer).toEqual({ selected_answer_identifier: 'away', outcome: 'void', points_awarded: 0 });
    await waitFor(async () => b.services.liveBus.listening, { what: "B's reader to catch up" });
    expect(onB.messages.filter((m) => m.type === 'resync')).toEqual([]);
    await onB.close();
  });

  it('resyncs a match once from the database when its stream was trimmed past the cursor, and goes on', async () => {
    const match = await createMatch(a);
    const user = await registerUser(a);
    await follow(a, user.id, match.id);
    const onB = await connected(b, user);
    bus(b).suspend();
    const lost = await insertIssuance(a, { matchId: match.id });
    await issue(a, lost);
    await raw.xtrim(bus(a).matchStream(match.id), 'MAXLEN', 0);
    bus(b).resume();
    const resync = await onB.take('resync');
    expect(resync.detail).toMatch(/catch up/);
    expect((await onB.take('match_state')).match.match_id).toBe(match.id);
    const next = await insertIssuance(a, { matchId: match.id });
    await issue(a, next);
    expect((await onB.take('question')).question.question_issuance_id).toBe(next.id);
    expect(onB.messages.some((m) => m.type === 'question' && m.question.question_issuance_id === lost.id)).toBe(false);
    await onB.close();
  });

  it('a key revoked in one process is refused in the other; while the other cannot hear revocations its key cache is not used', async () => {
    const player = await registerUser(a);
    expect((await b.request('GET', '/api/users/me', { token: player.token })).status).toBe(200);
    expect((await a.request('POST', '/api/auth/logout', { token: player.token })).status).toBe(204);
    await waitFor(async () => (await b.request('GET', '/api/users/me', { token: player.token })).status === 401, {
      what: 'the revoked key to be refused by the other process',
    });

    const second = await registerUser(a);
    expect((await b.request('GET', '/api/users/me', { token: second.token })).status).toBe(200);
    bus(b).suspend();
    expect(b.services.liveBus.listening).toBe(false);
    expect((await a.request('POST', '/api/auth/logout', { token: second.token })).status).toBe(204);
    // B hears nothing now, and refuses the key at once: it reads the key instead of its cache.
    expect((await b.request('GET', '/api/users/me', { token: second.token })).status).toBe(401);
    bus(b).resume();
    await waitFor(async () => b.services.liveBus.listening, { what: "B's reader to catch up" });
    expect((await b.request('GET', '/api/users/me', { token: second.token })).status).toBe(401);
  });

  async function killReader(app: TestApp): Promise<number> {
    const name = `question-play:${bus(app).readerName}`;
    const list = String(await raw.client('LIST'));
    const ids = list
      .split('\n')
      .filter((line) => line.includes(` name=${name} `))
      .map((line) => /\bid=(\d+)/.exec(line)![1]!);
    for (const id of ids) await raw.client('KILL', 'ID', id);
    return ids.length;
  }
});
