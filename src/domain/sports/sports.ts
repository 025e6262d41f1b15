/**
 * The canonical feed event types of each sport: what a definition can trigger
 * on or resolve from, the fields of each type's `data`, and one sample event
 * per type to author and preview templates and expressions against. Football
 * samples have the shape the Metrica and openfootball importers produce
 * (see importers/ and football-feed.ts); the other sports describe what their
 * providers are normalized to.
 */
import type { MatchContext } from '../question-render.js';
import { SPORT_PERIODS, type Sport } from './league-registry.js';
import { COMMON_EVENT_TYPES, type FeedEvent, type TeamSide } from './events.js';

export interface DataField {
  name: string;
  /** JSON type as authors see it: `string`, `integer`, `number`, `boolean`, `object`, `array of string`, with `| null` when it may be null. */
  type: string;
  description: string;
}

export interface EventTypeInfo {
  type: string;
  description: string;
  data_fields: DataField[];
  sample: FeedEvent;
}

interface SampleDraft {
  seq: number;
  period: string | null;
  clock: number | null;
  /** Seconds after the sample kick-off (breaks and stoppages make it differ from the clock). */
  at: number;
  team: TeamSide | null;
  score: [number, number];
  data: Record<string, unknown>;
}

interface TypeDraft {
  type: string;
  description: string;
  fields: [name: string, type: string, description: string][];
  sample: SampleDraft;
}

/** Kick-off of every sample match. */
const SAMPLE_KICKOFF = Date.parse('2026-06-14T19:00:00Z');

const STATUS_FIELDS: TypeDraft['fields'] = [
  ['status', 'string', 'live (play started or resumed), break (between periods), ended (play over, result not yet confirmed) or closed (result final)'],
  ['after_period', 'string | null', 'With break: the period that just ended'],
  ['final_score', 'object | null', 'With closed: {home, away, penalties: {home, away} or null, winner: home, away or null}'],
];

const PERIOD_START = 'A period started; `event.period` is the period.';
const PERIOD_END = 'A period ended; `event.period` is the period.';

const FOOTBALL: TypeDraft[] = [
  {
    type: 'match_status',
    description: 'The match status changed; `data.status` is live, break, ended or closed. closed carries the final score and is the last event of a match.',
    fields: STATUS_FIELDS,
    sample: { seq: 861, period: '1', clock: 2832, at: 2832, team: null, score: [0, 0], data: { status: 'break', after_period: '1' } },
  },
  {
    type: 'period_start',
    description: `${PERIOD_START} Football periods: 1, 2, et1, et2 (extra time) and pen (the shoot-out).`,
    fields: [],
    sample: { seq: 862, period: '2', clock: 2700, at: 3732, team: null, score: [0, 0], data: {} },
  },
  {
    type: 'period_end',
    description: PERIOD_END,
    fields: [['penalties', 'object | null', 'At the end of a shoot-out (period pen): its score, {home, away}']],
    sample: { seq: 860, period: '1', clock: 2832, at: 2832, team: null, score: [0, 0], data: {} },
  },
  {
    type: 'score_change',
    description: 'A goal; `event.team` is the side credited (for an own goal, the scorer plays for the other side) and `event.score` the new score.',
    fields: [
      ['scorer', 'string | null', 'Name of the player who scored'],
      ['minute', 'integer', 'Scoreboard minute (1-based; 45 and 90 for goals in stoppage time)'],
      ['offset', 'integer', 'Stoppage-time minutes: 2 for 45+2, else 0'],
      ['penalty', 'boolean', 'Scored from a penalty kick'],
      ['own_goal', 'boolean', 'Scored by a player of the other side'],
      ['header', 'boolean', 'Scored with the head (when the provider tells)'],
      ['set_piece', 'string | null', 'penalty, free_kick or corner when the shot came straight from that set piece, else null'],
    ],
    sample: {
      seq: 1289,
      period: '2',
      clock: 3725,
      at: 4757,
      team: 'home',
      score: [1, 0],
      data: { scorer: 'Player 10', minute: 63, offset: 0, penalty: false, own_goal: false, header: false, set_piece: null },
    },
  },
  {
    type: 'shot',
    description:
      'A shot at goal by `event.team`; `data.outcome` is goal, on_target (saved), off_target, blocked or woodwork. A goal is followed by a score_change.',
    fields: [
      ['outcome', 'string', 'goal, on_target, off_target, blocked or woodwork'],
      ['player', 'string | null', 'Name of the shooter'],
      ['x', 'number | null', 'Where the shot was taken, 0..1 along the pitch (null when unknown)'],
      ['y', 'number | null', 'Where the shot was taken, 0..1 across the pitch (null when unknown)'],
      ['end_x', 'number | null', 'Where the ball ended, 0..1 along the pitch'],
      ['end_y', 'number | null', 'Where the ball ended, 0..1 across the pitch'],
      ['header', 'boolean', 'Taken with the head'],
      ['penalty', 'boolean', 'A penalty kick (in play or in the shoot-out)'],
      [
        'set_piece',
        'string | null',
        'penalty, free_kick or corner when taken straight from that set piece (the taker shoots before the ball is played), else null',
      ],
      ['shootout', 'boolean', 'A kick of the penalty shoot-out (period pen): its goals decide final_score.penalties, not the score'],
    ],
    sample: {
      seq: 1044,
      period: '2',
      clock: 3127,
      at: 4159,
      team: 'home',
      score: [0, 0],
      data: {
        outcome: 'on_target',
        player: 'Player 9',
        x: 0.91,
        y: 0.47,
        end_x: 1,
        end_y: 0.52,
        header: false,
        penalty: false,
        set_piece: null,
        shootout: false,
      },
    },
  },
  {
    type: 'corner',
    description: 'A corner kick awarded to and taken by `event.team`.',
    fields: [
      ['player', 'string | null', 'Name of the player taking it'],
      ['retaken', 'boolean', 'The kick is retaken'],
    ],
    sample: { seq: 1017, period: '2', clock: 3080, at: 4112, team: 'home', score: [0, 0], data: { player: 'Player 6', retaken: false } },
  },
  {
    type: 'penalty_awarded',
    description:
      'A penalty kick for `event.team`, about to be taken; the shot that takes it follows (`data.penalty` true). "Penalty awarded: will it be scored?" resolves on that shot.',
    fields: [
      ['taker', 'string | null', 'Name of the player taking it'],
      ['retaken', 'boolean', 'The kick is retaken (the previous attempt did not count)'],
      ['x', 'number | null', 'The spot, 0..1 along the pitch'],
      ['y', 'number | null', 'The spot, 0..1 across the pitch'],
    ],
    sample: { seq: 1038, period: '2', clock: 3110, at: 4142, team: 'home', score: [0, 0], data: { taker: 'Player 9', retaken: false, x: 0.89, y: 0.5 } },
  },
  {
    type: 'throw_in',
    description: 'A throw-in taken by `event.team`.',
    fields: [
      ['player', 'string | null', 'Name of the player taking it'],
      ['retaken', 'boolean', 'The throw is retaken (a foul throw)'],
      ['x', 'number | null', 'Where, 0..1 along the pitch'],
      ['y', 'number | null', 'Where, 0..1 across the pitch (0 or 1: a touchline)'],
    ],
    sample: { seq: 1012, period: '2', clock: 3058, at: 4090, team: 'away', score: [0, 0], data: { player: 'Player 22', retaken: false, x: 0.42, y: 0 } },
  },
  {
    type: 'kick_off',
    description: 'A kick-off taken by `event.team`: the first of a period starts it, one after a goal restarts play.',
    fields: [
      ['player', 'string | null', 'Name of the player taking it'],
      ['after_goal', 'boolean', 'A goal was scored since the period\u2019s previous kick-off (false for its first, and for a kick-off taken again)'],
      ['retaken', 'boolean', 'This kick-off had to be taken again'],
    ],
    sample: { seq: 1291, period: '2', clock: 3781, at: 4813, team: 'away', score: [1, 0], data: { player: 'Player 19', after_goal: true, retaken: false } },
  },
  {
    type: 'goal_kick',
    description: 'A goal kick taken by `event.team` (the ball went out over its goal line off the other side).',
    fields: [
      ['player', 'string | null', 'Name of the player taking it'],
      ['retaken', 'boolean', 'The kick is retaken'],
    ],
    sample: { seq: 1052, period: '2', clock: 3152, at: 4184, team: 'away', score: [0, 0], data: { player: 'Player 25', retaken: false } },
  },
  {
    type: 'offside',
    description: 'A player of `event.team` was caught offside (the attack stops; the other side gets a free kick).',
    fields: [
      ['player', 'string | null', 'Name of the player caught offside, when the provider tells'],
      ['passer', 'string | null', 'Name of the player whose pass found him offside'],
      ['x', 'number | null', 'Where the pass started, 0..1 along the pitch'],
      ['y', 'number | null', 'Where the pass started, 0..1 across the pitch'],
    ],
    sample: { seq: 1061, period: '2', clock: 3190, at: 4222, team: 'home', score: [0, 0], data: { player: 'Player 11', passer: 'Player 8', x: 0.55, y: 0.4 } },
  },
  {
    type: 'hand_ball',
    description: 'A hand ball by a player of `event.team` (the side penalized).',
    fields: [
      ['player', 'string | null', 'Name of the player'],
      ['x', 'number | null', 'Where, 0..1 along the pitch'],
      ['y', 'number | null', 'Where, 0..1 across the pitch'],
    ],
    sample: { seq: 1070, period: '2', clock: 3233, at: 4265, team: 'away', score: [0, 0], data: { player: 'Player 23', x: 0.3, y: 0.62 } },
  },
  {
    type: 'ball_out',
    description: 'The ball left the pitch off a player of `event.team` (a throw-in, corner or goal kick follows).',
    fields: [
      ['player', 'string | null', 'Name of the player who put it out'],
      ['kind', 'string | null', 'clearance, head, cross, ... (lowercase, as the provider tells), or null'],
      ['x', 'number | null', 'Where the ball was played from, 0..1 along the pitch'],
      ['y', 'number | null', 'Where the ball was played from, 0..1 across the pitch'],
    ],
    sample: { seq: 1056, period: '2', clock: 3170, at: 4202, team: 'home', score: [0, 0], data: { player: 'Player 4', kind: 'clearance', x: 0.12, y: 0.8 } },
  },
  {
    type: 'duel',
    description: 'Two players contested the ball; `event.team` is the side that won it (null when the provider names no winner).',
    fields: [
      ['kind', 'string | null', 'aerial, ground, tackle or dribble'],
      ['winner', 'string | null', 'Name of the player who won it'],
      ['loser', 'string | null', 'Name of the player who lost it'],
      ['players', 'array of string', 'Names of the players involved'],
      ['foul', 'boolean', 'A foul was given in the duel'],
      ['advantage', 'boolean', 'The referee played advantage'],
      ['x', 'number | null', 'Where, 0..1 along the pitch'],
      ['y', 'number | null', 'Where, 0..1 across the pitch'],
    ],
    sample: {
      seq: 1047,
      period: '2',
      clock: 3134,
      at: 4166,
      team: 'away',
      score: [0, 0],
      data: { kind: 'aerial', winner: 'Player 24', loser: 'Player 9', players: ['Player 24', 'Player 9'], foul: false, advantage: false, x: 0.2, y: 0.52 },
    },
  },
  {
    type: 'free_kick',
    description: 'A free kick taken by `event.team`.',
    fields: [
      ['player', 'string | null', 'Name of the player taking it'],
      ['kind', 'string | null', 'direct or indirect, when the provider tells'],
      ['retaken', 'boolean', 'The kick is retaken'],
    ],
    sample: { seq: 498, period: '1', clock: 1541, at: 1541, team: 'away', score: [0, 0], data: { player: 'Player 20', kind: 'direct', retaken: false } },
  },
  {
    type: 'foul',
    description: 'A foul committed by `event.team` (the side penalized).',
    fields: [
      ['fouled_team', 'string', 'home or away: the side fouled'],
      ['fouled_player', 'string | null', 'Name of the player fouled'],
      ['x', 'number | null', 'Where, 0..1 along the pitch'],
      ['y', 'number | null', 'Where, 0..1 across the pitch'],
    ],
    sample: {
      seq: 496,
      period: '1',
      clock: 1538,
      at: 1538,
      team: 'home',
      score: [0, 0],
      data: { fouled_team: 'away', fouled_player: 'Player 23', x: 0.34, y: 0.61 },
    },
  },
  {
    type: 'card',
    description: 'A card shown to a player of `event.team`; `data.color` is yellow or red (a second yellow is red).',
    fields: [
      ['color', 'string', 'yellow or red'],
      ['player', 'string | null', 'Name of the player booked'],
    ],
    sample: { seq: 621, period: '1', clock: 1969, at: 1969, team: 'home', score: [0, 0], data: { color: 'yellow', player: 'Player 5' } },
  },
  {
    type: 'substitution',
    description: 'A substitution by `event.team`.',
    fields: [
      ['player_in', 'string | null', 'Name of the player coming on'],
      ['player_out', 'string | null', 'Name of the player going off'],
    ],
    sample: { seq: 1150, period: '2', clock: 3362, at: 4394, team: 'away', score: [0, 0], data: { player_in: 'Player 26', player_out: 'Player 19' } },
  },
  {
    type: 'possession_change',
    description: '`event.team` won the ball.',
    fields: [
      ['player', 'string | null', 'Name of the player who won it'],
      ['via', 'string | null', 'How: interception, theft, saved, ... (lowercase, as the provider tells), or null'],
      ['x', 'number | null', 'Where, 0..1 along the pitch'],
      ['y', 'number | null', 'Where, 0..1 across the pitch'],
    ],
    sample: {
      seq: 1046,
      period: '2',
      clock: 3131,
      at: 4163,
      team: 'away',
      score: [0, 0],
      data: { player: 'Player 25', via: 'interception', x: 0.18, y: 0.55 },
    },
  },
  {
    type: 'pass',
    description: 'A completed or attempted pass by `event.team`.',
    fields: [
      ['player', 'string | null', 'Name of the passer'],
      ['to', 'string | null', 'Name of the intended receiver'],
      ['x', 'number | null', 'Start, 0..1 along the pitch'],
      ['y', 'number | null', 'Start, 0..1 across the pitch'],
      ['end_x', 'number | null', 'End, 0..1 along the pitch'],
      ['end_y', 'number | null', 'End, 0..1 across the pitch'],
      ['kind', 'string | null', 'head, cross, goal kick, ... (lowercase, as the provider tells), or null for an ordinary pass'],
    ],
    sample: {
      seq: 1043,
      period: '2',
      clock: 3124,
      at: 4156,
      team: 'home',
      score: [0, 0],
      data: { player: 'Player 7', to: 'Player 9', x: 0.78, y: 0.33, end_x: 0.88, end_y: 0.45, kind: null },
    },
  },
];

const AMERICAN_FOOTBALL: TypeDraft[] = [
  {
    type: 'match_status',
    description: 'The game status changed; `data.status` is live, break, ended or closed.',
    fields: STATUS_FIELDS,
    sample: { seq: 212, period: '2', clock: 1800, at: 5520, team: null, score: [17, 10], data: { status: 'break', after_period: '2' } },
  },
  {
    type: 'period_start',
    description: `${PERIOD_START} Periods: 1 to 4 (quarters) and ot.`,
    fields: [],
    sample: { seq: 214, period: '3', clock: 1800, at: 6720, team: null, score: [17, 10], data: {} },
  },
  {
    type: 'period_end',
    description: PERIOD_END,
    fields: [],
    sample: { seq: 211, period: '2', clock: 1800, at: 5520, team: null, score: [17, 10], data: {} },
  },
  {
    type: 'play',
    description: 'One play from scrimmage or a kick; `event.team` is the side in possession.',
    fields: [
      ['play_type', 'string', 'run, pass, sack, punt, field_goal, extra_point, two_point, kickoff, kneel or spike'],
      ['yards', 'integer', 'Net yards gained (negative for a loss)'],
      ['down', 'integer | null', 'Down at the snap, 1 to 4 (null on kicks)'],
      ['distance', 'integer | null', 'Yards to go for a first down at the snap'],
      ['yard_line', 'integer', 'Yards from the offense\u2019s own goal line at the snap, 1 to 99'],
      ['player', 'string | null', 'Name of the ball carrier or passer'],
      ['first_down', 'boolean', 'The play gained a first down'],
    ],
    sample: {
      seq: 231,
      period: '3',
      clock: 1962,
      at: 7210,
      team: 'home',
      score: [17, 10],
      data: { play_type: 'pass', yards: 12, down: 3, distance: 7, yard_line: 38, player: 'Player 15', first_down: true },
    },
  },
  {
    type: 'drive_end',
    description: 'A drive by `event.team` ended; `data.result` says how.',
    fields: [
      ['result', 'string', 'touchdown, field_goal, punt, turnover, downs, end_of_half or safety'],
      ['plays', 'integer', 'Plays in the drive'],
      ['yards', 'integer', 'Net yards of the drive'],
      ['duration_seconds', 'integer', 'Game clock the drive used'],
    ],
    sample: {
      seq: 247,
      period: '3',
      clock: 2172,
      at: 7860,
      team: 'home',
      score: [23, 10],
      data: { result: 'touchdown', plays: 9, yards: 75, duration_seconds: 372 },
    },
  },
  {
    type: 'score_change',
    description: 'Points scored by `event.team`; `event.score` is the new score.',
    fields: [
      ['points', 'integer', '6, 3, 2 or 1'],
      ['scoring_type', 'string', 'touchdown, field_goal, extra_point, two_point or safety'],
      ['player', 'string | null', 'Name of the scorer or kicker'],
    ],
    sample: {
      seq: 246,
      period: '3',
      clock: 2172,
      at: 7855,
      team: 'home',
      score: [23, 10],
      data: { points: 6, scoring_type: 'touchdown', player: 'Player 87' },
    },
  },
  {
    type: 'possession_change',
    description: '`event.team` took possession.',
    fields: [
      ['cause', 'string', 'kickoff, punt, interception, fumble, downs, missed_field_goal or safety'],
      ['yard_line', 'integer | null', 'Where the new offense starts, yards from its own goal line'],
    ],
    sample: { seq: 249, period: '3', clock: 2172, at: 8010, team: 'away', score: [24, 10], data: { cause: 'kickoff', yard_line: 25 } },
  },
  {
    type: 'penalty',
    description: 'A flag against `event.team`.',
    fields: [
      ['penalty_type', 'string', 'holding, false_start, pass_interference, offside, ... (snake_case)'],
      ['yards', 'integer', 'Yards assessed'],
      ['player', 'string | null', 'Name of the player penalized'],
      ['accepted', 'boolean', 'Accepted (false: declined or offsetting)'],
    ],
    sample: {
      seq: 238,
      period: '3',
      clock: 2051,
      at: 7480,
      team: 'away',
      score: [17, 10],
      data: { penalty_type: 'holding', yards: 10, player: 'Player 54', accepted: true },
    },
  },
];

const BASKETBALL: TypeDraft[] = [
  {
    type: 'match_status',
    description: 'The game status changed; `data.status` is live, break, ended or closed.',
    fields: STATUS_FIELDS,
    sample: { seq: 201, period: '2', clock: 1440, at: 4380, team: null, score: [58, 54], data: { status: 'break', after_period: '2' } },
  },
  {
    type: 'period_start',
    description: `${PERIOD_START} Periods: 1 to 4 (quarters) and ot.`,
    fields: [],
    sample: { seq: 203, period: '3', clock: 1440, at: 5280, team: null, score: [58, 54], data: {} },
  },
  {
    type: 'period_end',
    description: PERIOD_END,
    fields: [],
    sample: { seq: 200, period: '2', clock: 1440, at: 4380, team: null, score: [58, 54], data: {} },
  },
  {
    type: 'shot',
    description: 'A field goal or free throw attempt by `event.team`; a made one is followed by a score_change.',
    fields: [
      ['player', 'string | null', 'Name of the shooter'],
      ['points', 'integer', 'Value of the attempt: 2, 3, or 1 for a free throw'],
      ['made', 'boolean', 'The shot went in'],
      ['shot_type', 'string', 'jump_shot, layup, dunk, hook_shot or free_throw'],
    ],
    sample: {
      seq: 262,
      period: '3',
      clock: 1711,
      at: 5910,
      team: 'home',
      score: [64, 60],
      data: { player: 'Player 0', points: 3, made: true, shot_type: 'jump_shot' },
    },
  },
  {
    type: 'score_change',
    description: 'Points scored by `event.team`; `event.score` is the new score.',
    fields: [
      ['points', 'integer', '1, 2 or 3'],
      ['player', 'string | null', 'Name of the scorer'],
    ],
    sample: { seq: 263, period: '3', clock: 1711, at: 5910, team: 'home', score: [64, 60], data: { points: 3, player: 'Player 0' } },
  },
  {
    type: 'foul',
    description: 'A foul committed by `event.team`.',
    fields: [
      ['player', 'string | null', 'Name of the player who fouled'],
      ['foul_type', 'string', 'personal, shooting, offensive, loose_ball, technical or flagrant'],
      ['free_throws', 'integer', 'Free throws awarded (0 when none)'],
    ],
    sample: {
      seq: 270,
      period: '3',
      clock: 1790,
      at: 6060,
      team: 'away',
      score: [64, 60],
      data: { player: 'Player 15', foul_type: 'shooting', free_throws: 2 },
    },
  },
  {
    type: 'timeout',
    description: 'A timeout, called by `event.team` (null for an official timeout).',
    fields: [
      ['timeout_type', 'string', 'full or official'],
      ['remaining', 'integer | null', 'Timeouts the calling team has left'],
    ],
    sample: { seq: 264, period: '3', clock: 1712, at: 5930, team: 'away', score: [64, 60], data: { timeout_type: 'full', remaining: 4 } },
  },
];

const BASEBALL_HALF: TypeDraft['fields'][number] = ['half', 'string', 'top (the away side bats) or bottom (the home side bats)'];

const BASEBALL: TypeDraft[] = [
  {
    type: 'match_status',
    description: 'The game status changed; `data.status` is live, break, ended or closed. Baseball has no game clock: `clock_seconds` is null.',
    fields: STATUS_FIELDS,
    sample: { seq: 1, period: '1', clock: null, at: 0, team: null, score: [0, 0], data: { status: 'live' } },
  },
  {
    type: 'period_start',
    description: `${PERIOD_START} Periods are innings: 1 to 9 and extra.`,
    fields: [],
    sample: { seq: 150, period: '6', clock: null, at: 6300, team: null, score: [2, 3], data: {} },
  },
  {
    type: 'period_end',
    description: PERIOD_END,
    fields: [],
    sample: { seq: 149, period: '5', clock: null, at: 6240, team: null, score: [2, 3], data: {} },
  },
  {
    type: 'plate_appearance',
    description: 'A completed plate appearance; `event.team` is the batting side.',
    fields: [
      [
        'result',
        'string',
        'single, double, triple, home_run, walk, hit_by_pitch, strikeout, ground_out, fly_out, line_out, pop_out, sacrifice, fielders_choice, double_play or error',
      ],
      ['batter', 'string | null', 'Name of the batter'],
      ['pitcher', 'string | null', 'Name of the pitcher'],
      ['rbi', 'integer', 'Runs batted in'],
      ['outs', 'integer', 'Outs in the half inning after the play, 0 to 3'],
      BASEBALL_HALF,
    ],
    sample: {
      seq: 157,
      period: '6',
      clock: null,
      at: 6540,
      team: 'home',
      score: [4, 3],
      data: { result: 'home_run', batter: 'Player 99', pitcher: 'Player 18', rbi: 2, outs: 1, half: 'bottom' },
    },
  },
  {
    type: 'score_change',
    description: 'Runs scored by `event.team`; `event.score` is the new score.',
    fields: [
      ['runs', 'integer', 'Runs scored on the play'],
      ['batter', 'string | null', 'Name of the batter'],
      ['scoring_play', 'string', 'The plate appearance result or other play that scored (home_run, single, sacrifice, wild_pitch, ...)'],
      BASEBALL_HALF,
    ],
    sample: {
      seq: 158,
      period: '6',
      clock: null,
      at: 6540,
      team: 'home',
      score: [4, 3],
      data: { runs: 2, batter: 'Player 99', scoring_play: 'home_run', half: 'bottom' },
    },
  },
  {
    type: 'pitching_change',
    description: 'A new pitcher for `event.team` (the fielding side).',
    fields: [['pitcher_in', 'string | null', 'Name of the pitcher coming in'], ['pitcher_out', 'string | null', 'Name of the pitcher leaving'], BASEBALL_HALF],
    sample: {
      seq: 160,
      period: '7',
      clock: null,
      at: 6900,
      team: 'home',
      score: [4, 3],
      data: { pitcher_in: 'Player 48', pitcher_out: 'Player 45', half: 'top' },
    },
  },
];

const ICE_HOCKEY: TypeDraft[] = [
  {
    type: 'match_status',
    description: 'The game status changed; `data.status` is live, break, ended or closed.',
    fields: STATUS_FIELDS,
    sample: { seq: 140, period: '1', clock: 1200, at: 2280, team: null, score: [1, 1], data: { status: 'break', after_period: '1' } },
  },
  {
    type: 'period_start',
    description: `${PERIOD_START} Periods: 1 to 3, ot and so (the shoot-out).`,
    fields: [],
    sample: { seq: 142, period: '2', clock: 1200, at: 3360, team: null, score: [1, 1], data: {} },
  },
  {
    type: 'period_end',
    description: PERIOD_END,
    fields: [],
    sample: { seq: 139, period: '1', clock: 1200, at: 2280, team: null, score: [1, 1], data: {} },
  },
  {
    type: 'shot',
    description: 'A shot by `event.team`; a goal is followed by a score_change.',
    fields: [
      ['player', 'string | null', 'Name of the shooter'],
      ['outcome', 'string', 'goal, saved, missed or blocked'],
      ['shot_type', 'string | null', 'wrist, slap, snap, backhand, tip_in or wrap_around'],
      ['strength', 'string', 'even, power_play or short_handed'],
    ],
    sample: {
      seq: 171,
      period: '2',
      clock: 1754,
      at: 4010,
      team: 'home',
      score: [1, 1],
      data: { player: 'Player 97', outcome: 'saved', shot_type: 'wrist', strength: 'power_play' },
    },
  },
  {
    type: 'score_change',
    description: 'A goal by `event.team`; `event.score` is the new score.',
    fields: [
      ['scorer', 'string | null', 'Name of the scorer'],
      ['assists', 'array of string', 'Names of the assisting players (0 to 2)'],
      ['strength', 'string', 'even, power_play or short_handed'],
      ['empty_net', 'boolean', 'Scored into an empty net'],
    ],
    sample: {
      seq: 173,
      period: '2',
      clock: 1791,
      at: 4060,
      team: 'home',
      score: [2, 1],
      data: { scorer: 'Player 29', assists: ['Player 97', 'Player 2'], strength: 'power_play', empty_net: false },
    },
  },
  {
    type: 'penalty',
    description: 'A penalty against a player of `event.team`.',
    fields: [
      ['player', 'string | null', 'Name of the player penalized'],
      ['infraction', 'string', 'tripping, hooking, slashing, holding, roughing, ... (snake_case)'],
      ['minutes', 'integer', 'Penalty minutes: 2, 4, 5 or 10'],
    ],
    sample: { seq: 168, period: '2', clock: 1650, at: 3880, team: 'away', score: [1, 1], data: { player: 'Player 13', infraction: 'tripping', minutes: 2 } },
  },
];

const DRAFTS: Record<Sport, TypeDraft[]> = {
  football: FOOTBALL,
  american_football: AMERICAN_FOOTBALL,
  basketball: BASKETBALL,
  baseball: BASEBALL,
  ice_hockey: ICE_HOCKEY,
};

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object') {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}

function build(sport: Sport, draft: TypeDraft): EventTypeInfo {
  const s = draft.sample;
  return {
    type: draft.type,
    description: draft.description,
    data_fields: draft.fields.map(([name, type, description]) => ({ name, type, description })),
    sample: {
      provider_event_id: `sample:${sport}:${draft.type}`,
      seq: s.seq,
      operation: 'create',
      type: draft.type,
      period: s.period,
      clock_seconds: s.clock,
      occurred_at: new Date(SAMPLE_KICKOFF + s.at * 1000).toISOString(),
      team: s.team,
      score: { home: s.score[0], away: s.score[1] },
      final: true,
      data: s.data,
    },
  };
}

function buildCatalog(sport: Sport): readonly EventTypeInfo[] {
  const types = DRAFTS[sport].map((d) => build(sport, d));
  const missing = COMMON_EVENT_TYPES.filter((t) => !types.some((e) => e.type === t));
  if (missing.length) throw new Error(`the ${sport} catalog lacks the common event types ${missing.join(', ')}`);
  return deepFreeze(types);
}

const CATALOGS: Record<Sport, readonly EventTypeInfo[]> = {
  football: buildCatalog('football'),
  american_football: buildCatalog('american_football'),
  basketball: buildCatalog('basketball'),
  baseball: buildCatalog('baseball'),
  ice_hockey: buildCatalog('ice_hockey'),
};

/** The event types of a sport (frozen: copy before changing). */
export function sportCatalog(sport: Sport): readonly EventTypeInfo[] {
  return CATALOGS[sport];
}

/** Whether `type` is a canonical event type of `sport` (false for a sport the service does not know). */
export function isKnownEventType(sport: Sport | string, type: string): boolean {
  return (CATALOGS as Partial<Record<string, readonly EventTypeInfo[]>>)[sport]?.some((e) => e.type === type) ?? false;
}

/** A copy of the sample event of a type, or undefined when the sport has no such type. */
export function sampleEvent(sport: Sport, type: string): FeedEvent | undefined {
  const info = CATALOGS[sport].find((e) => e.type === type);
  return info ? structuredClone(info.sample) : undefined;
}

/** A neutral event of any type (for types the catalog does not describe): start of play, no team, no data. */
export function genericSampleEvent(sport: Sport, type: string): FeedEvent {
  return {
    provider_event_id: `sample:${sport}:${type}`,
    seq: 1,
    operation: 'create',
    type,
    period: SPORT_PERIODS[sport][0] ?? null,
    clock_seconds: sport === 'baseball' ? null : 0,
    occurred_at: new Date(SAMPLE_KICKOFF).toISOString(),
    team: null,
    score: { home: 0, away: 0 },
    final: true,
    data: {},
  };
}

const SAMPLE_TEAMS: Record<string, [home: string, away: string]> = {
  wc: ['Brazil', 'Serbia'],
  mls: ['Seattle Sounders', 'Portland Timbers'],
  nfl: ['Kansas City Chiefs', 'Buffalo Bills'],
  nba: ['Boston Celtics', 'Denver Nuggets'],
  mlb: ['New York Yankees', 'Los Angeles Dodgers'],
  nhl: ['Edmonton Oilers', 'Florida Panthers'],
};

/** Where the sample match stands (the moment of the sport's `shot` or first in-play sample). */
const SAMPLE_MOMENT: Record<Sport, Pick<MatchContext, 'period' | 'clock_seconds' | 'score'>> = {
  football: { period: '2', clock_seconds: 3127, score: { home: 0, away: 0 } },
  american_football: { period: '3', clock_seconds: 1962, score: { home: 17, away: 10 } },
  basketball: { period: '3', clock_seconds: 1711, score: { home: 64, away: 60 } },
  baseball: { period: '6', clock_seconds: null, score: { home: 4, away: 3 } },
  ice_hockey: { period: '2', clock_seconds: 1754, score: { home: 1, away: 1 } },
};

/** The sample match context of a league (`match` in expressions and templates): two plausible teams, live. */
export function sampleMatch(league: string, sport: Sport): MatchContext {
  const [home_team, away_team] = SAMPLE_TEAMS[league] ?? ['Home Team', 'Away Team'];
  const moment = SAMPLE_MOMENT[sport];
  return {
    id: '00000000-0000-4000-8000-000000000000',
    league,
    home_team,
    away_team,
    status: 'live',
    period: moment.period,
    clock_seconds: moment.clock_seconds,
    score: { ...moment.score },
  };
}

/** The match context as of an event: its period, clock and score are the event's. */
export function matchAtEvent(match: MatchContext, event: FeedEvent): MatchContext {
  return { ...match, period: event.period, clock_seconds: event.clock_seconds, score: { ...event.score } };
}
