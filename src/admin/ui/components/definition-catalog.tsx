/**
 * A definition kind as the operator UI shows it (in-game and Match question
 * definitions): the descriptor through which each kind (in-game-definition.tsx,
 * match-definition.tsx) declares its API, its list's columns and its editor's
 * fields, and the form parts both kinds share. What the two kinds share is
 * built on it in catalog/: the list page (definition-list-page.tsx: filters,
 * CSV export and import, clone, archive and activate, delete with "archive
 * instead" after a 409, the editor in the query string) and the editor's
 * loader, state, frame and common fields (definition-editor.tsx).
 * pages/definitions.tsx is the one page, given a kind.
 */
import type { ComponentChildren, ComponentType } from 'preact';
import type { components } from '../../../../generated/api-types.js';
import type { ChoiceTemplate } from './catalog/choices-editor.js';
import type { definitionListQuery } from './catalog/definition-filters.js';
import type { Column } from './common.js';

export type SampleCatalog = components['schemas']['SampleCatalog'];
export type Group = components['schemas']['QuestionGroup'];

/** The API path of a definition kind's collection; its other operations hang below it. */
export type DefinitionBase = '/api/question-definitions' | '/api/match-question-definitions';

/** What the shared list needs of a definition. */
export interface DefinitionRow {
  id: string;
  name: string;
  description: string | null;
  updated_at: string;
}

/** What a list page may filter on besides the league (the page's query string). */
export type DefinitionListFilters = ReturnType<typeof definitionListQuery> & { is_pivotal_moment?: boolean };

/**
 * A definition kind as the operator UI shows it: its API and page, the words
 * of its list, what the list loads and shows (`Item`, the summary or the
 * whole definition), and its editor of a definition (`D`).
 */
export interface DefinitionKind<Item extends DefinitionRow, D extends DefinitionRow & { league: string }, I = unknown> {
  base: DefinitionBase;
  page: '/admin/definitions' | '/admin/match-definitions';
  title: string;
  /** The export's file name when the API names none. */
  csvFilename: string;
  /** What the import panel calls the rows ("in-game definitions"). */
  importNoun: string;
  archivedLabel: string;
  pivotalFilter: boolean;
  empty: string;
  /** Out of issuance (archived, or inactive for Match questions): the row offers Activate instead of Archive. */
  isArchived: (d: Item) => boolean;
  /** A league's definitions as the list shows them. */
  list: (league: string, filters: DefinitionListFilters) => Promise<Item[]>;
  /** Whether the list shows each row's group (the league's groups then load with it). */
  showsGroups: boolean;
  /** The list's columns between Name and Updated; `groupSlug` names a group by id. */
  columns: (groupSlug: (id: string | null) => string) => Column<Item>[];
  get: (id: string) => Promise<D>;
  create: (league: string, body: I) => Promise<D>;
  replace: (id: string, body: I) => Promise<D>;
  /** The editor's form of a new definition, and of a stored one. */
  blankInput: (catalog: SampleCatalog | undefined) => I;
  inputOf: (d: D) => I;
  /** The editor's label and heading when it creates. */
  newLabel: string;
  newHeading: string;
  /** What the question's text, extract and store fields say their expressions see. */
  questionLabels: QuestionLabels;
  /** The editor's fields (`question` among them where the kind shows it), and the live preview beside them. */
  Fields: ComponentType<KindFieldsProps<D, I>>;
  Preview: ComponentType<KindPreviewProps<I>>;
}

/** The editor a list page opens for `?edit=<id>` (or `new`). */
export interface DefinitionEditorProps {
  league: string;
  id: string;
  /** A note to show on open ("Created ..." after a create). */
  flash: string | null;
  onSaved: (d: { id: string; name: string }) => void;
  onClose: () => void;
}

/**
 * What a kind's editor fields get: the form and its setter, the definition
 * edited (none when creating), the league's groups and sample catalog, and
 * the fields of the question both kinds show alike (`QuestionFields`).
 */
export interface KindFieldsProps<D, I> {
  form: I;
  set: <K extends keyof I>(key: K, value: I[K]) => void;
  question: ComponentChildren;
  definition: D | null;
  groups: Group[];
  catalog: SampleCatalog | undefined;
}

/** What a kind's live preview gets. */
export interface KindPreviewProps<I> {
  league: string;
  form: I;
  catalog: SampleCatalog | undefined;
}

/** The part of a definition form both kinds' editors show alike: the question's text, its choices, its extract and store maps. */
export interface QuestionForm {
  question_text_template: string;
  choices: ChoiceTemplate[];
  issuance_state_extract?: Record<string, string> | null;
  store_state?: Record<string, string> | null;
}

export interface QuestionLabels {
  template: string;
  extract: string;
  store: string;
}

/** The first fields of a new definition's form, either kind. */
export const NEW_DEFINITION_HEAD = { name: '', description: null, is_pivotal_moment: false, is_active: true, group_id: null } as const;

/** The first fields of a stored definition's form, either kind. */
export const definitionHead = (d: { name: string; description: string | null; is_pivotal_moment: boolean; is_active: boolean; group_id: string | null }) => ({
  name: d.name,
  description: d.description,
  is_pivotal_moment: d.is_pivotal_moment,
  is_active: d.is_active,
  group_id: d.group_id,
});
