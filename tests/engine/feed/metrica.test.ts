import { describe, expect, it } from 'vitest';
import type { FeedEvent } from '../../../src/engine/feed/events.js';
import { FOOTBALL_PERIODS } from '../../../src/engine/feed/football-feed.js';
import { importMetricaCsv, importMetricaJson, summarizeFeed, type MetricaImport } from '../../../src/engine/feed/importers/metrica.js';
import { SPORT_PERIODS } from '../../../src/modules/leagues/league-registry.js';
import { contractErrors, describeWithFixtures, envelopeProblems, readFixture } from './helpers.js';

const kickoff = new Date('2024-03-02T15:00:00.000Z');
const secondsAfterKickoff = (e: FeedEvent) => (Date.parse(e.occurred_at) - kickoff.getTime()) / 1000;
const ofType = (events: FeedEvent[], type: string) => events.filter((e) => e.type === type);

it('uses the league registry football period keys', () => {
  expect([...FOOTBALL_PERIODS]).toEqual(SPORT_PERIODS.football);
});

describeWithFixtures('Metrica CSV, sample game 1', () => {
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
    const frame = events.filter((e) => ['match_status', 'period_start', 'period_end'].includes(e.type)).map((e) => (e.type === 'match_status' ? String(e.data.status) : `${e.type}:${e.period}`));
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
    const goals = summary.goals.map((g) => ({ team: g.team, scorer: g.scorer, own_goal: g.own_goal, at: (Date.parse(g.occurred_at) - kickoff.getTime()) / 1000, minute: g.minute }));
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
    expect(ofType(events, 'shot').filter((e) => e.data.outcome === 'goal').map(secondsAfterKickoff)).toEqual([91.56, 3600.2, 3961.28]);
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
    expect(dropped['SET PIECE / KICK OFF']).toBe(6);
    expect(dropped['CHALLENGE / TACKLE']).toBeGreaterThan(0);
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

describeWithFixtures('Metrica JSON + EPTS metadata, sample game 3', () => {
  let game: MetricaImport;
  const load = () =>
    (game ??= importMetricaJson(readFixture('feeds/metrica/sample-game-3-events.json'), readFixture('feeds/metrica/sample-game-3-metadata.xml'), { matchKey: 'g3', kickoff }));

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
    expect(summary.goals.map((g) => ({ team: g.team, scorer: g.scorer, period: g.period, at: (Date.parse(g.occurred_at) - kickoff.getTime()) / 1000, own_goal: g.own_goal }))).toEqual([
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

  it('falls back to the first team as home when the metadata has no Score', () => {
    const xml = '<Teams><Team id="T1"><Name>Reds &amp; Co</Name></Team><Team id="T2"><Name>Blues</Name></Team></Teams>';
    const data = [
      { index: 1, team: { name: 'Blues', id: 'T2' }, type: { name: 'SHOT', id: 2 }, subtypes: [{ name: 'ON TARGET' }, { name: 'GOAL' }], start: { frame: 1, time: 5, x: 0.9, y: 0.5 }, end: { frame: 2, time: 6, x: 1, y: 0.5 }, period: 1, from: { name: 'B9', id: 'p' }, to: null },
    ];
    const result = importMetricaJson({ data }, xml, { matchKey: 'fb', kickoff });
    expect(result).toMatchObject({ homeTeam: 'Reds & Co', awayTeam: 'Blues', declaredScore: null });
    expect(summarizeFeed(result.events).finalScore).toEqual({ home: 0, away: 1 });
  });
});
