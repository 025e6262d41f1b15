/**
 * `npm run mock` (Prism) answers contract-valid examples, so frontend teams
 * can build against it; the examples tell one consistent story (the rules in
 * story.ts), in the contract, in the stream document and in what Prism
 * serves for every GET; named examples of the main states are served with
 * `Prefer: example=<name>`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ValidateFunction } from 'ajv';
import { responseValidators } from '../../generated/response-validators.js';
import { contractDocument } from '../../src/http/contract.js';
import { loadAsyncApi, messageProblem } from '../helpers/asyncapi.js';
import WebSocket from 'ws';
import { exampleOf, STORY_START, STREAM_STORY, streamExamples as storyExamples } from '../../scripts/mock-stream.js';
import { assertMatchesContract, contractOperations } from '../helpers/contract.js';
import { freePort } from '../helpers/ports.js';
import { collectTeams, storyProblems, type TeamBook } from './story.js';

const root = path.resolve(import.meta.dirname, '../..');
let prism: ChildProcess;
let base: string;

/** Starts `npm run mock` as package.json runs it (tsx scripts/mock.ts), in its own process group. */
function startMock(args: string[], env: NodeJS.ProcessEnv = {}): { child: ChildProcess; output: () => string } {
  let text = '';
  const child = spawn(path.join(root, 'node_modules/.bin/tsx'), ['scripts/mock.ts', ...args], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  child.stdout!.on('data', (d) => (text += d));
  child.stderr!.on('data', (d) => (text += d));
  return { child, output: () => text };
}

async function waitForMock(url: string, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 45_000;
  for (;;) {
    try {
      await fetch(`${url}/api/leagues`);
      return;
    } catch {
      if (Date.now() > deadline || child.exitCode !== null) throw new Error(`prism did not start:\n${output()}`);
      await new Promise((r) => setTimeout(r, 300));
    }
  }
}

const stopMock = (child: ChildProcess | undefined) => {
  if (child?.pid && child.exitCode === null) process.kill(-child.pid, 'SIGTERM');
};

beforeAll(async () => {
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  // The port from the environment (MOCK_PORT), as a README reader would set it; the stream's story at 600x, a heartbeat a second.
  const started = startMock([], { MOCK_PORT: String(port), MOCK_STREAM_SPEED: '600', MOCK_STREAM_HEARTBEAT_SECONDS: '1' });
  prism = started.child;
  await waitForMock(base, prism, started.output);
});

afterAll(() => {
  stopMock(prism);
});

type Doc = { components: { examples: Record<string, { value: unknown }> } };
type MediaExamples = { example?: unknown; examples?: Record<string, { $ref?: string; value?: unknown }> };

/** Every example of a response in the contract: operation, status, name and value ($refs to components/examples resolved). */
function contractExamples(): { operationId: string; status: string; name: string; value: unknown }[] {
  const doc = contractDocument() as unknown as Doc;
  const out: { operationId: string; status: string; name: string; value: unknown }[] = [];
  for (const op of contractOperations) {
    for (const [status, response] of Object.entries(op.responses)) {
      for (const media of Object.values((response.content ?? {}) as Record<string, MediaExamples>)) {
        if (media.example !== undefined) out.push({ operationId: op.operationId, status, name: 'example', value: media.example });
        for (const [name, ex] of Object.entries(media.examples ?? {})) {
          const value = ex.$ref ? doc.components.examples[ex.$ref.split('/').pop()!]!.value : ex.value;
          out.push({ operationId: op.operationId, status, name, value });
        }
      }
    }
  }
  return out;
}

/** Every example payload of the stream document, by message type. */
const streamExamples = () =>
  Object.values(loadAsyncApi().components.messages as Record<string, { name: string; examples?: { name: string; payload: unknown }[] }>).flatMap((m) =>
    (m.examples ?? []).map((e) => ({ type: m.name, name: e.name, payload: e.payload })),
  );

/** Teams of every match the examples name (contract and stream). */
function storyBook(): { book: TeamBook; problems: string[] } {
  const found = { book: new Map() as TeamBook, problems: [] as string[] };
  for (const e of contractExamples()) collectTeams(e.value, found.book, found.problems, `${e.operationId} ${e.status} ${e.name} `);
  for (const e of streamExamples()) collectTeams(e.payload, found.book, found.problems, `stream ${e.type} ${e.name} `);
  return found;
}

async function call(method: string, p: string, init: RequestInit = {}) {
  const res = await fetch(`${base}${p}`, { method, ...init });
  const text = await res.text();
  const contentType = res.headers.get('content-type') ?? '';
  const body = contentType.includes('json') && text ? JSON.parse(text) : text;
  assertMatchesContract({ method, path: p.split('?')[0]!, status: res.status, contentType, body, text });
  return { status: res.status, body };
}

describe('npm run mock (Prism)', () => {
  it('answers open operations with believable, contract-valid examples', async () => {
    const leagues = await call('GET', '/api/leagues');
    expect(leagues.status).toBe(200);
    expect(leagues.body[0]).toMatchObject({ slug: 'wc', sport: 'football' });
    const brands = await call('GET', '/api/brands');
    expect(brands.body[0].primary_color).toMatch(/^#[0-9a-f]{6}$/);
    const matches = await call('GET', '/api/matches');
    expect(matches.status).toBe(200);
    expect(matches.body[0].home_team).toBeTruthy();
    expect((await call('GET', '/api/user-feedback/form')).status).toBe(200);
  });

  it('answers secured operations with examples when a key is sent, 401 otherwise', async () => {
    const auth = { headers: { authorization: 'Bearer qp_example' } };
    const me = await call('GET', '/api/users/me', auth);
    expect(me.status).toBe(200);
    expect(me.body.email).toContain('@');
    expect((await call('GET', '/api/question-answers/open', auth)).status).toBe(200);
    expect((await call('GET', '/api/users/me')).status).toBe(401);
  });

  it('validates requests against the contract', async () => {
    const res = await call('POST', '/api/auth/register', { headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'x' }) });
    expect(res.status).toBe(422);
  });

  it("answers an operation's errors with its own examples: a 409 about its question, a 422 about its own fields", async () => {
    const json = { 'content-type': 'application/json', authorization: 'Bearer qp_example' };
    const answer = { question_issuance_id: '8f9e0d1c-2b3a-4c5d-8e7f-6a5b4c3d2e1f', selected_answer_identifier: 'away' };
    const conflict = await call('PUT', '/api/question-answers', { headers: { ...json, prefer: 'code=409' }, body: JSON.stringify(answer) });
    expect(conflict.status).toBe(409);
    expect(conflict.body.detail).toMatch(/this question is already/);
    // One of several, by its code, with that code.
    const locked = await fetch(`${base}/api/question-answers`, {
      method: 'PUT',
      headers: { ...json, prefer: 'code=410, example=answer.locked' },
      body: JSON.stringify(answer),
    });
    expect(locked.status).toBe(410);
    expect(locked.headers.get('x-error-code')).toBe('answer.locked');
    expect(((await locked.json()) as { detail: string }).detail).toMatch(/locked at kick-off/);
    const wrong = await call('PUT', '/api/question-answers', { headers: json, body: JSON.stringify({ question_issuance_id: answer.question_issuance_id }) });
    expect(wrong.status).toBe(422);
    for (const issue of wrong.body.detail) expect(['question_issuance_id', 'selected_answer_identifier']).toContain(issue.loc[1]);
  });

  it('takes Prism options after --, a --port among them winning over the default', async () => {
    const port = await freePort();
    // Prism refuses a second --port: it starts only if the default was left out.
    const started = startMock(['--port', String(port)], { MOCK_PORT: '1' });
    try {
      await waitForMock(`http://127.0.0.1:${port}`, started.child, started.output);
      expect((await fetch(`http://127.0.0.1:${port}/api/leagues`)).status).toBe(200);
    } finally {
      stopMock(started.child);
    }
  });

  it('serves the named examples of the main states with Prefer: example=<name>', async () => {
    const match = '/api/matches/7d444840-9dc0-11d1-b245-5ffdce74fad2';
    const prefer = (name: string) => ({ headers: { prefer: `example=${name}`, authorization: 'Bearer qp_example' } });
    for (const status of ['scheduled', 'live', 'closed']) {
      const one = await call('GET', match, prefer(status));
      expect(one.body).toMatchObject({ view: 'player', status, home_team: 'Qatar', away_team: 'Ecuador' });
      expect((await call('GET', '/api/matches', prefer(status))).body[0].status).toBe(status);
    }
    expect((await call('GET', match, prefer('operator'))).body).toMatchObject({ view: 'operator', question_sponsorships: [{ strategy: 'question_number' }] });
    // The default (no Prefer) is the first: the match live.
    expect((await call('GET', match)).body.status).toBe('live');
    for (const status of ['open', 'resolved', 'voided']) {
      expect((await call('GET', `${match}/question-issuances`, prefer(status))).body[0].status).toBe(status);
      expect((await call('GET', '/api/question-answers', prefer(status))).body[0].issuance_status).toBe(status);
    }
    expect((await call('GET', `${match}/question-issuances`, prefer('match_question'))).body[0]).toMatchObject({ kind: 'match', status: 'locked' });
    expect((await call('GET', '/api/question-answers/open', prefer('before_kickoff'))).body[0]).toMatchObject({
      kind: 'match',
      match: { status: 'scheduled' },
    });
  });

  it('answers a board for the period asked for, and one caller the same view of a group in its list and its detail', async () => {
    const auth = { headers: { authorization: 'Bearer qp_example' } };
    const group = '5d7f9b1c-3e5a-4c7e-9f1b-3d5f7a9c1e3b';
    for (const board of ['/api/leaderboards/overall', '/api/leaderboards/leagues/wc', `/api/player-groups/${group}/leaderboard`]) {
      expect((await call('GET', board, auth)).body.period, board).toBe('all_time');
      for (const period of ['all_time', 'day', 'week', 'month']) expect((await call('GET', `${board}?period=${period}`, auth)).body.period, board).toBe(period);
    }
    // The streak boards of the whole game and a league: the ranking asked for.
    for (const board of ['/api/leaderboards/overall', '/api/leaderboards/leagues/wc'])
      for (const rankBy of ['current_streak', 'best_streak']) {
        const body = (await call('GET', `${board}?rank_by=${rankBy}`, auth)).body;
        expect(body.rank_by, board).toBe(rankBy);
        const streaks = body.rows.map((r: Record<string, number>) => r[rankBy]);
        expect(streaks, `${board} ${rankBy}`).toEqual([...streaks].sort((x: number, y: number) => y - x));
      }
    const [listed] = (await call('GET', '/api/player-groups', auth)).body;
    const detail = (await call('GET', `/api/player-groups/${listed.id}`, auth)).body;
    for (const field of ['id', 'name', 'owner_id', 'is_owner', 'invite_code', 'member_count']) expect(detail[field], field).toEqual(listed[field]);
    expect(detail.members).toHaveLength(detail.member_count);
  });

  it('answers every GET with a body that keeps to the story', async () => {
    const { book } = storyBook();
    const auth = { headers: { authorization: 'Bearer qp_example' } };
    const params: Record<string, string> = {
      match_id: '7d444840-9dc0-11d1-b245-5ffdce74fad2',
      brand_id: '9b2f8f3e-4c1a-4d5b-8e6f-7a8b9c0d1e2f',
      user_id: '3f1b2c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d',
      league_id: 'wc',
    };
    type Param = { $ref?: string; name: string; in: string; required?: boolean; schema?: { example?: unknown; enum?: unknown[] }; example?: unknown };
    const parameters = (contractDocument() as { components: { parameters: Record<string, Param> } }).components.parameters;
    const problems: string[] = [];
    let checked = 0;
    for (const op of contractOperations.filter((o) => o.method === 'get' && !o.path.startsWith('/admin'))) {
      const declared = ((op as { parameters?: Param[] }).parameters ?? []).map((p) => (p.$ref ? parameters[p.$ref.split('/').pop()!]! : p));
      const url = op.path.replace(/\{(\w+)\}/g, (_, name: string) => params[name] ?? '2c5e7a90-1b3d-4f6a-8c2e-9d0f1a2b3c4d');
      const query = new URLSearchParams();
      for (const p of declared) if (p.in === 'query' && p.required) query.set(p.name, String(p.example ?? p.schema?.example ?? p.schema?.enum?.[0] ?? 'wc'));
      const res = await call('GET', `${url}${query.size ? `?${query}` : ''}`, auth);
      expect(res.status, `${op.operationId}: ${JSON.stringify(res.body).slice(0, 300)}`).toBe(200);
      if (typeof res.body !== 'object') continue;
      checked++;
      problems.push(...storyProblems(res.body, book, `${op.operationId} `));
    }
    expect(checked).toBeGreaterThan(25);
    expect(problems).toEqual([]);
  });
});

describe('the examples of the contract and of the stream', () => {
  it('are valid and tell one story: same teams for a match everywhere, states that fit their fields', () => {
    const { book, problems } = storyBook();
    expect(book.get('7d444840-9dc0-11d1-b245-5ffdce74fad2')).toEqual(['Qatar', 'Ecuador']);
    for (const e of contractExamples()) {
      const validate = (responseValidators as Record<string, Record<string, ValidateFunction>>)[e.operationId]?.[e.status];
      if (validate && !validate(e.value)) problems.push(`${e.operationId} ${e.status} ${e.name}: ${JSON.stringify(validate.errors).slice(0, 300)}`);
      problems.push(...storyProblems(e.value, book, `${e.operationId} ${e.status} ${e.name} `));
    }
    for (const e of streamExamples()) {
      const invalid = messageProblem(e.payload);
      if (invalid) problems.push(`stream ${e.type} ${e.name}: ${invalid}`);
      problems.push(...storyProblems(e.payload, book, `stream ${e.type} ${e.name} `));
    }
    expect(problems).toEqual([]);
  });

  it('name the main states, each example in the state it is named for', () => {
    const named = (operationId: string) =>
      new Map(
        contractExamples()
          .filter((e) => e.operationId === operationId && e.status.startsWith('2'))
          .map((e) => [e.name, e.value as any]),
      );
    for (const op of ['getMatch', 'listMatches']) {
      const examples = named(op);
      for (const status of ['scheduled', 'live', 'closed']) {
        const value = op === 'getMatch' ? examples.get(status) : examples.get(status)?.[0];
        expect(value, `${op} ${status}`).toMatchObject({ view: 'player', status });
      }
      expect((op === 'getMatch' ? examples.get('operator') : examples.get('operator')?.[0])?.view).toBe('operator');
    }
    for (const [op, field] of [
      ['listMatchQuestionIssuances', 'status'],
      ['listQuestionAnswers', 'issuance_status'],
      ['listUserQuestionAnswers', 'issuance_status'],
    ] as const) {
      const examples = named(op);
      for (const status of ['open', 'resolved', 'voided']) expect(examples.get(status)?.[0]?.[field], `${op} ${status}`).toBe(status);
    }
  });

  it('catch the inconsistencies players met (the rules fail on them)', () => {
    const book: TeamBook = new Map([['m1', ['Qatar', 'Ecuador']]]);
    const ref = { id: 'm1', league: 'wc', home_team: 'Qatar', away_team: 'Ecuador', scheduled: '2026-11-20T19:00:00Z', status: 'live', is_test: false };
    const checks: [unknown, RegExp][] = [
      [
        {
          id: 'm1',
          scheduled: '2026-11-20T19:00:00Z',
          home_team: 'Qatar',
          away_team: 'Ecuador',
          status: 'scheduled',
          period: '1',
          clock_seconds: 1520,
          home_score: 0,
          away_score: 1,
        },
        /scheduled match has no period, clock or score/,
      ],
      [
        {
          id: 'm1',
          scheduled: '2026-11-20T19:00:00Z',
          home_team: 'Qatar',
          away_team: 'Ecuador',
          status: 'live',
          period: null,
          clock_seconds: null,
          home_score: null,
          away_score: null,
        },
        /live match has a period/,
      ],
      [{ question_text: 'Team A 1-0 Team B. Who scores next?', match: ref, choices: [] }, /placeholder team/],
      [{ question_text: 'Brazil 1-0 Serbia. Who scores next?', match: ref, choices: [{ identifier: 'home', label: 'Qatar' }] }, /./],
      [
        {
          match: ref,
          issuance_status: 'open',
          outcome: 'pending',
          correct_answer_identifier: 'home',
          points_awarded: 10,
          points_possible: 10,
          resolved_at: '2026-11-20T20:10:00Z',
        },
        /pending answer has no points/,
      ],
      [{ period: 'today', starts_at: '2026-11-16T00:00:00Z', ends_at: '2026-11-23T00:00:00Z' }, /period today spans 168 hours/],
      [
        { status: 'open', correct_answer_identifier: 'away', resolved_at: '2026-11-20T20:10:00Z', choices: [{ identifier: 'away', label: 'Ecuador' }] },
        /open question has no correct answer/,
      ],
      [
        {
          kind: 'in_game',
          seconds_remaining: 42,
          issued_at: '2026-11-20T19:52:08Z',
          closes_at: '2026-11-20T19:53:08Z',
          match: { ...ref, status: 'scheduled' },
        },
        /open in-game question on a scheduled match/,
      ],
    ];
    // Brazil must be a team the story knows to be caught as another match's.
    book.set('m2', ['Brazil', 'Serbia']);
    for (const [value, problem] of checks) expect(storyProblems(value, book).join('\n'), JSON.stringify(value)).toMatch(problem);
    expect(collectTeams([{ ...ref }, { ...ref, away_team: 'Senegal' }]).problems.join('\n')).toMatch(
      /match m1 is Qatar vs Senegal here but Qatar vs Ecuador elsewhere/,
    );
  });
});

describe('npm run mock: the live stream', () => {
  const wsUrl = (query = '?api_key=qp_example') => `${base.replace('http', 'ws')}/api/play/stream${query}`;

  it("plays the story of the examples on a timer: every message valid and one of openapi/asyncapi.yaml's, heartbeats included", async () => {
    const { book } = storyBook();
    const examples = storyExamples();
    // A group's boards go to its subscribers only: this socket subscribes to none.
    const STORY = STREAM_STORY.filter((step) => step.type !== 'group_leaderboard');
    const ws = new WebSocket(wsUrl());
    const received: Record<string, any>[] = [];
    let pinged = false;
    ws.on('ping', () => (pinged = true));
    const done = new Promise<void>((resolve, reject) => {
      ws.on('message', (data) => {
        received.push(JSON.parse(String(data)));
        if (received.length === STORY.length && pinged) resolve();
      });
      ws.on('ping', () => received.length === STORY.length && resolve());
      ws.on('close', (code) => reject(new Error(`closed ${code} after ${received.length} messages`)));
      ws.on('error', reject);
    });
    await done;
    ws.close();
    expect(received.map((m) => m.type)).toEqual(STORY.map((step) => step.type));
    const problems: string[] = [];
    received.forEach((message, i) => {
      const step = STORY[i]!;
      const invalid = messageProblem(message);
      if (invalid) problems.push(`${step.type} ${step.example}: ${invalid}`);
      problems.push(...storyProblems(message, book, `stream ${step.type} ${step.example} `));
      // The example as it is, but for what the story clock writes.
      const expected = structuredClone(exampleOf(examples, step)) as Record<string, any>;
      if (message.type === 'hello') {
        expect(Date.parse(message.server_time)).toBeGreaterThanOrEqual(Date.parse(STORY_START));
        expect(message.heartbeat_seconds).toBe(1);
        Object.assign(expected, { server_time: message.server_time, heartbeat_seconds: 1 });
      }
      const questions: [Record<string, any>, Record<string, any>][] =
        message.type === 'open_questions'
          ? message.questions.map((q: Record<string, any>, j: number) => [q, expected.questions[j]])
          : message.type === 'question'
            ? [[message.question, expected.question]]
            : [];
      for (const [got, want] of questions) {
        expect(got.seconds_remaining).toBeGreaterThanOrEqual(0);
        expect(got.seconds_remaining).toBeLessThanOrEqual(want.seconds_remaining);
        want.seconds_remaining = got.seconds_remaining;
      }
      expect(message, `${step.type} ${step.example}`).toEqual(expected);
    });
    expect(problems).toEqual([]);
    // Every kind of live message a screen shows is in the story.
    expect(new Set(received.map((m) => m.type))).toEqual(
      new Set(['hello', 'open_questions', 'question', 'resolution', 'leaderboard', 'match_state', 'match_closed']),
    );
  });

  it("sends a subscribed group's boards after the match's, and answers subscribe_group and unsubscribe_group as the service does", async () => {
    const office = '5d7f9b1c-3e5a-4c7e-9f1b-3d5f7a9c1e3b';
    const groupSteps = STREAM_STORY.filter((step) => step.type === 'group_leaderboard');
    expect(groupSteps.length).toBeGreaterThan(0);
    const ws = new WebSocket(wsUrl());
    const received: Record<string, any>[] = [];
    await new Promise<void>((resolve, reject) => {
      ws.on('open', () => {
        ws.send(JSON.stringify({ type: 'subscribe_group', group_id: office }));
        ws.send(JSON.stringify({ type: 'subscribe_group', group_id: 'not-a-uuid' }));
      });
      ws.on('message', (data) => {
        received.push(JSON.parse(String(data)));
        if (received.filter((m) => m.type === 'group_leaderboard').length === groupSteps.length) {
          ws.send(JSON.stringify({ type: 'unsubscribe_group', group_id: office }));
        }
        if (received.some((m) => m.type === 'group_unsubscribed')) resolve();
      });
      ws.on('error', reject);
    });
    ws.close();
    for (const message of received) expect(messageProblem(message), message.type).toBeUndefined();
    const replies = received.filter((m) => ['group_subscribed', 'group_unsubscribed', 'error'].includes(m.type));
    expect(replies).toEqual([
      { type: 'group_subscribed', group_id: office },
      expect.objectContaining({ type: 'error', code: 'stream.unknown_message' }),
      { type: 'group_unsubscribed', group_id: office, reason: 'requested' },
    ]);
    const types = received.map((m) => m.type);
    // Each group board right after the match's board.
    types.forEach((t, i) => t === 'group_leaderboard' && expect(types[i - 1]).toBe('leaderboard'));
    const examples = storyExamples();
    expect(received.filter((m) => m.type === 'group_leaderboard')).toEqual(groupSteps.map((step) => exampleOf(examples, step)));
  });

  it('answers a ping with pong and anything else with error, as the service does', async () => {
    const ws = new WebSocket(wsUrl());
    const replies: Record<string, any>[] = [];
    await new Promise<void>((resolve, reject) => {
      ws.on('open', () => {
        ws.send(JSON.stringify({ type: 'ping' }));
        ws.send('hello?');
      });
      ws.on('message', (data) => {
        const message = JSON.parse(String(data));
        if (message.type === 'pong' || message.type === 'error') replies.push(message);
        if (replies.length === 2) resolve();
      });
      ws.on('error', reject);
    });
    ws.close();
    for (const reply of replies) expect(messageProblem(reply)).toBeUndefined();
    expect(replies.map((r) => r.type)).toEqual(['pong', 'error']);
  });

  it('closes a socket without api_key with 4401, and answers another path 404', async () => {
    const closed = await new Promise<{ code: number; reason: string }>((resolve, reject) => {
      const ws = new WebSocket(wsUrl(''));
      ws.on('close', (code, reason) => resolve({ code, reason: String(reason) }));
      ws.on('error', reject);
    });
    const documented = loadAsyncApi().info['x-close-codes'].find((c) => c.code === 4401)!;
    expect(closed.code).toBe(4401);
    expect(documented.reason.split(' | ')).toContain(closed.reason);
    const status = await new Promise<number>((resolve) => {
      const ws = new WebSocket(`${base.replace('http', 'ws')}/api/play/elsewhere?api_key=x`);
      ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
      ws.on('error', () => {});
    });
    expect(status).toBe(404);
  });
});

describe("the stream mock's story", () => {
  const examples = storyExamples();
  const at = (step: { at: string }) => Date.parse(step.at);
  const KICKOFF = Date.parse('2026-11-20T19:00:00Z');

  it('sends only examples, in time order, each no later than what it says happened', () => {
    const problems: string[] = [];
    STREAM_STORY.forEach((step, i) => {
      const where = `${step.type} ${step.example}`;
      const m = exampleOf(examples, step) as Record<string, any>;
      if (i > 0 && at(step) < at(STREAM_STORY[i - 1]!)) problems.push(`${where}: before the step above it`);
      if (m.type === 'question' && Date.parse(m.question.issued_at) !== at(step))
        problems.push(`${where}: sent at ${step.at}, issued at ${m.question.issued_at}`);
      if (m.type === 'resolution' && Date.parse(m.resolved_at) > at(step)) problems.push(`${where}: sent before it resolved`);
      if (m.type === 'leaderboard' || m.type === 'group_leaderboard')
        for (const row of [...(m.top ?? m.rows), m.me])
          if (Date.parse(row.reached_at) > at(step)) problems.push(`${where}: a row reached later than it is sent`);
      // The clock runs from 19:00:00 while the match is played, and stops at full time.
      if (m.type === 'match_state' && m.match.status === 'live' && m.match.clock_seconds * 1000 !== at(step) - KICKOFF)
        problems.push(`${where}: clock ${m.match.clock_seconds} s at ${step.at}`);
    });
    expect(problems).toEqual([]);
    expect(STREAM_STORY[0]).toMatchObject({ at: STORY_START, type: 'hello' });
  });
});
