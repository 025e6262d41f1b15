/**
 * The demo's question catalog for the football league `wc`: what a newcomer
 * sees issued on the demo match. Created through the same services as the
 * API (so it is validated like any operator's definitions), only when the
 * league has no definitions yet.
 */
import type { Services } from '../services.js';

const yesNo = [
  { identifier: 'yes', label_template: 'Yes' },
  { identifier: 'no', label_template: 'No' },
];

export async function seedDemoCatalog(services: Services, league = 'wc'): Promise<boolean> {
  const existing = await services.definitions.list({ league, include_inactive: true });
  if (existing.rows.length) return false;
  const { group: goals } = await services.groups.create(league, {
    slug: 'goals',
    name: 'Goal questions',
    description: 'Who scores next, goals soon.',
    max_open_questions: 1,
    min_interval_seconds: 0,
  });
  const { group: setPieces } = await services.groups.create(league, {
    slug: 'set-pieces',
    name: 'Set pieces',
    description: 'Corners and what follows.',
    max_open_questions: 1,
    min_interval_seconds: 0,
  });
  const inGame = [
    {
      name: 'Next goal',
      description: 'After each goal: who scores the next one?',
      group_id: goals.id,
      trigger: { event_type: 'score_change' },
      question_text_template: '{{ match.home_team }} {{ event.score.home }}-{{ event.score.away }} {{ match.away_team }}. Who scores next?',
      choices: [
        { identifier: 'home', label_template: '{{ match.home_team }}' },
        { identifier: 'away', label_template: '{{ match.away_team }}' },
        { identifier: 'none', label_template: 'No more goals' },
      ],
      issuance_state_extract: { score_at_issue: 'event.score' },
      store_state: { goals: '(state.goals ? state.goals : 0) + 1' },
      resolution: {
        rules: [
          { event_type: 'score_change', correct_choice: 'event.team' },
          { event_type: 'match_status', condition: 'event.data.status = "ended"', correct_choice: '"none"' },
        ],
      },
    },
    {
      name: 'Shot after a corner',
      description: 'After a corner: will the same team shoot within five minutes?',
      group_id: setPieces.id,
      trigger: { event_type: 'corner' },
      question_text_template:
        'Corner for {% if event.team == "home" %}{{ match.home_team }}{% else %}{{ match.away_team }}{% endif %} ({{ extract.minute }}\'). A shot within 5 minutes?',
      choices: yesNo,
      issuance_state_extract: { team: 'event.team', minute: '$floor(event.clock_seconds / 60) + 1' },
      resolution: {
        rules: [{ event_type: 'shot', condition: 'event.team = issuance.state.team', correct_choice: '"yes"' }],
        timeout: { after_seconds: 300, correct_choice: 'no' },
      },
    },
    {
      name: 'Goal in the first 15 minutes of a half',
      description: 'At kick-off of each half.',
      trigger: { event_type: 'period_start', condition: 'event.period = "1" or event.period = "2"' },
      question_text_template: 'Kick-off{% if event.period == "2" %} of the second half{% endif %}! A goal in the next 15 minutes?',
      choices: yesNo,
      resolution: {
        rules: [{ event_type: 'score_change', correct_choice: '"yes"' }],
        timeout: { after_seconds: 900, correct_choice: 'no' },
      },
    },
    {
      name: 'Card before half-time',
      description: 'A pivotal moment at kick-off.',
      is_pivotal_moment: true,
      trigger: { event_type: 'period_start', condition: 'event.period = "1"' },
      question_text_template: 'Will anyone be booked before half-time?',
      choices: yesNo,
      resolution: {
        rules: [
          { event_type: 'card', condition: 'event.period = "1"', correct_choice: '"yes"' },
          { event_type: 'period_end', condition: 'event.period = "1"', correct_choice: '"no"' },
        ],
      },
    },
  ];
  for (const def of inGame) await services.definitions.create(league, def as never);
  const matchQuestions = [
    {
      name: 'Who wins?',
      question_text_template: '{{ match.home_team }} vs {{ match.away_team }}: who wins?',
      choices: [
        { identifier: 'home', label_template: '{{ match.home_team }}' },
        { identifier: 'draw', label_template: 'Draw' },
        { identifier: 'away', label_template: '{{ match.away_team }}' },
      ],
      resolution: { correct_choice: 'result.winner' },
      points: 20,
    },
    {
      name: 'Both teams to score?',
      question_text_template: 'Will both {{ match.home_team }} and {{ match.away_team }} score?',
      choices: yesNo,
      resolution: { correct_choice: 'result.home_score > 0 and result.away_score > 0 ? "yes" : "no"' },
    },
    {
      name: 'More than 2.5 goals?',
      question_text_template: '{{ match.home_team }} vs {{ match.away_team }}: three goals or more?',
      choices: yesNo,
      resolution: { correct_choice: 'result.home_score + result.away_score > 2.5 ? "yes" : "no"' },
    },
  ];
  for (const def of matchQuestions) await services.matchDefinitions.create(league, def as never);
  return true;
}
