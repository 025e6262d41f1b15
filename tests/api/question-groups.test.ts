import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { domainErrors } from '../../src/modules/shared/domain.errors.js';
import { groupErrors } from '../../src/modules/groups/groups.errors.js';
import { questionGroups } from '../../src/modules/groups/groups.table.js';
import { leagueErrors } from '../../src/modules/leagues/leagues.errors.js';
import { leagues } from '../../src/modules/leagues/leagues.table.js';
import { parseCsv } from '../helpers/csv.js';
import { createInLeague, inGameDefinitionInput } from '../helpers/definitions.js';
import { expectError } from '../helpers/errors.js';
import { leagueBySlug } from '../helpers/factories.js';
import { useTestApp } from '../helpers/use-test-app.js';

const { app, admin, player } = useTestApp({ player: true });

let n = 0;
const slug = (prefix = 'g') => `${prefix}-${n++}`;

const createGroup = (league: string, body: Record<string, unknown> = {}) =>
  createInLeague(app, admin, '/api/question-groups', league, { slug: slug(), name: 'Goal questions', ...body });

const groupCount = async () => (await app.services.database.db.select().from(questionGroups)).length;

describe('admin only', () => {
  it('answers 401 without a key and 403 for a player on every group operation', async () => {
    const group = await createGroup('wc');
    const calls: [string, string, Record<string, unknown>][] = [
      ['GET', '/api/question-groups', { query: { league: 'wc' } }],
      ['POST', '/api/question-groups', { query: { league: 'wc' }, body: { slug: slug(), name: 'x' } }],
      ['GET', '/api/question-groups/export', {}],
      ['GET', `/api/question-groups/${group.id}`, {}],
      ['PATCH', `/api/question-groups/${group.id}`, { body: { name: 'Renamed' } }],
      ['DELETE', `/api/question-groups/${group.id}`, {}],
    ];
    const before = await groupCount();
    for (const [method, path, opts] of calls) {
      expect((await app.request(method, path, opts)).status, `${method} ${path} without key`).toBe(401);
      expect((await app.request(method, path, { ...opts, token: player.token })).status, `${method} ${path} as player`).toBe(403);
    }
    expect(await groupCount()).toBe(before);
    expect((await app.request('GET', `/api/question-groups/${group.id}`, { token: admin.token })).body.name).toBe('Goal questions');
  });
});

describe('the league query parameter', () => {
  it('answers 400 naming an unsupported slug, on list and create', async () => {
    const list = await app.request('GET', '/api/question-groups', { token: admin.token, query: { league: 'xfl' } });
    expectError(list, domainErrors.unsupportedLeague);
    expect(list.body.detail).toContain("'xfl'");
    const create = await app.request('POST', '/api/question-groups', { token: admin.token, query: { league: 'xfl' }, body: { slug: slug(), name: 'x' } });
    expectError(create, domainErrors.unsupportedLeague);
    expect(create.body.detail).toContain("'xfl'");
  });

  it('answers 404 for a supported league missing from the database', async () => {
    await app.services.database.db.delete(leagues).where(eq(leagues.slug, 'mls'));
    expectError(await app.request('GET', '/api/question-groups', { token: admin.token, query: { league: 'mls' } }), leagueErrors.notFound);
    const create = await app.request('POST', '/api/question-groups', { token: admin.token, query: { league: 'mls' }, body: { slug: slug(), name: 'x' } });
    expectError(create, leagueErrors.notFound);
    expect(create.body.detail).toContain('mls');
  });
});

describe('POST /api/question-groups', () => {
  it('creates a group with defaults for the fields left out', async () => {
    const wc = await leagueBySlug(app, 'wc');
    const s = slug();
    const res = await app.request('POST', '/api/question-groups', { token: admin.token, query: { league: 'wc' }, body: { slug: s, name: '  Corners  ' } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      league: 'wc',
      league_id: wc.id,
      slug: s,
      name: 'Corners',
      description: null,
      max_open_questions: 1,
      question_max_count: null,
      min_interval_seconds: null,
      period_distribution: null,
      answer_window_seconds: null,
      points: null,
      probability: null,
    });
    expect((await app.request('GET', `/api/question-groups/${res.body.id}`, { token: admin.token })).body).toEqual(res.body);
  });

  it('stores every override', async () => {
    const body = {
      slug: slug(),
      name: 'Goals',
      description: 'Who scores next',
      max_open_questions: 2,
      question_max_count: 4,
      min_interval_seconds: 180,
      period_distribution: { '1': 2, '2': 3 },
      answer_window_seconds: 45,
      points: 15,
      probability: 0.5,
    };
    const res = await app.request('POST', '/api/question-groups', { token: admin.token, query: { league: 'wc' }, body });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject(body);
  });

  it.each(['', 'Goals', '-goals', '_goals', 'go als', 'gö', 'goals!', 'a'.repeat(65)])('answers 400 for the slug %j and writes nothing', async (bad) => {
    const before = await groupCount();
    const res = await app.request('POST', '/api/question-groups', { token: admin.token, query: { league: 'wc' }, body: { slug: bad, name: 'x' } });
    expectError(res, groupErrors.invalidSlug);
    expect(await groupCount()).toBe(before);
  });

  it.each(['0', '9lives', 'a-b_c', 'z'.repeat(64)])('accepts the slug %j', async (good) => {
    expect((await app.request('POST', '/api/question-groups', { token: admin.token, query: { league: 'nhl' }, body: { slug: good, name: 'x' } })).status).toBe(
      201,
    );
  });

  it('answers 409 for a slug taken in the league; the same slug in another league is fine', async () => {
    const s = slug('dup');
    expect((await app.request('POST', '/api/question-groups', { token: admin.token, query: { league: 'wc' }, body: { slug: s, name: 'a' } })).status).toBe(201);
    const again = await app.request('POST', '/api/question-groups', { token: admin.token, query: { league: 'wc' }, body: { slug: s, name: 'b' } });
    expectError(again, groupErrors.slugTaken);
    expect(again.body.detail).toContain(s);
    expect((await app.request('POST', '/api/question-groups', { token: admin.token, query: { league: 'nfl' }, body: { slug: s, name: 'c' } })).status).toBe(
      201,
    );
  });

  it('answers 409 to one of two simultaneous creates of the same slug', async () => {
    const s = slug('race');
    const results = await Promise.all(
      [1, 2, 3].map(() => app.request('POST', '/api/question-groups', { token: admin.token, query: { league: 'wc' }, body: { slug: s, name: 'x' } })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409]);
  });

  it.each([
    ['an array', [1, 2]],
    ['a string', 'five'],
    ['a fractional value', { '1': 2.5 }],
    ['a negative value', { '1': -1 }],
    ['a numeric string', { '1': '3' }],
    ['a period of another sport', { '3': 1 }],
  ])('answers 400 for a period distribution that is %s', async (_label, value) => {
    const before = await groupCount();
    const res = await app.request('POST', '/api/question-groups', {
      token: admin.token,
      query: { league: 'wc' },
      body: { slug: slug(), name: 'x', period_distribution: value },
    });
    expectError(res, leagueErrors.periodDistributionInvalid);
    expect(res.body.detail).toContain('period_distribution');
    expect(await groupCount()).toBe(before);
  });

  it("checks the period map against the league's sport", async () => {
    const res = await app.request('POST', '/api/question-groups', {
      token: admin.token,
      query: { league: 'nfl' },
      body: { slug: slug(), name: 'x', period_distribution: { '3': 1, ot: 0 } },
    });
    expect(res.status).toBe(201);
    expect(res.body.period_distribution).toEqual({ '3': 1, ot: 0 });
  });

  it('answers 422, not 500, for NUL characters in text, writing nothing', async () => {
    const before = await groupCount();
    for (const body of [{ name: 'a\u0000' }, { name: 'a', description: '\u0000' }]) {
      const res = await app.request('POST', '/api/question-groups', { token: admin.token, query: { league: 'wc' }, body: { slug: slug(), ...body } });
      expect(res.status).toBe(422);
      expect(res.body.detail[0].type).toBe('nul_character');
    }
    expect(await groupCount()).toBe(before);
    const group = await createGroup('wc');
    expect((await app.request('PATCH', `/api/question-groups/${group.id}`, { token: admin.token, body: { description: '\u0000' } })).status).toBe(422);
  });

  it('answers 400 for a blank name and 422 for fields outside the contract', async () => {
    expectError(
      await app.request('POST', '/api/question-groups', { token: admin.token, query: { league: 'wc' }, body: { slug: slug(), name: '   ' } }),
      groupErrors.invalidName,
    );
    expect(
      (await app.request('POST', '/api/question-groups', { token: admin.token, query: { league: 'wc' }, body: { slug: slug(), name: 'x', league_id: 'x' } }))
        .status,
    ).toBe(422);
    expect(
      (
        await app.request('POST', '/api/question-groups', {
          token: admin.token,
          query: { league: 'wc' },
          body: { slug: slug(), name: 'x', max_open_questions: 0 },
        })
      ).status,
    ).toBe(422);
    expect((await app.request('POST', '/api/question-groups', { token: admin.token, body: { slug: slug(), name: 'x' } })).status).toBe(422);
  });
});

describe('GET /api/question-groups', () => {
  it("lists the league's groups ordered by slug", async () => {
    const a = await createGroup('nba', { slug: 'zz-last' });
    const b = await createGroup('nba', { slug: '00-first' });
    await createGroup('mlb', { slug: 'other-league' });
    const res = await app.request('GET', '/api/question-groups', { token: admin.token, query: { league: 'nba' } });
    expect(res.status).toBe(200);
    expect(res.body.map((g: { id: string }) => g.id)).toEqual([b.id, a.id]);
    expect(res.body.every((g: { league: string }) => g.league === 'nba')).toBe(true);
  });

  it('orders slugs by their bytes (- before digits before _ before letters), whatever the collation', async () => {
    for (const s of ['q_b', 'qb', 'q-b', 'q0']) await createGroup('nhl', { slug: s });
    const res = await app.request('GET', '/api/question-groups', { token: admin.token, query: { league: 'nhl' } });
    const slugs = res.body.map((g: { slug: string }) => g.slug).filter((s: string) => /^q[-_0b]/.test(s));
    expect(slugs).toEqual(['q-b', 'q0', 'q_b', 'qb']);
  });
});

describe('GET/PATCH /api/question-groups/{group_id}', () => {
  it('answers 404 for an unknown group', async () => {
    const id = '00000000-0000-4000-8000-000000000000';
    const get = await app.request('GET', `/api/question-groups/${id}`, { token: admin.token });
    expectError(get, groupErrors.notFound);
    expectError(await app.request('PATCH', `/api/question-groups/${id}`, { token: admin.token, body: { name: 'x' } }), groupErrors.notFound);
    expect((await app.request('GET', '/api/question-groups/not-a-uuid', { token: admin.token })).status).toBe(422);
  });

  it('changes only the fields sent; null clears an override', async () => {
    const group = await createGroup('wc', { points: 15, min_interval_seconds: 100, period_distribution: { '1': 1 }, description: 'd' });
    const res = await app.request('PATCH', `/api/question-groups/${group.id}`, {
      token: admin.token,
      body: { name: 'Renamed', points: null, period_distribution: null },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ...group, name: 'Renamed', points: null, period_distribution: null, updated_at: res.body.updated_at });
    const again = await app.request('PATCH', `/api/question-groups/${group.id}`, {
      token: admin.token,
      body: { period_distribution: { '2': 4 }, max_open_questions: 3 },
    });
    expect(again.body).toMatchObject({ name: 'Renamed', period_distribution: { '2': 4 }, max_open_questions: 3, min_interval_seconds: 100, description: 'd' });
  });

  it('accepts the current slug and refuses another with 400, changing nothing', async () => {
    const group = await createGroup('wc');
    const same = await app.request('PATCH', `/api/question-groups/${group.id}`, { token: admin.token, body: { slug: group.slug, name: 'Same slug' } });
    expect(same.status).toBe(200);
    expect(same.body).toMatchObject({ slug: group.slug, name: 'Same slug' });
    const other = await app.request('PATCH', `/api/question-groups/${group.id}`, { token: admin.token, body: { slug: `${group.slug}-x`, name: 'Other slug' } });
    expectError(other, groupErrors.slugImmutable);
    expect((await app.request('GET', `/api/question-groups/${group.id}`, { token: admin.token })).body).toMatchObject({ slug: group.slug, name: 'Same slug' });
  });

  it('answers 400 for an invalid period map, changing nothing', async () => {
    const group = await createGroup('nhl', { period_distribution: { so: 1 } });
    for (const value of [{ '4': 1 }, 'x', [1], { '1': 1001 }]) {
      const res = await app.request('PATCH', `/api/question-groups/${group.id}`, { token: admin.token, body: { period_distribution: value, name: 'Changed' } });
      expectError(res, leagueErrors.periodDistributionInvalid);
      expect(res.body.detail).toContain('period_distribution');
    }
    expect((await app.request('GET', `/api/question-groups/${group.id}`, { token: admin.token })).body).toEqual(group);
  });

  it('answers 422 for an empty patch or server-managed fields', async () => {
    const group = await createGroup('wc');
    expect((await app.request('PATCH', `/api/question-groups/${group.id}`, { token: admin.token, body: {} })).status).toBe(422);
    expect((await app.request('PATCH', `/api/question-groups/${group.id}`, { token: admin.token, body: { league_id: group.league_id } })).status).toBe(422);
  });
});

describe('DELETE /api/question-groups/{group_id}', () => {
  it('answers 409 stating the count while definitions reference the group, 204 once none do', async () => {
    const group = await createGroup('wc');
    const defs = [];
    for (let i = 0; i < 2; i++) {
      const res = await app.request('POST', '/api/question-definitions', {
        token: admin.token,
        query: { league: 'wc' },
        body: inGameDefinitionInput({ group_id: group.id }),
      });
      expect(res.status).toBe(201);
      defs.push(res.body);
    }
    const refused = await app.request('DELETE', `/api/question-groups/${group.id}`, { token: admin.token });
    expectError(refused, groupErrors.inUse);
    // The message states the count.
    expect(refused.body.detail).toContain('2 question definitions');
    expect((await app.request('GET', `/api/question-groups/${group.id}`, { token: admin.token })).status).toBe(200);

    for (const def of defs) expect((await app.request('DELETE', `/api/question-definitions/${def.id}`, { token: admin.token })).status).toBe(204);
    expect((await app.request('DELETE', `/api/question-groups/${group.id}`, { token: admin.token })).status).toBe(204);
    expectError(await app.request('GET', `/api/question-groups/${group.id}`, { token: admin.token }), groupErrors.notFound);
    expectError(await app.request('DELETE', `/api/question-groups/${group.id}`, { token: admin.token }), groupErrors.notFound);
  });
});

describe('GET /api/question-groups/export', () => {
  it('is a CSV of every group of every league ordered by league and slug, JSON as JSON, formula-safe', async () => {
    await createGroup('nfl', {
      slug: 'zz-export',
      name: '=HYPERLINK("http://x")',
      description: '-2+3',
      period_distribution: { '1': 2, ot: 1 },
      probability: 0.25,
    });
    await createGroup('nfl', { slug: 'aa-export', name: '@SUM(A1)', description: '\tTabbed' });
    await createGroup('mlb', { slug: 'mm-export', name: '+1', description: '\rcr' });
    const res = await app.request('GET', '/api/question-groups/export', { token: admin.token });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(res.headers.get('content-disposition')).toContain('question-groups.csv');

    const [header, ...data] = await parseCsv(res.text);
    expect(header).toEqual([
      'id',
      'league',
      'slug',
      'name',
      'description',
      'max_open_questions',
      'question_max_count',
      'min_interval_seconds',
      'period_distribution',
      'answer_window_seconds',
      'points',
      'probability',
      'min_answer_seconds',
    ]);
    const all = await app.services.database.db.select().from(questionGroups);
    expect(data).toHaveLength(all.length);
    const keys = data.map((r) => `${r[1]}/${r[2]}`);
    expect(keys).toEqual([...keys].sort());
    expect(new Set(data.map((r) => r[1]))).toEqual(new Set(['wc', 'nfl', 'nba', 'mlb', 'nhl']));

    const byKey = new Map(data.map((r) => [`${r[1]}/${r[2]}`, Object.fromEntries(header!.map((h, i) => [h, r[i]]))]));
    expect(byKey.get('nfl/zz-export')).toMatchObject({
      name: `'=HYPERLINK("http://x")`,
      description: "'-2+3",
      period_distribution: '{"1":2,"ot":1}',
      probability: '0.25',
      points: '',
    });
    expect(byKey.get('nfl/aa-export')).toMatchObject({ name: "'@SUM(A1)", description: "'\tTabbed" });
    expect(byKey.get('mlb/mm-export')).toMatchObject({ name: "'+1", description: "'\rcr" });
    expect(JSON.parse(byKey.get('nfl/zz-export')!.period_distribution!)).toEqual({ '1': 2, ot: 1 });
  });

  it('reads large tables in pages without losing or repeating a row', async () => {
    const nfl = await leagueBySlug(app, 'nfl');
    const nba = await leagueBySlug(app, 'nba');
    const values = [nfl, nba].flatMap((league) =>
      Array.from({ length: 700 }, (_, i) => ({ leagueId: league.id, slug: `bulk${i % 3 === 0 ? '-' : i % 3 === 1 ? '_' : ''}${i}`, name: `Bulk ${i}` })),
    );
    await app.services.database.db.insert(questionGroups).values(values);
    const res = await app.request('GET', '/api/question-groups/export', { token: admin.token });
    expect(res.status).toBe(200);
    const [, ...data] = await parseCsv(res.text);
    expect(data).toHaveLength(await groupCount());
    const keys = data.map((r) => `${r[1]} ${r[2]}`);
    expect(new Set(keys).size).toBe(keys.length);
    const byteOrder = [...keys].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
    expect(keys).toEqual(byteOrder);
  });
});
