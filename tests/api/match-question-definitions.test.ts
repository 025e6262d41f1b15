import { randomUUID } from 'node:crypto';
import { eq, inArray } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { questionIssuances } from '../../src/modules/issuances/issuances.table.js';
import { leagues } from '../../src/modules/leagues/leagues.table.js';
import { matchQuestionDefinitions } from '../../src/modules/definitions/match-definitions.table.js';
import { matches } from '../../src/modules/matches/matches.table.js';
import { createMatchDefinition, inGameDefinitionInput, matchDefinitionInput } from '../helpers/definitions.js';
import { insertIssuanceOf } from '../helpers/engine-rows.js';
import { createMatch, leagueBySlug, UNKNOWN_ID } from '../helpers/factories.js';
import { useTestApp } from '../helpers/use-test-app.js';

const { app, admin, player } = useTestApp({ player: true });

const db = () => app.services.database.db;
const BASE = '/api/match-question-definitions';

const create = (league: string, overrides: Parameters<typeof matchDefinitionInput>[0] = {}) => createMatchDefinition(app, admin, league, overrides);

const definitionCount = async () => (await db().select().from(matchQuestionDefinitions)).length;

/** A new question group of the league; its id. */
async function newGroup(league: string): Promise<string> {
  const res = await app.request('POST', '/api/question-groups', {
    token: admin.token,
    query: { league },
    body: { slug: `g-${randomUUID().slice(0, 8)}`, name: 'Group' },
  });
  if (res.status !== 201) throw new Error(`group: ${res.status} ${res.text}`);
  return res.body.id;
}

const insertIssuance = (matchQuestionDefinitionId: string, questionText = 'Who wins?') =>
  insertIssuanceOf(app, { matchQuestionDefinitionId }, { questionText });

describe('auth', () => {
  it('answers 401 without a key and 403 for a player on every admin operation, writing nothing', async () => {
    const def = await create('wc');
    const calls: [string, string, Record<string, unknown>][] = [
      ['POST', BASE, { query: { league: 'wc' }, body: matchDefinitionInput() }],
      ['PUT', `${BASE}/${def.id}`, { body: matchDefinitionInput() }],
      ['DELETE', `${BASE}/${def.id}`, {}],
      ['POST', `${BASE}/${def.id}/clone`, {}],
      ['POST', `${BASE}/${def.id}/archive`, {}],
      ['POST', `${BASE}/${def.id}/activate`, {}],
    ];
    const before = await definitionCount();
    for (const [method, path, opts] of calls) {
      expect((await app.request(method, path, opts)).status, `${method} ${path} without key`).toBe(401);
      expect((await app.request(method, path, { ...opts, token: player.token })).status, `${method} ${path} as player`).toBe(403);
    }
    expect(await definitionCount()).toBe(before);
    expect((await app.request('GET', `${BASE}/${def.id}`)).body).toEqual(def);
  });

  it('lists and gets without a key', async () => {
    const def = await create('wc');
    expect((await app.request('GET', BASE, { query: { league: 'wc' } })).body.map((d: { id: string }) => d.id)).toContain(def.id);
    expect((await app.request('GET', `${BASE}/${def.id}`)).status).toBe(200);
  });
});

describe('the league query parameter', () => {
  it('answers 400 naming an unsupported slug', async () => {
    const list = await app.request('GET', BASE, { query: { league: 'xfl' } });
    expect(list.status).toBe(400);
    expect(list.body.detail).toContain("'xfl'");
    const created = await app.request('POST', BASE, { token: admin.token, query: { league: 'xfl' }, body: matchDefinitionInput() });
    expect(created.status).toBe(400);
    expect(created.body.detail).toContain("'xfl'");
  });

  it('answers 404 for a supported league missing from the database', async () => {
    await db().delete(leagues).where(eq(leagues.slug, 'mls'));
    expect((await app.request('GET', BASE, { query: { league: 'mls' } })).status).toBe(404);
    expect((await app.request('POST', BASE, { token: admin.token, query: { league: 'mls' }, body: matchDefinitionInput() })).status).toBe(404);
  });
});

describe('POST /api/match-question-definitions', () => {
  it('creates a definition with defaults for the optional fields', async () => {
    const wc = await leagueBySlug(app, 'wc');
    const input = matchDefinitionInput();
    const res = await app.request('POST', BASE, { token: admin.token, query: { league: 'wc' }, body: input });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      league: 'wc',
      league_id: wc.id,
      name: input.name,
      description: null,
      is_pivotal_moment: false,
      is_active: true,
      group_id: null,
      question_text_template: input.question_text_template,
      choices: input.choices,
      issuance_state_extract: null,
      store_state: null,
      issue_lead_seconds: 86400,
      resolution: input.resolution,
      points: null,
    });
    expect((await app.request('GET', `${BASE}/${res.body.id}`)).body).toEqual(res.body);
  });

  it('answers 409 for a name taken in the league without regard to case; another league or the other kind is fine', async () => {
    const def = await create('wc', { name: 'Who wins the final' });
    const dup = await app.request('POST', BASE, { token: admin.token, query: { league: 'wc' }, body: matchDefinitionInput({ name: 'WHO WINS THE FINAL' }) });
    expect(dup.status).toBe(409);
    expect(dup.body.detail).toContain('WHO WINS THE FINAL');
    expect((await create('nfl', { name: def.name })).name).toBe(def.name);
    const inGame = await app.request('POST', '/api/question-definitions', {
      token: admin.token,
      query: { league: 'wc' },
      body: inGameDefinitionInput({ name: def.name }),
    });
    expect(inGame.status).toBe(201);
  });

  it('settles simultaneous creates of one name with the unique index', async () => {
    const name = `Race ${randomUUID()}`;
    const results = await Promise.all(
      [1, 2, 3].map(() => app.request('POST', BASE, { token: admin.token, query: { league: 'wc' }, body: matchDefinitionInput({ name }) })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409]);
  });

  it.each([
    ['question_text_template', { question_text_template: '{% for x in %}' }],
    [
      'choices[2].label_template',
      {
        choices: [
          { identifier: 'a', label_template: 'A' },
          { identifier: 'b', label_template: 'B' },
          { identifier: 'c', label_template: '{{ x | nope }}' },
        ],
      },
    ],
    ['resolution.correct_choice', { resolution: { correct_choice: 'result.winner = ' } }],
  ])('answers 400 naming %s when it does not compile, and writes nothing', async (field, overrides) => {
    const before = await definitionCount();
    const res = await app.request('POST', BASE, { token: admin.token, query: { league: 'wc' }, body: matchDefinitionInput(overrides) });
    expect(res.status).toBe(400);
    expect(res.body.detail).toContain(field);
    expect(await definitionCount()).toBe(before);
  });

  it('answers 400 for duplicate choice identifiers or a blank name, 422 for server-managed fields', async () => {
    const dup = await app.request('POST', BASE, {
      token: admin.token,
      query: { league: 'wc' },
      body: matchDefinitionInput({
        choices: [
          { identifier: 'home', label_template: 'A' },
          { identifier: 'home', label_template: 'B' },
        ],
      }),
    });
    expect(dup.status).toBe(400);
    expect(dup.body.detail).toContain("choices[1].identifier 'home'");
    expect((await app.request('POST', BASE, { token: admin.token, query: { league: 'wc' }, body: matchDefinitionInput({ name: ' ' }) })).status).toBe(400);
    expect((await app.request('POST', BASE, { token: admin.token, query: { league: 'wc' }, body: { ...matchDefinitionInput(), id: UNKNOWN_ID } })).status).toBe(
      422,
    );
    expect(
      (await app.request('POST', BASE, { token: admin.token, query: { league: 'wc' }, body: { ...matchDefinitionInput(), is_archived: true } })).status,
    ).toBe(422);
  });
});

describe('the fields the two kinds share (is_pivotal_moment, group_id, store_state, issuance_state_extract)', () => {
  it('takes a group of the league only (400 naming it), and expressions that compile (400 naming the field); nothing written', async () => {
    const own = await newGroup('wc');
    const other = await newGroup('nfl');
    const before = await definitionCount();
    for (const [overrides, detail] of [
      [{ group_id: other }, `group_id: ${other} is not a question group of league 'wc'`],
      [{ group_id: UNKNOWN_ID }, `group_id: ${UNKNOWN_ID} is not a question group of league 'wc'`],
      [{ store_state: { n: '(state.n' } }, 'store_state.n'],
      [{ issuance_state_extract: { v: 'match.[' } }, 'issuance_state_extract.v'],
    ] as const) {
      const res = await app.request('POST', BASE, { token: admin.token, query: { league: 'wc' }, body: matchDefinitionInput(overrides) });
      expect(res.status, res.text).toBe(400);
      expect(res.body.detail).toContain(detail);
    }
    expect(await definitionCount()).toBe(before);
    const ok = await create('wc', { group_id: own.toUpperCase(), is_pivotal_moment: true });
    expect(ok).toMatchObject({ group_id: own, is_pivotal_moment: true });
  });

  it('lists by is_pivotal_moment', async () => {
    const pivotal = await create('mlb', { is_pivotal_moment: true });
    const regular = await create('mlb');
    const ids = async (flag: string) =>
      ((await app.request('GET', BASE, { query: { league: 'mlb', is_pivotal_moment: flag } })).body as { id: string }[]).map((d) => d.id);
    expect(await ids('true')).toContain(pivotal.id);
    expect(await ids('true')).not.toContain(regular.id);
    expect(await ids('false')).toContain(regular.id);
    expect(await ids('false')).not.toContain(pivotal.id);
  });

  it('keeps a group in use by a Match question definition from being deleted (409 with the count of both kinds)', async () => {
    const group = await newGroup('wc');
    const def = await create('wc', { group_id: group });
    await app.request('POST', '/api/question-definitions', { token: admin.token, query: { league: 'wc' }, body: inGameDefinitionInput({ group_id: group }) });
    const refused = await app.request('DELETE', `/api/question-groups/${group}`, { token: admin.token });
    expect(refused.status).toBe(409);
    expect(refused.body.detail).toContain('used by 2 question definitions');
    await app.request('PUT', `${BASE}/${def.id}`, { token: admin.token, body: matchDefinitionInput({ name: def.name }) });
    expect((await app.request('DELETE', `/api/question-groups/${group}`, { token: admin.token })).body.detail).toContain('used by 1 question definition;');
  });
});

describe('input PostgreSQL cannot store', () => {
  it('answers 422, not 500, for NUL characters, writing nothing', async () => {
    const before = await definitionCount();
    for (const overrides of [
      { name: '\u0000' },
      { question_text_template: 'Who\u0000' },
      {
        choices: [
          { identifier: 'a', label_template: 'A' },
          { identifier: 'b', label_template: 'B\u0000' },
        ],
      },
    ]) {
      const res = await app.request('POST', BASE, { token: admin.token, query: { league: 'wc' }, body: matchDefinitionInput(overrides) });
      expect(res.status, JSON.stringify(overrides)).toBe(422);
      expect(res.body.detail[0].type).toBe('nul_character');
    }
    expect(await definitionCount()).toBe(before);
    expect((await app.request('GET', BASE, { query: { league: 'wc', q: '\u0000' } })).status).toBe(422);
    expect((await app.request('GET', BASE, { query: { league: 'wc', updated_from: '2016-12-31T23:59:60Z', updated_to: '2017-01-01T00:00:00Z' } })).status).toBe(
      422,
    );
  });
});

describe('GET /api/match-question-definitions', () => {
  const league = 'nba';
  let defs: Record<string, { id: string; name: string }>;

  beforeAll(async () => {
    defs = {
      a: await create(league, { name: 'alpha winner' }),
      b: await create(league, { name: 'Beta 50% draw' }),
      c: await create(league, { name: 'gamma inactive', is_active: false }),
    };
    const stamp = (key: string, created: string) =>
      db()
        .update(matchQuestionDefinitions)
        .set({ createdAt: new Date(created), updatedAt: new Date(created) })
        .where(eq(matchQuestionDefinitions.id, defs[key]!.id));
    await stamp('a', '2026-02-01T00:00:00Z');
    await stamp('b', '2026-02-02T00:00:00Z');
    await stamp('c', '2026-02-03T00:00:00Z');
  });

  const names = async (query: Record<string, string | boolean>) => {
    const res = await app.request('GET', BASE, { query: { league, ...query } });
    expect(res.status, res.text).toBe(200);
    return res.body.map((d: { name: string }) => d.name);
  };

  it('returns only active definitions, ordered by name, unless include_inactive=true', async () => {
    expect(await names({})).toEqual(['alpha winner', 'Beta 50% draw']);
    expect(await names({ include_inactive: true })).toEqual(['alpha winner', 'Beta 50% draw', 'gamma inactive']);
  });

  it('filters on q (name or id, wildcards literal) and on date ranges', async () => {
    expect(await names({ q: 'WINNER' })).toEqual(['alpha winner']);
    expect(await names({ q: '%' })).toEqual(['Beta 50% draw']);
    expect(await names({ q: defs.c!.id, include_inactive: true })).toEqual(['gamma inactive']);
    expect(await names({ created_from: '2026-02-02T00:00:00Z', created_to: '2026-02-03T00:00:00Z', include_inactive: true })).toEqual(['Beta 50% draw']);
    expect(await names({ updated_from: '2026-02-01T00:00:00Z', updated_to: '2026-02-02T00:00:00Z' })).toEqual(['alpha winner']);
    const unpaired = await app.request('GET', BASE, { query: { league, updated_to: '2026-02-02T00:00:00Z' } });
    expect(unpaired.status).toBe(400);
    expect(unpaired.body.detail).toContain('updated_from');
  });
});

describe('GET/PUT /api/match-question-definitions/{definition_id}', () => {
  it('answers 404 for an unknown definition', async () => {
    const res = await app.request('GET', `${BASE}/${UNKNOWN_ID}`);
    expect(res.status).toBe(404);
    expect(res.body.detail).toContain('Match question definition');
    expect((await app.request('PUT', `${BASE}/${UNKNOWN_ID}`, { token: admin.token, body: matchDefinitionInput() })).status).toBe(404);
  });

  it('replaces every editable field; omitted optional fields revert to defaults', async () => {
    const group = await newGroup('wc');
    const def = await create('wc', {
      description: 'd',
      points: 30,
      issue_lead_seconds: 3600,
      is_pivotal_moment: true,
      group_id: group,
      store_state: { n: '1' },
      issuance_state_extract: { v: 'match.venue' },
    });
    expect(def).toMatchObject({ is_pivotal_moment: true, group_id: group, store_state: { n: '1' }, issuance_state_extract: { v: 'match.venue' } });
    const body = matchDefinitionInput({ name: `${def.name} v2`, resolution: { correct_choice: '"draw"' } });
    const res = await app.request('PUT', `${BASE}/${def.id}`, { token: admin.token, body });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      ...def,
      name: body.name,
      description: null,
      points: null,
      issue_lead_seconds: 86400,
      is_pivotal_moment: false,
      group_id: null,
      store_state: null,
      issuance_state_extract: null,
      resolution: { correct_choice: '"draw"' },
      updated_at: res.body.updated_at,
    });
  });

  it('answers 409 for a taken name and 400 for a bad template, changing nothing', async () => {
    const a = await create('wc');
    const b = await create('wc');
    expect((await app.request('PUT', `${BASE}/${b.id}`, { token: admin.token, body: matchDefinitionInput({ name: a.name.toLowerCase() }) })).status).toBe(409);
    const bad = await app.request('PUT', `${BASE}/${b.id}`, { token: admin.token, body: matchDefinitionInput({ question_text_template: '{{ oops' }) });
    expect(bad.status).toBe(400);
    expect(bad.body.detail).toContain('question_text_template');
    expect((await app.request('GET', `${BASE}/${b.id}`)).body).toEqual(b);
  });

  it('never rewrites the snapshot of an issuance', async () => {
    const def = await create('wc');
    const issuance = await insertIssuance(def.id, 'Snapshot X');
    expect(
      (await app.request('PUT', `${BASE}/${def.id}`, { token: admin.token, body: matchDefinitionInput({ question_text_template: 'New text' }) })).status,
    ).toBe(200);
    const [row] = await db().select().from(questionIssuances).where(eq(questionIssuances.id, issuance.id));
    expect(row!.questionText).toBe('Snapshot X');
  });
});

describe('archive and activate', () => {
  it('set is_active false and true, idempotently', async () => {
    const def = await create('wc');
    const archived = await app.request('POST', `${BASE}/${def.id}/archive`, { token: admin.token });
    expect(archived.status).toBe(200);
    expect(archived.body).toEqual({ ...def, is_active: false, updated_at: archived.body.updated_at });
    expect((await app.request('POST', `${BASE}/${def.id}/archive`, { token: admin.token })).body).toEqual(archived.body);
    expect((await app.request('GET', BASE, { query: { league: 'wc', q: def.id } })).body).toEqual([]);
    const active = await app.request('POST', `${BASE}/${def.id}/activate`, { token: admin.token });
    expect(active.body.is_active).toBe(true);
    expect((await app.request('POST', `${BASE}/${def.id}/activate`, { token: admin.token })).body).toEqual(active.body);
    expect((await app.request('GET', BASE, { query: { league: 'wc', q: def.id } })).body).toHaveLength(1);
  });

  it('answer 404 for an unknown definition', async () => {
    expect((await app.request('POST', `${BASE}/${UNKNOWN_ID}/archive`, { token: admin.token })).status).toBe(404);
    expect((await app.request('POST', `${BASE}/${UNKNOWN_ID}/activate`, { token: admin.token })).status).toBe(404);
  });
});

describe('clone', () => {
  it('copies as "<name> (copy)" by default, active; a body name is used; blank 400; taken 409', async () => {
    const def = await create('wc', {
      points: 5,
      is_active: false,
      is_pivotal_moment: true,
      group_id: await newGroup('wc'),
      store_state: { n: '1' },
      issuance_state_extract: { v: 'state.n' },
    });
    const copy = await app.request('POST', `${BASE}/${def.id}/clone`, { token: admin.token });
    expect(copy.status).toBe(201);
    expect(copy.body).toEqual({
      ...def,
      id: copy.body.id,
      name: `${def.name} (copy)`,
      is_active: true,
      created_at: copy.body.created_at,
      updated_at: copy.body.updated_at,
    });
    expect((await app.request('POST', `${BASE}/${def.id}/clone`, { token: admin.token })).status).toBe(409);
    const named = await app.request('POST', `${BASE}/${def.id}/clone`, { token: admin.token, body: { name: 'Renamed copy' } });
    expect(named.status).toBe(201);
    expect(named.body.name).toBe('Renamed copy');
    expect((await app.request('POST', `${BASE}/${def.id}/clone`, { token: admin.token, body: { name: '' } })).status).toBe(400);
    expect((await app.request('POST', `${BASE}/${def.id}/clone`, { token: admin.token, body: { name: 'renamed COPY' } })).status).toBe(409);
    expect((await app.request('POST', `${BASE}/${UNKNOWN_ID}/clone`, { token: admin.token })).status).toBe(404);
  });
});

describe('DELETE /api/match-question-definitions/{definition_id}', () => {
  it('answers 409 with the count while issuances reference it, advising to archive', async () => {
    const def = await create('wc');
    await insertIssuance(def.id);
    const res = await app.request('DELETE', `${BASE}/${def.id}`, { token: admin.token });
    expect(res.status).toBe(409);
    expect(res.body.detail).toContain('1 question issuance');
    expect(res.body.detail).toContain('archive');
    expect((await app.request('GET', `${BASE}/${def.id}`)).status).toBe(200);
  });

  it('deletes and scrubs the id from the Match allowlists of the league and matches', async () => {
    const [a, b] = [await create('wc'), await create('wc')];
    const patched = await app.request('PATCH', '/api/leagues/wc', { token: admin.token, body: { match_question_definition_allowlist: [a.id, b.id] } });
    expect(patched.status).toBe(200);
    const m1 = await createMatch(app, { matchQuestionDefinitionAllowlist: [a.id] });
    const m2 = await createMatch(app, { matchQuestionDefinitionAllowlist: [b.id, a.id], questionDefinitionAllowlist: [a.id] });

    expect((await app.request('DELETE', `${BASE}/${a.id}`, { token: admin.token })).status).toBe(204);
    expect((await app.request('GET', `${BASE}/${a.id}`)).status).toBe(404);
    expect((await app.request('GET', '/api/leagues/wc')).body.match_question_definition_allowlist).toEqual([b.id]);
    const rows = new Map(
      (
        await db()
          .select()
          .from(matches)
          .where(inArray(matches.id, [m1.id, m2.id]))
      ).map((r) => [r.id, r]),
    );
    expect(rows.get(m1.id)!.matchQuestionDefinitionAllowlist).toEqual([]);
    expect(rows.get(m2.id)!.matchQuestionDefinitionAllowlist).toEqual([b.id]);
    expect(rows.get(m2.id)!.questionDefinitionAllowlist).toEqual([a.id]);
    expect((await app.request('DELETE', `${BASE}/${a.id}`, { token: admin.token })).status).toBe(404);
  });
});

describe('league allowlists (PATCH /api/leagues)', () => {
  it('accepts Match definitions of the league and answers 400 naming other ids', async () => {
    const own = await create('nhl', { is_active: false });
    const foreign = await create('nfl');
    expect(
      (await app.request('PATCH', '/api/leagues/nhl', { token: admin.token, body: { match_question_definition_allowlist: [own.id] } })).body
        .match_question_definition_allowlist,
    ).toEqual([own.id]);
    const res = await app.request('PATCH', '/api/leagues/nhl', { token: admin.token, body: { match_question_definition_allowlist: [own.id, foreign.id] } });
    expect(res.status).toBe(400);
    expect(res.body.detail).toContain('match_question_definition_allowlist');
    expect(res.body.detail).toContain(foreign.id);
    expect((await app.request('GET', '/api/leagues/nhl')).body.match_question_definition_allowlist).toEqual([own.id]);
  });
});
