/** Valid definition bodies for tests, with overrides, and creating definitions (and groups) through the API. */
import type { components } from '../../generated/api-types.js';
import type { TestApp, TestUser } from './test-app.js';

/** Fields with a contract default are optional in a request (the generated types make them required). */
type WithDefaults<T, K extends keyof T> = Omit<T, K> & Partial<Pick<T, K>>;
type InGameInput = WithDefaults<components['schemas']['QuestionDefinitionInput'], 'is_pivotal_moment' | 'is_active'>;
type MatchInput = WithDefaults<components['schemas']['MatchQuestionDefinitionInput'], 'is_pivotal_moment' | 'is_active' | 'issue_lead_seconds'>;

let counter = 0;
const unique = () => `${Date.now().toString(36)}-${counter++}`;

/** The question "who scores next?" asked after a goal, with its choices home, away and none. */
export const nextGoalQuestion = () => ({
  question_text_template: '{{ match.home_team }} {{ event.score.home }}-{{ event.score.away }} {{ match.away_team }}. Who scores next?',
  choices: [
    { identifier: 'home', label_template: '{{ match.home_team }}' },
    { identifier: 'away', label_template: '{{ match.away_team }}' },
    { identifier: 'none', label_template: 'No more goals' },
  ],
});

export function inGameDefinitionInput(overrides: Partial<InGameInput> = {}): InGameInput {
  return {
    name: `Next goal ${unique()}`,
    trigger: { event_type: 'score_change', condition: 'event.period = "1" or event.period = "2"' },
    ...nextGoalQuestion(),
    resolution: {
      rules: [{ event_type: 'score_change', condition: 'event.final', correct_choice: 'event.team' }],
      timeout: { after_seconds: 600, correct_choice: 'none' },
    },
    ...overrides,
  };
}

export function matchDefinitionInput(overrides: Partial<MatchInput> = {}): MatchInput {
  return {
    name: `Who wins ${unique()}`,
    question_text_template: '{{ match.home_team }} vs {{ match.away_team }}: who wins?',
    choices: [
      { identifier: 'home', label_template: '{{ match.home_team }}' },
      { identifier: 'draw', label_template: 'Draw' },
      { identifier: 'away', label_template: '{{ match.away_team }}' },
    ],
    resolution: { correct_choice: 'result.winner' },
    ...overrides,
  };
}

/** Creates a league's resource (a definition of either kind, a group) as `admin`: `POST <path>?league=<league>`; the 201 body, else throws. */
export async function createInLeague(app: TestApp, admin: TestUser, path: string, league: string, body: unknown) {
  const res = await app.request('POST', path, { token: admin.token, query: { league }, body });
  if (res.status !== 201) throw new Error(`POST ${path} in league ${league}: ${res.status} ${res.text}`);
  return res.body;
}

/** An in-game definition created through the API from `inGameDefinitionInput(overrides)`. */
export const createInGameDefinition = (app: TestApp, admin: TestUser, league: string, overrides: Partial<InGameInput> = {}) =>
  createInLeague(app, admin, '/api/question-definitions', league, inGameDefinitionInput(overrides));

/** A Match question definition created through the API from `matchDefinitionInput(overrides)`. */
export const createMatchDefinition = (app: TestApp, admin: TestUser, league: string, overrides: Partial<MatchInput> = {}) =>
  createInLeague(app, admin, '/api/match-question-definitions', league, matchDefinitionInput(overrides));
