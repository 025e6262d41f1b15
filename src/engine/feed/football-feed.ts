/**
 * Shared bookkeeping for normalized football feeds. The Metrica and
 * openfootball importers and the synthetic generator all emit the same
 * envelope (stable ids, seq from 1, running score, occurred_at from a
 * kick-off), so it lives here once and their outputs stay comparable; the
 * summary is what tests and the demo check a feed against.
 */
import type { FeedEvent, TeamSide } from '../../domain/sports/events.js';

/** Football period keys in playing order (mirrors SPORT_PERIODS.football in the league registry). */
export const FOOTBALL_PERIODS = ['1', '2', 'et1', 'et2', 'pen'] as const;
export type FootballPeriod = (typeof FOOTBALL_PERIODS)[number];

export interface Score {
  home: number;
  away: number;
}

/** What `match_status closed` carries in `data.final_score`. */
export interface FinalScore extends Score {
  penalties: Score | null;
  winner: TeamSide | null;
}

/** Regulation minute at which each period starts, and its nominal length in minutes. */
const PERIOD_CLOCK: Record<Exclude<FootballPeriod, 'pen'>, { base: number; length: number }> = {
  '1': { base: 0, length: 45 },
  '2': { base: 45, length: 45 },
  et1: { base: 90, length: 15 },
  et2: { base: 105, length: 15 },
};

export const otherSide = (side: TeamSide): TeamSide => (side === 'home' ? 'away' : 'home');

/** Period key of the n-th period (1-based), as providers number them. */
export function footballPeriodKey(n: number): FootballPeriod {
  const key = FOOTBALL_PERIODS[n - 1];
  if (!Number.isInteger(n) || key === undefined) throw new Error(`football period number ${n} is outside 1..${FOOTBALL_PERIODS.length}`);
  return key;
}

/** Regulation clock (seconds) at which a period starts: 0, 2700, 5400, 6300; the shoot-out sits at 7200. */
export function periodBaseClockSeconds(period: FootballPeriod): number {
  return period === 'pen' ? 120 * 60 : PERIOD_CLOCK[period].base * 60;
}

/**
 * The minute as a scoreboard shows it (1-based, "45+2" -> minute 45, offset 2)
 * for a moment `elapsedSeconds` into a period.
 */
export function scoreboardMinute(period: FootballPeriod, elapsedSeconds: number): { minute: number; offset: number } {
  if (period === 'pen') return { minute: 120, offset: 0 };
  const { base, length } = PERIOD_CLOCK[period];
  const m = Math.floor(Math.max(0, elapsedSeconds) / 60) + 1;
  return m > length ? { minute: base + length, offset: m - length } : { minute: base + m, offset: 0 };
}

export interface FeedDraft {
  /** Appended to the builder's prefix to form provider_event_id; unique per feed. */
  id: string;
  type: string;
  period: string | null;
  /** Wall-clock offset from kick-off, in seconds (fractions kept to the millisecond). */
  atSeconds: number;
  /** Match clock in seconds (whole seconds are kept). */
  clockSeconds: number | null;
  team: TeamSide | null;
  data?: Record<string, unknown>;
}

/** Accumulates FeedEvents: assigns ids, seq, occurred_at and the running score. */
export class FootballFeedBuilder {
  readonly events: FeedEvent[] = [];
  private readonly score: Score = { home: 0, away: 0 };
  private readonly ids = new Set<string>();

  constructor(
    private readonly idPrefix: string,
    private readonly kickoff: Date,
  ) {
    if (Number.isNaN(kickoff.getTime())) throw new Error('kickoff is not a valid date');
  }

  get currentScore(): Score {
    return { ...this.score };
  }

  add(draft: FeedDraft): FeedEvent {
    const id = `${this.idPrefix}:${draft.id}`;
    if (this.ids.has(id)) throw new Error(`duplicate provider_event_id ${id}`);
    this.ids.add(id);
    const event: FeedEvent = {
      provider_event_id: id,
      seq: this.events.length + 1,
      operation: 'create',
      type: draft.type,
      period: draft.period,
      clock_seconds: draft.clockSeconds === null ? null : Math.max(0, Math.floor(draft.clockSeconds)),
      occurred_at: new Date(this.kickoff.getTime() + Math.round(draft.atSeconds * 1000)).toISOString(),
      team: draft.team,
      score: { ...this.score },
      final: true,
      data: draft.data ?? {},
    };
    this.events.push(event);
    return event;
  }

  /** A goal for `draft.team`: the score moves first, so the score_change carries the new score. */
  addGoal(draft: Omit<FeedDraft, 'type' | 'team'> & { team: TeamSide }): FeedEvent {
    this.score[draft.team] += 1;
    return this.add({ ...draft, type: 'score_change' });
  }

  status(id: string, status: 'live' | 'break' | 'ended' | 'closed', at: Omit<FeedDraft, 'id' | 'type' | 'team'>): FeedEvent {
    return this.add({ ...at, id, type: 'match_status', team: null, data: { status, ...at.data } });
  }

  /** `match_status closed` with the final score (penalties decide the winner when the score is level). */
  close(at: Omit<FeedDraft, 'id' | 'type' | 'team' | 'data'>, penalties: Score | null = null): FeedEvent {
    return this.status('status:closed', 'closed', { ...at, data: { final_score: finalScore(this.score, penalties) } });
  }
}

export function finalScore(score: Score, penalties: Score | null): FinalScore {
  const decider = score.home !== score.away ? score : penalties;
  const winner: TeamSide | null = !decider || decider.home === decider.away ? null : decider.home > decider.away ? 'home' : 'away';
  return { home: score.home, away: score.away, penalties: penalties ? { ...penalties } : null, winner };
}

export interface GoalSummary {
  team: TeamSide | null;
  scorer: string | null;
  minute: number | null;
  offset: number;
  penalty: boolean;
  own_goal: boolean;
  period: string | null;
  clock_seconds: number | null;
  occurred_at: string;
}

export interface FeedSummary {
  total: number;
  byType: Record<string, number>;
  /** From `closed`'s data.final_score when present, else the last event's score. */
  finalScore: Score;
  penalties: Score | null;
  goals: GoalSummary[];
  cards: Array<{ team: TeamSide | null; color: string; player: string | null; period: string | null }>;
  shotsByOutcome: Record<string, number>;
  /** Periods in the order their period_start appeared. */
  periods: string[];
  statuses: string[];
}

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

function readScore(v: unknown): Score | null {
  if (typeof v !== 'object' || v === null) return null;
  const { home, away } = v as Record<string, unknown>;
  return typeof home === 'number' && typeof away === 'number' ? { home, away } : null;
}

/** Counts and key facts of a feed; used by tests, the CLI and the demo to check a feed at a glance. */
export function summarizeFeed(events: readonly FeedEvent[]): FeedSummary {
  const byType: Record<string, number> = {};
  const shotsByOutcome: Record<string, number> = {};
  const goals: GoalSummary[] = [];
  const cards: FeedSummary['cards'] = [];
  const periods: string[] = [];
  const statuses: string[] = [];
  let closedScore: Score | null = null;
  let penalties: Score | null = null;
  for (const e of events) {
    byType[e.type] = (byType[e.type] ?? 0) + 1;
    const d = e.data;
    switch (e.type) {
      case 'shot': {
        const outcome = str(d.outcome) ?? 'unknown';
        shotsByOutcome[outcome] = (shotsByOutcome[outcome] ?? 0) + 1;
        break;
      }
      case 'score_change':
        goals.push({
          team: e.team,
          scorer: str(d.scorer),
          minute: num(d.minute),
          offset: num(d.offset) ?? 0,
          penalty: d.penalty === true,
          own_goal: d.own_goal === true,
          period: e.period,
          clock_seconds: e.clock_seconds,
          occurred_at: e.occurred_at,
        });
        break;
      case 'card':
        cards.push({ team: e.team, color: str(d.color) ?? 'unknown', player: str(d.player), period: e.period });
        break;
      case 'period_start':
        if (e.period !== null) periods.push(e.period);
        break;
      case 'match_status': {
        const status = str(d.status);
        if (status) statuses.push(status);
        if (status === 'closed' && typeof d.final_score === 'object' && d.final_score !== null) {
          closedScore = readScore(d.final_score);
          penalties = readScore((d.final_score as Record<string, unknown>).penalties);
        }
        break;
      }
    }
  }
  const last = events.at(-1);
  return {
    total: events.length,
    byType,
    finalScore: closedScore ?? (last ? { ...last.score } : { home: 0, away: 0 }),
    penalties,
    goals,
    cards,
    shotsByOutcome,
    periods,
    statuses,
  };
}
