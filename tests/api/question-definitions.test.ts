import { randomUUID } from 'node:crypto';
import { eq, inArray } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { brands } from '../../src/modules/brands/brands.table.js';
import { questionDefinitions } from '../../src/modules/definitions/definitions.table.js';
import { questionIssuances } from '../../src/modules/issuances/issuances.table.js';
import { leagues } from '../../src/modules/leagues/leagues.table.js';
import { matches } from '../../src/modules/matches/matches.table.js';
import { questionSponsorships } from '../../src/modules/sponsorships/sponsorships.table.js';
import { createInGameDefinition, inGameDefinitionInput } from '../helpers/definitions.js';
import { insertIssuanceOf } from '../helpers/engine-rows.js';
import { createMatch, leagueBySlug, UNKNOWN_ID } from '../helpers/factories.js';
import { useTestApp } from '../helpers/use-test-app.js';

const { app, admin, player } = useTestApp({ player: true });

const db = () => app.services.database.db;

const create = (league: string, overrides: Parameters<typeof inGameDefinitionInput>[0] = {}) => createInGameDefinition(app, admin, league, overrides);

const definitionCount = async () => (await db().select().from(questionDefinitions)).length;

const insertIssuance = (definitionId: string, values: Partial<typeof questionIssuances.$inferInsert> = {}) => insertIssuanceOf(app, { definitionId }, values);

async function insertSponsorship(definitionId: string) {
  const match = await createMatch(app);
  const [brand] = await db()
    .insert(brands)
    .values({ name: `Brand ${randomUUID()}`, primaryColor: '#ff0000' })
    .returning();
  await db().insert(questionSponsorships).values({ brandId: brand!.id, matchId: match.id, strategy: 'definition', targetDefinitionId: definitionId });
}

describe('auth', () => {
  it('answers 401 without a key and 403 for a player on every admin operation, writing nothing', async () => {
    const def = await create('wc');
    const calls: [string, string, Record<string, unknown>][] = [
      ['POST', '/api/question-definitions', { query: { league: 'wc' }, body: inGameDefinitionInput() }],
      ['PUT', `/api/question-definitions/${def.id}`, { body: inGameDefinitionInput() }],
      ['DELETE', `/api/question-definitions/${def.id}`, {}],
      ['POST', `/api/question-definitions/${def.id}/clone`, {}],
      ['POST', `/api/question-definitions/${def.id}/archive`, {}],
      ['POST', `/api/question-definitions/${def.id}/activate`, {}],
    ];
    const before = await definitionCount();
    for (const [method, path, opts] of calls) {
      expect((await app.request(method, path, opts)).status, `${method} ${path} without key`).toBe(401);
      expect((await app.request(method, path, { ...opts, token: player.token })).status, `${method} ${path} as player`).toBe(403);
    }
    expect(await definitionCount()).toBe(before);
    expect((await app.request('GET', `/api/question-definitions/${def.id}`)).body).toEqual(def);
  });

  it('lists and gets without a key', async () => {
    const def = await create('wc');
    const list = await app.request('GET', '/api/question-definitions', { query: { league: 'wc' } });
    expect(list.status).toBe(200);
    expect(list.body.map((d: { id: string }) => d.id)).toContain(def.id);
    expect((await app.request('GET', `/api/question-definitions/${def.id}`)).status).toBe(200);
    expect((await app.request('GET', `/api/question-definitions/${def.id}`, { token: player.token })).status).toBe(200);
  });
});

describe('the league query parameter', () => {
  it('answers 400 naming an unsupported slug', async () => {
    const list = await app.request('GET', '/api/question-definitions', { query: { league: 'xfl' } });
    expect(list.status).toBe(400);
    expect(list.body.detail).toContain("'xfl'");
    const created = await app.request('POST', '/api/question-definitions', { token: admin.token, query: { league: 'xfl' }, body: inGameDefinitionInput() });
    expect(created.status).toBe(400);
    expect(created.body.detail).toContain("'xfl'");
  });

  it('answers 404 for a supported league missing from the database', async () => {
    await db().delete(leagues).where(eq(leagues.slug, 'mls'));
    const list = await app.request('GET', '/api/question-definitions', { query: { league: 'mls' } });
    expect(list.status).toBe(404);
    expect(list.body.detail).toContain('mls');
    expect(
      (await app.request('POST', '/api/question-definitions', { token: admin.token, query: { league: 'mls' }, body: inGameDefinitionInput() })).status,
    ).toBe(404);
  });
});

describe('POST /api/question-definitions', () => {
  it('creates a definition with defaults for the optional fields', async () => {
    const wc = await leagueBySlug(app, 'wc');
    const input = inGameDefinitionInput({
      trigger: { event_type: 'score_change' },
      resolution: { rules: [{ event_type: 'score_change', correct_choice: 'event.team' }] },
    });
    const res = await app.request('POST', '/api/question-definitions', { token: admin.token, query: { league: 'wc' }, body: input });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      league: 'wc',
      league_id: wc.id,
      name: input.name,
      description: null,
      is_pivotal_moment: false,
      is_active: true,
      is_archived: false,
      group_id: null,
      trigger: { event_type: 'score_change', condition: null },
      question_text_template: input.question_text_template,
      choices: input.choices,
      issuance_state_extract: null,
      store_state: null,
      resolution: { rules: [{ event_type: 'score_change', condition: null, correct_choice: 'event.team' }], timeout: null },
      answer_window_seconds: null,
      points: null,
      probability: null,
    });
    expect((await app.request('GET', `/api/question-definitions/${res.body.id}`)).body).toEqual(res.body);
  });

  it('answers 409 for a name taken in the league, without regard to case; another league is fine', async () => {
    const def = await create('wc', { name: 'Corner then shot' });
    const dup = await app.request('POST', '/api/question-definitions', {
      token: admin.token,
      query: { league: 'wc' },
      body: inGameDefinitionInput({ name: 'CORNER THEN SHOT' }),
    });
    expect(dup.status).toBe(409);
    expect(dup.body.detail).toContain('CORNER THEN SHOT');
    expect(
      (
        await app.request('POST', '/api/question-definitions', {
          token: admin.token,
          query: { league: 'wc' },
          body: inGameDefinitionInput({ name: ' Corner then shot ' }),
        })
      ).status,
    ).toBe(409);
    expect((await create('nfl', { name: def.name })).name).toBe(def.name);
  });

  it('settles simultaneous creates of one name with the unique index', async () => {
    const name = `Race ${randomUUID()}`;
    const results = await Promise.all(
      [1, 2, 3].map(() =>
        app.request('POST', '/api/question-definitions', { token: admin.token, query: { league: 'wc' }, body: inGameDefinitionInput({ name }) }),
      ),
    );
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409]);
  });

  it.each([
    ['trigger.condition', { trigger: { event_type: 'shot', condition: 'event.team = ' } }],
    ['question_text_template', { question_text_template: '{% if event.team %}open' }],
    [
      'choices[1].label_template',
      {
        choices: [
          { identifier: 'home', label_template: 'Home' },
          { identifier: 'none', label_template: '{{ match.home_team | no_such_filter }}' },
        ],
      },
    ],
    ['issuance_state_extract.minute', { issuance_state_extract: { ok: 'event.clock_seconds', minute: '$floor(' } }],
    ['store_state.goals', { store_state: { goals: '(state.goals' } }],
    ['resolution.rules[0].condition', { resolution: { rules: [{ event_type: 'shot', condition: 'event.team ==== 1', correct_choice: '"yes"' }] } }],
    [
      'resolution.rules[1].correct_choice',
      {
        resolution: {
          rules: [
            { event_type: 'shot', correct_choice: '"home"' },
            { event_type: 'shot', correct_choice: '[1, 2' },
          ],
        },
      },
    ],
  ])('answers 400 naming %s when it does not compile, and writes nothing', async (field, overrides) => {
    const before = await definitionCount();
    const res = await app.request('POST', '/api/question-definitions', {
      token: admin.token,
      query: { league: 'wc' },
      body: inGameDefinitionInput(overrides as never),
    });
    expect(res.status).toBe(400);
    expect(res.body.detail).toContain(field);
    expect(await definitionCount()).toBe(before);
  });

  it.each([
    ['trigger.event_type', { trigger: { event_type: 'touchdown' } }],
    ['trigger.event_type', { trigger: { event_type: '   ' } }],
    ['resolution.rules[0].event_type', { resolution: { rules: [{ event_type: 'touchdown', correct_choice: '"home"' }] } }],
    [
      'resolution.rules[1].event_type',
      {
        resolution: {
          rules: [
            { event_type: 'shot', correct_choice: '"home"' },
            { event_type: ' ', correct_choice: '"home"' },
          ],
        },
      },
    ],
  ])('answers 400 for an event type of %s that is not one of the sport', async (field, overrides) => {
    const res = await app.request('POST', '/api/question-definitions', {
      token: admin.token,
      query: { league: 'wc' },
      body: inGameDefinitionInput(overrides as never),
    });
    expect(res.status).toBe(400);
    expect(res.body.detail).toContain(field);
  });

  it('answers 400 for duplicate choice identifiers', async () => {
    const res = await app.request('POST', '/api/question-definitions', {
      token: admin.token,
      query: { league: 'wc' },
      body: inGameDefinitionInput({
        choices: [
          { identifier: 'yes', label_template: 'Yes' },
          { identifier: 'no', label_template: 'No' },
          { identifier: 'yes', label_template: 'Sure' },
        ],
      }),
    });
    expect(res.status).toBe(400);
    expect(res.body.detail).toContain("choices[2].identifier 'yes'");
  });

  it('accepts a timeout choice that is a choice identifier or null, and refuses any other with 400', async () => {
    const rules = [{ event_type: 'shot', correct_choice: '"home"' }];
    expect((await create('wc', { resolution: { rules, timeout: { after_seconds: 60, correct_choice: 'away' } } })).resolution.timeout).toEqual({
      after_seconds: 60,
      correct_choice: 'away',
    });
    expect((await create('wc', { resolution: { rules, timeout: { after_seconds: 60, correct_choice: null } } })).resolution.timeout).toEqual({
      after_seconds: 60,
      correct_choice: null,
    });
    const res = await app.request('POST', '/api/question-definitions', {
      token: admin.token,
      query: { league: 'wc' },
      body: inGameDefinitionInput({ resolution: { rules, timeout: { after_seconds: 60, correct_choice: 'nobody' } } }),
    });
    expect(res.status).toBe(400);
    expect(res.body.detail).toContain('resolution.timeout.correct_choice');
  });

  it("accepts a group of the league and answers 400 for another league's or an unknown group", async () => {
    const own = await app.request('POST', '/api/question-groups', {
      token: admin.token,
      query: { league: 'wc' },
      body: { slug: `own-${randomUUID().slice(0, 8)}`, name: 'Own' },
    });
    const other = await app.request('POST', '/api/question-groups', {
      token: admin.token,
      query: { league: 'nfl' },
      body: { slug: `other-${randomUUID().slice(0, 8)}`, name: 'Other' },
    });
    expect((await create('wc', { group_id: own.body.id })).group_id).toBe(own.body.id);
    for (const groupId of [other.body.id, UNKNOWN_ID]) {
      const res = await app.request('POST', '/api/question-definitions', {
        token: admin.token,
        query: { league: 'wc' },
        body: inGameDefinitionInput({ group_id: groupId }),
      });
      expect(res.status).toBe(400);
      expect(res.body.detail).toContain('group_id');
    }
  });

  it('answers 400 for a blank name and 422 for server-managed fields', async () => {
    expect(
      (await app.request('POST', '/api/question-definitions', { token: admin.token, query: { league: 'wc' }, body: inGameDefinitionInput({ name: '   ' }) }))
        .status,
    ).toBe(400);
    for (const extra of [{ is_archived: true }, { id: UNKNOWN_ID }, { league_id: UNKNOWN_ID }, { created_at: '2026-01-01T00:00:00Z' }]) {
      const res = await app.request('POST', '/api/question-definitions', {
        token: admin.token,
        query: { league: 'wc' },
        body: { ...inGameDefinitionInput(), ...extra },
      });
      expect(res.status).toBe(422);
    }
  });
});

describe('input PostgreSQL cannot store', () => {
  it('answers 422, not 500, for NUL characters anywhere in a body or in q, writing nothing', async () => {
    const before = await definitionCount();
    for (const overrides of [
      { name: 'a\u0000b' },
      { description: '\u0000' },
      { issuance_state_extract: { 'key\u0000': '1' } },
      { store_state: { k: '"\u0000"' } },
    ]) {
      const res = await app.request('POST', '/api/question-definitions', {
        token: admin.token,
        query: { league: 'wc' },
        body: inGameDefinitionInput(overrides),
      });
      expect(res.status, JSON.stringify(overrides)).toBe(422);
      expect(res.body.detail[0]).toMatchObject({ type: 'nul_character', loc: expect.arrayContaining(['body']) });
    }
    expect(await definitionCount()).toBe(before);
    const def = await create('wc');
    expect(
      (
        await app.request('PUT', `/api/question-definitions/${def.id}`, {
          token: admin.token,
          body: inGameDefinitionInput({ question_text_template: 'x\u0000' }),
        })
      ).status,
    ).toBe(422);
    expect((await app.request('POST', `/api/question-definitions/${def.id}/clone`, { token: admin.token, body: { name: 'x\u0000' } })).status).toBe(422);
    expect((await app.request('GET', '/api/question-definitions', { query: { league: 'wc', q: 'a\u0000' } })).status).toBe(422);
  });

  it('answers 422, not 500, for a leap-second bound of a date range', async () => {
    const res = await app.request('GET', '/api/question-definitions', {
      query: { league: 'wc', created_from: '2016-12-31T23:59:60Z', created_to: '2017-01-01T00:00:00Z' },
    });
    expect(res.status).toBe(422);
    expect(res.body.detail[0].loc).toEqual(['query', 'created_from']);
  });
});

describe('GET /api/question-definitions/{definition_id}', () => {
  it('answers 404 for an unknown id and 422 for a malformed one', async () => {
    const res = await app.request('GET', `/api/question-definitions/${UNKNOWN_ID}`);
    expect(res.status).toBe(404);
    expect(res.body.detail).toContain('question definition');
    expect((await app.request('GET', '/api/question-definitions/nope')).status).toBe(422);
  });
});

describe('GET /api/question-definitions (filters)', () => {
  // Its own league, so other tests' rows do not interfere.
  const league = 'nba';
  let defs: Record<string, { id: string; name: string }>;

  beforeAll(async () => {
    defs = {
      alpha: await create(league, { name: 'alpha shot' }),
      beta: await create(league, { name: 'Beta 100% sure', is_pivotal_moment: true }),
      gamma: await create(league, { name: 'gamma_1000 sure' }),
      delta: await create(league, { name: 'Delta archived' }),
    };
    await app.request('POST', `/api/question-definitions/${defs.delta!.id}/archive`, { token: admin.token });
    const stamp = (name: keyof typeof defs, created: string, updated: string) =>
      db()
        .update(questionDefinitions)
        .set({ createdAt: new Date(created), updatedAt: new Date(updated) })
        .where(eq(questionDefinitions.id, defs[name]!.id));
    await stamp('alpha', '2026-01-01T00:00:00Z', '2026-03-01T00:00:00Z');
    await stamp('beta', '2026-01-02T00:00:00Z', '2026-03-02T00:00:00Z');
    await stamp('gamma', '2026-01-03T00:00:00Z', '2026-03-03T00:00:00Z');
    await stamp('delta', '2026-01-04T00:00:00Z', '2026-03-04T00:00:00Z');
  });

  const names = async (query: Record<string, string | boolean>) => {
    const res = await app.request('GET', '/api/question-definitions', { query: { league, ...query } });
    expect(res.status, res.text).toBe(200);
    return res.body.map((d: { name: string }) => d.name);
  };

  it('orders by name without regard to case and hides archived definitions unless include_inactive=true', async () => {
    expect(await names({})).toEqual(['alpha shot', 'Beta 100% sure', 'gamma_1000 sure']);
    expect(await names({ include_inactive: false })).toEqual(['alpha shot', 'Beta 100% sure', 'gamma_1000 sure']);
    expect(await names({ include_inactive: true })).toEqual(['alpha shot', 'Beta 100% sure', 'Delta archived', 'gamma_1000 sure']);
  });

  it('returns summaries', async () => {
    const res = await app.request('GET', '/api/question-definitions', { query: { league, q: 'alpha' } });
    expect(res.body).toEqual([
      expect.objectContaining({
        id: defs.alpha!.id,
        league,
        trigger_event_type: 'score_change',
        is_archived: false,
        is_active: true,
        created_at: '2026-01-01T00:00:00.000Z',
      }),
    ]);
  });

  it('matches q case-insensitively on the name or the id, with LIKE wildcards taken literally', async () => {
    expect(await names({ q: 'SURE' })).toEqual(['Beta 100% sure', 'gamma_1000 sure']);
    expect(await names({ q: '0%' })).toEqual(['Beta 100% sure']);
    expect(await names({ q: '_' })).toEqual(['gamma_1000 sure']);
    expect(await names({ q: '%' })).toEqual(['Beta 100% sure']);
    expect(await names({ q: defs.gamma!.id.slice(4, 20).toUpperCase() })).toEqual(['gamma_1000 sure']);
    expect(await names({ q: 'archived', include_inactive: true })).toEqual(['Delta archived']);
    expect(await names({ q: 'nothing like this' })).toEqual([]);
  });

  it('filters on is_pivotal_moment', async () => {
    expect(await names({ is_pivotal_moment: true })).toEqual(['Beta 100% sure']);
    expect(await names({ is_pivotal_moment: false })).toEqual(['alpha shot', 'gamma_1000 sure']);
  });

  it('filters on created and updated ranges, from inclusive and to exclusive', async () => {
    expect(await names({ created_from: '2026-01-02T00:00:00Z', created_to: '2026-01-03T00:00:00Z' })).toEqual(['Beta 100% sure']);
    expect(await names({ created_from: '2026-01-01T00:00:00Z', created_to: '2026-01-03T00:00:01Z' })).toEqual([
      'alpha shot',
      'Beta 100% sure',
      'gamma_1000 sure',
    ]);
    expect(await names({ updated_from: '2026-03-03T00:00:00Z', updated_to: '2026-04-01T00:00:00Z', include_inactive: true })).toEqual([
      'Delta archived',
      'gamma_1000 sure',
    ]);
    expect(
      await names({
        updated_from: '2026-03-01T00:00:00Z',
        updated_to: '2026-03-02T00:00:00Z',
        created_from: '2026-01-01T00:00:00Z',
        created_to: '2026-02-01T00:00:00Z',
      }),
    ).toEqual(['alpha shot']);
  });

  it.each(['created_from', 'created_to', 'updated_from', 'updated_to'])('answers 400 when %s comes without its pair', async (param) => {
    const res = await app.request('GET', '/api/question-definitions', { query: { league, [param]: '2026-01-01T00:00:00Z' } });
    expect(res.status).toBe(400);
    expect(res.body.detail).toContain(param.split('_')[0]);
  });

  it('answers 422 for malformed filter values', async () => {
    expect(
      (await app.request('GET', '/api/question-definitions', { query: { league, created_from: 'yesterday', created_to: '2026-01-01T00:00:00Z' } })).status,
    ).toBe(422);
    expect((await app.request('GET', '/api/question-definitions', { query: { league, is_pivotal_moment: 'maybe' } })).status).toBe(422);
    expect((await app.request('GET', '/api/question-definitions', { query: {} })).status).toBe(422);
  });
});

describe('PUT /api/question-definitions/{definition_id}', () => {
  it('replaces every editable field; omitted optional fields revert to defaults; server-managed fields stay', async () => {
    const group = await app.request('POST', '/api/question-groups', {
      token: admin.token,
      query: { league: 'wc' },
      body: { slug: `put-${randomUUID().slice(0, 8)}`, name: 'Put' },
    });
    const def = await create('wc', {
      description: 'Has a description',
      is_pivotal_moment: true,
      is_active: false,
      group_id: group.body.id,
      issuance_state_extract: { minute: '$floor(event.clock_seconds / 60)' },
      store_state: { goals: '(state.goals ? state.goals : 0) + 1' },
      answer_window_seconds: 30,
      points: 20,
      probability: 0.5,
    });
    await app.request('POST', `/api/question-definitions/${def.id}/archive`, { token: admin.token });
    const body = inGameDefinitionInput({ name: `${def.name} v2`, trigger: { event_type: 'shot' } });
    const res = await app.request('PUT', `/api/question-definitions/${def.id}`, { token: admin.token, body });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      ...def,
      name: body.name,
      description: null,
      is_pivotal_moment: false,
      is_active: true,
      is_archived: true,
      group_id: null,
      trigger: { event_type: 'shot', condition: null },
      issuance_state_extract: null,
      store_state: null,
      answer_window_seconds: null,
      points: null,
      probability: null,
      updated_at: res.body.updated_at,
    });
    expect(Date.parse(res.body.updated_at)).toBeGreaterThanOrEqual(Date.parse(def.updated_at));
  });

  it('answers 409 for a name taken by another definition of the league; its own name is fine', async () => {
    const a = await create('wc');
    const b = await create('wc');
    const res = await app.request('PUT', `/api/question-definitions/${b.id}`, {
      token: admin.token,
      body: inGameDefinitionInput({ name: a.name.toUpperCase() }),
    });
    expect(res.status).toBe(409);
    expect((await app.request('GET', `/api/question-definitions/${b.id}`)).body).toEqual(b);
    expect((await app.request('PUT', `/api/question-definitions/${b.id}`, { token: admin.token, body: inGameDefinitionInput({ name: b.name }) })).status).toBe(
      200,
    );
  });

  it('answers 400 for a bad template and changes nothing', async () => {
    const def = await create('wc');
    const res = await app.request('PUT', `/api/question-definitions/${def.id}`, {
      token: admin.token,
      body: inGameDefinitionInput({ question_text_template: '{{ unclosed' }),
    });
    expect(res.status).toBe(400);
    expect(res.body.detail).toContain('question_text_template');
    expect((await app.request('GET', `/api/question-definitions/${def.id}`)).body).toEqual(def);
  });

  it('answers 404 for an unknown definition and 422 for server-managed fields', async () => {
    expect((await app.request('PUT', `/api/question-definitions/${UNKNOWN_ID}`, { token: admin.token, body: inGameDefinitionInput() })).status).toBe(404);
    const def = await create('wc');
    expect(
      (await app.request('PUT', `/api/question-definitions/${def.id}`, { token: admin.token, body: { ...inGameDefinitionInput(), is_archived: false } }))
        .status,
    ).toBe(422);
  });

  it('never rewrites the snapshot of an issuance', async () => {
    const def = await create('wc');
    const issuance = await insertIssuance(def.id, { questionText: 'Snapshot X', definitionName: def.name });
    const res = await app.request('PUT', `/api/question-definitions/${def.id}`, {
      token: admin.token,
      body: inGameDefinitionInput({ name: `${def.name} renamed`, question_text_template: 'Something else entirely' }),
    });
    expect(res.status).toBe(200);
    const [row] = await db().select().from(questionIssuances).where(eq(questionIssuances.id, issuance.id));
    expect(row).toMatchObject({ questionText: 'Snapshot X', definitionName: def.name, choices: issuance.choices });
  });
});

describe('archive and activate', () => {
  it('toggle is_archived only, idempotently', async () => {
    const def = await create('wc', { is_active: false });
    const archived = await app.request('POST', `/api/question-definitions/${def.id}/archive`, { token: admin.token });
    expect(archived.status).toBe(200);
    expect(archived.body).toEqual({ ...def, is_archived: true, updated_at: archived.body.updated_at });
    const again = await app.request('POST', `/api/question-definitions/${def.id}/archive`, { token: admin.token });
    expect(again.body).toEqual(archived.body);
    const listed = await app.request('GET', '/api/question-definitions', { query: { league: 'wc', q: def.name } });
    expect(listed.body).toEqual([]);

    const active = await app.request('POST', `/api/question-definitions/${def.id}/activate`, { token: admin.token });
    expect(active.status).toBe(200);
    expect(active.body).toMatchObject({ is_archived: false, is_active: false });
    expect((await app.request('POST', `/api/question-definitions/${def.id}/activate`, { token: admin.token })).body).toEqual(active.body);
    expect((await app.request('GET', '/api/question-definitions', { query: { league: 'wc', q: def.name } })).body).toHaveLength(1);
  });

  it('answer 404 for an unknown definition', async () => {
    expect((await app.request('POST', `/api/question-definitions/${UNKNOWN_ID}/archive`, { token: admin.token })).status).toBe(404);
    expect((await app.request('POST', `/api/question-definitions/${UNKNOWN_ID}/activate`, { token: admin.token })).status).toBe(404);
  });
});

describe('POST /api/question-definitions/{definition_id}/clone', () => {
  it('copies into the same league as "<name> (copy)" by default, not archived', async () => {
    const def = await create('wc', { description: 'd', points: 5, is_pivotal_moment: true, store_state: { n: '1' } });
    await app.request('POST', `/api/question-definitions/${def.id}/archive`, { token: admin.token });
    const res = await app.request('POST', `/api/question-definitions/${def.id}/clone`, { token: admin.token });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      ...def,
      id: res.body.id,
      name: `${def.name} (copy)`,
      is_archived: false,
      created_at: res.body.created_at,
      updated_at: res.body.updated_at,
    });
    expect(res.body.id).not.toBe(def.id);
    expect((await app.request('GET', `/api/question-definitions/${def.id}`)).body.is_archived).toBe(true);
  });

  it('takes a name from the body; blank gives 400, taken gives 409', async () => {
    const def = await create('wc');
    const named = await app.request('POST', `/api/question-definitions/${def.id}/clone`, { token: admin.token, body: { name: '  Second half  ' } });
    expect(named.status).toBe(201);
    expect(named.body.name).toBe('Second half');
    const before = await definitionCount();
    for (const name of ['', '   ']) {
      const res = await app.request('POST', `/api/question-definitions/${def.id}/clone`, { token: admin.token, body: { name } });
      expect(res.status).toBe(400);
      expect(res.body.detail).toContain('name');
    }
    expect((await app.request('POST', `/api/question-definitions/${def.id}/clone`, { token: admin.token, body: { name: 'SECOND HALF' } })).status).toBe(409);
    expect((await app.request('POST', `/api/question-definitions/${def.id}/clone`, { token: admin.token, body: {} })).status).toBe(201);
    expect((await app.request('POST', `/api/question-definitions/${def.id}/clone`, { token: admin.token, body: {} })).status).toBe(409);
    expect(await definitionCount()).toBe(before + 1);
  });

  it('answers 404 for an unknown definition', async () => {
    expect((await app.request('POST', `/api/question-definitions/${UNKNOWN_ID}/clone`, { token: admin.token })).status).toBe(404);
  });
});

describe('DELETE /api/question-definitions/{definition_id}', () => {
  it('answers 409 stating the counts while issuances reference it, advising to archive', async () => {
    const def = await create('wc');
    await insertIssuance(def.id);
    await insertIssuance(def.id);
    const res = await app.request('DELETE', `/api/question-definitions/${def.id}`, { token: admin.token });
    expect(res.status).toBe(409);
    expect(res.body.detail).toContain('2 question issuances');
    expect(res.body.detail).toContain('archive');
    expect((await app.request('GET', `/api/question-definitions/${def.id}`)).status).toBe(200);
  });

  it('answers 409 while a sponsorship slot targets it', async () => {
    const def = await create('wc');
    await insertSponsorship(def.id);
    const res = await app.request('DELETE', `/api/question-definitions/${def.id}`, { token: admin.token });
    expect(res.status).toBe(409);
    expect(res.body.detail).toContain('0 question issuances and 1 sponsorship slot');
    expect(res.body.detail).toContain('archive');
  });

  it('deletes and scrubs the id from the league and match allowlists in one go', async () => {
    const [a, b, c] = [await create('wc'), await create('wc'), await create('wc')];
    const patched = await app.request('PATCH', '/api/leagues/wc', { token: admin.token, body: { question_definition_allowlist: [a.id, b.id] } });
    expect(patched.status).toBe(200);
    const m1 = await createMatch(app, { questionDefinitionAllowlist: [a.id, c.id, a.id] });
    const m2 = await createMatch(app, { questionDefinitionAllowlist: [b.id] });
    const m3 = await createMatch(app, { questionDefinitionAllowlist: null, matchQuestionDefinitionAllowlist: [a.id] });

    const res = await app.request('DELETE', `/api/question-definitions/${a.id}`, { token: admin.token });
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect((await app.request('GET', `/api/question-definitions/${a.id}`)).status).toBe(404);
    expect((await app.request('GET', '/api/leagues/wc')).body.question_definition_allowlist).toEqual([b.id]);
    const rows = await db()
      .select()
      .from(matches)
      .where(inArray(matches.id, [m1.id, m2.id, m3.id]));
    const byId = new Map(rows.map((r) => [r.id, r]));
    expect(byId.get(m1.id)!.questionDefinitionAllowlist).toEqual([c.id]);
    expect(byId.get(m2.id)!.questionDefinitionAllowlist).toEqual([b.id]);
    expect(byId.get(m3.id)!.questionDefinitionAllowlist).toBeNull();
    // The other kind's allowlist is not touched.
    expect(byId.get(m3.id)!.matchQuestionDefinitionAllowlist).toEqual([a.id]);

    expect((await app.request('DELETE', `/api/question-definitions/${a.id}`, { token: admin.token })).status).toBe(404);
    await app.request('PATCH', '/api/leagues/wc', { token: admin.token, body: { question_definition_allowlist: null } });
  });
});

describe('league allowlists (PATCH /api/leagues)', () => {
  it("accepts the league's in-game definitions, archived ones included", async () => {
    const a = await create('nhl');
    const b = await create('nhl');
    await app.request('POST', `/api/question-definitions/${b.id}/archive`, { token: admin.token });
    const res = await app.request('PATCH', '/api/leagues/nhl', { token: admin.token, body: { question_definition_allowlist: [a.id, b.id] } });
    expect(res.status).toBe(200);
    expect(res.body.question_definition_allowlist).toEqual([a.id, b.id]);
  });

  it('answers 400 naming ids that are unknown, of another league or of the other kind, changing nothing', async () => {
    const own = await create('nhl');
    const foreign = await create('nfl');
    const matchKind = await app.request('POST', '/api/match-question-definitions', {
      token: admin.token,
      query: { league: 'nhl' },
      body: {
        name: `M ${randomUUID()}`,
        question_text_template: 'Who wins?',
        choices: [
          { identifier: 'home', label_template: 'Home' },
          { identifier: 'away', label_template: 'Away' },
        ],
        resolution: { correct_choice: 'result.winner' },
      },
    });
    expect(matchKind.status).toBe(201);
    const before = (await app.request('GET', '/api/leagues/nhl')).body;
    const res = await app.request('PATCH', '/api/leagues/nhl', {
      token: admin.token,
      body: { question_definition_allowlist: [own.id, foreign.id, UNKNOWN_ID, matchKind.body.id], default_question_points: 77 },
    });
    expect(res.status).toBe(400);
    expect(res.body.detail).toContain('question_definition_allowlist');
    for (const id of [foreign.id, UNKNOWN_ID, matchKind.body.id]) expect(res.body.detail).toContain(id);
    expect(res.body.detail).not.toContain(own.id);
    expect((await app.request('GET', '/api/leagues/nhl')).body).toEqual(before);
  });
});
