import { index, pgTable, primaryKey, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { idColumn, timestamps, tstz } from '../../db/columns.js';
import { users } from '../users/users.table.js';

/**
 * A private group of players (friends, colleagues) with its own leaderboards.
 * Not to be confused with question groups (`question_groups`, issuance lanes).
 */
export const playerGroups = pgTable(
  'player_groups',
  {
    id: idColumn(),
    name: text('name').notNull(),
    ownerId: uuid('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** What a player joins with; the owner can replace it (the old one stops working). */
    inviteCode: text('invite_code').notNull(),
    ...timestamps(),
  },
  (t) => [uniqueIndex('player_groups_invite_code_uq').on(t.inviteCode), index('player_groups_owner_idx').on(t.ownerId)],
);

export const playerGroupMembers = pgTable(
  'player_group_members',
  {
    groupId: uuid('group_id')
      .notNull()
      .references(() => playerGroups.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    joinedAt: tstz('joined_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.groupId, t.userId] }), index('player_group_members_user_idx').on(t.userId)],
);

export type PlayerGroupRow = typeof playerGroups.$inferSelect;
export type PlayerGroupMemberRow = typeof playerGroupMembers.$inferSelect;
