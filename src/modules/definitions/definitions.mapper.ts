/**
 * Rows to the contract's objects, for both kinds: a definition shows `id`,
 * `league` and `league_id`, its kind's fields in order, then the timestamps;
 * a summary (the in-game list) shows `id`, `league`, the summary's fields and
 * the timestamps.
 */
import { isoTimestamps, leagueScopedIds } from '../shared/dto-fields.js';
import type { StoredDefinition } from './definition-kind.js';

type Fields<Row> = readonly { name: string; column: keyof Row & string }[];

const fieldValues = <Row>(row: Row, fields: Fields<Row>) => Object.fromEntries(fields.map((f) => [f.name, row[f.column] ?? null]));

/** The mapper of a kind's definitions; `Dto` is the contract's schema, which the kind's fields must spell (every response is checked against it in the tests). */
export const definitionMapper =
  <Row extends StoredDefinition, Dto>(fields: Fields<Row>) =>
  (row: Row, leagueSlug: string): Dto =>
    ({ ...leagueScopedIds(row, leagueSlug), ...fieldValues(row, fields), ...isoTimestamps(row) }) as Dto;

/** The mapper of a kind's list summaries (`fields`: the summary's, in order). */
export const summaryMapper =
  <Row extends Pick<StoredDefinition, 'id' | 'createdAt' | 'updatedAt'>, Item>(fields: Fields<Row>) =>
  (row: Row, leagueSlug: string): Item =>
    ({ id: row.id, league: leagueSlug, ...fieldValues(row, fields), ...isoTimestamps(row) }) as Item;
