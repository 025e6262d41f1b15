/**
 * CSV export and import of question definitions: one suite over both kinds
 * (tests/helpers/definition-kinds.ts, and below what each kind's columns
 * hold), then the import's row-by-row rules that both kinds share (one
 * implementation; tested through the in-game kind), the file itself, a race
 * and the upsert the apply writes with.
 */
import { randomUUID } from 'node:crypto';
import { eq, inArray, like } from 'drizzle-orm';
import { writeToString } from 'fast-csv';
import { describe, expect, it } from 'vitest';
import { csvCell } from '../../src/csv/csv-export.js';
import { questionDefinitions } from '../../src/modules/definitions/definitions.table.js';
import { questionIssuances } from '../../src/modules/issuances/issuances.table.js';
import { leagues } from '../../src/modules/leagues/leagues.table.js';
import { upsertById } from '../../src/modules/shared/upsert-by-id.js';
import { parseCsv } from '../helpers/csv.js';
import { BY_KIND, createDefinition, IN_GAME_KIND, MATCH_KIND, otherKind, type DefinitionKindFixture } from '../helpers/definition-kinds.js';
import { createInLeague, inGameDefinitionInput, matchDefinitionInput } from '../helpers/definitions.js';
import { insertIssuanceOf } from '../helpers/engine-rows.js';
import { leagueBySlug, UNKNOWN_ID } from '../helpers/factories.js';
import { testDatabaseUrl } from '../helpers/pg-url.js';
import { statementsDuring, type ApiResponse } from '../helpers/test-app.js';
import { useTestApp } from '../helpers/use-test-app.js';

const { app, admin, player } = useTestApp({ player: true });

const db = () => app.services.database.db;

type Kind = DefinitionKindFixture;
type Fields = Record<string, unknown>;
const IN_GAME = IN_GAME_KIND;
const MATCH = MATCH_KIND;

// ---------------------------------------------------------------- helpers

const createInGame = (league: string, overrides: Parameters<typeof inGameDefinitionInput>[0] = {}) => createDefinition(app, admin, IN_GAME, league, overrides);
const createGroup = (league: string) => createInLeague(app, admin, '/api/question-groups', league, { slug: `g-${randomUUID().slice(0, 8)}`, name: 'Group' });

/** A CSV text written independently of the service's writer: cells through `csvCell` (formula-safe, JSON), quoted when needed. */
function csv(columns: readonly string[], rows: Record<string, unknown>[], eol = '\n'): string {
  const quote = (cell: string) => (/[",\r\n]/.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell);
  return [columns.join(','), ...rows.map((r) => columns.map((c) => quote(csvCell(r[c]))).join(','))].join(eol) + eol;
}

/** The row of a stored definition (its GET body), with overrides. */
const rowOf = (dto: Record<string, unknown>, overrides: Record<string, unknown> = {}) => ({ ...dto, ...overrides });

async function exportCsv(kind: Kind): Promise<ApiResponse<string>> {
  const res = await app.request<string>('GET', `${kind.base}/export`, { token: admin.token });
  expect(res.status).toBe(200);
  return res;
}

function form(content: string | Buffer, field = 'file'): FormData {
  const fd = new FormData();
  fd.append(field, new Blob([content], { type: 'text/csv' }), 'definitions.csv');
  return fd;
}

function importCsv(kind: Kind, content: string | Buffer, { dryRun, token = admin.token }: { dryRun?: boolean; token?: string } = {}) {
  return app.request('POST', `${kind.base}/import`, { token, form: form(content), query: dryRun === undefined ? {} : { dry_run: dryRun } });
}

async function snapshot(kind: Kind): Promise<{ id: string }[]> {
  const rows = (await db().select().from(kind.table)) as { id: string }[];
  return rows.sort((a, b) => a.id.localeCompare(b.id));
}

async function getDef(kind: Kind, id: string) {
  const res = await app.request('GET', `${kind.base}/${id}`);
  expect(res.status).toBe(200);
  return res.body;
}

const insertIssuance = (kind: Kind, definitionId: string, questionText: string) =>
  insertIssuanceOf(app, kind.issuanceOf(definitionId), {
    definitionName: 'Snapshot name',
    questionText,
    resolution: { correct_choice: 'as issued' },
    points: 10,
  });

// ---------------------------------------------------------------- what each kind's columns hold

interface CsvOfKind {
  /** Fields only this kind has, set for the export's formatting, and the cells they (and the kind's other own columns) give. */
  own: { set: Fields; cells(def: Fields): Fields };
  /** A definition of the round trip, the `i`th, around an awkward `text` (`group` of the league of even `i`: nfl). */
  tricky(text: string, i: number, group: string | null): Fields;
  /** An import: the fields a new row sets, the stored definition it changes (and how), and the changed_fields that reports. */
  update: { newRow: Fields; stored: Fields; change(def: Fields): Fields; changedFields: string[] };
  /** Rows that break a rule of the kind's own: the overrides, the column the error names, what its detail says. */
  ownRules: [Fields, string, string][];
}

const CSV_OF: Record<Kind['id'], CsvOfKind> = {
  in_game: {
    own: {
      set: { probability: 0.5, min_answer_seconds: 20 },
      cells: (def) => ({ is_archived: 'false', trigger: JSON.stringify(def.trigger), answer_window_seconds: '', probability: '0.5', min_answer_seconds: '20' }),
    },
    tricky: (text, i, group) => ({
      name: `${text} #${i}`,
      description: i === 0 ? '' : `${text}\tdescription`,
      question_text_template: `${text} {{ match.home_team }}`,
      choices: [
        { identifier: 'home', label_template: `${text} {{ match.home_team }}` },
        { identifier: 'away', label_template: '=B1 "away", yes' },
      ],
      trigger: { event_type: 'score_change', condition: i % 3 ? null : 'event.team = "home" and event.period != "2"' },
      issuance_state_extract: i % 2 ? { 'ключ, "x"': '"=value, \\"quoted\\"\n"' } : null,
      store_state: i % 2 ? null : {},
      resolution: {
        rules: [{ event_type: 'score_change', correct_choice: 'event.team' }],
        ...(i % 2 ? { timeout: { after_seconds: 60, correct_choice: null } } : {}),
      },
      group_id: group,
      is_pivotal_moment: i % 2 === 0,
      is_active: i % 3 !== 0,
      points: i % 2 ? null : i,
      probability: i % 2 ? 0.1 + 0.2 : null,
      answer_window_seconds: i % 2 ? 45 : null,
      min_answer_seconds: i % 2 ? null : 5,
    }),
    update: {
      newRow: {},
      stored: {},
      change: () => ({ question_text_template: 'Changed {{ match.home_team }}', points: 42, is_archived: true }),
      changedFields: ['is_archived', 'question_text_template', 'points'],
    },
    ownRules: [
      [{ trigger: { event_type: 'score_change', condition: 'event.team = ' } }, 'trigger', 'trigger.condition: does not compile'],
      [{ trigger: { event_type: 'touchdown' } }, 'trigger', "'touchdown' is not an event type of football"],
      [{ probability: 2 }, 'probability', 'probability: must be <= 1'],
      [{ answer_window_seconds: 1.5 }, 'answer_window_seconds', 'answer_window_seconds: must be integer'],
      [{ min_answer_seconds: -1 }, 'min_answer_seconds', 'min_answer_seconds: must be >= 0'],
      [{ resolution: { rules: [] } }, 'resolution', 'resolution.rules: must NOT have fewer than 1 items'],
    ],
  },
  match: {
    own: { set: { issue_lead_seconds: 3600 }, cells: () => ({ issue_lead_seconds: '3600' }) },
    tricky: (text, i, group) => ({
      group_id: group,
      is_pivotal_moment: i % 3 === 0,
      issuance_state_extract: i % 2 ? { 'ключ, "x"': '"=value, \\"quoted\\"\n"' } : null,
      store_state: i % 2 ? null : { '@count': '(state.n ? state.n : 0) + 1' },
      name: `${text} #${i}`,
      description: i === 0 ? '' : i === 1 ? null : `-${text}`,
      question_text_template: `${text} {{ match.home_team }}`,
      choices: [
        { identifier: 'home', label_template: `@${text}` },
        { identifier: 'away', label_template: 'Away, "the" team' },
      ],
      is_active: i % 2 === 0,
      points: i % 2 ? null : 5,
      issue_lead_seconds: 60 * i,
    }),
    update: {
      newRow: { issue_lead_seconds: 7200 },
      stored: { points: 5 },
      change: (def) => ({ is_active: false, points: null, name: `${def.name} v2` }),
      changedFields: ['name', 'is_active', 'points'],
    },
    ownRules: [
      [{ resolution: { correct_choice: 'result.winner = ' } }, 'resolution', 'resolution.correct_choice: does not compile'],
      [{ issue_lead_seconds: -1 }, 'issue_lead_seconds', 'issue_lead_seconds: must be >= 0'],
    ],
  },
};

// ---------------------------------------------------------------- both kinds

const TRICKY = [
  'Comma, "quotes" and more',
  'Line one\nline two\r\nline three',
  '=1+1 formula',
  '+plus start',
  '-minus start',
  '@at start',
  "'=already quoted",
  "''+twice quoted",
  "'plain quote",
  'Unicode ünïcødé — 中文 ⚽ 🎉',
];

describe.each(BY_KIND)('%s definitions as CSV', (_name, kind) => {
  const BASE = kind.base;
  const own = CSV_OF[kind.id];
  const create = (league: string, overrides: Fields = {}) => createDefinition(app, admin, kind, league, overrides);
  const archive = (id: string) => app.request('POST', `${BASE}/${id}/archive`, { token: admin.token });

  describe('admin only', () => {
    it('answers 401 without a key and 403 for a player on export and import, writing nothing', async () => {
      const content = csv(kind.columns, [{ league: 'wc', ...kind.input() }]);
      const before = await snapshot(kind);
      expect((await app.request('GET', `${BASE}/export`)).status).toBe(401);
      expect((await app.request('GET', `${BASE}/export`, { token: player.token })).status).toBe(403);
      expect((await app.request('POST', `${BASE}/import`, { form: form(content), query: { dry_run: false } })).status).toBe(401);
      expect((await importCsv(kind, content, { dryRun: false, token: player.token })).status).toBe(403);
      expect(await snapshot(kind)).toEqual(before);
    });
  });

  describe(`GET ${BASE}/export`, () => {
    it('is a CSV attachment of every definition of every league, archived included, ordered by league and name, in the contract column order', async () => {
      const a = await create('nfl', { name: 'b export order' });
      const b = await create('nfl', { name: 'A export order' });
      const c = await create('wc', { name: 'C export order' });
      await archive(c.id);
      const res = await exportCsv(kind);
      expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
      expect(res.headers.get('content-disposition')).toMatch(new RegExp(`^attachment; filename="?${kind.exportFilename.replace('.', '\\.')}"?$`));
      const [header, ...data] = await parseCsv(res.text);
      expect(header).toEqual(kind.columns);
      expect(data).toHaveLength((await snapshot(kind)).length);
      const ids = data.map((r) => r[0]);
      expect(ids).toContain(c.id);
      expect(ids.indexOf(b.id)).toBeLessThan(ids.indexOf(a.id));
      const keys = data.map((r) => `${r[1]}\u0000${r[2]!.toLowerCase()}`);
      expect(keys).toEqual([...keys].sort());
    });

    it('writes null as an empty cell, booleans as true/false, JSON compactly, and neutralizes formula starts', async () => {
      const group = await createGroup('wc');
      const def = await create('wc', {
        name: '=HYPERLINK("http://x")',
        description: '-2+3',
        question_text_template: '@{{ match.home_team }}',
        is_pivotal_moment: true,
        is_active: false,
        group_id: group.id,
        issuance_state_extract: { team: 'event.team' },
        store_state: null,
        points: 25,
        ...own.own.set,
      });
      const plain = await create('wc', { name: 'Plain export', description: null });
      const tab = await create('mlb', { name: '+tab export', description: '\ttab' });
      const [header, ...data] = await parseCsv((await exportCsv(kind)).text);
      const byId = new Map(data.map((r) => [r[0], Object.fromEntries(header!.map((h, i) => [h, r[i]]))]));
      expect(byId.get(def.id)).toEqual({
        id: def.id,
        league: 'wc',
        name: `'=HYPERLINK("http://x")`,
        description: "'-2+3",
        is_pivotal_moment: 'true',
        is_active: 'false',
        group_id: group.id,
        question_text_template: "'@{{ match.home_team }}",
        choices: JSON.stringify(def.choices),
        issuance_state_extract: '{"team":"event.team"}',
        store_state: '',
        resolution: JSON.stringify(def.resolution),
        points: '25',
        ...own.own.cells(def),
      });
      expect(byId.get(plain.id)).toMatchObject({ description: '', group_id: '', points: '' });
      expect(byId.get(tab.id)).toMatchObject({ league: 'mlb', name: "'+tab export", description: "'\ttab" });
    });

    it('reads the table in pages without losing or repeating a row', async () => {
      const source = await create('nba');
      const [row] = await db().select().from(kind.table).where(eq(kind.table.id, source.id));
      const { id: _id, createdAt: _c, updatedAt: _u, ...fields } = row!;
      const nhl = await leagueBySlug(app, 'nhl');
      const values = Array.from({ length: 1100 }, (_, i) => ({ ...fields, ...(i % 2 ? { leagueId: nhl.id } : {}), name: `Bulk ${i % 3 ? 'x' : 'X'}${i}` }));
      await db().insert(kind.table).values(values);
      try {
        const [, ...data] = await parseCsv((await exportCsv(kind)).text);
        expect(data).toHaveLength((await snapshot(kind)).length);
        const ids = data.map((r) => r[0]);
        expect(new Set(ids).size).toBe(ids.length);
        const keys = data.map((r) => `${r[1]}\u0000${r[2]!.toLowerCase()}`);
        expect(keys).toEqual([...keys].sort((x, y) => Buffer.compare(Buffer.from(x), Buffer.from(y))));
      } finally {
        await db().delete(kind.table).where(like(kind.table.name, 'Bulk %'));
      }
    });
  });

  describe('round trip: export, then import of the same file', () => {
    it('reports every row unchanged (dry run and apply) and writes nothing', async () => {
      const group = await createGroup('nfl');
      for (const [i, text] of TRICKY.entries()) {
        const def = await create(i % 2 ? 'wc' : 'nfl', own.tricky(text, i, i % 2 ? null : group.id));
        if (i % 4 === 0) await archive(def.id);
      }

      const before = await snapshot(kind);
      const text = (await exportCsv(kind)).text;
      const dry = await importCsv(kind, text);
      expect(dry.status).toBe(200);
      expect(dry.body).toMatchObject({ dry_run: true, applied: false, row_count: before.length, creates: [], updates: [], errors: [] });
      expect(dry.body.unchanged).toHaveLength(before.length);
      expect(new Set(dry.body.unchanged.map((u: { id: string }) => u.id))).toEqual(new Set(before.map((b) => b.id)));

      const applied = await importCsv(kind, text, { dryRun: false });
      expect(applied.status).toBe(200);
      expect(applied.body).toMatchObject({ dry_run: false, applied: true, row_count: before.length, creates: [], updates: [], errors: [] });
      expect(applied.body.unchanged).toHaveLength(before.length);
      // Unchanged rows are not written: updated_at stays.
      expect(await snapshot(kind)).toEqual(before);

      // The same cells with CRLF line ends and a byte order mark read back the same.
      const rows = await parseCsv(text);
      const crlf = `\uFEFF${await writeToString(rows, { rowDelimiter: '\r\n' })}\r\n`;
      const again = await importCsv(kind, crlf);
      expect(again.status).toBe(200);
      expect(again.body).toMatchObject({ creates: [], updates: [], errors: [] });
      expect(again.body.unchanged).toHaveLength(before.length);
    });

    it('reads a cell the export prefixed with a quote back as the original text', async () => {
      const content = csv(kind.columns, [
        { league: 'wc', ...kind.input({ name: 'Placeholder one' }) },
        { league: 'wc', ...kind.input({ name: 'Placeholder two' }) },
        { league: 'wc', ...kind.input({ name: 'Placeholder three' }) },
      ])
        .replace('Placeholder one', "'=SUM(A1) quoted")
        .replace('Placeholder two', "''@twice quoted")
        .replace('Placeholder three', "'not a formula");
      const res = await importCsv(kind, content, { dryRun: false });
      expect(res.status).toBe(200);
      expect(res.body.creates.map((c: { name: string }) => c.name)).toEqual(['=SUM(A1) quoted', "'@twice quoted", "'not a formula"]);
      expect((await getDef(kind, res.body.creates[0].id)).name).toBe('=SUM(A1) quoted');
    });
  });

  describe(`POST ${BASE}/import`, () => {
    it('previews creates, updates (with changed_fields) and unchanged rows without writing, then applies them; leaves absent definitions alone', async () => {
      const same = await create('wc');
      const changed = await create('wc', own.update.stored);
      const absent = await create('wc');
      const before = await snapshot(kind);
      const newRow = { league: 'nfl', ...kind.input(own.update.newRow) };
      const change = own.update.change(changed);
      const name = (change.name as string | undefined) ?? changed.name;
      const content = csv(kind.columns, [rowOf(same), rowOf(changed, change), newRow]);
      const res = await importCsv(kind, content);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        detail: 'dry run: 1 to create, 1 to update, 1 unchanged, 0 errors',
        dry_run: true,
        applied: false,
        row_count: 3,
        creates: [{ row: 4, id: null, league: 'nfl', name: newRow.name }],
        updates: [{ row: 3, id: changed.id, league: 'wc', name, changed_fields: own.update.changedFields }],
        unchanged: [{ row: 2, id: same.id, league: 'wc', name: same.name }],
        errors: [],
        error_count: 0,
      });
      expect(await snapshot(kind)).toEqual(before);

      const applied = await importCsv(kind, content, { dryRun: false });
      expect(applied.status).toBe(200);
      expect(applied.body).toMatchObject({ detail: 'applied: 1 created, 1 updated, 1 unchanged', dry_run: false, applied: true, errors: [] });
      const createdId = applied.body.creates[0].id;
      expect(createdId).toMatch(/^[0-9a-f-]{36}$/);
      const { league: _l, ...input } = newRow;
      expect(await getDef(kind, createdId)).toMatchObject({
        ...input,
        league: 'nfl',
        is_pivotal_moment: false,
        group_id: null,
        points: null,
        ...kind.inIssuance,
      });
      const updated = await getDef(kind, changed.id);
      expect(updated).toMatchObject({ ...change, name });
      expect(updated.updated_at > changed.updated_at).toBe(true);
      expect(await getDef(kind, same.id)).toEqual(same);
      expect(await getDef(kind, absent.id)).toEqual(absent);
    });

    it('never rewrites the snapshot of an open issuance', async () => {
      const def = await create('wc');
      const issuance = await insertIssuance(kind, def.id, 'Snapshot text');
      const res = await importCsv(
        kind,
        csv(kind.columns, [rowOf(def, { name: `${def.name} renamed`, question_text_template: 'Entirely new text', points: 99 })]),
        { dryRun: false },
      );
      expect(res.status).toBe(200);
      expect(res.body.updates).toHaveLength(1);
      const [row] = await db().select().from(questionIssuances).where(eq(questionIssuances.id, issuance.id));
      expect(row).toMatchObject({
        questionText: 'Snapshot text',
        definitionName: 'Snapshot name',
        points: 10,
        resolution: { correct_choice: 'as issued' },
        choices: issuance.choices,
        status: 'open',
      });
    });

    it('applies the same rules as the JSON API, each error naming its column; an apply with any row error is refused whole', async () => {
      const def = await create('wc');
      const ownGroup = await createGroup('wc');
      const otherGroup = await createGroup('nfl');
      const otherKindDef = await createDefinition(app, admin, otherKind(kind), 'wc');
      const row = (overrides: Fields) => ({ league: 'wc', ...kind.input(), ...overrides });
      const cases: [Fields, string, string][] = [
        [row({ group_id: otherGroup.id }), 'group_id', `group_id: ${otherGroup.id} is not a question group of league 'wc'`],
        [row({ question_text_template: '{{ unclosed' }), 'question_text_template', 'question_text_template: does not parse'],
        [
          row({
            choices: [
              { identifier: 'a', label_template: 'A' },
              { identifier: 'a', label_template: 'B' },
            ],
          }),
          'choices',
          "choices[1].identifier 'a' is used by an earlier choice",
        ],
        [
          row({
            choices: [
              { identifier: 'A!', label_template: 'A' },
              { identifier: 'b', label_template: 'B' },
            ],
          }),
          'choices',
          'choices[0].identifier: must match pattern',
        ],
        [row({ points: -1 }), 'points', 'points: must be >= 0'],
        [row({ name: '   ' }), 'name', 'name must not be blank'],
        [row({ name: null }), 'name', 'name: a value is required'],
        [row({ issuance_state_extract: { a: 'event.team +' } }), 'issuance_state_extract', 'issuance_state_extract.a: does not compile'],
        [row({ store_state: { n: '(' } }), 'store_state', 'store_state.n'],
        [row({ description: 'NUL \u0000 inside' }), 'description', 'description must not contain the NUL character'],
        ...own.ownRules.map(([overrides, field, detail]): [Fields, string, string] => [row(overrides), field, detail]),
        [row({ name: def.name.toLowerCase() }), 'name', `a ${kind.noun} named '${def.name.toLowerCase()}' already exists in league 'wc'`],
        [rowOf(def, { league: 'nfl' }), 'league', "belongs to league 'wc', not 'nfl'"],
        [row({ id: otherKindDef.id }), 'id', `no ${kind.noun} with id ${otherKindDef.id}; leave id empty to create one`],
      ];
      const good = row({ group_id: ownGroup.id });
      const content = csv(kind.columns, [good, ...cases.map(([r]) => r)]);
      const before = await snapshot(kind);
      const dry = await importCsv(kind, content);
      expect(dry.status).toBe(200);
      expect(dry.body.creates).toEqual([{ row: 2, id: null, league: 'wc', name: good.name }]);
      expect(dry.body.errors).toHaveLength(cases.length);
      cases.forEach(([, field, detail], i) => {
        expect(dry.body.errors[i]).toEqual({ row: i + 3, field, detail: expect.stringContaining(detail) });
      });

      const applied = await importCsv(kind, content, { dryRun: false });
      expect(applied.status).toBe(400);
      expect(applied.body).toEqual({
        ...dry.body,
        dry_run: false,
        applied: false,
        detail: `import refused, nothing was written: ${cases.length} errors (1 to create, 0 to update, 0 unchanged)`,
      });
      expect(await snapshot(kind)).toEqual(before);
    });
  });
});

// ---------------------------------------------------------------- the import's row rules (one implementation; through the in-game kind)

describe('POST /api/question-definitions/import: the rules of rows both kinds share', () => {
  it('treats empty cells as the JSON API treats absent or null fields; a missing optional column keeps the stored value', async () => {
    const def = await createInGame('wc', { description: 'Described', points: 7, probability: 0.25, is_active: false, is_pivotal_moment: true });
    const emptied = await importCsv(
      IN_GAME,
      csv(IN_GAME.columns, [
        rowOf(def, {
          description: null,
          points: null,
          probability: null,
          is_active: null,
          is_pivotal_moment: null,
          issuance_state_extract: null,
          is_archived: null,
        }),
      ]),
      { dryRun: false },
    );
    expect(emptied.status).toBe(200);
    expect(emptied.body.updates[0].changed_fields).toEqual(['description', 'is_pivotal_moment', 'is_active', 'points', 'probability']);
    expect(await getDef(IN_GAME, def.id)).toMatchObject({
      description: null,
      points: null,
      probability: null,
      is_active: true,
      is_pivotal_moment: false,
      issuance_state_extract: null,
      is_archived: false,
    });

    const current = await getDef(IN_GAME, def.id);
    const columns = IN_GAME.columns.filter((c) => !['description', 'points', 'is_active', 'probability', 'is_archived'].includes(c));
    const partial = await importCsv(IN_GAME, csv(columns, [rowOf(current, { question_text_template: 'Only this changes' })]));
    expect(partial.status).toBe(200);
    expect(partial.body.updates).toEqual([{ row: 2, id: def.id, league: 'wc', name: def.name, changed_fields: ['question_text_template'] }]);
  });

  it('refuses an unknown id, a duplicate id and a league move as row errors; apply answers 400 with the same preview and writes nothing', async () => {
    const def = await createInGame('wc');
    const other = await createInGame('wc');
    const fresh = { league: 'wc', ...inGameDefinitionInput() };
    const before = await snapshot(IN_GAME);
    const content = csv(IN_GAME.columns, [
      fresh,
      rowOf(def, { id: UNKNOWN_ID }),
      rowOf(other, { league: 'nfl' }),
      rowOf(def, { points: 3 }),
      rowOf(def, { points: 4 }),
      rowOf(other, { id: 'not-a-uuid' }),
    ]);
    const dry = await importCsv(IN_GAME, content);
    expect(dry.status).toBe(200);
    expect(dry.body.errors).toEqual([
      { row: 3, field: 'id', detail: expect.stringContaining(`no question definition with id ${UNKNOWN_ID}`) },
      { row: 4, field: 'league', detail: expect.stringMatching(/belongs to league 'wc', not 'nfl'; moving/) },
      { row: 6, field: 'id', detail: expect.stringContaining('line 5') },
      { row: 7, field: 'id', detail: expect.stringContaining("'not-a-uuid' is not a UUID") },
    ]);
    expect(dry.body.creates).toEqual([{ row: 2, id: null, league: 'wc', name: fresh.name }]);
    expect(dry.body.updates).toEqual([{ row: 5, id: def.id, league: 'wc', name: def.name, changed_fields: ['points'] }]);
    expect(dry.body.detail).toBe('dry run: 1 to create, 1 to update, 0 unchanged, 4 errors');

    const applied = await importCsv(IN_GAME, content, { dryRun: false });
    expect(applied.status).toBe(400);
    expect(applied.body).toEqual({
      ...dry.body,
      dry_run: false,
      applied: false,
      detail: expect.stringContaining('import refused, nothing was written: 4 errors'),
    });
    expect(await snapshot(IN_GAME)).toEqual(before);
  });

  it('numbers rows by the line they start on, the header being line 1', async () => {
    const content = csv(IN_GAME.columns, [
      { league: 'wc', ...inGameDefinitionInput({ description: 'two\nlines' }) },
      { league: 'wc', ...inGameDefinitionInput(), id: UNKNOWN_ID },
    ]).replace('\n', '\n\n'); // a blank line after the header
    const res = await importCsv(IN_GAME, content);
    expect(res.status).toBe(200);
    expect(res.body.row_count).toBe(2);
    expect(res.body.creates[0].row).toBe(3);
    expect(res.body.errors).toEqual([{ row: 5, field: 'id', detail: expect.any(String) }]);
  });

  it('keeps names unique per league without regard to case, against stored definitions and other rows of the file', async () => {
    const taken = await createInGame('wc', { name: `Taken ${randomUUID()}` });
    const renamed = await createInGame('wc', { name: `Renamed ${randomUUID()}` });
    const twin = `Twin ${randomUUID()}`;
    const content = csv(IN_GAME.columns, [
      { league: 'wc', ...inGameDefinitionInput({ name: taken.name.toUpperCase() }) },
      { league: 'wc', ...inGameDefinitionInput({ name: twin }) },
      { league: 'wc', ...inGameDefinitionInput({ name: twin.toLowerCase() }) },
      { league: 'nfl', ...inGameDefinitionInput({ name: twin }) },
      // A name given up by an earlier row is free for a later one.
      rowOf(renamed, { name: `${renamed.name} (new)` }),
      { league: 'wc', ...inGameDefinitionInput({ name: renamed.name }) },
      // ... but not one a later row gives up.
      { league: 'wc', ...inGameDefinitionInput({ name: `${taken.name} (next)` }) },
      rowOf(taken, { name: `${taken.name} (next)` }),
    ]);
    const res = await importCsv(IN_GAME, content);
    expect(res.status).toBe(200);
    expect(res.body.errors).toEqual([
      { row: 2, field: 'name', detail: `a question definition named '${taken.name.toUpperCase()}' already exists in league 'wc'` },
      { row: 4, field: 'name', detail: expect.stringContaining(`line 3 of this file also uses the name '${twin.toLowerCase()}' in league 'wc'`) },
      { row: 9, field: 'name', detail: expect.stringContaining('line 8 of this file') },
    ]);
    expect(res.body.creates.map((c: { row: number }) => c.row)).toEqual([3, 5, 7, 8]);
    expect(res.body.updates.map((c: { row: number }) => c.row)).toEqual([6]);

    // Without the failing rows, the apply goes through in file order.
    const lines = content.split('\n');
    const ok = [0, 2, 4, 5, 6].map((i) => lines[i]).join('\n') + '\n';
    const applied = await importCsv(IN_GAME, ok, { dryRun: false });
    expect(applied.status).toBe(200);
    expect(applied.body.creates).toHaveLength(3);
    expect((await getDef(IN_GAME, renamed.id)).name).toBe(`${renamed.name} (new)`);
  });

  it('checks the league of every row: supported, present in the database', async () => {
    const unsupported = await importCsv(
      IN_GAME,
      csv(IN_GAME.columns, [
        { league: 'xfl', ...inGameDefinitionInput() },
        { league: '', ...inGameDefinitionInput() },
      ]),
    );
    expect(unsupported.status).toBe(200);
    expect(unsupported.body.errors).toEqual([
      { row: 2, field: 'league', detail: expect.stringContaining("unsupported league slug 'xfl'") },
      { row: 3, field: 'league', detail: expect.stringContaining('a value is required') },
    ]);
    await db().delete(leagues).where(eq(leagues.slug, 'mls'));
    const missing = await importCsv(IN_GAME, csv(IN_GAME.columns, [{ league: 'mls', ...inGameDefinitionInput() }]));
    expect(missing.body.errors).toEqual([{ row: 2, field: 'league', detail: expect.stringContaining("league 'mls' not found") }]);
  });

  it("reads each league's groups once, not once per row naming a group (ids in either case)", async () => {
    const groups = { wc: await createGroup('wc'), nfl: await createGroup('nfl') };
    const rows = (n: number) =>
      Array.from({ length: n }, (_, i) => {
        const league = i % 2 ? 'nfl' : 'wc';
        return { league, ...inGameDefinitionInput(), group_id: i % 4 < 2 ? groups[league].id : groups[league].id.toUpperCase() };
      });
    async function statements(n: number, dryRun: boolean): Promise<number> {
      const { result: res, statements } = await statementsDuring(app, () => importCsv(IN_GAME, csv(IN_GAME.columns, rows(n)), { dryRun }));
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ errors: [], row_count: n, applied: !dryRun });
      expect(res.body.creates).toHaveLength(n);
      return statements.length;
    }
    // The preview, and the apply: its rows written in one statement, not one per row.
    expect(await statements(40, true)).toBe(await statements(4, true));
    expect(await statements(40, false)).toBe(await statements(4, false));
  });

  it('applies an import of more rows than one write statement takes (500), every row written', async () => {
    const rows = Array.from({ length: 620 }, (_, i) => ({ league: 'mlb', ...inGameDefinitionInput({ name: `Bulk ${Date.now()} ${i}` }) }));
    const { result: res, statements } = await statementsDuring(app, () => importCsv(IN_GAME, csv(IN_GAME.columns, rows), { dryRun: false }));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ applied: true, errors: [], row_count: 620 });
    expect(statements.filter((q) => q.startsWith('insert into "question_definitions"'))).toHaveLength(2);
    const written = await db()
      .select({ id: questionDefinitions.id })
      .from(questionDefinitions)
      .where(
        inArray(
          questionDefinitions.name,
          rows.map((r) => r.name),
        ),
      );
    expect(written).toHaveLength(620);
  });

  it('reports cells that cannot be read as their column type', async () => {
    const base = csv(IN_GAME.columns, [{ league: 'wc', ...inGameDefinitionInput() }]);
    const [header, line] = base.trim().split('\n');
    const cells = await parseCsv(line!);
    const edit = (column: string, value: string) => {
      const copy = [...cells[0]!];
      copy[IN_GAME.columns.indexOf(column)] = value;
      return copy.map((c) => (/[",\n]/.test(c) ? `"${c.replace(/"/g, '""')}"` : c)).join(',');
    };
    const content = [
      header,
      edit('trigger', '{"event_type": "score_change",'),
      edit('is_active', 'yes'),
      edit('points', 'ten'),
      edit('choices', '[1, 2'),
      edit('is_archived', 'maybe'),
      edit('is_active', 'TRUE'),
      `${edit('points', '5')},extra`,
    ].join('\n');
    const res = await importCsv(IN_GAME, content);
    expect(res.status).toBe(200);
    expect(res.body.errors).toEqual([
      { row: 2, field: 'trigger', detail: expect.stringMatching(/^trigger: malformed JSON/) },
      { row: 3, field: 'is_active', detail: "is_active: expected true or false, got 'yes'" },
      { row: 4, field: 'points', detail: "points: expected a number, got 'ten'" },
      { row: 5, field: 'choices', detail: expect.stringMatching(/^choices: malformed JSON/) },
      { row: 6, field: 'is_archived', detail: "is_archived: expected true or false, got 'maybe'" },
      { row: 8, field: null, detail: 'the row has 19 cells, the header has 18 columns' },
    ]);
    expect(res.body.creates.map((c: { row: number }) => c.row)).toEqual([7]);
  });
});

// ---------------------------------------------------------------- the file

describe('the file', () => {
  const header = IN_GAME.columns.join(',');

  it('answers 400 naming unknown, duplicate and missing required columns', async () => {
    const res = await importCsv(IN_GAME, `${header},colour,name\n`);
    expect(res.status).toBe(400);
    expect(res.body.detail).toContain("unknown columns: 'colour'");
    expect(res.body.detail).toContain('duplicate columns: name');
    expect(res.body.errors).toEqual([
      { row: 1, field: 'colour', detail: "unknown column 'colour'" },
      { row: 1, field: 'name', detail: "column 'name' appears more than once" },
    ]);
    const missing = await importCsv(MATCH, 'id,league,name,description\n');
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ dry_run: true, applied: false, row_count: 0, creates: [], updates: [], unchanged: [] });
    expect(missing.body.detail).toContain('missing required columns: question_text_template, choices, resolution');
  });

  it('answers 400 for malformed CSV, naming the line, and 422 for text that is not UTF-8 (as for any body)', async () => {
    const good = csv(IN_GAME.columns, [{ league: 'wc', ...inGameDefinitionInput() }]);
    const res = await importCsv(IN_GAME, `${good}"unterminated,wc\n`, { dryRun: false });
    expect(res.status).toBe(400);
    expect(res.body.detail).toMatch(/^malformed CSV at line 3/);
    expect(res.body).toMatchObject({ dry_run: false, applied: false, errors: [{ row: 3, field: null }] });
    const latin1 = await importCsv(IN_GAME, Buffer.concat([Buffer.from(`${header}\n,wc,`), Buffer.from([0xe9, 0xff]), Buffer.from('\n')]));
    expect(latin1.status).toBe(422);
    expect(latin1.body.detail).toEqual([{ loc: ['body', 'file'], msg: 'not valid UTF-8 text', type: 'utf8_invalid' }]);
  });

  it('answers 400 for an empty file; a header alone is an empty preview', async () => {
    for (const empty of ['', '\n\n', '\uFEFF']) {
      const res = await importCsv(IN_GAME, empty);
      expect(res.status).toBe(400);
      expect(res.body.detail).toContain('the file is empty');
    }
    for (const dryRun of [true, false]) {
      const res = await importCsv(MATCH, `${MATCH.columns.join(',')}\r\n`, { dryRun });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ dry_run: dryRun, applied: !dryRun, row_count: 0, creates: [], updates: [], unchanged: [], errors: [] });
    }
  });

  it('answers 422 without the file field', async () => {
    const fd = new FormData();
    const res = await app.request('POST', `${IN_GAME.base}/import`, { token: admin.token, form: fd });
    expect(res.status).toBe(422);
  });

  it('answers 400 over 5 MiB, saying the limit', async () => {
    const limit = 5 * 1024 * 1024;
    const row = csv(IN_GAME.columns, [{ league: 'wc', ...inGameDefinitionInput({ name: 'x' }) }]).split('\n')[1]!;
    let body = `${header}\n`;
    while (body.length <= limit) body += `${row}\n`;
    const res = await importCsv(IN_GAME, body.slice(0, limit + 1));
    expect(res.status).toBe(400);
    expect(res.body.detail).toContain('5 MiB');
    expect(res.body.errors).toEqual([{ row: null, field: null, detail: res.body.detail }]);
  });

  it('takes 2,000 rows and answers 400 over that, saying the limit', async () => {
    const rows = Array.from({ length: 2001 }, (_, i) => ({ league: 'nba', ...matchDefinitionInput({ name: `Many ${i}` }) }));
    const max = await importCsv(MATCH, csv(MATCH.columns, rows.slice(0, 2000)));
    expect(max.status).toBe(200);
    expect(max.body).toMatchObject({ row_count: 2000, errors: [] });
    expect(max.body.creates).toHaveLength(2000);
    const over = await importCsv(MATCH, csv(MATCH.columns, rows));
    expect(over.status).toBe(400);
    expect(over.body.detail).toContain('more than 2,000 rows');
  });
});

// ---------------------------------------------------------------- hostile files

describe('a hostile file', () => {
  const header = IN_GAME.columns.join(',');

  it("answers 400 past 1,000 blank lines (the issue's header and 5 million of them, 4.8 MiB), reading no further", async () => {
    const res = await importCsv(IN_GAME, `${header}\n${'\n'.repeat(5_000_000)}`);
    expect(res.status, res.text.slice(0, 300)).toBe(400);
    expect(res.body.detail).toBe('the file has more than 1,000 blank lines or rows of empty cells (the limit); remove them');
    expect(res.body).toMatchObject({ row_count: 0, error_count: 1 });
    // Up to the limit they are nothing: spreadsheets add empty rows (of empty cells, too).
    const row = csv(IN_GAME.columns, [{ league: 'wc', ...inGameDefinitionInput({ name: `Blank lines ${randomUUID()}` }) }]).split('\n')[1]!;
    const fine = await importCsv(IN_GAME, `${header}\n${'\n'.repeat(500)}${row}\n${',,,\r\n'.repeat(500)}`);
    expect(fine.status, fine.text.slice(0, 300)).toBe(200);
    expect(fine.body).toMatchObject({ row_count: 1, errors: [], error_count: 0 });
    expect(fine.body.creates[0].row).toBe(502);
  });

  it("answers 400 for a row of more than 100 cells before reading it (the issue's header of 1,000,000 unknown columns), in a small answer", async () => {
    const res = await importCsv(IN_GAME, `${Array.from({ length: 1_000_000 }, () => 'c').join(',')}\n`);
    expect(res.status).toBe(400);
    expect(res.body.detail).toBe(`the header row has more than 100 cells (the limit); the export's rows have ${IN_GAME.columns.length}`);
    expect(res.body.errors).toEqual([{ row: 1, field: null, detail: 'more than 100 cells' }]);
    expect(res.text.length).toBeLessThan(2000);
    const wide = await importCsv(IN_GAME, `${header}\n${',x'.repeat(200)}\n`);
    expect(wide.status).toBe(400);
    expect(wide.body.detail).toMatch(/^the row on line 2 has more than 100 cells/);
  });

  it('answers 400 for a row longer than 1,048,576 characters, naming its line', async () => {
    const res = await importCsv(IN_GAME, `${header}\n,wc,"${'x'.repeat(1_100_000)}"\n`);
    expect(res.status).toBe(400);
    expect(res.body.detail).toBe('the row on line 2 is longer than 1,048,576 characters (the limit)');
  });

  it('lists the first 100 problems, in file order, and counts them all', async () => {
    const rows = Array.from({ length: 150 }, (_, i) => ({ league: 'wc', ...inGameDefinitionInput({ name: `Problem ${i}` }), is_archived: 'maybe' }));
    const res = await importCsv(IN_GAME, csv([...IN_GAME.columns], rows));
    expect(res.status).toBe(200);
    expect(res.body.error_count).toBe(150);
    expect(res.body.errors).toHaveLength(100);
    expect(res.body.errors.map((e: { row: number }) => e.row)).toEqual(Array.from({ length: 100 }, (_, i) => i + 2));
    expect(res.body.detail).toContain('150 errors');
    // A header of many unknown columns: each is a problem, the message names a few.
    const unknown = await importCsv(IN_GAME, `${header},${Array.from({ length: 80 }, (_, i) => `extra${i}`).join(',')}\n`);
    expect(unknown.status).toBe(400);
    expect(unknown.body.error_count).toBe(80);
    expect(unknown.body.detail).toContain("unknown columns: 'extra0', 'extra1', 'extra2', 'extra3', 'extra4' and 75 more");
  });
});

// ---------------------------------------------------------------- races (PostgreSQL only)

describe.skipIf(!testDatabaseUrl())('a name taken by another request during the apply', () => {
  it('refuses the import with 400 naming the row, and writes nothing', async () => {
    const { default: postgres } = await import('postgres');
    const other = postgres(app.db.url!, { max: 1, onnotice: () => {} });
    const watcher = postgres(app.db.url!, { max: 1, onnotice: () => {} });
    try {
      const name = `Raced ${randomUUID()}`;
      const wc = await leagueBySlug(app, 'wc');
      const early = { league: 'wc', ...inGameDefinitionInput() };
      const content = csv(IN_GAME.columns, [early, { league: 'wc', ...inGameDefinitionInput({ name }) }]);
      let pending: Promise<ApiResponse> | undefined;
      await other.begin(async (sql) => {
        const input = inGameDefinitionInput();
        await sql`insert into question_definitions (league_id, name, trigger, trigger_event_type, question_text_template, choices, resolution)
                  values (${wc.id}, ${name}, ${sql.json(input.trigger as never)}, 'score_change', 'x', ${sql.json(input.choices as never)}, ${sql.json(input.resolution as never)})`;
        // The import checks (the name is free: the insert is not committed), then waits on the unique index.
        pending = importCsv(IN_GAME, content, { dryRun: false });
        // Commit only once the import's insert is waiting on this transaction's row (a lock wait).
        for (let waited = 0; ; waited += 20) {
          const [row] =
            await watcher`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock' and query ilike 'insert into "question_definitions"%'`;
          if (row!.n > 0) break;
          if (waited > 15_000) throw new Error('the import never waited on the uncommitted row');
          await new Promise((r) => setTimeout(r, 20));
        }
      });
      const res = await pending!;
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({
        applied: false,
        creates: [
          { row: 2, id: null },
          { row: 3, id: null },
        ],
      });
      expect(res.body.errors).toEqual([{ row: 3, field: 'name', detail: expect.stringContaining('by another request') }]);
      expect(
        await db()
          .select()
          .from(questionDefinitions)
          .where(inArray(questionDefinitions.name, [early.name])),
      ).toEqual([]);
    } finally {
      await other.end({ timeout: 1 });
      await watcher.end({ timeout: 1 });
    }
  });
});

describe('upsertById', () => {
  it('refuses rows of different columns (a missing one would be overwritten with its default), writing nothing', async () => {
    const db = app.services.database.db;
    const wc = await leagueBySlug(app, 'wc');
    await expect(
      upsertById({
        db,
        table: leagues,
        rows: [
          { id: wc.id, name: 'x' },
          { id: wc.id, name: 'y', slug: 'z' },
        ] as never,
      }),
    ).rejects.toThrow('upsertById: every row must have the same columns');
    expect((await db.select().from(leagues).where(eq(leagues.id, wc.id)))[0]!.name).toBe(wc.name);
    await expect(upsertById({ db, table: leagues, rows: [{ id: wc.id, name: undefined }] as never })).rejects.toThrow(
      'upsertById: a column is given as undefined',
    );
    expect((await db.select().from(leagues).where(eq(leagues.id, wc.id)))[0]!.name).toBe(wc.name);
  });

  it('replaces the given columns of an existing row, keeps the others and created_at, and moves updated_at', async () => {
    const db = app.services.database.db;
    const created = await app.request('POST', '/api/question-definitions', {
      token: admin.token,
      query: { league: 'wc' },
      body: inGameDefinitionInput({ is_pivotal_moment: true }),
    });
    expect(created.status).toBe(201);
    const [before] = await db.select().from(questionDefinitions).where(eq(questionDefinitions.id, created.body.id));
    // Every column but the timestamps and is_pivotal_moment (whose default, false, an insert would take).
    const { createdAt, updatedAt, isPivotalMoment, ...row } = before!;
    await upsertById({ db, table: questionDefinitions, rows: [{ ...row, name: `${row.name} (upserted)`, points: 77 }] });
    const [after] = await db.select().from(questionDefinitions).where(eq(questionDefinitions.id, before!.id));
    expect(after).toMatchObject({
      name: `${row.name} (upserted)`,
      points: 77,
      isPivotalMoment: true,
      questionTextTemplate: row.questionTextTemplate,
      createdAt,
    });
    expect(after!.updatedAt.getTime()).toBeGreaterThan(updatedAt.getTime());
    expect(isPivotalMoment).toBe(true);
  });
});
