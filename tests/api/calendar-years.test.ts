/**
 * Dates and instants of the years 0001 to 0099, on every operation that
 * takes one: each is honoured exactly as written (the contract's `date` and
 * `date-time` are the years 0001 to 9999). JavaScript reads those years as
 * 1900 to 1999 (Date.UTC, `new Date(y, m, d)`) or not at all (PostgreSQL's
 * `0026-11-28 12:00:00+00` through `new Date(text)`): a leaderboard date of
 * 0026-11-28 answered period_start 1926-11-28, and a match kicking off in
 * the year 26 made its list answer 500. Each case sends the year 26 and
 * checks it comes back, or selects, exactly; the first case checks that
 * the table covers every operation the contract gives a date or date-time.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parsePgTimestamp, utcMs } from '../../src/domain/instants.js';
import { contractDocument } from '../../src/http/contract.js';
import { questionAnswers } from '../../src/modules/answers/answers.table.js';
import { questionDefinitions } from '../../src/modules/definitions/definitions.table.js';
import { matchQuestionDefinitions } from '../../src/modules/definitions/match-definitions.table.js';
import { userFeedback } from '../../src/modules/feedback/feedback.table.js';
import { createInGameDefinition, createMatchDefinition } from '../helpers/definitions.js';
import { insertIssuance, insertListener } from '../helpers/engine-rows.js';
import { createMatch } from '../helpers/factories.js';
import { createAdmin, registerUser, startTestApp, type TestApp, type TestUser } from '../helpers/test-app.js';

const DAY = '0026-11-28';
const AT = `${DAY}T12:00:00.000Z`;
/** The same day read as JavaScript's two-digit years read it. */
const WRONG_CENTURY = `1926-11-28T12:00:00.000Z`;
const range = (from: string, to: string) => ({ from: `${from}T00:00:00Z`, to: `${to}T00:00:00Z` });
const YEAR_26 = range('0026-11-28', '0026-11-29');
const YEAR_1926 = range('1926-11-28', '1926-11-29');

/** First days of the period containing DAY (computed from ISO text, which JavaScript reads exactly). */
function expectedStart(period: 'day' | 'week' | 'month'): string {
  const t = Date.parse(`${DAY}T00:00:00Z`);
  if (period === 'day') return DAY;
  if (period === 'month') return `${DAY.slice(0, 8)}01`;
  const sinceMonday = (new Date(t).getUTCDay() + 6) % 7;
  return new Date(t - sinceMonday * 86_400_000).toISOString().slice(0, 10);
}

let app: TestApp;
let admin: TestUser;
let player: TestUser;
const db = () => app.services.database.db;

beforeAll(async () => {
  app = await startTestApp();
  admin = await createAdmin(app);
  player = await registerUser(app, { verified: true });
});
afterAll(() => app?.close());

const ids = (body: { id: string }[]) => body.map((r) => r.id);

/** The checks, by operationId. */
const cases: Record<string, () => Promise<void>> = {
  async getOverallLeaderboard() {
    for (const period of ['day', 'week', 'month'] as const) {
      const res = await app.request('GET', '/api/leaderboards/overall', { query: { period, date: DAY } });
      expect(res.status, res.text).toBe(200);
      expect(res.body.period_start, period).toBe(expectedStart(period));
      expect(res.body.starts_at, period).toBe(`${expectedStart(period)}T00:00:00.000Z`);
    }
    // In a zone: local midnight of the year 26 (Paris kept its local mean time then, 9 min 21 s ahead of UTC).
    await app.request('PATCH', '/api/users/me', { token: player.token, body: { match_follow_timezone: 'Europe/Paris' } });
    const zoned = await app.request('GET', '/api/leaderboards/overall', { token: player.token, query: { period: 'day', date: DAY } });
    expect(zoned.body).toMatchObject({ period_start: DAY, starts_at: '0026-11-27T23:50:39.000Z', ends_at: '0026-11-28T23:50:39.000Z' });
  },
  async getLeagueLeaderboard() {
    const [league] = (await app.request('GET', '/api/leagues')).body as { id: string }[];
    const res = await app.request('GET', `/api/leaderboards/leagues/${league!.id}`, { query: { period: 'week', date: DAY } });
    expect(res.status, res.text).toBe(200);
    expect(res.body.period_start).toBe(expectedStart('week'));
  },
  async getPlayerGroupLeaderboard() {
    const group = await app.request('POST', '/api/player-groups', { token: player.token, body: { name: 'Year 26 club' } });
    expect(group.status, group.text).toBe(201);
    const res = await app.request('GET', `/api/player-groups/${group.body.id}/leaderboard`, { token: player.token, query: { period: 'month', date: DAY } });
    expect(res.status, res.text).toBe(200);
    expect(res.body.period_start).toBe(expectedStart('month'));
  },
  async listMatches() {
    const year26 = await createMatch(app, { scheduled: new Date(AT) });
    const year1926 = await createMatch(app, { scheduled: new Date(WRONG_CENTURY) });
    const res = await app.request('GET', '/api/matches', { query: { scheduled_from: YEAR_26.from, scheduled_to: YEAR_26.to } });
    expect(res.status, res.text).toBe(200);
    expect(res.body.map((m: { id: string; scheduled: string }) => [m.id, m.scheduled])).toEqual([[year26.id, AT]]);
    const other = await app.request('GET', '/api/matches', { query: { scheduled_from: YEAR_1926.from, scheduled_to: YEAR_1926.to } });
    expect(ids(other.body)).toEqual([year1926.id]);
  },
  async listMatchListeners() {
    const match = await createMatch(app, { league: 'mls', scheduled: new Date(AT) });
    await insertListener(app, { matchId: match.id, createdAt: new Date(AT) });
    const res = await app.request('GET', '/api/match-listeners', {
      token: admin.token,
      query: { league: 'mls', scheduled_from: YEAR_26.from, scheduled_to: YEAR_26.to },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.map((g: { match: { id: string; scheduled: string } }) => [g.match.id, g.match.scheduled])).toEqual([[match.id, AT]]);
    expect(res.body[0].listeners[0].created_at).toBe(AT);
  },
  async listQuestionDefinitions() {
    const def = await createInGameDefinition(app, admin, 'wc', { name: 'year 26 in-game' });
    await db()
      .update(questionDefinitions)
      .set({ createdAt: new Date(AT), updatedAt: new Date(AT) })
      .where(eq(questionDefinitions.id, def.id));
    for (const field of ['created', 'updated']) {
      const res = await app.request('GET', '/api/question-definitions', {
        query: { league: 'wc', [`${field}_from`]: YEAR_26.from, [`${field}_to`]: YEAR_26.to },
      });
      expect(res.status, res.text).toBe(200);
      expect(res.body.map((d: { id: string; created_at: string }) => [d.id, d.created_at])).toEqual([[def.id, AT]]);
    }
  },
  async listMatchQuestionDefinitions() {
    const def = await createMatchDefinition(app, admin, 'wc', { name: 'year 26 match' });
    await db()
      .update(matchQuestionDefinitions)
      .set({ createdAt: new Date(AT), updatedAt: new Date(AT) })
      .where(eq(matchQuestionDefinitions.id, def.id));
    const res = await app.request('GET', '/api/match-question-definitions', { query: { league: 'wc', created_from: YEAR_26.from, created_to: YEAR_26.to } });
    expect(res.status, res.text).toBe(200);
    expect(res.body.map((d: { id: string; created_at: string }) => [d.id, d.created_at])).toEqual([[def.id, AT]]);
  },
  async listUserFeedback() {
    const match = await createMatch(app);
    const issuance = await insertIssuance(app, { matchId: match.id, status: 'resolved' });
    const [answer] = await db()
      .insert(questionAnswers)
      .values({
        userId: player.id,
        questionIssuanceId: issuance.id,
        matchId: match.id,
        selectedAnswerIdentifier: 'home',
        outcome: 'correct',
        scoredAt: new Date(),
      })
      .returning();
    const [row] = await db()
      .insert(userFeedback)
      .values({
        userId: player.id,
        subjectType: 'in_game_answer',
        subjectId: answer!.id,
        topic: 'other',
        matchId: match.id,
        questionIssuanceId: issuance.id,
        createdAt: new Date(AT),
      })
      .returning();
    const res = await app.request('GET', '/api/user-feedback', { token: admin.token, query: { created_from: YEAR_26.from, created_to: YEAR_26.to } });
    expect(res.status, res.text).toBe(200);
    expect(res.body.feedback.map((f: { id: string; created_at: string }) => [f.id, f.created_at])).toEqual([[row!.id, AT]]);
  },
  async updateCurrentUser() {
    const res = await app.request('PATCH', '/api/users/me', { token: player.token, body: { date_of_birth: DAY } });
    expect(res.status, res.text).toBe(200);
    expect(res.body.date_of_birth).toBe(DAY);
    expect((await app.request('GET', '/api/users/me', { token: player.token })).body.date_of_birth).toBe(DAY);
  },
  async createUser() {
    const res = await app.request('POST', '/api/users', {
      token: admin.token,
      body: {
        username: `year26${Date.now().toString(36)}`,
        password: 'long enough pw',
        email: `y26${Date.now().toString(36)}@example.com`,
        date_of_birth: DAY,
      },
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body.date_of_birth).toBe(DAY);
  },
  async updateUser() {
    const other = await registerUser(app);
    const res = await app.request('PATCH', `/api/users/${other.id}`, { token: admin.token, body: { date_of_birth: DAY } });
    expect(res.status, res.text).toBe(200);
    expect(res.body.date_of_birth).toBe(DAY);
  },
  async previewQuestionDefinition() {
    const res = await app.request('POST', '/api/question-definitions/preview', {
      token: admin.token,
      body: {
        league: 'wc',
        question_text_template: 'At {{ event.occurred_at }}?',
        choices: [
          { identifier: 'yes', label_template: 'Yes' },
          { identifier: 'no', label_template: 'No' },
        ],
        sample_event: { type: 'shot', occurred_at: '0026-11-28T12:00:00Z' },
      },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.question_text).toContain('0026-11-28');
    expect(res.body.question_text).not.toContain('1926');
  },
};

describe('the years 0001 to 0099', () => {
  it('are covered for every operation that takes a date or a date-time', () => {
    const doc = contractDocument() as unknown as { paths: Record<string, Record<string, { operationId?: string }>> };
    const text = (v: unknown) => JSON.stringify(v);
    // An operation takes a date when its parameters or request body (references followed) name the format.
    const takesDate = (op: unknown): boolean => /"format":"date(-time)?"/.test(resolvedText(op));
    const resolvedText = (value: unknown, depth = 0): string =>
      depth > 12
        ? ''
        : text(value).replace(/\{"\$ref":"#\/([^"]+)"\}/g, (_m, ref: string) =>
            resolvedText(
              ref.split('/').reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], doc),
              depth + 1,
            ),
          );
    const operations = Object.values(doc.paths).flatMap((item) =>
      Object.values(item)
        .filter((op) => op?.operationId)
        .filter((op) => takesDate({ parameters: (op as { parameters?: unknown }).parameters, requestBody: (op as { requestBody?: unknown }).requestBody }))
        .map((op) => op.operationId!),
    );
    expect(operations.sort()).toEqual(Object.keys(cases).sort());
  });

  for (const [operationId, check] of Object.entries(cases)) it(`are honoured exactly by ${operationId}`, check);
});

describe('instants from fields and from PostgreSQL text', () => {
  it('reads every form PostgreSQL writes exactly, whatever the year, and refuses what is no instant of 0001 to 9999', () => {
    for (const [text, iso] of [
      ['0026-11-28 12:00:00+00', '0026-11-28T12:00:00.000Z'],
      ['0001-01-01 00:00:00+00', '0001-01-01T00:00:00.000Z'],
      ['0099-12-31 23:59:59.999999+00', '0099-12-31T23:59:59.999Z'],
      ['0026-11-28 12:00:00+00:09:21', '0026-11-28T11:50:39.000Z'],
      ['1850-01-01 00:00:00-00:09:21', '1850-01-01T00:09:21.000Z'],
      ['2026-11-28 12:34:56.5+05:30', '2026-11-28T07:04:56.500Z'],
      ['0026-11-28T12:00:00.123456+00:00', '0026-11-28T12:00:00.123Z'],
      ['9999-12-31 23:59:59.999+00', '9999-12-31T23:59:59.999Z'],
    ] as const)
      expect(parsePgTimestamp(text).toISOString(), text).toBe(iso);
    for (const text of ['0026-11-28 12:00:00+00 BC', 'infinity', '26-11-28 12:00:00+00', ''])
      expect(() => parsePgTimestamp(text), text).toThrow(/0001 to 9999/);
  });

  it('builds instants of calendar fields in any year, overflowing like Date.UTC', () => {
    expect(new Date(utcMs(26, 11, 28)).toISOString()).toBe('0026-11-28T00:00:00.000Z');
    expect(new Date(utcMs(26, 12, 32, 25)).toISOString()).toBe('0027-01-02T01:00:00.000Z');
    expect(new Date(utcMs(2026, 3, 0)).toISOString()).toBe('2026-02-28T00:00:00.000Z');
    expect(utcMs(2026, 11, 28, 12, 34, 56)).toBe(Date.UTC(2026, 10, 28, 12, 34, 56));
  });
});
