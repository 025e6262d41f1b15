/**
 * Push delivery: what happens to a question's followers when it is issued or
 * settles. For one notification the pipeline reads the settings, the
 * recipients with their devices, and their history for the match (three
 * statements, whatever the number of followers), renders each user's message,
 * applies the gates, sends concurrently with a bound, and records every
 * attempt in push_delivery_attempts (batched inserts).
 *
 * Audience (no attempt is recorded for anyone outside it): active users who
 * follow the match, have the event's flag on (`notify_on_issuance` /
 * `notify_on_resolve`), have at least one device, and for a resolution with
 * `only_answered`, answered the question.
 *
 * Gates (a closed gate records one `skipped` attempt per user, with no
 * device, the gate's id opening `error`), in order: `enabled`,
 * `issuance.enabled` / `resolution.enabled`, `issuance.pivotal_only`,
 * `issuance.min_seconds_remaining`, `max_per_user_per_match`. The cap is a
 * counter per user and match in the database (push_match_notifications): a
 * slot is taken before sending, in one atomic upsert for all users, and given
 * back when nothing reached the user, so concurrent notifications of one match
 * in several processes cannot pass it.
 *
 * Templates are Liquid (src/domain/language/templates.ts) over:
 *   question: id, kind, text, is_pivotal_moment, question_number,
 *             definition_name, choices [{identifier, label}], points, status,
 *             closes_at, seconds_remaining, period, clock_seconds
 *   match:    id, home_team, away_team, home_score, away_score, status,
 *             period, clock_seconds, venue, scheduled, is_test
 *   user:     id, username, first_name, last_name
 *   result:   (resolution) status, voided, answered, correct (null when not
 *             answered or voided), outcome, points, selected_choice,
 *             correct_choice ({identifier, label} or null)
 */
import type { DbOrTx } from '../../db/client.js';
import { renderTemplate } from '../../domain/language/templates.js';
import { metrics } from '../../observability/metrics.js';
import type { EngineSubscriber } from '../issuances/issuance-subscriber.js';
import type { Logger } from '../../logger.js';
import { findMatch } from '../issuances/issuances.public.js';
import { secondsRemaining } from '../issuances/issuances.mapper.js';
import type { QuestionIssuanceRow } from '../issuances/issuances.table.js';
import type { MatchRow } from '../matches/matches.table.js';
import { messagePayload, type PushEvent, type PushMessage, type PushProvider, type PushSendResult, type PushTarget } from './providers/provider.js';
import {
  alreadyNotified,
  deleteGoneDevices,
  findRecipientDevices,
  findSettingsRow,
  insertAttempts,
  releaseNotifications,
  reserveNotifications,
  type NewPushDeliveryAttempt,
  type RecipientDeviceRow,
} from './push.repository.js';
import { normalizeSettings, type PushSettingsValues } from './push.settings.js';

/** Sends in flight at once, per notification. */
export const DEFAULT_SEND_CONCURRENCY = 16;
/** A settled question's news keeps for a while on an offline device. */
const RESOLUTION_TTL_SECONDS = 6 * 3600;
/** Room left for the encryption overhead under the 4096-byte Web Push (and APNs) payload limit. */
export const MAX_PAYLOAD_BYTES = 3800;

export interface DeliverySummary {
  event: PushEvent;
  questionIssuanceId: string;
  /** Users in the audience (with at least one device) not notified of this question before. */
  users: number;
  delivered: number;
  failed: number;
  skipped: number;
  removedDevices: number;
}

export interface PushDeliveryOptions {
  db: DbOrTx;
  provider: PushProvider;
  logger: Logger;
  concurrency?: number;
  /** The longest wait before the one retry of a transient failure; a service asking for longer is not tried again. */
  maxRetryWaitMs?: number;
  now?: () => Date;
}

export const DEFAULT_MAX_RETRY_WAIT_MS = 5_000;

type Choice = { identifier: string; label: string };

/** Runs fn over items with at most `limit` calls in flight; results in input order. */
export async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(Math.max(1, limit), items.length) }, worker));
  return out;
}

const codePoints = (s: string) => Array.from(s);

/** Shortens the body (then the title) with an ellipsis until the payload fits MAX_PAYLOAD_BYTES. */
export function fitMessage(message: PushMessage): PushMessage {
  const size = (m: PushMessage) => Buffer.byteLength(messagePayload(m));
  if (size(message) <= MAX_PAYLOAD_BYTES) return message;
  let m = { ...message };
  for (const field of ['body', 'title'] as const) {
    let chars = codePoints(m[field]);
    while (size(m) > MAX_PAYLOAD_BYTES && chars.length > 1) {
      const over = size(m) - MAX_PAYLOAD_BYTES;
      chars = chars.slice(0, Math.max(1, chars.length - Math.max(1, Math.ceil(over / 6)) - 1));
      m = { ...m, [field]: `${chars.join('')}…` };
    }
  }
  return m;
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

function questionContext(row: QuestionIssuanceRow, at: Date) {
  return {
    id: row.id,
    kind: row.kind,
    text: row.questionText,
    is_pivotal_moment: row.isPivotalMoment,
    question_number: row.questionNumber,
    definition_name: row.definitionName,
    choices: row.choices.map((c) => ({ identifier: c.identifier, label: c.label })),
    points: row.points,
    status: row.status,
    closes_at: iso(row.closesAt),
    seconds_remaining: secondsRemaining(row, at),
    period: row.period,
    clock_seconds: row.clockSeconds,
  };
}

function matchContext(m: MatchRow) {
  return {
    id: m.id,
    home_team: m.homeTeam,
    away_team: m.awayTeam,
    home_score: m.homeScore,
    away_score: m.awayScore,
    status: m.status,
    period: m.period,
    clock_seconds: m.clockSeconds,
    venue: m.venue,
    scheduled: iso(m.scheduled),
    is_test: m.isTest,
  };
}

function resultContext(row: QuestionIssuanceRow, d: RecipientDeviceRow) {
  const choice = (id: string | null): Choice | null => {
    const c = id === null ? undefined : row.choices.find((x) => x.identifier === id);
    return c ? { identifier: c.identifier, label: c.label } : null;
  };
  const voided = row.status !== 'resolved';
  const answered = d.selectedAnswerIdentifier !== null;
  // The settling transaction scores answers; fall back to the choice itself if it has not.
  const correct = voided || !answered ? null : d.outcome ? d.outcome === 'correct' : d.selectedAnswerIdentifier === row.correctAnswerIdentifier;
  return {
    status: row.status,
    voided,
    answered,
    correct,
    outcome: answered ? (d.outcome ?? (voided ? 'void' : correct ? 'correct' : 'incorrect')) : null,
    points: d.outcome ? (d.pointsAwarded ?? 0) : correct ? row.points : 0,
    selected_choice: choice(d.selectedAnswerIdentifier),
    correct_choice: voided ? null : choice(row.correctAnswerIdentifier),
  };
}

/** The first closed gate that does not depend on the user, as `error` text; null when all are open. */
function notificationGate(settings: PushSettingsValues, event: PushEvent, row: QuestionIssuanceRow, at: Date): string | null {
  if (!settings.enabled) return 'enabled: push notifications are turned off';
  if (event === 'issuance') {
    const s = settings.issuance;
    if (!s.enabled) return 'issuance.enabled: issuance notifications are turned off';
    if (s.pivotal_only && !row.isPivotalMoment) return 'issuance.pivotal_only: only pivotal moments are notified';
    const left = secondsRemaining(row, at);
    if (left < s.min_seconds_remaining) return `issuance.min_seconds_remaining: ${left} s left of the answer window (minimum ${s.min_seconds_remaining} s)`;
  } else if (!settings.resolution.enabled) {
    return 'resolution.enabled: resolution notifications are turned off';
  }
  return null;
}

export type PushDelivery = ReturnType<typeof createPushDelivery>;

export function createPushDelivery({
  db,
  provider,
  logger,
  concurrency = DEFAULT_SEND_CONCURRENCY,
  maxRetryWaitMs = DEFAULT_MAX_RETRY_WAIT_MS,
  now = () => new Date(),
}: PushDeliveryOptions) {
  async function deliver(event: PushEvent, row: QuestionIssuanceRow): Promise<DeliverySummary> {
    const summary: DeliverySummary = { event, questionIssuanceId: row.id, users: 0, delivered: 0, failed: 0, skipped: 0, removedDevices: 0 };
    const settingsRow = await findSettingsRow({ db });
    const settings = normalizeSettings(settingsRow?.settings);
    const devices = await findRecipientDevices({
      db,
      matchId: row.matchId,
      event,
      questionIssuanceId: row.id,
      answeredOnly: event === 'resolution' && settings.resolution.only_answered,
    });
    if (!devices.length) return summary;
    const [match, notified] = await Promise.all([findMatch({ db, id: row.matchId }), alreadyNotified({ db, event, questionIssuanceId: row.id })]);
    if (!match) return summary;

    const at = now();
    const gate = notificationGate(settings, event, row, at);
    const templates = event === 'issuance' ? settings.issuance.templates : settings.resolution.templates;
    const question = questionContext(row, at);
    const matchCtx = matchContext(match);
    const base = { userId: '', provider: provider.name, event, questionIssuanceId: row.id } satisfies Partial<NewPushDeliveryAttempt>;

    // Devices come ordered by user: one group per user.
    const byUser = new Map<string, RecipientDeviceRow[]>();
    for (const d of devices) {
      const list = byUser.get(d.userId);
      if (list) list.push(d);
      else byUser.set(d.userId, [d]);
    }

    // Idempotent: a question is notified (or held back) once per user and event.
    const audience = [...byUser.keys()].filter((userId) => !notified.has(userId));
    // The per-match cap: a slot per user, taken atomically in the database (given back below when nothing is delivered).
    const slots = gate ? new Set<string>() : await reserveNotifications({ db, matchId: row.matchId, userIds: audience, cap: settings.max_per_user_per_match });
    const release = new Set(slots);

    const attempts: NewPushDeliveryAttempt[] = [];
    const sends: { target: PushTarget; message: PushMessage }[] = [];
    for (const userId of audience) {
      const userDevices = byUser.get(userId)!;
      summary.users += 1;
      const first = userDevices[0]!;
      const context: Record<string, unknown> = {
        question,
        match: matchCtx,
        user: { id: userId, username: first.username, first_name: first.firstName, last_name: first.lastName },
        ...(event === 'resolution' ? { result: resultContext(row, first) } : {}),
      };
      const userGate =
        gate ??
        (slots.has(userId) ? null : `max_per_user_per_match: the maximum of ${settings.max_per_user_per_match} notifications of this match already delivered`);
      let title = '';
      let body = '';
      let renderError: string | null = null;
      try {
        title = await renderTemplate(`${event}.templates.title_template`, templates.title_template, context);
        body = await renderTemplate(`${event}.templates.body_template`, templates.body_template, context);
      } catch (err) {
        renderError = (err as Error).message;
      }
      const message = fitMessage({
        title,
        body,
        event,
        questionIssuanceId: row.id,
        matchId: row.matchId,
        ttlSeconds: event === 'issuance' ? secondsRemaining(row, at) : RESOLUTION_TTL_SECONDS,
        urgency: event === 'issuance' ? 'high' : 'normal',
      });
      if (userGate || renderError) {
        // Held back or unrenderable: one row for the user, no device.
        attempts.push({
          ...base,
          userId,
          deviceId: null,
          platform: null,
          status: userGate ? 'skipped' : 'failed',
          error: userGate ?? `render: ${renderError}`,
          title: message.title,
          body: message.body,
        });
        continue;
      }
      for (const d of userDevices)
        sends.push({ target: { userId, deviceId: d.deviceId, platform: d.platform, token: d.token, subscription: d.subscription }, message });
    }

    const sendOnce = async (target: PushTarget, message: PushMessage): Promise<PushSendResult> => {
      try {
        return await provider.send(target, message);
      } catch (err) {
        return { ok: false, error: `provider error: ${(err as Error).message}` };
      }
    };
    // A transient failure (throttled, a 5xx, no answer) is tried once more, after the wait the
    // service asks for (at most maxRetryWaitMs; longer, and the message is not worth sending late).
    const results = await mapLimit(sends, concurrency, async ({ target, message }): Promise<PushSendResult[]> => {
      const first = await sendOnce(target, message);
      if (first.ok || first.retryAfterMs === undefined || first.retryAfterMs > maxRetryWaitMs) return [first];
      await new Promise((r) => setTimeout(r, first.retryAfterMs));
      return [first, await sendOnce(target, message)];
    });

    const gone: { userId: string; deviceId: string; endpoint: string | null }[] = [];
    sends.forEach(({ target, message }, i) => {
      const tries = results[i]!;
      for (const [n, r] of tries.entries()) {
        if (r.ok) release.delete(target.userId);
        if (r.gone) gone.push({ userId: target.userId, deviceId: target.deviceId, endpoint: target.subscription?.endpoint ?? null });
        const retried = n < tries.length - 1 ? '; tried again' : '';
        attempts.push({
          ...base,
          userId: target.userId,
          deviceId: target.deviceId,
          platform: target.platform,
          status: r.ok ? 'delivered' : r.skipped ? 'skipped' : 'failed',
          statusCode: r.statusCode ?? null,
          error: r.ok ? null : `${r.error ?? 'not delivered'}${r.gone ? '; the subscription is gone, the device was removed' : ''}${retried}`,
          title: message.title,
          body: message.body,
        });
      }
    });

    await insertAttempts({ db, rows: attempts });
    // Slots of users who got nothing (render failed, every device failed or was skipped) go back.
    await releaseNotifications({ db, matchId: row.matchId, userIds: [...release] });
    summary.removedDevices = await deleteGoneDevices({ db, devices: gone });
    for (const a of attempts) {
      summary[a.status] += 1;
      metrics.pushAttempts.inc({ outcome: a.status });
    }
    logger.debug({ push: summary }, 'push notification processed');
    return summary;
  }

  return {
    /** Notifies the followers of an issued question. */
    deliverIssued: (row: QuestionIssuanceRow) => deliver('issuance', row),
    /** Notifies the followers of a resolved or voided question (revoked ones are not notified: they never had an outcome). */
    async deliverSettled(row: QuestionIssuanceRow): Promise<DeliverySummary | null> {
      if (row.status !== 'resolved' && row.status !== 'voided') return null;
      return deliver('resolution', row);
    },
  };
}

export interface PushSubscriber extends EngineSubscriber {
  delivery: PushDelivery;
  /** Resolves when every notification handed to the subscriber so far has been processed. */
  idle(): Promise<void>;
}

export interface PushSubscriberOptions extends PushDeliveryOptions {
  /**
   * true: onIssued/onSettled queue the notification and return at once, so a
   * slow push service never holds the engine (the service's wiring); false:
   * they return when it has been processed (and throw when it failed).
   */
  detached?: boolean;
}

/**
 * The engine subscriber of push notifications. Notifications are processed
 * one after another in the order the engine reported them (an issuance's
 * notification before its resolution's); sends within one notification run
 * concurrently.
 */
export function createPushSubscriber({ detached = false, ...options }: PushSubscriberOptions): PushSubscriber {
  const delivery = createPushDelivery(options);
  let tail: Promise<void> = Promise.resolve();
  const run = (row: QuestionIssuanceRow, hook: string, fn: () => Promise<unknown>): Promise<void> => {
    const done = tail.then(fn).then(() => undefined);
    tail = done.catch((err) => {
      if (detached) options.logger.error({ err, question_issuance_id: row.id, hook }, 'push delivery failed');
    });
    if (!detached) return done;
    return Promise.resolve();
  };
  return {
    name: 'push',
    delivery,
    onIssued: (row) => run(row, 'onIssued', () => delivery.deliverIssued(row)),
    onSettled: (row) => run(row, 'onSettled', () => delivery.deliverSettled(row)),
    idle: () => tail,
  };
}
