/**
 * A kind of question definition: in-game (issued while a match is live) or
 * Match (issued before kick-off). The catalogue is one implementation (the
 * repository, the service, the handlers, the CSV mapping, the mapper) given a
 * kind; the kind declares all that differs: its table and fields, its own
 * validation rules, its archive model, what references it, its operationIds
 * and the words of its messages. The two kinds are `in-game.kind.ts` and
 * `match.kind.ts`.
 */
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { operations } from '../../../generated/api-types.js';
import type { KindErrors } from './definitions.errors.js';

/** The kind as the allowlists, the issuances and the inheritance name it. */
export type DefinitionKindId = 'in_game' | 'match';

/** A definition table as the shared queries use it (`from` takes it cast: drizzle cannot check a generic table). */
export type DefinitionTable = PgTable & {
  id: PgColumn;
  leagueId: PgColumn;
  name: PgColumn;
  isPivotalMoment: PgColumn;
  createdAt: PgColumn;
  updatedAt: PgColumn;
};

/** The columns every stored definition has. */
export interface StoredDefinition {
  id: string;
  leagueId: string;
  name: string;
  groupId: string | null;
  createdAt: Date;
  updatedAt: Date;
}

/** A stored definition with the slug and sport of its league. */
export type WithLeague<Row> = Row & { leagueSlug: string; leagueSport: string };

export interface LeagueRef {
  id: string;
  slug: string;
  sport: string;
}

/** What each operation of a kind does: the catalogue's roles, each bound to the kind's own operationId. */
export type DefinitionRole = 'list' | 'create' | 'get' | 'replace' | 'delete' | 'clone' | 'archive' | 'activate' | 'export' | 'import';
export type DefinitionOperations = Readonly<Record<DefinitionRole, keyof operations>>;

/** The create and replace body fields both kinds have (each kind's input adds its own). */
export interface CommonInput {
  name: string;
  description?: string | null;
  is_pivotal_moment?: boolean;
  is_active?: boolean;
  group_id?: string | null;
  question_text_template: string;
  choices: { identifier: string; label_template: string }[];
  issuance_state_extract?: Record<string, string> | null;
  store_state?: Record<string, string> | null;
  points?: number | null;
}

/**
 * How an import cell gives a field's value: as text, as the description
 * (empty keeps a stored empty text), as an id (trimmed), or parsed as a
 * boolean, a number or JSON.
 */
export type CellReader = 'text' | 'description' | 'id' | 'boolean' | 'number' | 'json';

/**
 * One field of a definition: its contract name (the JSON property and the
 * CSV column) and its column. The fields of a kind, in the contract's order,
 * give its JSON (after `id`, `league` and `league_id`, before the
 * timestamps), its CSV columns (after `id` and `league`), how an import reads
 * each cell, and what an import compares for `changed_fields`.
 */
export interface DefinitionField<Row> {
  name: string;
  column: keyof Row & string;
  cell: CellReader;
  /** What an empty cell stands for: null, or the field left out (its default, or "required" for the schema to report). */
  empty: 'null' | 'omit';
  /** A create requires it, so an import file must have its column. */
  required?: true;
  /**
   * Not part of the create and replace body (the in-game archive flag, which
   * archive and activate set): an import reads it apart, and a missing or
   * empty cell keeps the stored value (false on a create).
   */
  apart?: true;
}

/** Throws a 400 of definitions.errors.ts on a rule of the kind's own; returns the columns only this kind has. */
export type KindRules<Input> = (args: { input: Input; league: LeagueRef; choiceIds: Set<string> }) => Record<string, unknown>;

export interface DefinitionKind<Row extends StoredDefinition, Input extends CommonInput, Dto, Item, Ops extends DefinitionOperations> {
  id: DefinitionKindId;
  /** What messages call one ('question definition'). */
  noun: string;
  /** The errors it answers under codes of its own (not found, name taken, unknown group, in use; definitions.errors.ts). */
  errors: KindErrors;
  table: DefinitionTable;
  /** The unique index on (league, lower(name)). */
  nameIndex: string;
  fields: readonly DefinitionField<Row>[];
  /** The definition as the contract shows it. */
  toDto(row: Row, leagueSlug: string): Dto;
  /** The list's items: the columns it reads (the whole row when absent; its rows hold only these) and the item of each. */
  list: { columns?: readonly (keyof Row & string)[]; toItem(row: Row, leagueSlug: string): Item };
  /**
   * Out of issuance: the boolean column that says so and its value then
   * (archive sets it to that, activate to the other; a clone never is).
   */
  archive: { column: keyof Row & string; archived: boolean };
  /** What refers to a definition (a delete is refused while any does), with the noun a message counts them by. */
  references: readonly { table: PgTable; column: PgColumn; noun: string }[];
  operations: Ops;
  exportFilename: string;
  /** The kind's own rules of create and replace, checked after the shared ones (name, choice identifiers) and before the templates compile. */
  rules: KindRules<Input>;
  /** Compiles the templates and expressions (throws the domain's template or expression error). */
  checkSyntax(input: Input): Promise<void>;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyDefinitionKind = DefinitionKind<any, any, any, any, DefinitionOperations>;

/** The columns both kinds have, which the fields below name. */
type CommonColumn =
  | 'name'
  | 'description'
  | 'isPivotalMoment'
  | 'isActive'
  | 'groupId'
  | 'questionTextTemplate'
  | 'choices'
  | 'issuanceStateExtract'
  | 'storeState'
  | 'resolution'
  | 'points';

/** The fields both kinds have, declared once; each kind lists them, with its own, in its contract's order. */
export const COMMON_FIELDS = {
  name: { name: 'name', column: 'name', cell: 'text', empty: 'omit', required: true },
  description: { name: 'description', column: 'description', cell: 'description', empty: 'null' },
  is_pivotal_moment: { name: 'is_pivotal_moment', column: 'isPivotalMoment', cell: 'boolean', empty: 'omit' },
  is_active: { name: 'is_active', column: 'isActive', cell: 'boolean', empty: 'omit' },
  group_id: { name: 'group_id', column: 'groupId', cell: 'id', empty: 'null' },
  question_text_template: { name: 'question_text_template', column: 'questionTextTemplate', cell: 'text', empty: 'omit', required: true },
  choices: { name: 'choices', column: 'choices', cell: 'json', empty: 'omit', required: true },
  issuance_state_extract: { name: 'issuance_state_extract', column: 'issuanceStateExtract', cell: 'json', empty: 'null' },
  store_state: { name: 'store_state', column: 'storeState', cell: 'json', empty: 'null' },
  resolution: { name: 'resolution', column: 'resolution', cell: 'json', empty: 'omit', required: true },
  points: { name: 'points', column: 'points', cell: 'number', empty: 'null' },
} as const satisfies Record<string, DefinitionField<Record<CommonColumn, unknown>>>;

/**
 * `true` only when `Names` are exactly the properties of `Dto` besides
 * `Skip`: a kind asserts with it that its fields spell its contract schema.
 */
export type SpellsTheSchema<Dto, Names extends string, Skip extends string = 'id' | 'league' | 'league_id' | 'created_at' | 'updated_at'> = [
  Exclude<keyof Dto, Skip>,
] extends [Names]
  ? [Names] extends [Exclude<keyof Dto, Skip>]
    ? true
    : never
  : never;
