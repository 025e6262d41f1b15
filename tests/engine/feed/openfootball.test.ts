import { describe, expect, it } from 'vitest';
import { summarizeFeed } from '../../../src/engine/feed/football-feed.js';
import { importOpenfootballSchedule, openfootballEvents, parseUtcOffset, type OpenfootballMatch } from '../../../src/engine/feed/importers/openfootball.js';
import { contractErrors, envelopeProblems, readFixture } from './helpers.js';

const load = (season: 2022 | 2026) => importOpenfootballSchedule(readFixture(`feeds/openfootball/worldcup-${season}.json`), { season });

/**
 * Half-time scores in the files that disagree with their own goal lists (the goals agree with
 * the full-time score, and with the real matches: e.g. Netherlands-Argentina 2022 was 0-1 at
 * half time, the file says [1, 0]). Feeds are built from the goals.
 */
const HT_DISAGREES_WITH_GOALS = ['openfootball:2022:29', 'openfootball:2022:41', 'openfootball:2022:58', 'openfootball:2026:79'];

/** Every match: the goals add up, the synthesized feed is well-formed and ends on the declared result. */
function checkAll(matches: OpenfootballMatch[]) {
  for (const m of matches) {
    const r = m.result!;
    expect(r, m.srId).not.toBeNull();
    expect(r.goals.filter((g) => g.team === 'home').length, m.srId).toBe(r.home_score);
    expect(r.goals.filter((g) => g.team === 'away').length, m.srId).toBe(r.away_score);
    if (r.ht) {
      const firstHalf = r.goals.filter((g) => g.minute <= 45);
      const fromGoals = { home: firstHalf.filter((g) => g.team === 'home').length, away: firstHalf.filter((g) => g.team === 'away').length };
      if (HT_DISAGREES_WITH_GOALS.includes(m.srId)) expect(fromGoals, m.srId).not.toEqual(r.ht);
      else expect(fromGoals, m.srId).toEqual(r.ht);
    }
    const events = openfootballEvents(m);
    expect(envelopeProblems(events), m.srId).toEqual([]);
    expect(contractErrors(events), m.srId).toEqual([]);
    const summary = summarizeFeed(events);
    expect(summary.finalScore, m.srId).toEqual({ home: r.home_score, away: r.away_score });
    expect(summary.byType.score_change ?? 0, m.srId).toBe(r.goals.length);
    expect(summary.byType.shot ?? 0, m.srId).toBe(r.goals.filter((g) => !g.own_goal).length);
    expect(summary.periods, m.srId).toEqual([...(r.et ? ['1', '2', 'et1', 'et2'] : ['1', '2']), ...(r.penalties ? ['pen'] : [])]);
    expect(summary.statuses.at(0)).toBe('live');
    expect(summary.statuses.slice(-2)).toEqual(['ended', 'closed']);
    expect(events[0]!.occurred_at).toBe(m.scheduled.toISOString());
  }
}

describe('openfootball World Cup 2022', () => {
  it('parses every match with its result', () => {
    const matches = load(2022);
    expect(matches).toHaveLength(64);
    expect(matches.map((m) => m.srId)).toEqual(Array.from({ length: 64 }, (_, i) => `openfootball:2022:${i + 1}`));
    checkAll(matches);
  });

  it('converts local Qatar times (UTC+3) to UTC', () => {
    const [opener] = load(2022);
    expect(opener).toMatchObject({ homeTeam: 'Qatar', awayTeam: 'Ecuador', round: 'Matchday 1', group: 'Group A', venue: 'Al Bayt Stadium, Al Khor' });
    expect(opener!.scheduled.toISOString()).toBe('2022-11-20T16:00:00.000Z');
  });

  it('reads the final: 3-3 after extra time, Argentina on penalties 4-2', () => {
    const final = load(2022)[63]!;
    expect(final).toMatchObject({ srId: 'openfootball:2022:64', homeTeam: 'Argentina', awayTeam: 'France', round: 'Final', group: null });
    expect(final.scheduled.toISOString()).toBe('2022-12-18T15:00:00.000Z');
    expect(final.result).toMatchObject({
      home_score: 3,
      away_score: 3,
      ft: { home: 2, away: 2 },
      ht: { home: 2, away: 0 },
      et: { home: 3, away: 3 },
      penalties: { home: 4, away: 2 },
    });
    // Listed out of order in the file (108' before 36'); sorted here.
    expect(final.result!.goals.map((g) => `${g.minute}${g.team[0]}${g.penalty ? 'p' : ''}`)).toEqual(['23hp', '36h', '80ap', '81a', '108h', '118ap']);

    const events = openfootballEvents(final);
    const summary = summarizeFeed(events);
    expect(summary.goals.map((g) => [g.period, g.clock_seconds, g.team])).toEqual([
      ['1', 23 * 60, 'home'],
      ['1', 36 * 60, 'home'],
      ['2', 80 * 60, 'away'],
      ['2', 81 * 60, 'away'],
      ['et2', 108 * 60, 'home'],
      ['et2', 118 * 60, 'away'],
    ]);
    expect(events.at(-1)!.data).toEqual({ status: 'closed', final_score: { home: 3, away: 3, penalties: { home: 4, away: 2 }, winner: 'home' } });
    expect(events.find((e) => e.type === 'period_end' && e.period === 'pen')!.data).toEqual({ penalties: { home: 4, away: 2 } });
    const shot = events.find((e) => e.type === 'shot')!;
    expect(shot).toMatchObject({ team: 'home', period: '1', data: { outcome: 'goal', player: 'Lionel Messi', penalty: true } });
    // Half time: the second half starts 15 minutes after the first ends.
    const end1 = events.find((e) => e.type === 'period_end' && e.period === '1')!;
    const start2 = events.find((e) => e.type === 'period_start' && e.period === '2')!;
    expect(Date.parse(start2.occurred_at) - Date.parse(end1.occurred_at)).toBe(15 * 60_000);
    expect(start2.clock_seconds).toBe(45 * 60);
  });

  it('credits own goals to the side that lists them, without a shot', () => {
    const match = load(2022).find((m) => m.homeTeam === 'Canada' && m.awayTeam === 'Morocco')!;
    expect(match.result!.goals.find((g) => g.own_goal)).toEqual({
      team: 'home',
      minute: 40,
      offset: 0,
      player: 'Nayef Aguerd',
      penalty: false,
      own_goal: true,
    });
    const events = openfootballEvents(match);
    const own = events.find((e) => e.type === 'score_change' && e.data.own_goal === true)!;
    expect(own).toMatchObject({ team: 'home', score: { home: 1, away: 2 } });
    expect(events[events.indexOf(own) - 1]!.type).not.toBe('shot');
  });

  it('keeps stoppage-time offsets in the first half', () => {
    const match = load(2022).find((m) => m.result!.goals.some((g) => g.minute === 45 && g.offset > 0))!;
    const goal = match.result!.goals.find((g) => g.minute === 45 && g.offset > 0)!;
    const event = summarizeFeed(openfootballEvents(match)).goals.find((g) => g.minute === 45 && g.offset === goal.offset)!;
    expect(event.period).toBe('1');
    expect(event.clock_seconds).toBe((45 + goal.offset) * 60);
  });
});

describe('openfootball World Cup 2026', () => {
  it('parses every match with its result', () => {
    const matches = load(2026);
    expect(matches).toHaveLength(104);
    checkAll(matches);
  });

  it('converts the written UTC offsets', () => {
    const matches = load(2026);
    // "2026-06-11", "13:00 UTC-6"
    expect(matches[0]).toMatchObject({ homeTeam: 'Mexico', awayTeam: 'South Africa' });
    expect(matches[0]!.scheduled.toISOString()).toBe('2026-06-11T19:00:00.000Z');
    // "2026-06-18", "12:00 UTC-4"
    expect(matches[2]!.scheduled.toISOString()).toBe('2026-06-18T16:00:00.000Z');
  });

  it('reads string minutes with stoppage time', () => {
    const match = load(2026)[4]!;
    expect(match.result!.goals.at(-1)).toEqual({ team: 'away', minute: 90, offset: 4, player: 'Álvaro Fidalgo', penalty: false, own_goal: false });
    const goal = summarizeFeed(openfootballEvents(match)).goals.at(-1)!;
    expect(goal).toMatchObject({ period: '2', minute: 90, offset: 4, clock_seconds: 94 * 60 });
  });

  it('builds the final: 1-0 after extra time, no shoot-out', () => {
    const final = load(2026)[103]!;
    expect(final).toMatchObject({ srId: 'openfootball:2026:104', num: 104, homeTeam: 'Spain', awayTeam: 'Argentina' });
    const summary = summarizeFeed(openfootballEvents(final, { kickoff: new Date('2030-01-01T00:00:00Z'), matchKey: 'demo' }));
    expect(summary.periods).toEqual(['1', '2', 'et1', 'et2']);
    expect(summary.goals).toMatchObject([{ period: 'et2', minute: 106, scorer: 'Ferran Torres' }]);
    expect(summary.goals[0]!.occurred_at.startsWith('2030-01-01T')).toBe(true);
  });
});

describe('openfootball on small inputs', () => {
  const doc = (match: Record<string, unknown>) => ({
    name: 'Test',
    matches: [{ round: 'R1', date: '2030-06-01', time: '18:00', team1: 'A', team2: 'B', ...match }],
  });

  it('needs an offset for times written without one, unless the season is known', () => {
    expect(() => importOpenfootballSchedule(doc({}), { season: 2030 })).toThrow(/match 1: time '18:00' has no UTC offset, and the file's local times need one/);
    expect(() => importOpenfootballSchedule(doc({}), { season: 2030 })).toThrow(expect.objectContaining({ code: 'missing_utc_offset' }));
    expect(importOpenfootballSchedule(doc({}), { season: 2030, localUtcOffset: '+05:30' })[0]!.scheduled.toISOString()).toBe('2030-06-01T12:30:00.000Z');
    expect(importOpenfootballSchedule(doc({ time: '18:00 UTC+2' }), { season: 2030 })[0]!.scheduled.toISOString()).toBe('2030-06-01T16:00:00.000Z');
  });

  it('returns no result for an unplayed match, and refuses to build its feed', () => {
    const [m] = importOpenfootballSchedule(doc({ time: '18:00 UTC+0' }), { season: 2030 });
    expect(m!.result).toBeNull();
    expect(() => openfootballEvents(m!)).toThrow(/has no result/);
  });

  it('says what is wrong with a bad file', () => {
    expect(() => importOpenfootballSchedule({ games: [] }, { season: 2030 })).toThrow(/matches\[\] array/);
    expect(() => importOpenfootballSchedule(doc({ time: '18:00 UTC+0', score: { ft: [1] } }), { season: 2030 })).toThrow(/score.ft should be \[home, away\]/);
    expect(() =>
      importOpenfootballSchedule(doc({ time: '18:00 UTC+0', score: { ft: [1, 0] }, goals1: [{ name: 'X', minute: 'late' }] }), { season: 2030 }),
    ).toThrow(/goal 1: cannot read minute "late"/);
    expect(() => importOpenfootballSchedule(doc({ date: '1/6/2030' }), { season: 2030 })).toThrow(/is not YYYY-MM-DD/);
  });
});

describe('openfootball rounds layout (euro.json): a sample of Euro 2024', () => {
  const text = () => readFixture('feeds/openfootball/euro-2024-sample.json');
  // Local German times (UTC+2), written without an offset.
  const load = () => importOpenfootballSchedule(text(), { season: 'euro2024', localUtcOffset: '+02:00' });

  it('reads every match of every round: teams written as {name, code}, the round named once for its matches, ids from their numbers', () => {
    const matches = load();
    expect(matches.map((m) => [m.srId, m.homeTeam, m.awayTeam, m.round, m.group, m.scheduled.toISOString()])).toEqual([
      ['openfootball:euro2024:1', 'Germany', 'Scotland', 'Matchday 1', 'Group A', '2024-06-14T19:00:00.000Z'],
      ['openfootball:euro2024:2', 'Hungary', 'Switzerland', 'Matchday 1', 'Group A', '2024-06-15T13:00:00.000Z'],
      // Listed out of number order: the number is the id, not the position.
      ['openfootball:euro2024:38', 'Switzerland', 'Italy', 'Round of 16', null, '2024-06-29T16:00:00.000Z'],
      ['openfootball:euro2024:37', 'Germany', 'Denmark', 'Round of 16', null, '2024-06-29T19:00:00.000Z'],
      ['openfootball:euro2024:41', 'Portugal', 'Slovenia', 'Round of 16', null, '2024-07-01T19:00:00.000Z'],
      ['openfootball:euro2024:45', 'Spain', 'Germany', 'Quarter-finals', null, '2024-07-05T16:00:00.000Z'],
    ]);
    const [opener, , , , pens, toCome] = matches;
    expect(opener!.result).toMatchObject({ home_score: 5, away_score: 1, ht: { home: 3, away: 0 }, penalties: null });
    expect(opener!.result!.goals.map((g) => [g.team, g.minute, g.offset, g.own_goal, g.penalty])).toEqual([
      ['home', 10, 0, false, false],
      ['home', 19, 0, false, false],
      ['home', 45, 1, false, true],
      ['home', 68, 0, false, false],
      // Rüdiger's own goal, listed under the side it counts for.
      ['away', 87, 0, true, false],
      ['home', 90, 3, false, false],
    ]);
    expect(pens!.result).toMatchObject({ home_score: 0, away_score: 0, et: { home: 0, away: 0 }, penalties: { home: 3, away: 0 } });
    expect(toCome!.result).toBeNull();
    // The finished ones make well-formed feeds ending on their result.
    checkAll(matches.filter((m) => m.result));
  });

  it('reads the same matches from the matches[] layout', () => {
    const doc = JSON.parse(text()) as { rounds: { name: string; matches: Record<string, unknown>[] }[] };
    const flat = { name: 'Euro 2024', matches: doc.rounds.flatMap((r) => r.matches.map((m) => ({ ...m, round: r.name }))) };
    expect(importOpenfootballSchedule(flat, { season: 'euro2024', localUtcOffset: '+02:00' })).toEqual(load());
  });

  it('says what is wrong with a file of neither layout', () => {
    const read = (doc: unknown) => () => importOpenfootballSchedule(doc, { season: 'x', localUtcOffset: '+00:00' });
    expect(read({ name: 'x' })).toThrow(
      /expected an object with a matches\[\] array \(worldcup\.json\) or with rounds\[\], each with a name and a matches\[\] array/,
    );
    expect(read({ rounds: [{ name: 'Matchday 1' }] })).toThrow(/rounds\[0\] should be an object with a matches\[\] array/);
    const m = (num: number) => ({ num, date: '2024-06-14', time: '21:00', team1: { name: 'A' }, team2: { name: 'B' } });
    expect(read({ rounds: [{ name: 'R', matches: [m(1), m(1)] }] })).toThrow(/match 2: number 1 is also match 1's/);
    expect(read({ matches: [{ ...m(1), team1: { code: 'A' } }] })).toThrow(/team1 and team2 are required/);
  });
});

describe('UTC offsets', () => {
  it('reads the offsets places use, from -12:00 to +14:00, and names what is wrong with any other', () => {
    expect(['+03:00', '-06:00', '+0530', 'UTC-6', '+14:00', '-12:00', '+05:45'].map((t) => parseUtcOffset(t))).toEqual(
      [180, -360, 330, -360, 840, -720, 345].map((minutes) => ({ minutes })),
    );
    expect(parseUtcOffset('+25:00')).toEqual({ problem: "'+25:00' is not an offset any place uses: UTC offsets run from -12:00 to +14:00" });
    expect(parseUtcOffset('-12:30')).toMatchObject({ problem: expect.stringMatching(/not an offset any place uses/) });
    expect(parseUtcOffset('+14:01')).toMatchObject({ problem: expect.stringMatching(/not an offset any place uses/) });
    expect(parseUtcOffset('+03:75')).toEqual({ problem: "'+03:75' has 75 minutes (at most 59)" });
    expect(parseUtcOffset('noon')).toMatchObject({ problem: expect.stringMatching(/is not a UTC offset/) });
  });

  it('refuses an option or a kick-off time with an offset no place uses, writing nothing 25 h off', () => {
    const doc = { matches: [{ date: '2031-06-14', time: '19:00', team1: 'A', team2: 'B' }] };
    expect(() => importOpenfootballSchedule(doc, { season: '2031', localUtcOffset: '+25:00' })).toThrow(/UTC offsets run from -12:00 to \+14:00/);
    const written = { matches: [{ date: '2031-06-14', time: '19:00 UTC+25', team1: 'A', team2: 'B' }] };
    expect(() => importOpenfootballSchedule(written, { season: '2031' })).toThrow(/openfootball match 1: UTC offset 'UTC\+25' is not an offset any place uses/);
    expect(importOpenfootballSchedule(doc, { season: '2031', localUtcOffset: '+14:00' })[0]!.scheduled.toISOString()).toBe('2031-06-14T05:00:00.000Z');
  });
});
