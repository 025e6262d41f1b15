/** SQL of push devices, the push settings row and delivery attempts. */
import { and, desc, eq, getTableColumns, inArray, notInArray, or, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../../db/client.js';
import { anyUuid, chunks } from '../../db/sql-helpers.js';
import { questionAnswers } from '../answers/answers.table.js';
import { matchFollows } from '../matches/matches.table.js';
import { users } from '../users/users.table.js';
import { pushDeliveryAttempts, pushDevices, pushMatchNotifications, pushSettings, type PushDeliveryAttemptRow, type PushDeviceRow } from './push.table.js';

export type NewPushDevice = Omit<typeof pushDevices.$inferInsert, 'id' | 'createdAt' | 'updatedAt'>;
export type NewPushDeliveryAttempt = typeof pushDeliveryAttempts.$inferInsert;
export type PushSettingsRow = typeof pushSettings.$inferSelect;

const SETTINGS_ID = 1;

// ---- devices

/**
 * Inserts the device, or refreshes the one registered under the same
 * (user, device_id): one statement settled by the unique index. `created`
 * comes from the database (`xmax = 0` holds only for a freshly inserted row).
 */
export async function upsertDevice({ db, values }: { db: DbOrTx; values: NewPushDevice }): Promise<{ row: PushDeviceRow; created: boolean }> {
  const [result] = await db
    .insert(pushDevices)
    .values(values)
    .onConflictDoUpdate({
      target: [pushDevices.userId, pushDevices.deviceId],
      set: {
        platform: sql`excluded.platform`,
        token: sql`excluded.token`,
        subscription: sql`excluded.subscription`,
        appVersion: sql`excluded.app_version`,
        updatedAt: sql`now()`,
      },
    })
    .returning({ ...getTableColumns(pushDevices), created: sql<boolean>`(xmax = 0)` });
  const { created, ...row } = result!;
  return { row, created: Boolean(created) };
}

/** Keeps the user's `keep` most recently registered or refreshed devices; removes the others. */
export async function pruneDevices({ db, userId, keep }: { db: DbOrTx; userId: string; keep: number }): Promise<number> {
  const newest = db
    .select({ id: pushDevices.id })
    .from(pushDevices)
    .where(eq(pushDevices.userId, userId))
    .orderBy(desc(pushDevices.updatedAt), desc(pushDevices.id))
    .limit(keep);
  const removed = await db
    .delete(pushDevices)
    .where(and(eq(pushDevices.userId, userId), notInArray(pushDevices.id, newest)))
    .returning({ id: pushDevices.id });
  return removed.length;
}

export async function deleteDevice({ db, userId, deviceId }: { db: DbOrTx; userId: string; deviceId: string }): Promise<boolean> {
  const removed = await db
    .delete(pushDevices)
    .where(and(eq(pushDevices.userId, userId), eq(pushDevices.deviceId, deviceId)))
    .returning({ id: pushDevices.id });
  return removed.length > 0;
}

/**
 * Removes devices whose push service said the subscription is gone, unless
 * the device registered a new subscription since (the endpoint must still be
 * the one that failed). One statement for any number of devices.
 */
export async function deleteGoneDevices({
  db,
  devices,
}: {
  db: DbOrTx;
  devices: { userId: string; deviceId: string; endpoint: string | null }[];
}): Promise<number> {
  if (!devices.length) return 0;
  const conditions = devices.map((d) =>
    and(
      eq(pushDevices.userId, d.userId),
      eq(pushDevices.deviceId, d.deviceId),
      d.endpoint === null ? sql`${pushDevices.subscription} is null` : sql`${pushDevices.subscription}->>'endpoint' = ${d.endpoint}`,
    ),
  );
  const removed = await db
    .delete(pushDevices)
    .where(or(...conditions))
    .returning({ id: pushDevices.id });
  return removed.length;
}

// ---- settings

export async function findSettingsRow({ db }: { db: DbOrTx }): Promise<PushSettingsRow | undefined> {
  const [row] = await db.select().from(pushSettings).where(eq(pushSettings.id, SETTINGS_ID)).limit(1);
  return row;
}

/** The row, locked for this transaction (created from `initial` when absent, so concurrent updates queue up on it). */
export async function lockSettingsRow({ tx, initial }: { tx: Tx; initial: Record<string, unknown> }): Promise<PushSettingsRow> {
  await tx.insert(pushSettings).values({ id: SETTINGS_ID, settings: initial }).onConflictDoNothing();
  const [row] = await tx.select().from(pushSettings).where(eq(pushSettings.id, SETTINGS_ID)).for('update');
  return row!;
}

export async function saveSettingsRow({
  db,
  settings,
  updatedByUserId,
}: {
  db: DbOrTx;
  settings: Record<string, unknown>;
  updatedByUserId: string;
}): Promise<PushSettingsRow> {
  const [row] = await db
    .insert(pushSettings)
    .values({ id: SETTINGS_ID, settings, updatedByUserId })
    .onConflictDoUpdate({ target: pushSettings.id, set: { settings, updatedByUserId, updatedAt: sql`now()` } })
    .returning();
  return row!;
}

export async function deleteSettingsRow({ db }: { db: DbOrTx }): Promise<void> {
  await db.delete(pushSettings).where(eq(pushSettings.id, SETTINGS_ID));
}

// ---- delivery

/** One device of one recipient, with what the templates need of the user and their answer. */
export interface RecipientDeviceRow {
  userId: string;
  username: string | null;
  firstName: string | null;
  lastName: string | null;
  deviceId: string;
  platform: string;
  token: string | null;
  subscription: PushDeviceRow['subscription'];
  /** Resolution only: the user's answer (null when they did not answer). */
  selectedAnswerIdentifier: string | null;
  outcome: string | null;
  pointsAwarded: number | null;
}

/**
 * Every device of every active user who follows the match and wants this
 * kind of notification (`notify_on_issuance` / `notify_on_resolve`); for a
 * resolution with `answeredOnly`, only users who answered the question. One
 * statement, whatever the number of followers; users without devices are not
 * returned.
 */
export async function findRecipientDevices({
  db,
  matchId,
  event,
  questionIssuanceId,
  answeredOnly,
}: {
  db: DbOrTx;
  matchId: string;
  event: 'issuance' | 'resolution';
  questionIssuanceId: string;
  answeredOnly: boolean;
}): Promise<RecipientDeviceRow[]> {
  const flag = event === 'issuance' ? users.notifyOnIssuance : users.notifyOnResolve;
  const base = db
    .select({
      userId: users.id,
      username: users.username,
      firstName: users.firstName,
      lastName: users.lastName,
      deviceId: pushDevices.deviceId,
      platform: pushDevices.platform,
      token: pushDevices.token,
      subscription: pushDevices.subscription,
      selectedAnswerIdentifier: event === 'resolution' ? questionAnswers.selectedAnswerIdentifier : sql<string | null>`null`,
      outcome: event === 'resolution' ? questionAnswers.outcome : sql<string | null>`null`,
      pointsAwarded: event === 'resolution' ? questionAnswers.pointsAwarded : sql<number | null>`null`,
    })
    .from(matchFollows)
    .innerJoin(users, and(eq(users.id, matchFollows.userId), eq(users.isActive, true), eq(flag, true)))
    .innerJoin(pushDevices, eq(pushDevices.userId, users.id))
    .$dynamic();
  const answerJoin = and(eq(questionAnswers.userId, users.id), eq(questionAnswers.questionIssuanceId, questionIssuanceId));
  const query = event === 'issuance' ? base : answeredOnly ? base.innerJoin(questionAnswers, answerJoin) : base.leftJoin(questionAnswers, answerJoin);
  const rows = await query.where(and(eq(matchFollows.matchId, matchId), eq(matchFollows.following, true))).orderBy(users.id, pushDevices.deviceId);
  return rows as RecipientDeviceRow[];
}

/** The users who already have an attempt for this notification (event and question): it is sent once. */
export async function alreadyNotified({
  db,
  event,
  questionIssuanceId,
}: {
  db: DbOrTx;
  event: 'issuance' | 'resolution';
  questionIssuanceId: string;
}): Promise<Set<string>> {
  const a = pushDeliveryAttempts;
  const rows = await db
    .selectDistinct({ userId: a.userId })
    .from(a)
    .where(and(eq(a.questionIssuanceId, questionIssuanceId), eq(a.event, event)));
  return new Set(rows.map((r) => r.userId));
}

/**
 * Takes one of the match's `cap` notification slots for each user who has one
 * left: an atomic upsert per thousand users (a concurrent notification of the
 * same match in another process waits on the row and then sees the new
 * count). Returns the users who got a slot.
 */
export async function reserveNotifications({
  db,
  matchId,
  userIds,
  cap,
}: {
  db: DbOrTx;
  matchId: string;
  userIds: string[];
  cap: number;
}): Promise<Set<string>> {
  const got = new Set<string>();
  if (cap <= 0) return got;
  const t = pushMatchNotifications;
  // Rows are locked in user order, as releaseNotifications locks them: two processes cannot deadlock.
  const ordered = [...userIds].sort();
  for (const chunk of chunks(ordered)) {
    const rows = await db
      .insert(t)
      .values(chunk.map((userId) => ({ userId, matchId, notified: 1 })))
      .onConflictDoUpdate({ target: [t.userId, t.matchId], set: { notified: sql`${t.notified} + 1` }, setWhere: sql`${t.notified} < ${cap}` })
      .returning({ userId: t.userId });
    for (const r of rows) got.add(r.userId);
  }
  return got;
}

/** Gives back the slots of users to whom nothing was delivered. One statement; rows locked in user order first. */
export async function releaseNotifications({ db, matchId, userIds }: { db: DbOrTx; matchId: string; userIds: string[] }): Promise<void> {
  if (!userIds.length) return;
  const t = pushMatchNotifications;
  const locked = db
    .select({ userId: t.userId })
    .from(t)
    .where(and(eq(t.matchId, matchId), anyUuid(t.userId, userIds)))
    .orderBy(t.userId)
    .for('update');
  await db
    .update(t)
    .set({ notified: sql`greatest(${t.notified} - 1, 0)` })
    .where(and(eq(t.matchId, matchId), inArray(t.userId, locked)));
}

/** Records attempts, a thousand rows per statement. */
export async function insertAttempts({ db, rows }: { db: DbOrTx; rows: NewPushDeliveryAttempt[] }): Promise<void> {
  for (const chunk of chunks(rows)) await db.insert(pushDeliveryAttempts).values(chunk);
}

export async function listAttempts({ db, userId, limit }: { db: DbOrTx; userId?: string | undefined; limit: number }): Promise<PushDeliveryAttemptRow[]> {
  const where: SQL | undefined = userId ? eq(pushDeliveryAttempts.userId, userId) : undefined;
  return db.select().from(pushDeliveryAttempts).where(where).orderBy(desc(pushDeliveryAttempts.createdAt), desc(pushDeliveryAttempts.id)).limit(limit);
}

/**
 * The id of the user with this id and this email (either may be left out;
 * the email without regard to case, an exact match, not a substring).
 */
export async function findUserId({ db, id, email }: { db: DbOrTx; id?: string | undefined; email?: string | undefined }): Promise<string | undefined> {
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(id !== undefined ? eq(users.id, id) : undefined, email !== undefined ? sql`lower(${users.email}) = ${email.trim().toLowerCase()}` : undefined))
    .limit(1);
  return row?.id;
}

/** A user's devices, newest first: their data export. */
export async function devicesOfUser({ db, userId }: { db: DbOrTx; userId: string }): Promise<PushDeviceRow[]> {
  return db.select().from(pushDevices).where(eq(pushDevices.userId, userId)).orderBy(desc(pushDevices.updatedAt), pushDevices.id);
}

/** Deletes a user's devices, delivery records and per-match counters (their account is deleted). */
export async function deletePushDataOfUser({ tx, userId }: { tx: Tx; userId: string }): Promise<void> {
  await tx.delete(pushDevices).where(eq(pushDevices.userId, userId));
  await tx.delete(pushDeliveryAttempts).where(eq(pushDeliveryAttempts.userId, userId));
  await tx.delete(pushMatchNotifications).where(eq(pushMatchNotifications.userId, userId));
}
