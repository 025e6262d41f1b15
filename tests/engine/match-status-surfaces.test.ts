/**
 * Where players and operators read a live match, at every period transition
 * of a feed that announces only some of them (as the demo's and most
 * importers' feeds do: a break after the first half, no `live` when the
 * second starts), with its score (0-0 from kick-off, never null once
 * started): the `match_state` stream message, `GET
 * /api/matches/{match_id}` (what the operator page's header shows), and the
 * open questions' match. All of them read the match row the engine writes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FeedEvent } from '../../src/domain/sports/events.js';
import { createInLeague } from '../helpers/definitions.js';
import { follow } from '../helpers/factories.js';
import { openStream, type StreamClient } from '../helpers/live-client.js';
import { registerUser, type TestUser } from '../helpers/test-app.js';
import { cleanup, ev, startHarness, startLive, type Harness, type LiveFeed } from './engine-scenario.js';

interface Expected {
  status: string;
  period: string;
  home_score: number;
  away_score: number;
}

/** The running score: a home goal (seq 2) and an away equaliser (seq 7). */
const scoreAt = (seq: number) => ({ home: seq >= 2 ? 1 : 0, away: seq >= 7 ? 1 : 0 });
const at = (seq: number, type: string, period: string, seconds: number, more: Partial<FeedEvent> = {}) =>
  ev(seq, type, { at: seconds, period, score: scoreAt(seq), team: type.startsWith('period') || type === 'match_status' ? null : 'home', ...more });
const status = (seq: number, period: string, seconds: number, s: string) => at(seq, 'match_status', period, seconds, { data: { status: s } });

/** Each step: what the feed sends, and where the match stands after it. */
const STEPS: [FeedEvent[], Expected][] = [
  // Kick-off: 0-0, not a score of null.
  [[at(1, 'period_start', '1', 0)], { status: 'live', period: '1', home_score: 0, away_score: 0 }],
  [[at(2, 'score_change', '1', 30)], { status: 'live', period: '1', home_score: 1, away_score: 0 }],
  [[at(3, 'period_end', '1', 2760)], { status: 'break', period: '1', home_score: 1, away_score: 0 }],
  [[status(4, '1', 2761, 'break'), at(5, 'substitution', '1', 3000)], { status: 'break', period: '1', home_score: 1, away_score: 0 }],
  // The second half starts with no status message: play is on.
  [[at(6, 'period_start', '2', 3600)], { status: 'live', period: '2', home_score: 1, away_score: 0 }],
  [[at(7, 'score_change', '2', 3700, { team: 'away' })], { status: 'live', period: '2', home_score: 1, away_score: 1 }],
  // A suspension, lifted by play going on.
  [[status(8, '2', 4000, 'break')], { status: 'break', period: '2', home_score: 1, away_score: 1 }],
  [[at(9, 'free_kick', '2', 4600)], { status: 'live', period: '2', home_score: 1, away_score: 1 }],
  [[at(10, 'period_end', '2', 6500)], { status: 'break', period: '2', home_score: 1, away_score: 1 }],
  [[at(11, 'period_start', 'et1', 6800)], { status: 'live', period: 'et1', home_score: 1, away_score: 1 }],
  [[at(12, 'period_end', 'et1', 7800)], { status: 'break', period: 'et1', home_score: 1, away_score: 1 }],
  [[at(13, 'period_start', 'et2', 7920)], { status: 'live', period: 'et2', home_score: 1, away_score: 1 }],
  [[at(14, 'period_end', 'et2', 8900)], { status: 'break', period: 'et2', home_score: 1, away_score: 1 }],
  [[at(15, 'period_start', 'pen', 9100)], { status: 'live', period: 'pen', home_score: 1, away_score: 1 }],
  [[at(16, 'shot', 'pen', 9110)], { status: 'live', period: 'pen', home_score: 1, away_score: 1 }],
  [[at(17, 'period_end', 'pen', 9500)], { status: 'break', period: 'pen', home_score: 1, away_score: 1 }],
  [[status(18, 'pen', 9501, 'ended')], { status: 'ended', period: 'pen', home_score: 1, away_score: 1 }],
  [[status(19, 'pen', 9502, 'closed')], { status: 'closed', period: 'pen', home_score: 1, away_score: 1 }],
];

describe('a live match as players and operators see it, at every period transition', () => {
  let h: Harness;
  let live: LiveFeed;
  let player: TestUser;
  let stream: StreamClient;

  beforeAll(async () => {
    h = await startHarness({ live: { matchStateIntervalMs: 20 } });
    // Asked at kick-off, open until the end: the open questions carry the match as it stands.
    await createInLeague(h.app, h.admin, '/api/question-definitions', 'wc', {
      name: 'Extra time?',
      is_pivotal_moment: true,
      trigger: { event_type: 'period_start', condition: 'event.period = "1"' },
      question_text_template: 'Will this go to extra time?',
      choices: [
        { identifier: 'yes', label_template: 'Yes' },
        { identifier: 'no', label_template: 'No' },
      ],
      answer_window_seconds: 3600,
      resolution: { rules: [{ event_type: 'match_status', condition: 'event.data.status = "ended"', correct_choice: '"yes"' }] },
    });
    live = await startLive(h);
    player = await registerUser(h.app);
    await follow(h.app, player.id, live.match.id);
    stream = await openStream(h.app, player.token);
    await stream.ready();
  });

  afterAll(async () => {
    await stream?.close();
    await live?.close();
    if (h) await cleanup(h);
    await h?.app.close();
  });

  it('says live from each period start to its end and break between, on the stream, the match read and the open questions', async () => {
    const matchId = live.match.id;
    let before: Expected | null = null;
    for (const [events, expected] of STEPS) {
      await live.push(...events);
      const where = `after ${events.map((e) => `${e.type} ${e.period}`).join(', ')}`;
      // A message when the status, the period or the score changed (a clock alone sends none).
      if (
        before?.status !== expected.status ||
        before.period !== expected.period ||
        before.home_score !== expected.home_score ||
        before.away_score !== expected.away_score
      ) {
        const state = await stream.take((m) => m.type === 'match_state' && m.match.match_id === matchId, 10_000);
        expect(state.match, where).toMatchObject(expected);
      }
      before = expected;
      for (const token of [player.token, h.admin.token]) {
        const read = await h.app.request<any>('GET', `/api/matches/${matchId}`, { token });
        expect(read.status, where).toBe(200);
        expect({ status: read.body.status, period: read.body.period, home_score: read.body.home_score, away_score: read.body.away_score }, where).toEqual(
          expected,
        );
      }
      const open = await h.app.request<any>('GET', '/api/question-answers/open', { token: player.token });
      const ours = open.body.filter((q: any) => q.match.id === matchId && q.kind === 'in_game');
      if (['live', 'break'].includes(expected.status)) {
        expect(ours, where).toHaveLength(1);
        expect(ours[0].match.status, where).toBe(expected.status);
      } else expect(ours, where).toEqual([]);
    }
  });
});
