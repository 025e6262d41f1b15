/**
 * Push delivery providers: one interface, so the delivery pipeline (gates,
 * rendering, recording) does not know how a message travels.
 */
import type { PushDeviceRow } from '../push.table.js';

export type PushEvent = 'issuance' | 'resolution';

/** One notification to one device. */
export interface PushMessage {
  title: string;
  body: string;
  event: PushEvent;
  questionIssuanceId: string;
  matchId: string;
  /** How long the push service may hold the message for an offline device. */
  ttlSeconds: number;
  urgency: 'very-low' | 'low' | 'normal' | 'high';
}

/** The device as providers see it (a row of push_devices). */
export type PushTarget = Pick<PushDeviceRow, 'userId' | 'deviceId' | 'platform' | 'token' | 'subscription'>;

export interface PushSendResult {
  /** The push service accepted the message. */
  ok: boolean;
  /** HTTP status of the push service, when one answered. */
  statusCode?: number;
  error?: string;
  /** Not attempted: this provider cannot reach the device (recorded as `skipped`). */
  skipped?: boolean;
  /** The push service says the registration is gone for good: the device is removed. */
  gone?: boolean;
  /** A failure worth one more try (429, 5xx, no answer): after this many ms (the service's Retry-After, else a default). */
  retryAfterMs?: number;
}

export interface PushProvider {
  /** Recorded as the attempt's `provider`. */
  readonly name: string;
  /** Never throws: failures are results. */
  send(device: PushTarget, message: PushMessage): Promise<PushSendResult>;
}

/** The JSON a service worker or app receives (also what the Web Push payload encrypts). */
export function messagePayload(message: PushMessage): string {
  return JSON.stringify({
    title: message.title,
    body: message.body,
    event: message.event,
    question_issuance_id: message.questionIssuanceId,
    match_id: message.matchId,
  });
}
