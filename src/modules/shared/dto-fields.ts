/**
 * Fields that many of the contract's objects show the same way, for the
 * mappers (row -> DTO). Spread them where the fields stand, so that the
 * order of a DTO's keys stays the contract's.
 */

/** `created_at` and `updated_at` (ISO 8601) of a row with the `timestamps()` columns. */
export function isoTimestamps(row: { createdAt: Date; updatedAt: Date }): { created_at: string; updated_at: string } {
  return { created_at: row.createdAt.toISOString(), updated_at: row.updatedAt.toISOString() };
}

/** `id`, `league` (the slug) and `league_id` of a resource that belongs to a league (definitions of both kinds, groups). */
export function leagueScopedIds(row: { id: string; leagueId: string }, leagueSlug: string): { id: string; league: string; league_id: string } {
  return { id: row.id, league: leagueSlug, league_id: row.leagueId };
}
