import { index, integer, jsonb, pgTable, primaryKey, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import type { PushDeliveryStatus } from '../../../generated/vocabulary.js';
import { idColumn, timestamps, tstz } from '../../db/columns.js';
import { questionIssuances } from '../issuances/issuances.table.js';
import { matches } from '../matches/matches.table.js';
import { users } from '../users/users.table.js';

/** A push device of a user, under the client's own device id. */
export const pushDevices = pgTable(
  'push_devices',
  {
    id: idColumn(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    deviceId: text('device_id').notNull(),
    platform: text('platform').notNull(),
    /** Provider registration token (ios, android). */
    token: text('token'),
    /** Web Push subscription (web): endpoint and keys. */
    subscription: jsonb('subscription').$type<{ endpoint: string; expiration_time?: number | null; keys: { p256dh: string; auth: string } }>(),
    appVersion: text('app_version'),
    ...timestamps(),
  },
  (t) => [uniqueIndex('push_devices_user_device_uq').on(t.userId, t.deviceId)],
);

/** The push settings in force (one row); absent means the code defaults. */
export const pushSettings = pgTable('push_settings', {
  id: integer('id').primaryKey(),
  settings: jsonb('settings').$type<Record<string, unknown>>().notNull(),
  updatedAt: tstz('updated_at').notNull().defaultNow(),
  updatedByUserId: uuid('updated_by_user_id').references(() => users.id, { onDelete: 'set null' }),
});

/** Every push delivery attempt, delivered, failed or held back by a gate. */
export const pushDeliveryAttempts = pgTable(
  'push_delivery_attempts',
  {
    id: idColumn(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    deviceId: text('device_id'),
    platform: text('platform'),
    provider: text('provider').notNull(),
    event: text('event').notNull(),
    questionIssuanceId: uuid('question_issuance_id').references(() => questionIssuances.id, { onDelete: 'set null' }),
    status: text('status').$type<PushDeliveryStatus>().notNull(),
    statusCode: integer('status_code'),
    error: text('error'),
    title: text('title').notNull(),
    body: text('body').notNull(),
    createdAt: tstz('created_at').notNull().defaultNow(),
  },
  (t) => [
    index('push_delivery_attempts_user_created_idx').on(t.userId, t.createdAt),
    index('push_delivery_attempts_created_idx').on(t.createdAt),
    // Who already had this notification (sent once per user, question and event).
    index('push_delivery_attempts_question_idx').on(t.questionIssuanceId, t.event),
  ],
);

/**
 * Notifications of a match that reached a user (at least one device), for
 * `max_per_user_per_match`: a slot is taken by an atomic upsert before the
 * sends and given back when nothing was delivered, so processes notifying the
 * same match at once cannot pass the cap together. A process that dies
 * between the two keeps the slots it took (the player may get one
 * notification fewer on that match).
 */
export const pushMatchNotifications = pgTable(
  'push_match_notifications',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    matchId: uuid('match_id')
      .notNull()
      .references(() => matches.id, { onDelete: 'cascade' }),
    notified: integer('notified').notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.matchId] }), index('push_match_notifications_match_idx').on(t.matchId)],
);

export type PushDeviceRow = typeof pushDevices.$inferSelect;
export type PushDeliveryAttemptRow = typeof pushDeliveryAttempts.$inferSelect;
