import { describe, expect, it } from 'vitest';
import type { FeedEvent } from '../../../src/domain/sports/events.js';
import { FOOTBALL_PERIODS } from '../../../src/engine/feed/football-feed.js';
import { importMetricaCsv, importMetricaJson, summarizeFeed, type MetricaImport } from '../../../src/engine/feed/importers/metrica.js';
import { SPORT_PERIODS } from '../../../src/domain/sports/league-registry.js';
import { contractErrors, envelopeProblems, readFixture } from './helpers.js';
import { countsFromRows } from './metrica-rows.js';

const kickoff = new Date('2024-03-02T15:00:00.000Z');
const secondsAfterKickoff = (e: FeedEvent) => (Date.parse(e.occurred_at) - kickoff.getTime()) / 1000;
const ofType = (events: FeedEvent[], type: string) => events.filter((e) => e.type === type);

it('uses the league registry football period keys', () => {
  expect([...FOOTBALL_PERIODS]).toEqual(SPORT_PERIODS.football);
});

describe('Metrica CSV, sample game 1', () => {
  let game: MetricaImport;
  const load = () => (game ??= importMetricaCsv(readFixture('feeds/metrica/sample-game-1-events.csv'), { matchKey: 'g1', kickoff }));

  it('produces contract-valid events with a clean envelope', () => {
    const { events, homeTeam, awayTeam } = load();
    expect(homeTeam).toBe('Home');
    expect(awayTeam).toBe('Away');
    expect(contractErrors(events)).toEqual([]);
    expect(envelopeProblems(events)).toEqual([]);
    expect(events[0]!.provider_event_id).toBe('metrica:g1:status:live');
    expect(events.every((e) => e.provider_event_id.startsWith('metrica:g1:'))).toBe(true);
  });

  it('frames the match: live, two periods with a break, ended, closed', () => {
    const { events } = load();
    const frame = events
      .filter((e) => ['match_status', 'period_start', 'period_end'].includes(e.type))
      .map((e) => (e.type === 'match_status' ? String(e.data.status) : `${e.type}:${e.period}`));
    expect(frame).toEqual(['live', 'period_start:1', 'period_end:1', 'break', 'period_start:2', 'period_end:2', 'ended', 'closed']);
    expect(secondsAfterKickoff(events[0]!)).toBeCloseTo(0.04, 3);
    const start2 = events.find((e) => e.type === 'period_start' && e.period === '2')!;
    // Metrica's clock continues into the second half.
    expect(secondsAfterKickoff(start2)).toBeCloseTo(2885.4, 3);
    expect(start2.clock_seconds).toBe(2885);
    const end1 = events.find((e) => e.type === 'period_end' && e.period === '1')!;
    expect(secondsAfterKickoff(end1)).toBeCloseTo(2823.12, 3);
  });

  it('scores the goals the data holds: three home goals from shots and an away own goal', () => {
    const { events } = load();
    const summary = summarizeFeed(events);
    const goals = summary.goals.map((g) => ({
      team: g.team,
      scorer: g.scorer,
      own_goal: g.own_goal,
      at: (Date.parse(g.occurred_at) - kickoff.getTime()) / 1000,
      minute: g.minute,
    }));
    expect(goals).toEqual([
      { team: 'home', scorer: 'Player9', own_goal: false, at: 91.56, minute: 2 },
      // BALL OUT "WOODWORK-GOAL" by home Player5 off an away corner; home kicks off next.
      { team: 'away', scorer: 'Player5', own_goal: true, at: 3498.8, minute: 56 },
      { team: 'home', scorer: 'Player10', own_goal: false, at: 3600.2, minute: 57 },
      { team: 'home', scorer: 'Player9', own_goal: false, at: 3961.28, minute: 63 },
    ]);
    expect(summary.finalScore).toEqual({ home: 3, away: 1 });
    const closed = events.at(-1)!;
    expect(closed.data).toEqual({ status: 'closed', final_score: { home: 3, away: 1, penalties: null, winner: 'home' } });
    expect(
      ofType(events, 'shot')
        .filter((e) => e.data.outcome === 'goal')
        .map(secondsAfterKickoff),
    ).toEqual([91.56, 3600.2, 3961.28]);
  });

  it('puts each score_change right after its goal shot, with the new score', () => {
    const { events } = load();
    for (const [i, e] of events.entries()) {
      if (e.type !== 'shot' || e.data.outcome !== 'goal') continue;
      const next = events[i + 1]!;
      expect(next.type).toBe('score_change');
      expect(next.team).toBe(e.team);
      expect(next.provider_event_id).toBe(`${e.provider_event_id}:goal`);
      expect(next.data).toMatchObject({ scorer: e.data.player, penalty: false, own_goal: false });
      expect(next.score[e.team!]).toBe(e.score[e.team!] + 1);
    }
    const first = events.find((e) => e.type === 'shot' && e.data.outcome === 'goal')!;
    expect(first.data).toMatchObject({ player: 'Player9', header: true, x: 0.92, y: 0.47 });
  });

  it('counts corners, cards, shots and fouls as in the file', () => {
    const { events, dropped } = load();
    const summary = summarizeFeed(events);
    expect(summary.byType.corner).toBe(11);
    expect(summary.cards).toHaveLength(4);
    expect(summary.cards.every((c) => c.color === 'yellow')).toBe(true);
    expect(summary.cards.filter((c) => c.period === '1')).toEqual([{ team: 'home', color: 'yellow', player: 'Player5', period: '1' }]);
    expect(summary.byType.shot).toBe(24);
    expect(summary.shotsByOutcome).toEqual({ goal: 3, on_target: 7, off_target: 12, blocked: 1, woodwork: 1 });
    expect(summary.byType.free_kick).toBe(32);
    expect(summary.byType.foul).toBe(22);
    expect(summary.byType.possession_change).toBe(278);
    expect(summary.byType.pass).toBe(799);
    expect(summary.byType.score_change).toBe(4);
    // The vocabulary the data carries: every kick-off, throw-in, ball out (but the own goal), the offside, one duel per pair.
    expect(summary.byType.kick_off).toBe(6);
    expect(summary.byType.throw_in).toBe(28);
    expect(summary.byType.ball_out).toBe(50);
    expect(summary.byType.offside).toBe(1);
    // 233 CHALLENGE rows: 95 duels of two rows (about half of them not side by side in the file) and 43 of one.
    expect(summary.byType.duel).toBe(138);
    // 22 goal kicks, written as the kick itself: PASS / GOAL KICK (13), BALL LOST / GOAL KICK (8), BALL OUT / GOAL KICK (1).
    expect(summary.byType.goal_kick).toBe(22);
    expect(Object.keys(dropped).filter((k) => !k.startsWith('BALL LOST'))).toEqual([]);
    // Kick-offs: each half's first starts it; the other four restart after the four goals (2', then three in the second half).
    expect(ofType(events, 'kick_off').map((e) => [e.period, e.data.after_goal])).toEqual([
      ['1', false],
      ['1', true],
      ['2', false],
      ['2', true],
      ['2', true],
      ['2', true],
    ]);
  });

  it("writes a duel once per pair of CHALLENGE rows, won by the WON row's side", () => {
    const { events } = load();
    const duel = ofType(events, 'duel')[0]!;
    expect(duel).toMatchObject({ type: 'duel', data: { kind: 'aerial', winner: 'Player2', loser: 'Player18', foul: false } });
    expect(duel.team).toBe('home');
  });

  it('charges a foul to the team that committed it', () => {
    const { events } = load();
    // Row 217: "Home,FAULT RECEIVED,,1,15690,627.6,..." -> Away committed it.
    const foul = events.find((e) => e.provider_event_id === 'metrica:g1:216')!;
    expect(foul).toMatchObject({ type: 'foul', team: 'away', period: '1', clock_seconds: 627, data: { fouled_team: 'home', fouled_player: 'Player3' } });
    const recovery = events.find((e) => e.provider_event_id === 'metrica:g1:9')!;
    expect(recovery).toMatchObject({ type: 'possession_change', team: 'home', data: { player: 'Player2', via: 'interception' } });
  });

  it('is deterministic', () => {
    const again = importMetricaCsv(readFixture('feeds/metrica/sample-game-1-events.csv'), { matchKey: 'g1', kickoff });
    expect(again.events).toEqual(load().events);
  });
});

/** The sample games as the importers read them. */
const games = {
  1: () => importMetricaCsv(readFixture('feeds/metrica/sample-game-1-events.csv'), { matchKey: 'g1', kickoff }),
  2: () => importMetricaCsv(readFixture('feeds/metrica/sample-game-2-events.csv'), { matchKey: 'g2', kickoff }),
  3: () =>
    importMetricaJson(readFixture('feeds/metrica/sample-game-3-events.json'), readFixture('feeds/metrica/sample-game-3-metadata.xml'), {
      matchKey: 'g3',
      kickoff,
    }),
};

describe('Metrica CSV, sample game 2 (its second half kicked off twice)', () => {
  let game: MetricaImport;
  const load = () => (game ??= games[2]());

  it('produces contract-valid events with a clean envelope, and the five goals', () => {
    const { events } = load();
    expect(contractErrors(events)).toEqual([]);
    expect(envelopeProblems(events)).toEqual([]);
    expect(summarizeFeed(events).goals.map((g) => [g.team, g.period])).toEqual([
      ['home', '1'],
      ['away', '1'],
      ['home', '2'],
      ['away', '2'],
      ['home', '2'],
    ]);
  });

  it('says a kick-off follows a goal only when one was scored since the previous kick-off: not the one taken again', () => {
    const { events } = load();
    expect(ofType(events, 'kick_off').map((e) => [e.period, e.data.after_goal, e.data.retaken, `${e.score.home}-${e.score.away}`])).toEqual([
      ['1', false, false, '0-0'],
      ['1', true, false, '1-0'],
      ['1', true, false, '1-1'],
      // The second half's kick-off, taken again: nobody scored before either.
      ['2', false, true, '1-1'],
      ['2', false, false, '1-1'],
      ['2', true, false, '2-1'],
      ['2', true, false, '2-2'],
      ['2', true, false, '3-2'],
    ]);
  });
});

describe('every mapped event type, counted against the raw rows', () => {
  it.each([1, 2] as const)('sample game %i (CSV)', (n) => {
    const { events } = games[n]();
    expect(summarizeFeed(events).byType).toEqual(countsFromRows(readFixture(`feeds/metrica/sample-game-${n}-events.csv`)));
  });

  it('sample game 3 (JSON)', () => {
    const { events } = games[3]();
    expect(summarizeFeed(events).byType).toEqual(countsFromRows(readFixture('feeds/metrica/sample-game-3-events.json'), 'json'));
  });

  it('pairs the two rows of a duel that are not side by side, and only those of one duel', () => {
    // Sample game 2, 201.64 s: an aerial duel won by Away Player23, lost by Home Player2, with Away's pass between the rows.
    const { events } = games[2]();
    const duels = ofType(events, 'duel').filter((e) => secondsAfterKickoff(e) > 201 && secondsAfterKickoff(e) < 202);
    expect(duels.map((e) => [e.team, e.data.kind, e.data.winner, e.data.loser])).toEqual([['away', 'aerial', 'Player23', 'Player2']]);
    // Every CHALLENGE row is in exactly one duel.
    const rows = readFixture('feeds/metrica/sample-game-2-events.csv')
      .split('\n')
      .filter((l) => l.split(',')[1] === 'CHALLENGE').length;
    expect(ofType(events, 'duel').reduce((n, e) => n + (e.data.players as string[]).length, 0)).toBe(rows);
    expect(ofType(events, 'duel')).toHaveLength(201);
  });
});

describe('kick-offs of every sample game', () => {
  it.each([1, 2, 3] as const)("game %i: after_goal exactly when a goal was scored since the period's previous kick-off", (n) => {
    const { events } = games[n]();
    let goals = 0;
    let period: string | null = null;
    const wrong: string[] = [];
    for (const e of events) {
      if (e.period !== period) [period, goals] = [e.period, 0];
      if (e.type === 'score_change') goals++;
      if (e.type !== 'kick_off') continue;
      if (e.data.after_goal !== goals > 0) wrong.push(`${e.provider_event_id}: after_goal ${String(e.data.after_goal)} after ${goals} goal(s)`);
      goals = 0;
    }
    expect(wrong).toEqual([]);
    expect(ofType(events, 'kick_off').length).toBeGreaterThan(1);
  });
});

describe('Metrica JSON + EPTS metadata, sample game 3', () => {
  let game: MetricaImport;
  const load = () =>
    (game ??= importMetricaJson(readFixture('feeds/metrica/sample-game-3-events.json'), readFixture('feeds/metrica/sample-game-3-metadata.xml'), {
      matchKey: 'g3',
      kickoff,
    }));

  it('takes home and away from the metadata Score element', () => {
    const { homeTeam, awayTeam, declaredScore } = load();
    expect(homeTeam).toBe('Team A');
    expect(awayTeam).toBe('Team B');
    expect(declaredScore).toEqual({ home: 0, away: 2 });
  });

  it('produces contract-valid events with a clean envelope', () => {
    const { events } = load();
    expect(contractErrors(events)).toEqual([]);
    expect(envelopeProblems(events)).toEqual([]);
  });

  it('scores the two Team B goals and matches the declared result', () => {
    const { events, declaredScore } = load();
    const summary = summarizeFeed(events);
    expect(
      summary.goals.map((g) => ({
        team: g.team,
        scorer: g.scorer,
        period: g.period,
        at: (Date.parse(g.occurred_at) - kickoff.getTime()) / 1000,
        own_goal: g.own_goal,
      })),
    ).toEqual([
      { team: 'away', scorer: 'Player 27', period: '1', at: 1101, own_goal: false },
      { team: 'away', scorer: 'Player 22', period: '2', at: 3230.44, own_goal: false },
    ]);
    expect(summary.finalScore).toEqual(declaredScore);
    // "RECOVERY / GOAL" (index 1166) is a goalkeeper's recovery, not a goal.
    expect(events.find((e) => e.provider_event_id === 'metrica:g3:1166')).toMatchObject({ type: 'possession_change', team: 'home' });
  });

  it('maps the card, corners, shots and free kicks', () => {
    const { events } = load();
    const summary = summarizeFeed(events);
    expect(summary.cards).toEqual([{ team: 'away', color: 'yellow', player: 'Player 21', period: '2' }]);
    expect(summary.byType.corner).toBe(8);
    expect(summary.shotsByOutcome).toEqual({ goal: 2, on_target: 7, off_target: 6, blocked: 3, woodwork: 2 });
    const headerWoodwork = events.find((e) => e.provider_event_id === 'metrica:g3:3357')!;
    expect(headerWoodwork.data).toMatchObject({ outcome: 'woodwork', header: true, player: 'Player 6' });
    const kinds = ofType(events, 'free_kick').map((e) => e.data.kind);
    expect(kinds.filter((k) => k === 'indirect')).toHaveLength(27);
    expect(kinds.filter((k) => k === 'direct')).toHaveLength(1);
    expect(load().dropped.CARRY).toBe(1395);
  });

  it('starts periods at the kick-off and ends them at the metadata end frame', () => {
    const { events } = load();
    const at = (type: string, period: string) => secondsAfterKickoff(events.find((e) => e.type === type && e.period === period)!);
    expect(at('period_start', '1')).toBeCloseTo(14.44, 3);
    expect(at('period_end', '1')).toBeCloseTo(69661 / 25, 3);
    expect(at('period_start', '2')).toBeCloseTo(2803.6, 3);
    expect(at('period_end', '2')).toBeCloseTo(143761 / 25, 3);
  });
});

describe('Metrica importers on small inputs', () => {
  const header = 'Team,Type,Subtype,Period,Start Frame,Start Time [s],End Frame,End Time [s],From,To,Start X,Start Y,End X,End Y';
  const csv = (...rows: string[]) => [header, ...rows].join('\r\n');

  it('reads quoted fields and CRLF, and maps extra time to et1/et2', () => {
    const { events } = importMetricaCsv(
      csv(
        'Home,PASS,,1,1,0.04,2,1,"Player ""1""",Player2,0.5,0.5,0.6,0.5',
        'Away,CARD,RED,2,3,2800,3,2800,Player20,,NaN,NaN,NaN,NaN',
        'Away,SHOT,ON TARGET-GOAL,3,4,5500,5,5501,Player21,,0.9,0.5,1,0.5',
        'Home,SHOT,BLOCKED,4,6,6400,7,6401,Player1,,0.9,0.5,0.9,0.5',
      ),
      { matchKey: 'tiny', kickoff },
    );
    expect(events.find((e) => e.type === 'pass')!.data.player).toBe('Player "1"');
    expect(events.find((e) => e.type === 'card')!.data).toEqual({ color: 'red', player: 'Player20' });
    expect(summarizeFeed(events).periods).toEqual(['1', '2', 'et1', 'et2']);
    const goal = events.find((e) => e.type === 'score_change')!;
    expect(goal).toMatchObject({ period: 'et1', team: 'away', score: { home: 0, away: 1 }, data: { minute: 91, offset: 0 } });
    expect(events.at(-1)!.data.final_score).toEqual({ home: 0, away: 1, penalties: null, winner: 'away' });
  });

  it('does not count a ball into the goal as an own goal unless the conceding team kicks off next', () => {
    const rows = ['Away,SET PIECE,CORNER KICK,1,1,10,1,10,Player20,,NaN,NaN,NaN,NaN', 'Home,BALL OUT,WOODWORK-GOAL,1,2,12,3,13,Player5,,0.97,0.48,1.01,0.54'];
    const withoutKickOff = importMetricaCsv(csv(...rows, 'Away,PASS,,1,4,60,5,61,Player20,Player21,0.5,0.5,0.5,0.5'), { matchKey: 'a', kickoff });
    expect(summarizeFeed(withoutKickOff.events).finalScore).toEqual({ home: 0, away: 0 });
    const withKickOff = importMetricaCsv(csv(...rows, 'Home,SET PIECE,KICK OFF,1,4,60,4,60,Player9,,NaN,NaN,NaN,NaN'), { matchKey: 'b', kickoff });
    expect(summarizeFeed(withKickOff.events).goals).toMatchObject([{ team: 'away', own_goal: true, scorer: 'Player5' }]);
  });

  it('says what is wrong with a bad file', () => {
    expect(() => importMetricaCsv('Team,Type\nHome,PASS', { matchKey: 'x', kickoff })).toThrow(/missing column\(s\) Subtype/);
    expect(() => importMetricaCsv(csv('Both,PASS,,1,1,0,1,0,P,,0,0,0,0'), { matchKey: 'x', kickoff })).toThrow(/row 2: Team is 'Both'/);
    expect(() => importMetricaCsv(csv('Home,PASS,,7,1,0,1,0,P,,0,0,0,0'), { matchKey: 'x', kickoff })).toThrow(/period number 7/);
    expect(() => importMetricaCsv(header, { matchKey: 'x', kickoff })).toThrow(/no events/);
    expect(() => importMetricaJson('{"events": []}', '<Teams/>', { matchKey: 'x', kickoff })).toThrow(/data\[\] array/);
  });

  it('carries a penalty through: penalty_awarded, then the shot and its goal marked penalty, and the result says so', () => {
    const { events } = importMetricaCsv(
      csv(
        'Home,SET PIECE,KICK OFF,1,1,0.04,1,0.04,Player9,,NaN,NaN,NaN,NaN',
        'Away,FAULT RECEIVED,,1,2,600,2,600,Player20,,0.1,0.5,NaN,NaN',
        'Home,CARD,YELLOW,1,3,610,3,610,Player4,,NaN,NaN,NaN,NaN',
        'Away,SET PIECE,PENALTY,1,4,660,4,660,Player21,,0.11,0.5,NaN,NaN',
        'Away,SHOT,ON TARGET-GOAL,1,5,661,5,662,Player21,,0.11,0.5,0,0.5',
        'Home,SET PIECE,KICK OFF,1,6,700,6,700,Player9,,NaN,NaN,NaN,NaN',
        'Away,SHOT,OFF TARGET-OUT,1,7,900,7,901,Player21,,0.2,0.5,0,0.3',
      ),
      { matchKey: 'pen', kickoff },
    );
    const awarded = ofType(events, 'penalty_awarded');
    expect(awarded).toMatchObject([{ team: 'away', clock_seconds: 660, data: { taker: 'Player21', retaken: false } }]);
    const [penaltyShot, openPlay] = ofType(events, 'shot');
    expect(penaltyShot!.data).toMatchObject({ outcome: 'goal', penalty: true, set_piece: 'penalty', shootout: false });
    expect(openPlay!.data).toMatchObject({ penalty: false, set_piece: null });
    expect(ofType(events, 'score_change')).toMatchObject([
      { team: 'away', data: { penalty: true, set_piece: 'penalty', own_goal: false, scorer: 'Player21' } },
    ]);
    expect(summarizeFeed(events).goals).toMatchObject([{ team: 'away', penalty: true }]);
  });

  it("marks a retaken penalty, and a penalty only when its taker's side shoots before the ball is played", () => {
    const { events } = importMetricaCsv(
      csv(
        'Home,SET PIECE,PENALTY,1,1,100,1,100,Player9,,0.89,0.5,NaN,NaN',
        'Home,SHOT,ON TARGET-SAVED,1,2,101,2,102,Player9,,0.89,0.5,1,0.5',
        'Home,SET PIECE,PENALTY-RETAKEN,1,3,160,3,160,Player9,,0.89,0.5,NaN,NaN',
        'Home,SHOT,ON TARGET-GOAL,1,4,161,4,162,Player9,,0.89,0.5,1,0.5',
        'Away,SET PIECE,PENALTY,1,5,900,5,900,Player20,,0.11,0.5,NaN,NaN',
        'Away,PASS,,1,6,901,6,902,Player20,Player21,0.11,0.5,0.2,0.5',
        'Away,SHOT,OFF TARGET,1,7,905,7,906,Player21,,0.2,0.5,0,0.5',
      ),
      { matchKey: 'retake', kickoff },
    );
    expect(ofType(events, 'penalty_awarded').map((e) => e.data.retaken)).toEqual([false, true, false]);
    expect(ofType(events, 'shot').map((e) => [e.data.outcome, e.data.penalty])).toEqual([
      ['on_target', true],
      ['goal', true],
      // Passed short, then shot: open play, not the penalty.
      ['off_target', false],
    ]);
  });

  it('counts shoot-out goals as penalties of the shoot-out, not as goals of the match', () => {
    const rows = ['Home,SHOT,ON TARGET-GOAL,1,1,100,1,101,Player9,,0.9,0.5,1,0.5', 'Away,SHOT,ON TARGET-GOAL,2,2,3000,2,3001,Player20,,0.1,0.5,0,0.5'];
    const kicks = [
      ['Home', 'ON TARGET-GOAL'],
      ['Away', 'ON TARGET-GOAL'],
      ['Home', 'ON TARGET-SAVED'],
      ['Away', 'ON TARGET-GOAL'],
    ].map(([team, sub], i) => `${team},SHOT,${sub},5,${10 + i},${7300 + i * 60},${10 + i},${7301 + i * 60},Kicker${i},,0.89,0.5,1,0.5`);
    const { events } = importMetricaCsv(csv(...rows, ...kicks), { matchKey: 'so', kickoff });
    const shootout = ofType(events, 'shot').filter((e) => e.period === 'pen');
    expect(shootout.every((e) => e.data.penalty === true && e.data.shootout === true && e.data.set_piece === 'penalty')).toBe(true);
    expect(ofType(events, 'score_change')).toHaveLength(2);
    expect(events.find((e) => e.type === 'period_end' && e.period === 'pen')!.data).toEqual({ penalties: { home: 1, away: 2 } });
    expect(events.at(-1)!.data.final_score).toEqual({ home: 1, away: 1, penalties: { home: 1, away: 2 }, winner: 'away' });
  });

  it('marks shots straight from a free kick or a corner, headers, and retaken set pieces', () => {
    const { events } = importMetricaCsv(
      csv(
        'Home,SET PIECE,FREE KICK-DIRECT,1,1,100,1,100,Player10,,0.75,0.5,NaN,NaN',
        'Home,SHOT,ON TARGET-GOAL,1,2,101,2,102,Player10,,0.75,0.5,1,0.5',
        'Away,SET PIECE,CORNER KICK-RETAKEN,1,3,400,3,400,Player20,,1,0,NaN,NaN',
        'Away,SHOT,HEAD-OFF TARGET-OUT,1,4,402,4,403,Player20,,0.95,0.45,1,0.4',
        'Home,SET PIECE,THROW IN-RETAKEN,1,5,500,5,500,Player3,,0.5,0,NaN,NaN',
        'Home,SHOT,OFF TARGET,1,6,502,6,503,Player3,,0.8,0.5,1,0.3',
      ),
      { matchKey: 'sp', kickoff },
    );
    expect(ofType(events, 'shot').map((e) => [e.data.set_piece, e.data.header])).toEqual([
      ['free_kick', false],
      ['corner', true],
      // A throw-in is not a set piece a shot is taken from.
      [null, false],
    ]);
    expect(ofType(events, 'score_change')[0]!.data).toMatchObject({ set_piece: 'free_kick', penalty: false });
    expect(ofType(events, 'corner')[0]!.data).toEqual({ player: 'Player20', retaken: true });
    expect(ofType(events, 'free_kick')[0]!.data).toMatchObject({ kind: 'direct', retaken: false });
    expect(ofType(events, 'throw_in')[0]).toMatchObject({ team: 'home', data: { player: 'Player3', retaken: true } });
  });

  it('maps offsides, hand balls, balls out and goal kicks to the side that committed them', () => {
    const { events } = importMetricaCsv(
      csv(
        'Home,PASS,DEEP BALL-OFFSIDE,1,1,100,1,102,Player7,Player9,0.5,0.5,0.9,0.5',
        'Away,BALL LOST,OFFSIDE,1,2,200,2,201,Player20,,0.5,0.5,0.9,0.5',
        'Away,BALL LOST,HAND BALL,1,3,300,3,300,Player22,,0.3,0.5,NaN,NaN',
        'Home,BALL OUT,CLEARANCE,1,4,400,4,401,Player2,,0.1,0.5,0.1,1',
        'Away,SET PIECE,GOAL KICK,1,5,500,5,500,Player25,,0.05,0.5,NaN,NaN',
      ),
      { matchKey: 'misc', kickoff },
    );
    expect(ofType(events, 'offside').map((e) => [e.team, e.data.player, e.data.passer])).toEqual([
      ['home', 'Player9', 'Player7'],
      ['away', null, 'Player20'],
    ]);
    // The pass itself is kept beside its offside.
    expect(ofType(events, 'pass')).toHaveLength(1);
    expect(ofType(events, 'hand_ball')).toMatchObject([{ team: 'away', data: { player: 'Player22' } }]);
    expect(ofType(events, 'ball_out')).toMatchObject([{ team: 'home', data: { player: 'Player2', kind: 'clearance' } }]);
    expect(ofType(events, 'goal_kick')).toMatchObject([{ team: 'away', data: { player: 'Player25', retaken: false } }]);
  });

  it('writes a duel without a winner when the data names none, and one for a lone half', () => {
    const { events } = importMetricaCsv(
      csv('Home,CHALLENGE,AERIAL,1,1,100,1,100,Player4,,0.5,0.5,NaN,NaN', 'Away,CHALLENGE,GROUND-FAULT-LOST,1,2,300,2,300,Player22,,0.5,0.5,NaN,NaN'),
      { matchKey: 'duels', kickoff },
    );
    expect(ofType(events, 'duel').map((e) => [e.team, e.data.kind, e.data.winner, e.data.loser, e.data.foul])).toEqual([
      [null, 'aerial', null, null, false],
      ['home', 'ground', null, 'Player22', true],
    ]);
  });

  it('falls back to the first team as home when the metadata has no Score', () => {
    const xml = '<Teams><Team id="T1"><Name>Reds &amp; Co</Name></Team><Team id="T2"><Name>Blues</Name></Team></Teams>';
    const data = [
      {
        index: 1,
        team: { name: 'Blues', id: 'T2' },
        type: { name: 'SHOT', id: 2 },
        subtypes: [{ name: 'ON TARGET' }, { name: 'GOAL' }],
        start: { frame: 1, time: 5, x: 0.9, y: 0.5 },
        end: { frame: 2, time: 6, x: 1, y: 0.5 },
        period: 1,
        from: { name: 'B9', id: 'p' },
        to: null,
      },
    ];
    const result = importMetricaJson({ data }, xml, { matchKey: 'fb', kickoff });
    expect(result).toMatchObject({ homeTeam: 'Reds & Co', awayTeam: 'Blues', declaredScore: null });
    expect(summarizeFeed(result.events).finalScore).toEqual({ home: 0, away: 1 });
  });
});
