/**
 * The question definitions' JSON API, one suite over both kinds (in-game and
 * Match; tests/helpers/definition-kinds.ts declares what each does its own
 * way), then what only the in-game kind has (event types, the timeout,
 * sponsorship slots) and what spans both (question groups).
 */
import { randomUUID } from 'node:crypto';
import { eq, inArray } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { brands } from '../../src/modules/brands/brands.table.js';
import { definitionErrors } from '../../src/modules/definitions/definitions.errors.js';
import { questionIssuances } from '../../src/modules/issuances/issuances.table.js';
import { leagues } from '../../src/modules/leagues/leagues.table.js';
import { matches } from '../../src/modules/matches/matches.table.js';
import { questionSponsorships } from '../../src/modules/sponsorships/sponsorships.table.js';
import { BY_KIND, createDefinition, IN_GAME_KIND, MATCH_KIND, otherKind } from '../helpers/definition-kinds.js';
import { insertIssuanceOf } from '../helpers/engine-rows.js';
import { expectError } from '../helpers/errors.js';
import { createMatch, leagueBySlug, UNKNOWN_ID } from '../helpers/factories.js';
import { useTestApp } from '../helpers/use-test-app.js';

const { app, admin, player } = useTestApp({ player: true });

const db = () => app.services.database.db;

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

const unique = (name: string) => `${name} ${randomUUID().slice(0, 8)}`;

describe.each(BY_KIND)('%s question definitions', (_name, kind) => {
  const BASE = kind.base;
  const create = (league: string, overrides: Record<string, unknown> = {}) => createDefinition(app, admin, kind, league, overrides);
  const post = (league: string, body: unknown) => app.request('POST', BASE, { token: admin.token, query: { league }, body });
  const definitionCount = async () => (await db().select().from(kind.table)).length;
  const insertIssuance = (id: string, values: Partial<typeof questionIssuances.$inferInsert> = {}) => insertIssuanceOf(app, kind.issuanceOf(id), values);
  const archive = (id: string) => app.request('POST', `${BASE}/${id}/archive`, { token: admin.token });

  describe('auth', () => {
    it('answers 401 without a key and 403 for a player on every admin operation, writing nothing', async () => {
      const def = await create('wc');
      const calls: [string, string, Record<string, unknown>][] = [
        ['POST', BASE, { query: { league: 'wc' }, body: kind.input() }],
        ['PUT', `${BASE}/${def.id}`, { body: kind.input() }],
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
      const list = await app.request('GET', BASE, { query: { league: 'wc' } });
      expect(list.status).toBe(200);
      expect(list.body.map((d: { id: string }) => d.id)).toContain(def.id);
      expect((await app.request('GET', `${BASE}/${def.id}`)).status).toBe(200);
      expect((await app.request('GET', `${BASE}/${def.id}`, { token: player.token })).status).toBe(200);
    });
  });

  describe('the league query parameter', () => {
    it('answers 400 naming an unsupported slug', async () => {
      const list = await app.request('GET', BASE, { query: { league: 'xfl' } });
      expect(list.status).toBe(400);
      expect(list.body.detail).toContain("'xfl'");
      const created = await post('xfl', kind.input());
      expect(created.status).toBe(400);
      expect(created.body.detail).toContain("'xfl'");
    });

    it('answers 404 for a supported league missing from the database', async () => {
      await db().delete(leagues).where(eq(leagues.slug, 'mls'));
      const list = await app.request('GET', BASE, { query: { league: 'mls' } });
      expect(list.status).toBe(404);
      expect(list.body.detail).toContain('mls');
      expect((await post('mls', kind.input())).status).toBe(404);
    });
  });

  describe(`POST ${BASE}`, () => {
    it('creates a definition with defaults for the optional fields', async () => {
      const wc = await leagueBySlug(app, 'wc');
      const input = kind.input(kind.defaults.body);
      const res = await post('wc', input);
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        id: res.body.id,
        league: 'wc',
        league_id: wc.id,
        name: input.name,
        question_text_template: input.question_text_template,
        choices: input.choices,
        ...kind.optional.omitted,
        ...kind.defaults.shows,
        ...kind.inIssuance,
        created_at: res.body.created_at,
        updated_at: res.body.updated_at,
      });
      expect((await app.request('GET', `${BASE}/${res.body.id}`)).body).toEqual(res.body);
    });

    it('answers 409 for a name taken in the league, without regard to case; another league or the other kind is fine', async () => {
      const def = await create('wc', { name: unique('Corner then shot') });
      const dup = await post('wc', kind.input({ name: def.name.toUpperCase() }));
      expectError(dup, kind.errors.nameTaken);
      expect(dup.body.detail).toBe(`a ${kind.noun} named '${def.name.toUpperCase()}' already exists in league 'wc'`);
      expect((await post('wc', kind.input({ name: ` ${def.name} ` }))).status).toBe(409);
      expect((await create('nfl', { name: def.name })).name).toBe(def.name);
      expect((await createDefinition(app, admin, otherKind(kind), 'wc', { name: def.name })).name).toBe(def.name);
    });

    it('settles simultaneous creates of one name with the unique index', async () => {
      const name = `Race ${randomUUID()}`;
      const results = await Promise.all([1, 2, 3].map(() => post('wc', kind.input({ name }))));
      expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409]);
    });

    it.each(kind.notCompiling)('answers 400 naming %s when it does not compile, and writes nothing', async (field, overrides) => {
      const before = await definitionCount();
      const res = await post('wc', kind.input(overrides));
      expect(res.status).toBe(400);
      expect(res.body.detail).toContain(field);
      expect(await definitionCount()).toBe(before);
    });

    it('answers 400 for duplicate choice identifiers', async () => {
      const res = await post(
        'wc',
        kind.input({
          choices: [
            { identifier: 'yes', label_template: 'Yes' },
            { identifier: 'no', label_template: 'No' },
            { identifier: 'yes', label_template: 'Sure' },
          ],
        }),
      );
      expectError(res, definitionErrors.duplicateChoice);
      expect(res.body.detail).toBe("choices[2].identifier 'yes' is used by an earlier choice; identifiers must be unique");
    });

    it("accepts a group of the league (its id in either case) and answers 400 for another league's or an unknown group, writing nothing", async () => {
      const own = await newGroup('wc');
      const other = await newGroup('nfl');
      const before = await definitionCount();
      for (const groupId of [other, UNKNOWN_ID]) {
        const res = await post('wc', kind.input({ group_id: groupId }));
        expectError(res, kind.errors.unknownGroup);
        expect(res.body.detail).toBe(`group_id: ${groupId} is not a question group of league 'wc'`);
      }
      expect(await definitionCount()).toBe(before);
      expect(await create('wc', { group_id: own.toUpperCase(), is_pivotal_moment: true })).toMatchObject({ group_id: own, is_pivotal_moment: true });
    });

    it('answers 400 for a blank name and 422 for server-managed fields', async () => {
      const blank = await post('wc', kind.input({ name: '   ' }));
      expectError(blank, definitionErrors.invalidName);
      expect(blank.body.detail).toBe('name must not be blank');
      for (const extra of [{ is_archived: true }, { id: UNKNOWN_ID }, { league_id: UNKNOWN_ID }, { created_at: '2026-01-01T00:00:00Z' }]) {
        expect((await post('wc', { ...kind.input(), ...extra })).status, JSON.stringify(extra)).toBe(422);
      }
    });
  });

  describe('input PostgreSQL cannot store', () => {
    it('answers 422, not 500, for NUL characters anywhere in a body or in q, writing nothing', async () => {
      const before = await definitionCount();
      for (const overrides of [
        { name: 'a\u0000b' },
        { description: '\u0000' },
        { question_text_template: 'Who\u0000' },
        {
          choices: [
            { identifier: 'a', label_template: 'A' },
            { identifier: 'b', label_template: 'B\u0000' },
          ],
        },
        { issuance_state_extract: { 'key\u0000': '1' } },
        { store_state: { k: '"\u0000"' } },
      ]) {
        const res = await post('wc', kind.input(overrides));
        expect(res.status, JSON.stringify(overrides)).toBe(422);
        expect(res.body.detail[0]).toMatchObject({ type: 'nul_character', loc: expect.arrayContaining(['body']) });
      }
      expect(await definitionCount()).toBe(before);
      const def = await create('wc');
      expect((await app.request('PUT', `${BASE}/${def.id}`, { token: admin.token, body: kind.input({ question_text_template: 'x\u0000' }) })).status).toBe(422);
      expect((await app.request('POST', `${BASE}/${def.id}/clone`, { token: admin.token, body: { name: 'x\u0000' } })).status).toBe(422);
      expect((await app.request('GET', BASE, { query: { league: 'wc', q: 'a\u0000' } })).status).toBe(422);
    });

    it('answers 422, not 500, for a leap-second bound of a date range', async () => {
      for (const range of ['created', 'updated']) {
        const res = await app.request('GET', BASE, {
          query: { league: 'wc', [`${range}_from`]: '2016-12-31T23:59:60Z', [`${range}_to`]: '2017-01-01T00:00:00Z' },
        });
        expect(res.status).toBe(422);
        expect(res.body.detail[0].loc).toEqual(['query', `${range}_from`]);
      }
    });
  });

  describe(`GET ${BASE}/{definition_id}`, () => {
    it('answers 404 for an unknown id and 422 for a malformed one', async () => {
      const res = await app.request('GET', `${BASE}/${UNKNOWN_ID}`);
      expectError(res, kind.errors.notFound);
      expect(res.body.detail).toBe(`${kind.noun} not found`);
      expect((await app.request('GET', `${BASE}/nope`)).status).toBe(422);
    });
  });

  describe(`GET ${BASE} (filters)`, () => {
    // Its own league, so other tests' rows do not interfere.
    const league = 'nba';
    let defs: Record<'alpha' | 'beta' | 'gamma' | 'delta', { id: string; name: string }>;

    beforeAll(async () => {
      defs = {
        alpha: await create(league, { name: 'alpha shot' }),
        beta: await create(league, { name: 'Beta 100% sure', is_pivotal_moment: true }),
        gamma: await create(league, { name: 'gamma_1000 sure' }),
        delta: await create(league, { name: 'Delta archived' }),
      };
      await archive(defs.delta.id);
      const stamp = (name: keyof typeof defs, created: string, updated: string) =>
        db()
          .update(kind.table)
          .set({ createdAt: new Date(created), updatedAt: new Date(updated) })
          .where(eq(kind.table.id, defs[name].id));
      await stamp('alpha', '2026-01-01T00:00:00Z', '2026-03-01T00:00:00Z');
      await stamp('beta', '2026-01-02T00:00:00Z', '2026-03-02T00:00:00Z');
      await stamp('gamma', '2026-01-03T00:00:00Z', '2026-03-03T00:00:00Z');
      await stamp('delta', '2026-01-04T00:00:00Z', '2026-03-04T00:00:00Z');
    });

    const names = async (query: Record<string, string | boolean>) => {
      const res = await app.request('GET', BASE, { query: { league, ...query } });
      expect(res.status, res.text).toBe(200);
      return res.body.map((d: { name: string }) => d.name);
    };

    it('orders by name without regard to case and hides archived definitions unless include_inactive=true', async () => {
      expect(await names({})).toEqual(['alpha shot', 'Beta 100% sure', 'gamma_1000 sure']);
      expect(await names({ include_inactive: false })).toEqual(['alpha shot', 'Beta 100% sure', 'gamma_1000 sure']);
      expect(await names({ include_inactive: true })).toEqual(['alpha shot', 'Beta 100% sure', 'Delta archived', 'gamma_1000 sure']);
    });

    it("returns the kind's list items (in-game: summaries; Match: the definitions)", async () => {
      const alpha = (await app.request('GET', `${BASE}/${defs.alpha.id}`)).body;
      const res = await app.request('GET', BASE, { query: { league, q: 'alpha' } });
      expect(res.body).toEqual([kind.listItem(alpha)]);
      expect(res.body[0]).toMatchObject({ id: defs.alpha.id, league, is_active: true, created_at: '2026-01-01T00:00:00.000Z' });
    });

    it('matches q case-insensitively on the name or the id, with LIKE wildcards taken literally', async () => {
      expect(await names({ q: 'SURE' })).toEqual(['Beta 100% sure', 'gamma_1000 sure']);
      expect(await names({ q: '0%' })).toEqual(['Beta 100% sure']);
      expect(await names({ q: '_' })).toEqual(['gamma_1000 sure']);
      expect(await names({ q: '%' })).toEqual(['Beta 100% sure']);
      expect(await names({ q: defs.gamma.id.slice(4, 20).toUpperCase() })).toEqual(['gamma_1000 sure']);
      expect(await names({ q: defs.delta.id, include_inactive: true })).toEqual(['Delta archived']);
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
      const res = await app.request('GET', BASE, { query: { league, [param]: '2026-01-01T00:00:00Z' } });
      expectError(res, definitionErrors.invalidRange);
      const range = param.split('_')[0];
      expect(res.body.detail).toBe(`${range}_from and ${range}_to must be given together (from inclusive, to exclusive)`);
    });

    it('answers 422 for malformed filter values', async () => {
      expect((await app.request('GET', BASE, { query: { league, created_from: 'yesterday', created_to: '2026-01-01T00:00:00Z' } })).status).toBe(422);
      expect((await app.request('GET', BASE, { query: { league, is_pivotal_moment: 'maybe' } })).status).toBe(422);
      expect((await app.request('GET', BASE, { query: {} })).status).toBe(422);
    });
  });

  describe(`PUT ${BASE}/{definition_id}`, () => {
    it('replaces every editable field; omitted optional fields revert to defaults; server-managed fields stay', async () => {
      const group = await newGroup('wc');
      let def = await create('wc', kind.optional.set(group));
      expect(def).toMatchObject(kind.optional.set(group));
      // In-game, the archive flag is not part of the body: a replace keeps it.
      if (kind.archiveSurvivesReplace) def = (await archive(def.id)).body;
      const body = kind.input({ name: `${def.name} v2`, ...kind.replaceChange.body });
      const res = await app.request('PUT', `${BASE}/${def.id}`, { token: admin.token, body });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        ...def,
        ...kind.optional.omitted,
        ...kind.replaceChange.shows,
        ...(kind.archiveSurvivesReplace ? kind.archive.archived : {}),
        name: body.name,
        updated_at: res.body.updated_at,
      });
      expect(Date.parse(res.body.updated_at)).toBeGreaterThanOrEqual(Date.parse(def.updated_at as string));
    });

    it('answers 409 for a name taken by another definition of the league; its own name is fine', async () => {
      const a = await create('wc');
      const b = await create('wc');
      const res = await app.request('PUT', `${BASE}/${b.id}`, { token: admin.token, body: kind.input({ name: a.name.toUpperCase() }) });
      expectError(res, kind.errors.nameTaken);
      expect((await app.request('GET', `${BASE}/${b.id}`)).body).toEqual(b);
      expect((await app.request('PUT', `${BASE}/${b.id}`, { token: admin.token, body: kind.input({ name: b.name }) })).status).toBe(200);
    });

    it('answers 400 for a bad template and changes nothing', async () => {
      const def = await create('wc');
      const res = await app.request('PUT', `${BASE}/${def.id}`, { token: admin.token, body: kind.input({ question_text_template: '{{ unclosed' }) });
      expect(res.status).toBe(400);
      expect(res.body.detail).toContain('question_text_template');
      expect((await app.request('GET', `${BASE}/${def.id}`)).body).toEqual(def);
    });

    it('answers 404 for an unknown definition and 422 for server-managed fields', async () => {
      expectError(await app.request('PUT', `${BASE}/${UNKNOWN_ID}`, { token: admin.token, body: kind.input() }), kind.errors.notFound);
      const def = await create('wc');
      expect((await app.request('PUT', `${BASE}/${def.id}`, { token: admin.token, body: { ...kind.input(), is_archived: false } })).status).toBe(422);
    });

    it('never rewrites the snapshot of an issuance', async () => {
      const def = await create('wc');
      const issuance = await insertIssuance(def.id, { questionText: 'Snapshot X', definitionName: def.name });
      const res = await app.request('PUT', `${BASE}/${def.id}`, {
        token: admin.token,
        body: kind.input({ name: `${def.name} renamed`, question_text_template: 'Something else entirely' }),
      });
      expect(res.status).toBe(200);
      const [row] = await db().select().from(questionIssuances).where(eq(questionIssuances.id, issuance.id));
      expect(row).toMatchObject({ questionText: 'Snapshot X', definitionName: def.name, choices: issuance.choices });
    });
  });

  describe('archive and activate', () => {
    it('take the definition out of issuance and the list, and back, idempotently', async () => {
      const def = await create('wc', kind.archive.from);
      const archived = await archive(def.id);
      expect(archived.status).toBe(200);
      expect(archived.body).toEqual({ ...def, ...kind.archive.archived, updated_at: archived.body.updated_at });
      expect((await archive(def.id)).body).toEqual(archived.body);
      expect((await app.request('GET', BASE, { query: { league: 'wc', q: def.name } })).body).toEqual([]);

      const active = await app.request('POST', `${BASE}/${def.id}/activate`, { token: admin.token });
      expect(active.status).toBe(200);
      expect(active.body).toMatchObject(kind.archive.activated);
      expect((await app.request('POST', `${BASE}/${def.id}/activate`, { token: admin.token })).body).toEqual(active.body);
      expect((await app.request('GET', BASE, { query: { league: 'wc', q: def.name } })).body).toHaveLength(1);
    });

    it('answer 404 for an unknown definition', async () => {
      expectError(await archive(UNKNOWN_ID), kind.errors.notFound);
      expectError(await app.request('POST', `${BASE}/${UNKNOWN_ID}/activate`, { token: admin.token }), kind.errors.notFound);
    });
  });

  describe(`POST ${BASE}/{definition_id}/clone`, () => {
    it('copies into the same league as "<name> (copy)" by default, in issuance; the source stays archived', async () => {
      const def = await create('wc', {
        description: 'd',
        points: 5,
        is_pivotal_moment: true,
        group_id: await newGroup('wc'),
        store_state: { n: '1' },
        issuance_state_extract: { v: 'state.n' },
      });
      const archived = (await archive(def.id)).body;
      const res = await app.request('POST', `${BASE}/${def.id}/clone`, { token: admin.token });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        ...archived,
        ...kind.inIssuance,
        id: res.body.id,
        name: `${def.name} (copy)`,
        created_at: res.body.created_at,
        updated_at: res.body.updated_at,
      });
      expect(res.body.id).not.toBe(def.id);
      expect((await app.request('GET', `${BASE}/${def.id}`)).body).toMatchObject(kind.archive.archived);
    });

    it('takes a name from the body; blank gives 400, taken gives 409', async () => {
      const def = await create('wc');
      const second = unique('Second half');
      const named = await app.request('POST', `${BASE}/${def.id}/clone`, { token: admin.token, body: { name: `  ${second}  ` } });
      expect(named.status).toBe(201);
      expect(named.body.name).toBe(second);
      const before = await definitionCount();
      for (const name of ['', '   ']) {
        const res = await app.request('POST', `${BASE}/${def.id}/clone`, { token: admin.token, body: { name } });
        expectError(res, definitionErrors.invalidName);
        expect(res.body.detail).toContain('name');
      }
      expectError(await app.request('POST', `${BASE}/${def.id}/clone`, { token: admin.token, body: { name: second.toUpperCase() } }), kind.errors.nameTaken);
      expect((await app.request('POST', `${BASE}/${def.id}/clone`, { token: admin.token, body: {} })).status).toBe(201);
      expect((await app.request('POST', `${BASE}/${def.id}/clone`, { token: admin.token, body: {} })).status).toBe(409);
      expect(await definitionCount()).toBe(before + 1);
    });

    it('answers 404 for an unknown definition', async () => {
      expectError(await app.request('POST', `${BASE}/${UNKNOWN_ID}/clone`, { token: admin.token }), kind.errors.notFound);
    });
  });

  describe(`DELETE ${BASE}/{definition_id}`, () => {
    it('answers 409 stating the counts while issuances reference it, advising to archive', async () => {
      const def = await create('wc');
      await insertIssuance(def.id);
      const one = await app.request('DELETE', `${BASE}/${def.id}`, { token: admin.token });
      expectError(one, kind.errors.inUse);
      expect(one.body.detail).toContain('1 question issuance');
      expect(one.body.detail).toContain(`archive it instead (POST ${BASE}/${def.id}/archive)`);
      await insertIssuance(def.id);
      const two = await app.request('DELETE', `${BASE}/${def.id}`, { token: admin.token });
      expectError(two, kind.errors.inUse);
      expect(two.body.detail).toContain('2 question issuances');
      expect((await app.request('GET', `${BASE}/${def.id}`)).status).toBe(200);
    });

    it("deletes and scrubs the id from the kind's allowlists of the league and the matches in one go", async () => {
      const { field, column } = kind.allowlist;
      const otherColumn = otherKind(kind).allowlist.column;
      const [a, b, c] = [await create('wc'), await create('wc'), await create('wc')];
      const patched = await app.request('PATCH', '/api/leagues/wc', { token: admin.token, body: { [field]: [a.id, b.id] } });
      expect(patched.status).toBe(200);
      const m1 = await createMatch(app, { [column]: [a.id, c.id, a.id] });
      const m2 = await createMatch(app, { [column]: [b.id] });
      const m3 = await createMatch(app, { [column]: null, [otherColumn]: [a.id] });
      const m4 = await createMatch(app, { [column]: [a.id] });
      // The league list, kept by the process from here (src/modules/leagues/league-cache.ts).
      const wcInList = async () => (await app.request('GET', '/api/leagues')).body.find((l: { slug: string }) => l.slug === 'wc');
      expect((await wcInList())[field]).toEqual([a.id, b.id]);

      const res = await app.request('DELETE', `${BASE}/${a.id}`, { token: admin.token });
      expect(res.status).toBe(204);
      expect(res.text).toBe('');
      expectError(await app.request('GET', `${BASE}/${a.id}`), kind.errors.notFound);
      expect((await app.request('GET', '/api/leagues/wc')).body[field]).toEqual([b.id]);
      expect((await wcInList())[field]).toEqual([b.id]);
      const rows = await db()
        .select()
        .from(matches)
        .where(inArray(matches.id, [m1.id, m2.id, m3.id, m4.id]));
      const byId = new Map(rows.map((r) => [r.id, r]));
      expect(byId.get(m1.id)![column]).toEqual([c.id]);
      expect(byId.get(m2.id)![column]).toEqual([b.id]);
      expect(byId.get(m3.id)![column]).toBeNull();
      expect(byId.get(m4.id)![column]).toEqual([]);
      // The other kind's allowlist is not touched.
      expect(byId.get(m3.id)![otherColumn]).toEqual([a.id]);

      expectError(await app.request('DELETE', `${BASE}/${a.id}`, { token: admin.token }), kind.errors.notFound);
      await app.request('PATCH', '/api/leagues/wc', { token: admin.token, body: { [field]: null } });
    });
  });

  describe('league allowlists (PATCH /api/leagues)', () => {
    it("accepts the league's definitions of the kind, archived ones included", async () => {
      const a = await create('nhl');
      const b = await create('nhl');
      await archive(b.id);
      const res = await app.request('PATCH', '/api/leagues/nhl', { token: admin.token, body: { [kind.allowlist.field]: [a.id, b.id] } });
      expect(res.status).toBe(200);
      expect(res.body[kind.allowlist.field]).toEqual([a.id, b.id]);
    });

    it('answers 400 naming ids that are unknown, of another league or of the other kind, changing nothing', async () => {
      const own = await create('nhl');
      const foreign = await create('nfl');
      const otherKindDef = await createDefinition(app, admin, otherKind(kind), 'nhl');
      const before = (await app.request('GET', '/api/leagues/nhl')).body;
      const res = await app.request('PATCH', '/api/leagues/nhl', {
        token: admin.token,
        body: { [kind.allowlist.field]: [own.id, foreign.id, UNKNOWN_ID, otherKindDef.id], default_question_points: 77 },
      });
      expectError(res, definitionErrors.unknownInAllowlist);
      expect(res.body.detail).toContain(kind.allowlist.field);
      for (const id of [foreign.id, UNKNOWN_ID, otherKindDef.id]) expect(res.body.detail).toContain(id);
      expect(res.body.detail).not.toContain(own.id);
      expect((await app.request('GET', '/api/leagues/nhl')).body).toEqual(before);
    });
  });
});

describe('what only in-game definitions have', () => {
  const BASE = IN_GAME_KIND.base;
  const create = (league: string, overrides: Record<string, unknown> = {}) => createDefinition(app, admin, IN_GAME_KIND, league, overrides);
  const post = (body: unknown) => app.request('POST', BASE, { token: admin.token, query: { league: 'wc' }, body });

  it.each([
    ['trigger.event_type', { trigger: { event_type: 'touchdown' } }, definitionErrors.unknownEventType],
    ['trigger.event_type', { trigger: { event_type: '   ' } }, definitionErrors.invalidEventType],
    ['resolution.rules[0].event_type', { resolution: { rules: [{ event_type: 'touchdown', correct_choice: '"home"' }] } }, definitionErrors.unknownEventType],
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
      definitionErrors.invalidEventType,
    ],
  ] as const)('answers 400 for an event type of %s that is not one of the sport', async (field, overrides, error) => {
    const res = await post(IN_GAME_KIND.input(overrides));
    expectError(res, error);
    expect(res.body.detail).toContain(field);
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
    const res = await post(IN_GAME_KIND.input({ resolution: { rules, timeout: { after_seconds: 60, correct_choice: 'nobody' } } }));
    expectError(res, definitionErrors.invalidTimeoutChoice);
    expect(res.body.detail).toContain('resolution.timeout.correct_choice');
  });

  it('answers 409 on a delete while a sponsorship slot targets it', async () => {
    const def = await create('wc');
    const match = await createMatch(app);
    const [brand] = await db()
      .insert(brands)
      .values({ name: `Brand ${randomUUID()}`, primaryColor: '#ff0000' })
      .returning();
    await db().insert(questionSponsorships).values({ brandId: brand!.id, matchId: match.id, strategy: 'definition', targetDefinitionId: def.id });
    const res = await app.request('DELETE', `${BASE}/${def.id}`, { token: admin.token });
    expectError(res, IN_GAME_KIND.errors.inUse);
    expect(res.body.detail).toContain('0 question issuances and 1 sponsorship slot');
    expect(res.body.detail).toContain('archive');
  });
});

describe('question groups, used by definitions of both kinds', () => {
  it('keeps a group in use by a Match question definition from being deleted (409 with the count of both kinds)', async () => {
    const group = await newGroup('wc');
    const def = await createDefinition(app, admin, MATCH_KIND, 'wc', { group_id: group });
    await createDefinition(app, admin, IN_GAME_KIND, 'wc', { group_id: group });
    const refused = await app.request('DELETE', `/api/question-groups/${group}`, { token: admin.token });
    expect(refused.status).toBe(409);
    expect(refused.body.detail).toContain('used by 2 question definitions');
    await app.request('PUT', `${MATCH_KIND.base}/${def.id}`, { token: admin.token, body: MATCH_KIND.input({ name: def.name }) });
    expect((await app.request('DELETE', `/api/question-groups/${group}`, { token: admin.token })).body.detail).toContain('used by 1 question definition;');
  });
});
