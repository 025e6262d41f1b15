import { createHash } from 'node:crypto';

/** The normalized feed event: one model for every sport and provider (importers map each provider's events to it). */
export type TeamSide = 'home' | 'away';

export interface FeedEvent {
  provider_event_id: string;
  seq: number;
  operation: 'create' | 'update' | 'delete';
  type: string;
  period: string | null;
  clock_seconds: number | null;
  occurred_at: string;
  team: TeamSide | null;
  score: { home: number; away: number };
  final: boolean;
  data: Record<string, unknown>;
}

/** Canonical event types shared by all sports (sports add their own, see sports.ts). */
export const COMMON_EVENT_TYPES = ['match_status', 'period_start', 'period_end', 'score_change'] as const;

/** JSON with sorted keys, so equal content hashes equally whatever the key order. */
function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const obj = value as Record<string, unknown>;
    return `{${Object.keys(obj)
      .sort()
      .filter((k) => obj[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${stableJson(obj[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * The dedupe key of an event (a redelivery under a new seq has the same key; an update with new content, a new one): `<provider event id>:delete`, or
 * `<provider event id>:<operation>:<hash of everything but seq>`. The
 * recording stores it (listener_events.event_key): one row per message.
 */
export function dedupeKey(event: FeedEvent): string {
  if (event.operation === 'delete') return `${event.provider_event_id}:delete`;
  const { seq: _seq, ...content } = event;
  const hash = createHash('sha1').update(stableJson(content)).digest('base64url');
  return `${event.provider_event_id}:${event.operation}:${hash}`;
}
