import type { components } from '../../../generated/api-types.js';
import type { MatchRow } from '../matches/matches.table.js';
import type { ListenerLogLineRow } from './listeners.repository.js';
import type { ListenerEventRow, MatchListenerRow } from './listeners.table.js';

type Schemas = components['schemas'];
export type MatchListenerDto = Schemas['MatchListener'];
export type MatchRefDto = Schemas['MatchRef'];
export type ListenerLogLineDto = Schemas['ListenerLogLine'];
export type FeedEventDto = Schemas['FeedEvent'];

const iso = (d: Date | null) => d?.toISOString() ?? null;

export function toMatchListenerDto(row: MatchListenerRow): MatchListenerDto {
  return {
    id: row.id,
    match_id: row.matchId,
    status: row.status as MatchListenerDto['status'],
    source: row.source as MatchListenerDto['source'],
    speed: row.speed,
    claimed_by: row.claimedBy,
    lease_expires_at: iso(row.leaseExpiresAt),
    heartbeat_at: iso(row.heartbeatAt),
    events_consumed: row.eventsConsumed,
    events_total: row.eventsTotal,
    issued_count: row.issuedCount,
    denied_count: row.deniedCount,
    resolved_count: row.resolvedCount,
    last_event_at: iso(row.lastEventAt),
    error: row.error,
    created_at: row.createdAt.toISOString(),
    started_at: iso(row.startedAt),
    finished_at: iso(row.finishedAt),
  };
}

export function toMatchRef(row: MatchRow, leagueSlug: string): MatchRefDto {
  return {
    id: row.id,
    league: leagueSlug,
    home_team: row.homeTeam,
    away_team: row.awayTeam,
    scheduled: row.scheduled.toISOString(),
    status: row.status as MatchRefDto['status'],
    is_test: row.isTest,
  };
}

const LEVELS = new Set<string>(['debug', 'info', 'warn', 'error']);

/** The stored level in the contract's vocabulary (`warning` reads as `warn`; anything unknown as `info`). */
function logLevel(level: string): ListenerLogLineDto['level'] {
  const l = level.toLowerCase();
  if (l === 'warning') return 'warn';
  return (LEVELS.has(l) ? l : 'info') as ListenerLogLineDto['level'];
}

export function toListenerLogLine(row: ListenerLogLineRow): ListenerLogLineDto {
  return { line_no: row.lineNo, at: row.at.toISOString(), level: logLevel(row.level), message: row.message };
}

/**
 * One line of the downloadable log: `<iso> <LEVEL> <message>`. Line breaks
 * inside a message are written as `\n` so that every entry stays one line.
 */
export function toLogFileLine(row: ListenerLogLineRow): string {
  return `${row.at.toISOString()} ${logLevel(row.level).toUpperCase()} ${row.message.replace(/\r\n|\r|\n/g, '\\n')}\n`;
}

/**
 * A recorded message as a FeedEvent. The columns (provider_event_id, seq,
 * operation) are authoritative; the rest comes from the stored normalized
 * event, with neutral values for fields a message lacks (a bare delete).
 */
export function toFeedEvent(row: ListenerEventRow): FeedEventDto {
  const e = row.event as Partial<FeedEventDto>;
  return {
    ...e,
    provider_event_id: row.providerEventId,
    seq: row.seq,
    operation: row.operation as FeedEventDto['operation'],
    type: typeof e.type === 'string' ? e.type : 'unknown',
    period: e.period ?? null,
    clock_seconds: e.clock_seconds ?? null,
    occurred_at: typeof e.occurred_at === 'string' ? e.occurred_at : row.receivedAt.toISOString(),
    team: e.team ?? null,
    score: e.score ?? { home: 0, away: 0 },
    final: e.final ?? false,
    data: e.data ?? {},
  };
}
