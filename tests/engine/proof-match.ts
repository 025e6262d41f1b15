/**
 * The recorded match of the engine proofs (Metrica sample game 1), three
 * realistic definitions, and what the data says each should give: computed
 * from the events independently of the engine.
 */
import { and, asc, eq } from 'drizzle-orm';
import type { FeedEvent } from '../../src/domain/sports/events.js';
import { SUPPORTED_LEAGUES } from '../../src/domain/sports/league-registry.js';
import { importMetricaCsv } from '../../src/engine/feed/importers/metrica.js';
import { questionIssuanceDenials } from '../../src/modules/denials/denials.table.js';
import { questionIssuances } from '../../src/modules/issuances/issuances.table.js';
import type { MatchRow } from '../../src/modules/matches/matches.table.js';
import { createInLeague, nextGoalQuestion } from '../helpers/definitions.js';
import { createMatch } from '../helpers/factories.js';
import { createAdmin, startTestApp, type TestApp, type TestUser } from '../helpers/test-app.js';
import { readFixture } from './feed/helpers.js';

export function loadProofMatch(kickoff = new Date(Date.now() - 3_600_000)) {
  return importMetricaCsv(readFixture('feeds/metrica/sample-game-1-events.csv'), { matchKey: 'g1', kickoff });
}

/**
 * The start of a proof: an app with the proof definitions (created by an
 * admin) and the recorded match (`loadProofMatch`).
 */
export async function startProofApp(): Promise<{ app: TestApp; recorded: ReturnType<typeof loadProofMatch>; defs: ProofDefinitions }> {
  const app = await startTestApp();
  const admin = await createAdmin(app);
  const recorded = loadProofMatch();
  return { app, recorded, defs: await createProofDefinitions(app, admin) };
}

/** The recorded match kicking off now with its feed at `feedUrl` (a worker dispatches its listener by itself), no caps or quotas in the way. */
export function createProofMatch(app: TestApp, recorded: { homeTeam: string; awayTeam: string }, feedUrl: string): Promise<MatchRow> {
  return createMatch(app, {
    homeTeam: recorded.homeTeam,
    awayTeam: recorded.awayTeam,
    scheduled: new Date(),
    feedUrl,
    questionMaxCount: 50,
    questionPeriodDistribution: {},
  });
}

export interface ProofDefinitions {
  nextGoal: string;
  cornerShot: string;
  card: string;
  kickOffShot: string;
}

/** Next goal (after each goal), shot within 5 minutes of a corner, a card before half-time (pivotal). */
export async function createProofDefinitions(app: TestApp, admin: TestUser, league = 'wc'): Promise<ProofDefinitions> {
  const post = async (path: string, body: unknown): Promise<string> => (await createInLeague(app, admin, path, league, body)).id;
  const goals = await post('/api/question-groups', { slug: 'goals', name: 'Goals', max_open_questions: 1, min_interval_seconds: 0 });
  const corners = await post('/api/question-groups', { slug: 'corners', name: 'Corners', max_open_questions: 1, min_interval_seconds: 0 });
  const restarts = await post('/api/question-groups', { slug: 'restarts', name: 'Restarts', max_open_questions: 1, min_interval_seconds: 0 });
  const yesNo = [
    { identifier: 'yes', label_template: 'Yes' },
    { identifier: 'no', label_template: 'No' },
  ];
  return {
    nextGoal: await post('/api/question-definitions', {
      name: 'Next goal',
      group_id: goals,
      trigger: { event_type: 'score_change' },
      ...nextGoalQuestion(),
      resolution: {
        rules: [
          { event_type: 'score_change', correct_choice: 'event.team' },
          { event_type: 'match_status', condition: 'event.data.status = "ended"', correct_choice: '"none"' },
        ],
      },
    }),
    cornerShot: await post('/api/question-definitions', {
      name: 'Shot after a corner',
      group_id: corners,
      trigger: { event_type: 'corner' },
      question_text_template: 'Corner for {% if event.team == "home" %}{{ match.home_team }}{% else %}{{ match.away_team }}{% endif %}. Shot within 5 minutes?',
      choices: yesNo,
      issuance_state_extract: { team: 'event.team' },
      resolution: {
        rules: [{ event_type: 'shot', condition: 'event.team = issuance.state.team', correct_choice: '"yes"' }],
        timeout: { after_seconds: 300, correct_choice: 'no' },
      },
    }),
    card: await post('/api/question-definitions', {
      name: 'Card before half-time',
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
    }),
    // A kick-off event type of the data's own vocabulary: the restart after a goal.
    kickOffShot: await post('/api/question-definitions', {
      name: 'Shot after the restart',
      group_id: restarts,
      trigger: { event_type: 'kick_off', condition: 'event.data.after_goal' },
      question_text_template:
        '{% if event.team == "home" %}{{ match.home_team }}{% else %}{{ match.away_team }}{% endif %} restart after the goal. Do they take the next shot?',
      choices: yesNo,
      issuance_state_extract: { team: 'event.team' },
      resolution: { rules: [{ event_type: 'shot', correct_choice: 'event.team = issuance.state.team ? "yes" : "no"' }] },
    }),
  };
}

/** The fairness rule of the proof's league (wc): a question decided sooner than this after it was asked (feed time) is voided. */
export const PROOF_MIN_ANSWER_SECONDS = SUPPORTED_LEAGUES.find((l) => l.slug === 'wc')!.defaults.minAnswerSeconds;

const feedSecondsBetween = (a: FeedEvent, b: FeedEvent) => (Date.parse(b.occurred_at) - Date.parse(a.occurred_at)) / 1000;

/**
 * What the data says the proof definitions give (the corner lane is one question wide); `null` for a question
 * decided sooner than the minimum answer time after it was asked (the fairness rule voids it).
 */
export function expectedFromData(events: FeedEvent[]) {
  const goals = events.filter((e) => e.type === 'score_change');
  const nextGoal = goals.map((g, i) => ({ trigger: g.provider_event_id, answer: goals[i + 1]?.team ?? 'none' }));
  const corners: { trigger: string; answer: 'yes' | 'no' | null }[] = [];
  const cornerDenials: string[] = [];
  // An event resolves open questions before it triggers new ones, so a corner finds the lane
  // free when the previous corner question was decided by an earlier event or by this one.
  let busyUntilSeq = -1;
  for (const corner of events.filter((e) => e.type === 'corner')) {
    if (corner.seq < busyUntilSeq) {
      cornerDenials.push(corner.provider_event_id);
      continue;
    }
    let answer: 'yes' | 'no' | null = 'no';
    let decidedAt = events[events.length - 1]!.seq;
    for (const e of events) {
      if (e.seq <= corner.seq) continue;
      if (e.clock_seconds !== null && e.clock_seconds > corner.clock_seconds! + 300) {
        decidedAt = e.seq;
        break;
      }
      if (e.type === 'shot' && e.team === corner.team) {
        answer = feedSecondsBetween(corner, e) < PROOF_MIN_ANSWER_SECONDS ? null : 'yes';
        decidedAt = e.seq;
        break;
      }
    }
    corners.push({ trigger: corner.provider_event_id, answer });
    busyUntilSeq = decidedAt;
  }
  const firstHalfCard = events.find((e) => e.type === 'card' && e.period === '1');
  // Each restart after a goal asks whether the team kicking off takes the next shot (the lane is free again by the next goal).
  const restarts = events.flatMap((e, i) => {
    if (e.type !== 'kick_off' || e.data.after_goal !== true) return [];
    const shot = events.slice(i + 1).find((x) => x.type === 'shot');
    return shot ? [{ trigger: e.provider_event_id, answer: shot.team === e.team ? 'yes' : 'no' }] : [];
  });
  return { nextGoal, corners, cornerDenials, card: { answer: firstHalfCard ? 'yes' : 'no', decidedBy: firstHalfCard?.provider_event_id }, restarts };
}

/** What the engine produced for a match, in the same shape. */
export async function producedForMatch(app: TestApp, matchId: string, defs: ProofDefinitions) {
  const db = app.services.database.db;
  const of = (definitionId: string) =>
    db
      .select()
      .from(questionIssuances)
      .where(and(eq(questionIssuances.matchId, matchId), eq(questionIssuances.definitionId, definitionId)))
      .orderBy(asc(questionIssuances.triggerSeq));
  const denials = await db.select().from(questionIssuanceDenials).where(eq(questionIssuanceDenials.matchId, matchId));
  return {
    nextGoal: (await of(defs.nextGoal)).map((r) => ({ trigger: r.triggerEventId, answer: r.correctAnswerIdentifier, status: r.status, text: r.questionText })),
    corners: (await of(defs.cornerShot)).map((r) => ({ trigger: r.triggerEventId, answer: r.correctAnswerIdentifier })),
    cornerStatuses: (await of(defs.cornerShot)).map((r) => r.status),
    card: (await of(defs.card)).map((r) => ({
      answer: r.correctAnswerIdentifier,
      decidedBy: r.resolutionEventId,
      pivotal: r.isPivotalMoment,
      number: r.questionNumber,
    })),
    kickOffs: (await of(defs.kickOffShot)).map((r) => ({ answer: r.correctAnswerIdentifier, status: r.status })),
    denials: denials.map((d) => ({ definitionId: d.definitionId, trigger: d.triggerEventId, step: d.failedStep })),
  };
}

/**
 * What the raw Metrica CSV says the restart question gives, read from its rows
 * without the importer: every KICK OFF with a goal (a SHOT or BALL OUT whose
 * subtype has GOAL) since the previous KICK OFF of its period, answered by
 * whether the kicking-off team takes the next SHOT. A kick-off taken again
 * (`KICK OFF-RETAKEN`, then `KICK OFF`) follows no goal.
 */
export function restartsFromCsv(csv: string): ('yes' | 'no')[] {
  const rows = csv
    .trim()
    .split('\n')
    .slice(1)
    .map((line) => line.split(','));
  const answers: ('yes' | 'no')[] = [];
  let goals = 0;
  let period = '';
  rows.forEach(([team, type, subtype, p], i) => {
    if (p !== period) [period, goals] = [p!, 0];
    const tokens = subtype!.split('-');
    if ((type === 'SHOT' || type === 'BALL OUT') && tokens.includes('GOAL')) goals++;
    if (type !== 'SET PIECE' || !tokens.includes('KICK OFF')) return;
    const afterGoal = goals > 0;
    goals = 0;
    if (!afterGoal) return;
    const shot = rows.slice(i + 1).find((r) => r[1] === 'SHOT');
    if (shot) answers.push(shot[0] === team ? 'yes' : 'no');
  });
  return answers;
}
