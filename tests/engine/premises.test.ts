/**
 * A question never states something that did not happen. The recorded case:
 * Metrica sample game 2, whose second-half kick-off was taken twice; a
 * "restart after the goal" question asked on the second attempt told
 * players "Play restarts after the goal (1-1)" with no goal since half-time.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { importMetricaCsv } from '../../src/engine/feed/importers/metrica.js';
import { play, resetSpecIds, wc } from './decider-spec.js';
import { readFixture } from './feed/helpers.js';

beforeAll(resetSpecIds);

describe('the premise of a question is what the feed says happened', () => {
  it('asks "after the goal" at the kick-offs that follow a goal, and never at a kick-off taken again', async () => {
    const { events } = importMetricaCsv(readFixture('feeds/metrica/sample-game-2-events.csv'), {
      matchKey: 'g2',
      kickoff: new Date('2026-06-14T18:00:00Z'),
    });
    const c = wc();
    c.define({
      name: 'Restart after the goal',
      trigger: { event_type: 'kick_off', condition: 'event.data.after_goal' },
      question_text_template: 'Play restarts after the goal ({{ event.score.home }}-{{ event.score.away }}). Next shot by the side kicking off?',
      choices: [
        { identifier: 'yes', label_template: 'Yes' },
        { identifier: 'no', label_template: 'No' },
      ],
      issuance_state_extract: { team: 'event.team' },
      resolution: { rules: [{ event_type: 'shot', correct_choice: 'event.team = issuance.state.team ? "yes" : "no"' }] },
    });
    const out = await play(c, events);
    // The premise of each: a goal since the previous kick-off of its period, in the feed itself.
    const goalBefore = (triggerId: string) => {
      const i = events.findIndex((e) => e.provider_event_id === triggerId);
      const previousKickOff = events.findLastIndex((e, j) => j < i && (e.type === 'kick_off' || e.type === 'period_start'));
      return events.slice(previousKickOff + 1, i).some((e) => e.type === 'score_change');
    };
    expect(out.issued.map((q) => q.questionText.slice(0, 'Play restarts after the goal (1-1)'.length))).toEqual([
      'Play restarts after the goal (1-0)',
      'Play restarts after the goal (1-1)',
      'Play restarts after the goal (2-1)',
      'Play restarts after the goal (2-2)',
      'Play restarts after the goal (3-2)',
    ]);
    expect(out.issued.filter((q) => !goalBefore(q.triggerEventId)).map((q) => q.questionText)).toEqual([]);
  });
});
