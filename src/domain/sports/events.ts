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
