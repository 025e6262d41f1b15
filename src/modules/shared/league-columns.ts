/** Columns and indexes shared by the tables of league-scoped resources (definitions of both kinds, question groups). */
import { sql } from 'drizzle-orm';
import { uniqueIndex, uuid, type AnyPgColumn } from 'drizzle-orm/pg-core';
import { idColumn } from '../../db/columns.js';
import { leagues } from '../leagues/leagues.table.js';

/** `id` and `league_id`, the owning league (its rows go when it goes). */
export const leagueScopedColumns = () => ({
  id: idColumn(),
  leagueId: uuid('league_id')
    .notNull()
    .references(() => leagues.id, { onDelete: 'cascade' }),
});

/** Unique index on (league, lower(name)): names are unique per league without regard to case. */
export const uniqueNameInLeague = (indexName: string, t: { leagueId: AnyPgColumn; name: AnyPgColumn }) =>
  uniqueIndex(indexName).on(t.leagueId, sql`lower(${t.name})`);
