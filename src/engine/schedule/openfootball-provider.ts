/** A schedule provider reading openfootball results files (the format of tests/fixtures/feeds/openfootball). */
import fs from 'node:fs/promises';
import { importOpenfootballSchedule, type OpenfootballMatch } from '../feed/importers/openfootball.js';
import type { ScheduledMatch, ScheduleProvider } from './schedule-sync.js';

/** The result of a finished match as Match questions read it (see the contract's MatchResolution). */
export function openfootballResult(m: OpenfootballMatch): Record<string, unknown> | null {
  if (!m.result) return null;
  const r = m.result;
  const winner = r.penalties
    ? r.penalties.home > r.penalties.away
      ? 'home'
      : 'away'
    : r.home_score > r.away_score
      ? 'home'
      : r.home_score < r.away_score
        ? 'away'
        : 'draw';
  return {
    home_score: r.home_score,
    away_score: r.away_score,
    winner,
    home_team: m.homeTeam,
    away_team: m.awayTeam,
    penalties: r.penalties,
    goals: r.goals.map((g) => ({ team: g.team, minute: g.minute, offset: g.offset, player: g.player, penalty: g.penalty, own_goal: g.own_goal })),
  };
}

export function openfootballProvider({
  file,
  season,
  league,
  utcOffset,
  now = () => new Date(),
}: {
  file: string;
  season: string;
  league: string;
  /** UTC offset of kick-off times the file writes without one (e.g. '+03:00'). */
  utcOffset?: string;
  now?: () => Date;
}): ScheduleProvider {
  return {
    name: `openfootball:${season}`,
    async fetch(): Promise<ScheduledMatch[]> {
      const parsed = importOpenfootballSchedule(await fs.readFile(file, 'utf8'), { season, ...(utcOffset ? { localUtcOffset: utcOffset } : {}) });
      return parsed.map((m) => {
        const result = openfootballResult(m);
        const finished = Boolean(result) && m.scheduled.getTime() < now().getTime();
        return {
          srId: m.srId,
          league,
          homeTeam: m.homeTeam,
          awayTeam: m.awayTeam,
          scheduled: m.scheduled,
          venue: m.venue,
          status: finished ? 'closed' : 'scheduled',
          result: finished ? result : null,
        };
      });
    },
  };
}
