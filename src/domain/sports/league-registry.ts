/**
 * The leagues the service supports. A league slug outside this list is
 * "unsupported" (400, naming the slug); a supported league whose row is
 * missing from the database is "not found" (404). Rows are seeded from this
 * list at start (insert-if-missing, so operators' changes to defaults stay).
 */

export type Sport = 'football' | 'american_football' | 'basketball' | 'baseball' | 'ice_hockey';

/** Period keys per sport, in playing order. */
export const SPORT_PERIODS: Record<Sport, readonly string[]> = {
  football: ['1', '2', 'et1', 'et2', 'pen'],
  american_football: ['1', '2', '3', '4', 'ot'],
  basketball: ['1', '2', '3', '4', 'ot'],
  baseball: ['1', '2', '3', '4', '5', '6', '7', '8', '9', 'extra'],
  ice_hockey: ['1', '2', '3', 'ot', 'so'],
};

export interface LeagueDefinition {
  slug: string;
  name: string;
  sport: Sport;
  defaults: {
    questionMaxCount: number;
    questionMinIntervalSeconds: number;
    questionPeriodDistribution: Record<string, number>;
    questionPoints: number;
    answerWindowSeconds: number;
    /** The fairness rule's minimum answer time (feed seconds between a question's trigger and the event that decides it). */
    minAnswerSeconds: number;
    questionProbability: number;
  };
}

const even = (periods: string[], n: number) => Object.fromEntries(periods.map((p) => [p, n]));

export const SUPPORTED_LEAGUES: readonly LeagueDefinition[] = [
  {
    // Fed by tests/fixtures (openfootball World Cup schedules and results, Metrica events).
    slug: 'wc',
    name: 'FIFA World Cup',
    sport: 'football',
    defaults: {
      questionMaxCount: 10,
      questionMinIntervalSeconds: 120,
      questionPeriodDistribution: even(['1', '2'], 5),
      questionPoints: 10,
      answerWindowSeconds: 60,
      minAnswerSeconds: 10,
      questionProbability: 1,
    },
  },
  {
    slug: 'mls',
    name: 'Major League Soccer',
    sport: 'football',
    defaults: {
      questionMaxCount: 10,
      questionMinIntervalSeconds: 120,
      questionPeriodDistribution: even(['1', '2'], 5),
      questionPoints: 10,
      answerWindowSeconds: 60,
      minAnswerSeconds: 10,
      questionProbability: 1,
    },
  },
  {
    slug: 'nfl',
    name: 'National Football League',
    sport: 'american_football',
    defaults: {
      questionMaxCount: 16,
      questionMinIntervalSeconds: 90,
      questionPeriodDistribution: even(['1', '2', '3', '4'], 4),
      questionPoints: 10,
      answerWindowSeconds: 30,
      minAnswerSeconds: 10,
      questionProbability: 1,
    },
  },
  {
    slug: 'nba',
    name: 'National Basketball Association',
    sport: 'basketball',
    defaults: {
      questionMaxCount: 16,
      questionMinIntervalSeconds: 90,
      questionPeriodDistribution: even(['1', '2', '3', '4'], 4),
      questionPoints: 10,
      answerWindowSeconds: 30,
      minAnswerSeconds: 10,
      questionProbability: 1,
    },
  },
  {
    slug: 'mlb',
    name: 'Major League Baseball',
    sport: 'baseball',
    defaults: {
      questionMaxCount: 18,
      questionMinIntervalSeconds: 90,
      questionPeriodDistribution: even(['1', '2', '3', '4', '5', '6', '7', '8', '9'], 2),
      questionPoints: 10,
      answerWindowSeconds: 45,
      minAnswerSeconds: 10,
      questionProbability: 1,
    },
  },
  {
    slug: 'nhl',
    name: 'National Hockey League',
    sport: 'ice_hockey',
    defaults: {
      questionMaxCount: 12,
      questionMinIntervalSeconds: 120,
      questionPeriodDistribution: even(['1', '2', '3'], 4),
      questionPoints: 10,
      answerWindowSeconds: 45,
      minAnswerSeconds: 10,
      questionProbability: 1,
    },
  },
];

const bySlug = new Map(SUPPORTED_LEAGUES.map((l) => [l.slug, l]));

/** The supported league of a slug, if the service supports it (src/modules/shared/domain.errors.ts refuses the others). */
export const findSupportedLeague = (slug: string): LeagueDefinition | undefined => bySlug.get(slug);

export const periodsOfSport = (sport: string): readonly string[] => SPORT_PERIODS[sport as Sport] ?? [];
