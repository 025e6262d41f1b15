/**
 * Question sponsorship slots over HTTP: listing and assignment, every rule
 * of the assignment (exclusive inputs, slot targets, editable matches,
 * capacity across brands, unique question numbers, random placement, replace
 * and clear), and on PostgreSQL the race of two brands for the last places.
 */
import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { brandErrors } from '../../src/modules/brands/brands.errors.js';
import { brands } from '../../src/modules/brands/brands.table.js';
import { leagueErrors } from '../../src/modules/leagues/leagues.errors.js';
import { matchErrors } from '../../src/modules/matches/matches.errors.js';
import { sponsorshipErrors } from '../../src/modules/sponsorships/sponsorships.errors.js';
import { questionDefinitions } from '../../src/modules/definitions/definitions.table.js';
import { isUniqueViolation, pgErrorDetail } from '../../src/errors.js';
import { questionSponsorships } from '../../src/modules/sponsorships/sponsorships.table.js';
import { matches } from '../../src/modules/matches/matches.table.js';
import { expectError } from '../helpers/errors.js';
import { createMatch, leagueBySlug, UNKNOWN_ID } from '../helpers/factories.js';
import type { ApiResponse } from '../helpers/test-app.js';
import { useTestApp } from '../helpers/use-test-app.js';
import type { MatchStatus } from '../../src/domain/vocabulary.js';

interface Slot {
  id: string;
  brand_id: string;
  match_id: string;
  strategy: string;
  target: number | string | null;
  best_effort: boolean;
  question_issuance_id: string | null;
  stamped_at: string | null;
  brand: { id: string; name: string; primary_color: string; secondary_color: string | null; logo_url: string | null };
  created_at: string;
}

interface MatchResult {
  match_id: string;
  removed_count: number;
  created_count: number;
  slots: Slot[];
}

interface AssignmentResult {
  brand_id: string;
  matches: MatchResult[];
}

const { app, admin, player } = useTestApp({ player: true });

let counter = 0;

async function newBrand(): Promise<string> {
  const [row] = await app.services.database.db
    .insert(brands)
    .values({ name: `Sponsor ${Date.now().toString(36)}${counter++}`, primaryColor: '#112233' })
    .returning();
  return row!.id;
}

/** A scheduled wc match; `cap` sets its question_max_count override (the wc default is 10). */
async function newMatch(opts: { cap?: number; status?: MatchStatus; league?: string } = {}): Promise<string> {
  const row = await createMatch(app, {
    ...(opts.cap !== undefined ? { questionMaxCount: opts.cap } : {}),
    ...(opts.status ? { status: opts.status } : {}),
    ...(opts.league ? { league: opts.league } : {}),
  });
  return row.id;
}

async function newDefinition(league = 'wc', isArchived = false): Promise<string> {
  const leagueRow = await leagueBySlug(app, league);
  const [row] = await app.services.database.db
    .insert(questionDefinitions)
    .values({
      leagueId: leagueRow.id,
      name: `Next goal ${randomUUID()}`,
      trigger: { event_type: 'shot' },
      triggerEventType: 'shot',
      questionTextTemplate: 'Will the next shot score?',
      choices: [
        { identifier: 'yes', label_template: 'Yes' },
        { identifier: 'no', label_template: 'No' },
      ],
      resolution: { rules: [] },
      isArchived,
    })
    .returning();
  return row!.id;
}

const assign = (brandId: string, body: unknown, token: string | null = admin.token) =>
  app.request<AssignmentResult & { detail?: string }>('POST', `/api/brands/${brandId}/question-sponsorships`, { token, body });

async function assignOk(brandId: string, body: unknown): Promise<AssignmentResult> {
  const res = await assign(brandId, body);
  expect(res.status, res.text).toBe(200);
  return res.body;
}

const list = (brandId: string, query?: Record<string, string | string[]>) =>
  app.request<Slot[]>('GET', `/api/brands/${brandId}/question-sponsorships`, query ? { query } : {});

/** Every slot on the match, of any brand, straight from the table. */
async function slotsInDb(matchId: string) {
  return app.services.database.db.select().from(questionSponsorships).where(eq(questionSponsorships.matchId, matchId));
}

const numbers = (slots: { target: unknown }[]) => slots.map((s) => s.target as number).sort((a, b) => a - b);
const expectStatus = (res: ApiResponse, status: number) => expect(res.status, res.text).toBe(status);

describe('POST /api/brands/{brand_id}/question-sponsorships: access and unknown ids', () => {
  it('needs an admin key: 401 without one, 403 for a player', async () => {
    const brand = await newBrand();
    const match = await newMatch();
    const body = { match_ids: [match], slots: [{ strategy: 'next_available' }] };
    expectStatus(await assign(brand, body, null), 401);
    expectStatus(await assign(brand, body, player.token), 403);
    expect(await slotsInDb(match)).toHaveLength(0);
  });

  it('answers 404 for an unknown brand', async () => {
    const match = await newMatch();
    expectError(await assign(UNKNOWN_ID, { match_ids: [match], slots: [{ strategy: 'next_available' }] }), brandErrors.notFound);
  });

  it('answers 404 naming an unknown match, and writes nothing on the others', async () => {
    const brand = await newBrand();
    const match = await newMatch();
    await assignOk(brand, { match_ids: [match], slots: [{ strategy: 'question_number', target: 1 }] });
    const res = await assign(brand, { match_ids: [match, UNKNOWN_ID], slots: [{ strategy: 'question_number', target: 2 }] });
    expectError(res, matchErrors.notFound);
    expect(res.body.detail).toContain(UNKNOWN_ID);
    expect((await slotsInDb(match)).map((s) => s.targetNumber)).toEqual([1]);
  });
});

describe('POST question-sponsorships: request validation (422) and exclusive inputs (400)', () => {
  it('refuses random_percent outside 1..100 and malformed bodies with 422', async () => {
    const brand = await newBrand();
    const match = await newMatch();
    for (const random_percent of [0, 101, 12.5]) expectStatus(await assign(brand, { match_ids: [match], random_percent }), 422);
    expectStatus(await assign(brand, { match_ids: [], slots: [] }), 422);
    expectStatus(await assign(brand, { match_ids: ['not-a-uuid'], slots: [] }), 422);
    expectStatus(await assign(brand, { slots: [] }), 422);
    expectStatus(await assign(brand, { match_ids: [match], slots: [{ strategy: 'first_come' }] }), 422);
    expectStatus(await assign(brand, { match_ids: [match], slots: [{ strategy: 'question_number', target: 0 }] }), 422);
    expectStatus(await assign(brand, { match_ids: [match], slots: [], brand_id: brand }), 422);
    expect(await slotsInDb(match)).toHaveLength(0);
  });

  it('refuses slots together with random_percent (400), but an empty slots list with random_percent is random placement', async () => {
    const brand = await newBrand();
    const match = await newMatch();
    const res = await assign(brand, { match_ids: [match], slots: [{ strategy: 'next_available' }], random_percent: 50 });
    expectError(res, sponsorshipErrors.slotsAndRandom);
    const ok = await assignOk(brand, { match_ids: [match], slots: [], random_percent: 20 });
    expect(ok.matches[0]!.created_count).toBe(2);
  });

  it('refuses a request with neither slots nor random_percent (400) unless it clears with replace', async () => {
    const brand = await newBrand();
    const match = await newMatch();
    await assignOk(brand, { match_ids: [match], slots: [{ strategy: 'next_available' }] });
    expectError(await assign(brand, { match_ids: [match] }), sponsorshipErrors.nothingToAssign);
    expectError(await assign(brand, { match_ids: [match], replace_existing_for_brand: true }), sponsorshipErrors.nothingToAssign);
    expectError(await assign(brand, { match_ids: [match], slots: [], replace_existing_for_brand: false }), sponsorshipErrors.nothingToAssign);
    expect(await slotsInDb(match)).toHaveLength(1);
  });
});

describe('POST question-sponsorships: slot targets', () => {
  it('question_number: an integer in 1..question_max_count, the league default when the match has no override', async () => {
    const brand = await newBrand();
    const defaultCap = await newMatch(); // wc default: 10
    const capped = await newMatch({ cap: 3 });
    expectError(await assign(brand, { match_ids: [defaultCap], slots: [{ strategy: 'question_number', target: 11 }] }), sponsorshipErrors.invalidTarget);
    expectError(await assign(brand, { match_ids: [defaultCap], slots: [{ strategy: 'question_number', target: '3' }] }), sponsorshipErrors.invalidTarget);
    expectError(await assign(brand, { match_ids: [defaultCap], slots: [{ strategy: 'question_number' }] }), sponsorshipErrors.invalidTarget);
    const over = await assign(brand, { match_ids: [defaultCap, capped], slots: [{ strategy: 'question_number', target: 4 }] });
    expectError(over, sponsorshipErrors.invalidTarget);
    // The message names the match.
    expect(over.body.detail).toContain(capped);
    expect(await slotsInDb(defaultCap)).toHaveLength(0);

    const ok = await assignOk(brand, { match_ids: [defaultCap, capped], slots: [{ strategy: 'question_number', target: 3 }] });
    expect(ok.matches.map((m) => m.slots[0]!.target)).toEqual([3, 3]);
    expect((await assignOk(brand, { match_ids: [defaultCap], slots: [{ strategy: 'question_number', target: 10 }] })).matches[0]!.slots[0]!.target).toBe(10);
  });

  it("period: a period key of the league's sport, as a string; best_effort stored, default true", async () => {
    const brand = await newBrand();
    const football = await newMatch();
    const hockey = await newMatch({ league: 'nhl' });
    expectError(await assign(brand, { match_ids: [football], slots: [{ strategy: 'period', target: '5' }] }), sponsorshipErrors.invalidTarget);
    expectError(await assign(brand, { match_ids: [football], slots: [{ strategy: 'period', target: 2 }] }), sponsorshipErrors.invalidTarget);
    expectError(await assign(brand, { match_ids: [football], slots: [{ strategy: 'period' }] }), sponsorshipErrors.invalidTarget);
    // `so` (shootout) is a period of ice hockey, not of football.
    const mixed = await assign(brand, { match_ids: [hockey, football], slots: [{ strategy: 'period', target: 'so' }] });
    expectError(mixed, sponsorshipErrors.invalidTarget);
    expect(mixed.body.detail).toContain(football);

    const ok = await assignOk(brand, {
      match_ids: [football],
      slots: [
        { strategy: 'period', target: '2', best_effort: false },
        { strategy: 'period', target: 'et1' },
      ],
    });
    expect(ok.matches[0]!.slots.map((s) => [s.strategy, s.target, s.best_effort])).toEqual([
      ['period', '2', false],
      ['period', 'et1', true],
    ]);
    expect((await assignOk(brand, { match_ids: [hockey], slots: [{ strategy: 'period', target: 'so' }] })).matches[0]!.slots[0]!.target).toBe('so');
  });

  it('next_available: no target', async () => {
    const brand = await newBrand();
    const match = await newMatch();
    expectError(await assign(brand, { match_ids: [match], slots: [{ strategy: 'next_available', target: 1 }] }), sponsorshipErrors.invalidTarget);
    expectError(await assign(brand, { match_ids: [match], slots: [{ strategy: 'next_available', target: '1' }] }), sponsorshipErrors.invalidTarget);
    const ok = await assignOk(brand, { match_ids: [match], slots: [{ strategy: 'next_available', target: null }, { strategy: 'next_available' }] });
    expect(ok.matches[0]!.slots.map((s) => [s.strategy, s.target, s.best_effort])).toEqual([
      ['next_available', null, true],
      ['next_available', null, true],
    ]);
  });

  it("definition: the id of an active in-game definition of the match's league", async () => {
    const brand = await newBrand();
    const match = await newMatch();
    const own = await newDefinition('wc');
    const otherLeague = await newDefinition('nfl');
    const archived = await newDefinition('wc', true);
    for (const target of ['shot', 7, undefined, UNKNOWN_ID, otherLeague, archived]) {
      const res = await assign(brand, { match_ids: [match], slots: [{ strategy: 'definition', ...(target !== undefined ? { target } : {}) }] });
      expectError(res, sponsorshipErrors.invalidTarget);
    }
    expect(await slotsInDb(match)).toHaveLength(0);
    const ok = await assignOk(brand, { match_ids: [match], slots: [{ strategy: 'definition', target: own.toUpperCase() }] });
    expect(ok.matches[0]!.slots[0]).toMatchObject({ strategy: 'definition', target: own, best_effort: true });
  });
});

describe('POST question-sponsorships: editable matches', () => {
  it.each(['live', 'break', 'ended', 'closed', 'cancelled'] as const)('refuses a %s match with 400 and changes none of the matches', async (status) => {
    const brand = await newBrand();
    const open = await newMatch();
    const started = await newMatch({ status });
    await assignOk(brand, { match_ids: [open], slots: [{ strategy: 'question_number', target: 1 }] });
    const res = await assign(brand, { match_ids: [open, started], slots: [{ strategy: 'question_number', target: 2 }] });
    expectError(res, sponsorshipErrors.matchNotEditable);
    // The message names the match and what it is.
    expect(res.body.detail).toContain(started);
    expect(res.body.detail).toContain(status);
    expect((await slotsInDb(open)).map((s) => s.targetNumber)).toEqual([1]);
    // Clearing is a change too.
    expectError(await assign(brand, { match_ids: [started], slots: [] }), sponsorshipErrors.matchNotEditable);
  });

  it('accepts scheduled and postponed matches', async () => {
    const brand = await newBrand();
    const postponed = await newMatch({ status: 'postponed' });
    const scheduled = await newMatch({ status: 'scheduled' });
    const ok = await assignOk(brand, { match_ids: [postponed, scheduled], slots: [{ strategy: 'next_available' }] });
    expect(ok.matches.map((m) => m.created_count)).toEqual([1, 1]);
  });
});

describe('POST question-sponsorships: capacity and question numbers', () => {
  it('keeps the slots of all brands on a match within its question_max_count (409)', async () => {
    const [a, b] = [await newBrand(), await newBrand()];
    const match = await newMatch({ cap: 3 });
    await assignOk(a, { match_ids: [match], slots: [{ strategy: 'next_available' }, { strategy: 'period', target: '1' }] });
    const over = await assign(b, { match_ids: [match], slots: [{ strategy: 'next_available' }, { strategy: 'question_number', target: 3 }] });
    expectError(over, sponsorshipErrors.overCapacity);
    expect(over.body.detail).toMatch(/3/);
    expect(await slotsInDb(match)).toHaveLength(2);
    await assignOk(b, { match_ids: [match], slots: [{ strategy: 'question_number', target: 3 }] });
    // Full: a cannot add, but may replace its own two with two others.
    expectError(
      await assign(a, { match_ids: [match], slots: [{ strategy: 'next_available' }], replace_existing_for_brand: false }),
      sponsorshipErrors.overCapacity,
    );
    const replaced = await assignOk(a, {
      match_ids: [match],
      slots: [
        { strategy: 'question_number', target: 1 },
        { strategy: 'question_number', target: 2 },
      ],
    });
    expect(replaced.matches[0]).toMatchObject({ removed_count: 2, created_count: 2 });
    expectError(
      await assign(a, { match_ids: [match], slots: [{ strategy: 'next_available' }, { strategy: 'next_available' }, { strategy: 'next_available' }] }),
      sponsorshipErrors.overCapacity,
    );
    expect(await slotsInDb(match)).toHaveLength(3);
  });

  it('refuses a question number twice in one request (409)', async () => {
    const brand = await newBrand();
    const match = await newMatch();
    const res = await assign(brand, {
      match_ids: [match],
      slots: [
        { strategy: 'question_number', target: 4 },
        { strategy: 'question_number', target: 4 },
      ],
    });
    expectError(res, sponsorshipErrors.duplicateNumber);
    expect(res.body.detail).toMatch(/question number 4/);
    expect(await slotsInDb(match)).toHaveLength(0);
  });

  it("refuses a number already held on the match by another brand, or by the same brand when adding (409); replace frees the brand's own", async () => {
    const [a, b] = [await newBrand(), await newBrand()];
    const match = await newMatch();
    const other = await newMatch();
    await assignOk(a, { match_ids: [match], slots: [{ strategy: 'question_number', target: 5 }] });
    const taken = await assign(b, { match_ids: [other, match], slots: [{ strategy: 'question_number', target: 5 }] });
    expectError(taken, sponsorshipErrors.numberTaken);
    // The message names the number and the match.
    expect(taken.body.detail).toContain('5');
    expect(taken.body.detail).toContain(match);
    expect(await slotsInDb(other)).toHaveLength(0);
    expectError(
      await assign(a, { match_ids: [match], slots: [{ strategy: 'question_number', target: 5 }], replace_existing_for_brand: false }),
      sponsorshipErrors.numberTaken,
    );
    const again = await assignOk(a, { match_ids: [match], slots: [{ strategy: 'question_number', target: 5 }] });
    expect(again.matches[0]).toMatchObject({ removed_count: 1, created_count: 1 });
    // Another number on the same match is fine for b.
    await assignOk(b, { match_ids: [match], slots: [{ strategy: 'question_number', target: 6 }] });
    expect(numbers((await slotsInDb(match)).map((s) => ({ target: s.targetNumber })))).toEqual([5, 6]);
  });
});

describe('POST question-sponsorships: replace, add and clear', () => {
  it("replaces the brand's slots by default, adds with replace_existing_for_brand false, and answers the brand's slots after", async () => {
    const brand = await newBrand();
    const match = await newMatch();
    const first = await assignOk(brand, { match_ids: [match], slots: [{ strategy: 'question_number', target: 1 }, { strategy: 'next_available' }] });
    expect(first).toMatchObject({ brand_id: brand, matches: [{ match_id: match, removed_count: 0, created_count: 2 }] });
    expect(first.matches[0]!.slots.map((s) => s.target)).toEqual([1, null]);

    const added = await assignOk(brand, { match_ids: [match], slots: [{ strategy: 'question_number', target: 2 }], replace_existing_for_brand: false });
    expect(added.matches[0]).toMatchObject({ removed_count: 0, created_count: 1 });
    expect(added.matches[0]!.slots.map((s) => s.target)).toEqual([1, 2, null]);

    const replaced = await assignOk(brand, { match_ids: [match], slots: [{ strategy: 'period', target: '1' }] });
    expect(replaced.matches[0]).toMatchObject({ removed_count: 3, created_count: 1 });
    expect(replaced.matches[0]!.slots.map((s) => [s.strategy, s.target])).toEqual([['period', '1']]);
    const slot = replaced.matches[0]!.slots[0]!;
    expect(slot).toMatchObject({
      brand_id: brand,
      match_id: match,
      question_issuance_id: null,
      stamped_at: null,
      brand: { id: brand, primary_color: '#112233', logo_url: null },
    });
  });

  it("clears the brand's slots with empty slots and replace, leaving other brands' and other matches' slots", async () => {
    const [a, b] = [await newBrand(), await newBrand()];
    const m1 = await newMatch();
    const m2 = await newMatch();
    const m3 = await newMatch();
    await assignOk(a, { match_ids: [m1, m2, m3], slots: [{ strategy: 'next_available' }, { strategy: 'question_number', target: 1 }] });
    await assignOk(b, { match_ids: [m1], slots: [{ strategy: 'question_number', target: 2 }] });
    const cleared = await assignOk(a, { match_ids: [m1, m2], slots: [] });
    expect(cleared.matches).toEqual([
      { match_id: m1, removed_count: 2, created_count: 0, slots: [] },
      { match_id: m2, removed_count: 2, created_count: 0, slots: [] },
    ]);
    expect((await slotsInDb(m1)).map((s) => s.brandId)).toEqual([b]);
    expect(await slotsInDb(m3)).toHaveLength(2);
  });

  it('takes match and brand ids in any case', async () => {
    const brand = await newBrand();
    const match = await newMatch();
    const res = await assignOk(brand, { match_ids: [match.toUpperCase()], slots: [{ strategy: 'next_available' }] });
    expect(res.matches.map((m) => [m.match_id, m.created_count])).toEqual([[match, 1]]);
    // The brand id in the path too: its own slots are replaced, not counted as another brand's.
    const again = await assignOk(brand.toUpperCase(), { match_ids: [match], random_percent: 100 });
    expect(again).toMatchObject({ brand_id: brand, matches: [{ removed_count: 1, created_count: 10 }] });
  });

  it('applies the same slots to every match in one go', async () => {
    const brand = await newBrand();
    const ids = [await newMatch(), await newMatch({ cap: 2 })];
    const res = await assignOk(brand, { match_ids: ids, slots: [{ strategy: 'question_number', target: 2 }, { strategy: 'next_available' }] });
    expect(res.matches.map((m) => [m.match_id, m.created_count, m.slots.length])).toEqual([
      [ids[0], 2, 2],
      [ids[1], 2, 2],
    ]);
  });
});

describe('GET question-sponsorships: pages', () => {
  it('returns at most limit slots after offset, in the same order; [] past the end, 404 for an unknown brand', async () => {
    const brand = await newBrand();
    const match = await newMatch();
    await assignOk(brand, { match_ids: [match], slots: [1, 2, 3, 4, 5].map((target) => ({ strategy: 'question_number', target })) });
    const targets = async (query: Record<string, string>) => {
      const res = await list(brand, query);
      expectStatus(res, 200);
      return res.body.map((s) => s.target);
    };
    expect(await targets({})).toEqual([1, 2, 3, 4, 5]);
    expect(await targets({ limit: '2' })).toEqual([1, 2]);
    expect(await targets({ limit: '2', offset: '2' })).toEqual([3, 4]);
    expect(await targets({ offset: '4' })).toEqual([5]);
    expect(await targets({ offset: '10' })).toEqual([]);
    expectError(await app.request('GET', `/api/brands/${UNKNOWN_ID}/question-sponsorships`, { query: { offset: '10' } }), brandErrors.notFound);
    for (const query of [{ limit: '0' }, { limit: '5001' }, { offset: '-1' }] as Record<string, string>[]) expectStatus(await list(brand, query), 422);
  });
});

describe('POST question-sponsorships: random_percent', () => {
  it('places round(question_max_count x percent / 100) slots on distinct random numbers per match', async () => {
    const brand = await newBrand();
    const ten = await newMatch(); // default 10
    const four = await newMatch({ cap: 4 });
    const res = await assignOk(brand, { match_ids: [ten, four], random_percent: 50 });
    const [r10, r4] = res.matches;
    expect(r10!.created_count).toBe(5);
    expect(r4!.created_count).toBe(2);
    for (const [r, cap] of [
      [r10!, 10],
      [r4!, 4],
    ] as const) {
      expect(r.slots.every((s) => s.strategy === 'question_number' && s.best_effort)).toBe(true);
      const ns = numbers(r.slots);
      expect(new Set(ns).size).toBe(ns.length);
      for (const n of ns) expect(n >= 1 && n <= cap).toBe(true);
    }
  });

  it('places more slots at once than one statement can carry (12,000: 60 matches at the highest cap), in order per match', async () => {
    const brand = await newBrand();
    const matchIds: string[] = [];
    for (let i = 0; i < 60; i++) matchIds.push(await newMatch({ cap: 200 }));
    const res = await assignOk(brand, { match_ids: matchIds, random_percent: 100 });
    expect(res.matches).toHaveLength(60);
    expect(res.matches.every((m) => m.created_count === 200)).toBe(true);
    const [count] = await app.services.database.db
      .select({ n: sql<number>`count(*)::int` })
      .from(questionSponsorships)
      .where(eq(questionSponsorships.brandId, brand));
    expect(count!.n).toBe(12_000);
    const listed = await list(brand, { match_ids: matchIds[59]! });
    expect(listed.status).toBe(200);
    expect(listed.body.map((s: { target: unknown }) => s.target)).toEqual(Array.from({ length: 200 }, (_, i) => i + 1));
  });

  it('rounds halves up like JS Math.round: 25% of 10 is 3, 15% of 10 is 2, 1% of 10 is 0', async () => {
    const brand = await newBrand();
    const match = await newMatch();
    expect((await assignOk(brand, { match_ids: [match], random_percent: 25 })).matches[0]!.created_count).toBe(3);
    expect((await assignOk(brand, { match_ids: [match], random_percent: 15 })).matches[0]!.created_count).toBe(2);
    expect((await assignOk(brand, { match_ids: [match], random_percent: 1 })).matches[0]).toMatchObject({ removed_count: 2, created_count: 0, slots: [] });
    expect((await assignOk(brand, { match_ids: [match], random_percent: 100 })).matches[0]!.slots.map((s) => s.target)).toEqual([
      1, 2, 3, 4, 5, 6, 7, 8, 9, 10,
    ]);
  });

  it('draws only numbers no brand holds, and answers 409 when too few are free', async () => {
    const [a, b] = [await newBrand(), await newBrand()];
    const match = await newMatch();
    await assignOk(a, { match_ids: [match], slots: [1, 2, 3, 4, 5].map((target) => ({ strategy: 'question_number', target })) });
    const res = await assignOk(b, { match_ids: [match], random_percent: 50 });
    expect(numbers(res.matches[0]!.slots)).toEqual([6, 7, 8, 9, 10]);
    const c = await newBrand();
    expectError(await assign(c, { match_ids: [match], random_percent: 10 }), sponsorshipErrors.notEnoughNumbers);
    // With replace, a's own numbers are free to draw again.
    const redrawn = await assignOk(a, { match_ids: [match], random_percent: 30 });
    expect(redrawn.matches[0]).toMatchObject({ removed_count: 5, created_count: 3 });
    for (const n of numbers(redrawn.matches[0]!.slots)) expect(n).toBeLessThanOrEqual(5);
  });

  it('varies the draw (not always the lowest free numbers)', async () => {
    const brand = await newBrand();
    const match = await newMatch({ cap: 20 });
    const draws = new Set<string>();
    for (let i = 0; i < 6; i++) draws.add(numbers((await assignOk(brand, { match_ids: [match], random_percent: 25 })).matches[0]!.slots).join(','));
    expect(draws.size).toBeGreaterThan(1);
  });
});

describe('GET /api/brands/{brand_id}/question-sponsorships', () => {
  let brand: string;
  let other: string;
  let m1: string;
  let m2: string;
  let m3: string;

  beforeAll(async () => {
    brand = await newBrand();
    other = await newBrand();
    [m1, m2, m3] = [await newMatch(), await newMatch(), await newMatch()].sort() as [string, string, string];
    await assignOk(brand, {
      match_ids: [m2],
      slots: [{ strategy: 'next_available' }, { strategy: 'question_number', target: 7 }, { strategy: 'question_number', target: 3 }],
    });
    await assignOk(brand, { match_ids: [m1, m3], slots: [{ strategy: 'period', target: '2' }] });
    await assignOk(other, { match_ids: [m1], slots: [{ strategy: 'question_number', target: 1 }] });
  });

  it('lists every slot of the brand without match_ids (open), ordered by match, question number, creation', async () => {
    const res = await list(brand);
    expectStatus(res, 200);
    expect(res.body.map((s) => [s.match_id, s.target])).toEqual([
      [m1, '2'],
      [m2, 3],
      [m2, 7],
      [m2, null],
      [m3, '2'],
    ]);
    expect(res.body.every((s) => s.brand_id === brand && s.brand.id === brand)).toBe(true);
  });

  it('keeps the order slots were given in among slots without numbers', async () => {
    const b = await newBrand();
    const m = await newMatch();
    const periods = ['2', '1', 'et2', 'et1', 'pen', '1'];
    await assignOk(b, { match_ids: [m], slots: periods.map((target) => ({ strategy: 'period', target })) });
    expect((await list(b)).body.map((s) => s.target)).toEqual(periods);
  });

  it('filters by repeated match_ids', async () => {
    expect((await list(brand, { match_ids: [m2] })).body.map((s) => s.target)).toEqual([3, 7, null]);
    expect((await list(brand, { match_ids: [m1, m3] })).body.map((s) => s.match_id)).toEqual([m1, m3]);
    expect((await list(brand, { match_ids: [UNKNOWN_ID] })).body).toEqual([]);
  });

  it('returns no rows for an explicitly empty list (?match_ids=)', async () => {
    const res = await list(brand, { match_ids: '' });
    expectStatus(res, 200);
    expect(res.body).toEqual([]);
  });

  it('answers 404 for an unknown brand, with or without match_ids, and 422 for a malformed id', async () => {
    expectError(await list(UNKNOWN_ID), brandErrors.notFound);
    expectError(await list(UNKNOWN_ID, { match_ids: '' }), brandErrors.notFound);
    expectStatus(await list(brand, { match_ids: 'nope' }), 422);
  });

  it('lists nothing for a brand without slots', async () => {
    const res = await list(await newBrand());
    expectStatus(res, 200);
    expect(res.body).toEqual([]);
  });
});

describe('deleting a brand', () => {
  it('removes its slots (the foreign key cascades) and frees their places', async () => {
    const [gone, stays] = [await newBrand(), await newBrand()];
    const match = await newMatch({ cap: 2 });
    await assignOk(gone, { match_ids: [match], slots: [{ strategy: 'question_number', target: 1 }] });
    await assignOk(stays, { match_ids: [match], slots: [{ strategy: 'question_number', target: 2 }] });
    expectError(
      await assign(stays, { match_ids: [match], slots: [{ strategy: 'question_number', target: 1 }], replace_existing_for_brand: false }),
      sponsorshipErrors.overCapacity,
    );

    expectStatus(await app.request('DELETE', `/api/brands/${gone}`, { token: admin.token }), 204);
    expect(await app.services.database.db.select().from(questionSponsorships).where(eq(questionSponsorships.brandId, gone))).toHaveLength(0);
    expectError(await list(gone), brandErrors.notFound);
    expect((await list(stays, { match_ids: [match] })).body.map((s) => s.target)).toEqual([2]);
    await assignOk(stays, { match_ids: [match], slots: [{ strategy: 'question_number', target: 1 }], replace_existing_for_brand: false });
  });
});

describe("lowering a league's default cap (the capacity rule from the league side)", () => {
  const patchLeague = (body: unknown) => app.request('PATCH', '/api/leagues/mlb', { token: admin.token, body });
  const mlbDefaults = async () =>
    (await app.request('GET', '/api/leagues/mlb')).body as { default_question_max_count: number; default_question_points: number };

  it('answers 409 below the slots of a match on the default that is not over, naming it; nothing half-written', async () => {
    expectStatus(await patchLeague({ default_question_max_count: 10 }), 200);
    const brand = await newBrand();
    const match = await newMatch({ league: 'mlb' });
    await assignOk(brand, { match_ids: [match], slots: Array.from({ length: 8 }, () => ({ strategy: 'next_available' })) });
    const points = (await mlbDefaults()).default_question_points;

    const res = await patchLeague({ default_question_max_count: 5, default_question_points: points + 1 });
    expectError(res, leagueErrors.capBelowSlots);
    expect(res.body.detail).toBe(
      `default_question_max_count 5 is below the question sponsorship slots of 1 match not over yet that uses the league default (match ${match} has 8 question sponsorship slots); remove those slots, or give those matches their own question_max_count, first`,
    );
    expect(await mlbDefaults()).toMatchObject({ default_question_max_count: 10, default_question_points: points });
    // Down to the slot count is fine; raising is always fine.
    expectStatus(await patchLeague({ default_question_max_count: 8 }), 200);
    expectStatus(await patchLeague({ default_question_max_count: 10 }), 200);
    await assignOk(brand, { match_ids: [match], slots: [] });
  });

  it('answers 409 below a question number a slot targets, counting every such match', async () => {
    expectStatus(await patchLeague({ default_question_max_count: 10 }), 200);
    const brand = await newBrand();
    const [m1, m2] = [await newMatch({ league: 'mlb' }), await newMatch({ league: 'mlb' })];
    await assignOk(brand, { match_ids: [m1, m2], slots: [{ strategy: 'question_number', target: 9 }] });
    const res = await patchLeague({ default_question_max_count: 8 });
    expectError(res, leagueErrors.capBelowSlots);
    expect(res.body.detail).toMatch(
      /of 2 matches not over yet that use the league default \(match [0-9a-f-]{36} has a question sponsorship slot on question number 9\)/,
    );
    expectStatus(await patchLeague({ default_question_max_count: 9 }), 200);
    await assignOk(brand, { match_ids: [m1, m2], slots: [] });
  });

  it('does not count matches with a cap of their own, or matches that are over', async () => {
    expectStatus(await patchLeague({ default_question_max_count: 10 }), 200);
    const brand = await newBrand();
    const own = await newMatch({ league: 'mlb', cap: 10 });
    const played = await newMatch({ league: 'mlb' });
    await assignOk(brand, { match_ids: [own, played], slots: Array.from({ length: 6 }, () => ({ strategy: 'next_available' })) });
    await app.services.database.db.update(matches).set({ status: 'closed' }).where(eq(matches.id, played));
    expectStatus(await patchLeague({ default_question_max_count: 3 }), 200);
    expectStatus(await patchLeague({ default_question_max_count: 10 }), 200);
  });

  it('waits for an assignment in progress and counts its slots (PostgreSQL)', async (ctx) => {
    if (!app.db.url) ctx.skip();
    expectStatus(await patchLeague({ default_question_max_count: 10 }), 200);
    const brand = await newBrand();
    const match = await newMatch({ league: 'mlb' });
    const { default: postgres } = await import('postgres');
    const assigner = postgres(app.db.url!, { max: 1, onnotice: () => {} });
    const watcher = postgres(app.db.url!, { max: 1, onnotice: () => {} });
    let pending: Promise<ApiResponse> | undefined;
    try {
      await assigner.begin(async (sql) => {
        // What an assignment does: the league FOR SHARE, the match FOR UPDATE, then its slots.
        await sql`select id from leagues where slug = 'mlb' for share`;
        await sql`select id from matches where id = ${match} for update`;
        for (let n = 1; n <= 6; n++)
          await sql`insert into question_sponsorships (match_id, brand_id, strategy, target_number) values (${match}, ${brand}, 'question_number', ${n})`;
        pending = patchLeague({ default_question_max_count: 4 });
        for (let waited = 0; ; waited += 20) {
          const [row] =
            await watcher`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock' and query ilike '%"leagues"%'`;
          if (row!.n > 0) break;
          if (waited > 15_000) throw new Error('the league update never waited for the assignment');
          await new Promise((r) => setTimeout(r, 20));
        }
      });
      const res = await pending!;
      expectError(res, leagueErrors.capBelowSlots);
      expect(res.body.detail).toContain(`match ${match} has 6 question sponsorship slots`);
      expect((await mlbDefaults()).default_question_max_count).toBe(10);
    } finally {
      await assigner.end({ timeout: 1 });
      await watcher.end({ timeout: 1 });
    }
  });
});

describe('concurrent assignments (PostgreSQL)', () => {
  it("never lets two brands together exceed a match's cap: exactly one of two racing assignments gets 409", async (ctx) => {
    if (!app.db.url) ctx.skip();
    for (let round = 0; round < 8; round++) {
      const [a, b] = [await newBrand(), await newBrand()];
      const match = await newMatch({ cap: 4 });
      const slots = [{ strategy: 'next_available' }, { strategy: 'next_available' }, { strategy: 'period', target: '1' }];
      const results = await Promise.all([assign(a, { match_ids: [match], slots }), assign(b, { match_ids: [match], slots })]);
      expect(results.map((r) => r.status).sort(), results.map((r) => r.text).join('\n')).toEqual([200, 409]);
      expect(await slotsInDb(match)).toHaveLength(3);
    }
  });

  it('gives a question number to one of two brands racing for it', async (ctx) => {
    if (!app.db.url) ctx.skip();
    for (let round = 0; round < 8; round++) {
      const [a, b] = [await newBrand(), await newBrand()];
      const match = await newMatch();
      const body = { match_ids: [match], slots: [{ strategy: 'question_number', target: 1 }] };
      const results = await Promise.all([assign(a, body), assign(b, body)]);
      expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
      // The unique index settled it; the 409 names the number and the match from the driver's detail.
      expect(results.find((r) => r.status === 409)!.body.detail).toBe(`question number 1 is already sponsored on match ${match}`);
      const rows = await app.services.database.db
        .select()
        .from(questionSponsorships)
        .where(and(eq(questionSponsorships.matchId, match), eq(questionSponsorships.targetNumber, 1)));
      expect(rows).toHaveLength(1);
    }
  });
});

describe('a question number taken by another request', () => {
  it('is told apart by the driver detail the conflict reads (pgErrorDetail names the clashing key)', async () => {
    const brandId = await newBrand();
    const match = await createMatch(app);
    const db = app.services.database.db;
    await db.insert(questionSponsorships).values({ brandId, matchId: match.id, strategy: 'question_number', targetNumber: 3 });
    const err = await db
      .insert(questionSponsorships)
      .values({ brandId, matchId: match.id, strategy: 'question_number', targetNumber: 3 })
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(isUniqueViolation(err, 'question_sponsorships_number_uq')).toBe(true);
    expect(pgErrorDetail(err)).toMatch(new RegExp(`\\(match_id, target_number\\)=\\(${match.id}, 3\\)`));
    expect(pgErrorDetail(new Error('not from the database'))).toBeUndefined();
  });
});
