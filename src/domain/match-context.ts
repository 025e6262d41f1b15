/**
 * The `match` object expressions and templates see, built in one place for
 * each kind of definition (the contract documents both shapes):
 * - in-game definitions: `{id, league, home_team, away_team, status, period,
 *   clock_seconds, score: {home, away}}`, the live fields as the listener
 *   knows them at the event;
 * - Match (pre-game) definitions: `{id, league, home_team, away_team,
 *   scheduled, venue, status}`; at issuance (before kick-off) the live fields
 *   are there too, at their pre-game values.
 */
import type { MatchContext } from './question-render.js';

/** What a context is built from: the match row's fields (a MatchRow fits). */
export interface MatchFacts {
  id: string;
  homeTeam: string;
  awayTeam: string;
  scheduled: Date;
  venue: string | null;
  status: string;
}

export interface LiveFacts {
  status: string;
  period: string | null;
  clockSeconds: number | null;
  /** Null before kick-off. */
  homeScore: number | null;
  awayScore: number | null;
}

/** In-game definitions: the match with its live fields. */
export function inGameMatchContext(match: Pick<MatchFacts, 'id' | 'homeTeam' | 'awayTeam'>, league: string, live: LiveFacts): MatchContext {
  return {
    id: match.id,
    league,
    home_team: match.homeTeam,
    away_team: match.awayTeam,
    status: live.status,
    period: live.period,
    clock_seconds: live.clockSeconds,
    score: { home: live.homeScore ?? 0, away: live.awayScore ?? 0 },
  };
}

/** Match (pre-game) definitions, as resolution sees them: the schedule, no live fields. */
export function preGameMatchContext(match: MatchFacts, league: string) {
  return {
    id: match.id,
    league,
    home_team: match.homeTeam,
    away_team: match.awayTeam,
    scheduled: match.scheduled.toISOString(),
    venue: match.venue,
    status: match.status,
  };
}

/** Match (pre-game) definitions at issuance, before kick-off: the schedule and the live fields at their pre-game values. */
export function preGameIssueContext(match: MatchFacts, league: string): MatchContext {
  return { ...preGameMatchContext(match, league), period: null, clock_seconds: null, score: { home: 0, away: 0 } };
}
