/**
 * What the two definition kinds (in-game and Match question definitions)
 * share: the list page (filters, CSV export and import, clone, archive and
 * activate, delete with "archive instead" after a 409, the editor in the
 * query string), the editor's loader, state and frame, and the kind
 * descriptor through which each kind (in-game-definition.tsx,
 * match-definition.tsx) declares its API, its list's columns and its editor's
 * fields. pages/definitions.tsx is the one page, given a kind.
 */
import type { ComponentChildren, ComponentType } from 'preact';
import type { components } from '../../../../generated/api-types.js';
import { useEffect, useState } from 'preact/hooks';
import { api, ApiError, unwrap } from '../api.js';
import { Link, setQuery } from '../router.js';
import { EditorActions, ErrorBox, Field, JsonField, Loading, Notice, Page, Table, fmtTime, useAction, useAsync, type Column } from './common.js';
import { ChoicesEditor, type ChoiceTemplate } from './catalog/choices-editor.js';
import { ClonePrompt } from './catalog/clone-prompt.js';
import { ExportButton } from './catalog/csv-export.js';
import { CsvImport } from './catalog/csv-import.js';
import { DefinitionFilters, type definitionListQuery } from './catalog/definition-filters.js';
import { ConfirmButton } from './controls.js';

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

const at = (id: string) => ({ params: { path: { definition_id: id } } });

/**
 * A definition list page: with `?edit=` the kind's editor, else the filters,
 * the CSV import panel, the clone prompt, the notices and the table (Name,
 * the kind's `columns`, Updated, and the row actions).
 */
export function DefinitionListPage<D extends DefinitionRow>({
  kind,
  query,
  league,
  list,
  columns,
  editor,
}: {
  kind: Pick<DefinitionKind<D, never, never>, 'base' | 'title' | 'csvFilename' | 'importNoun' | 'archivedLabel' | 'pivotalFilter' | 'empty' | 'isArchived'>;
  query: URLSearchParams;
  league: string;
  list: { rows: D[] | undefined; error: unknown; loading: boolean; reload: () => void };
  columns: Column<D>[];
  editor: (props: DefinitionEditorProps) => ComponentChildren;
}) {
  const edit = query.get('edit');
  const { base, isArchived } = kind;
  const [importing, setImporting] = useState(false);
  const [cloning, setCloning] = useState<D | null>(null);
  const [notice, setNotice] = useState<{ text: string; id?: string } | null>(null);
  /** The definition just created here and its note: shown only while that one is open (not on the next one opened). */
  const [created, setCreated] = useState<{ id: string; note: string } | null>(null);
  useEffect(() => {
    if (created && edit !== created.id) setCreated(null);
  }, [edit]);
  const [refused, setRefused] = useState<D | null>(null);
  const row = useAction(async (op: 'archive' | 'activate' | 'delete', d: D) => {
    setNotice(null);
    setRefused(null);
    if (op === 'archive') await unwrap(() => api.POST(`${base}/{definition_id}/archive`, at(d.id)));
    else if (op === 'activate') await unwrap(() => api.POST(`${base}/{definition_id}/activate`, at(d.id)));
    else {
      try {
        await unwrap(() => api.DELETE(`${base}/{definition_id}`, at(d.id)));
      } catch (err) {
        // 409: still referenced; the detail advises archiving, offered next to it.
        if (err instanceof ApiError && err.status === 409) setRefused(d);
        throw err;
      }
      setNotice({ text: `Deleted "${d.name}".` });
    }
    list.reload();
  });
  const clone = useAction(async (d: D, name: string | undefined) => {
    setNotice(null);
    const copy = await unwrap(() => api.POST(`${base}/{definition_id}/clone`, { ...at(d.id), ...(name !== undefined ? { body: { name } } : {}) }));
    setCloning(null);
    setNotice({ text: `Cloned as "${copy.name}".`, id: copy.id });
    list.reload();
  });

  if (edit && league) {
    return (
      <Page title={kind.title}>
        {editor({
          league,
          id: edit,
          flash: created?.id === edit ? created.note : null,
          onSaved: (d) => {
            list.reload();
            if (edit === 'new') {
              setCreated({ id: d.id, note: `Created "${d.name}".` });
              setQuery({ edit: d.id });
            }
          },
          onClose: () => setQuery({ edit: undefined }),
        })}
      </Page>
    );
  }

  return (
    <Page
      title={kind.title}
      actions={
        <>
          <button type="button" onClick={() => setQuery({ edit: 'new' })} disabled={!league}>
            New definition
          </button>
          <ExportButton url={`${base}/export`} filename={kind.csvFilename} />
          <button type="button" class="secondary" onClick={() => setImporting(!importing)} aria-expanded={importing}>
            Import CSV
          </button>
        </>
      }
    >
      <DefinitionFilters query={query} league={league} archivedLabel={kind.archivedLabel} pivotal={kind.pivotalFilter} />
      {importing ? <CsvImport url={`${base}/import`} noun={kind.importNoun} onApplied={list.reload} onClose={() => setImporting(false)} /> : null}
      {cloning ? (
        <ClonePrompt original={cloning.name} busy={clone.busy} onClone={(name) => void clone.act(cloning, name)} onCancel={() => setCloning(null)} />
      ) : null}
      <ErrorBox error={clone.error} />
      {notice ? (
        <Notice>
          {notice.text}{' '}
          {notice.id ? (
            <button type="button" class="link" onClick={() => setQuery({ edit: notice.id })}>
              Edit it
            </button>
          ) : null}
        </Notice>
      ) : null}
      <ErrorBox error={list.error ?? row.error} />
      {refused && !isArchived(refused) && row.error && !list.error ? (
        <div class="form-actions">
          <button type="button" class="secondary" disabled={row.busy} onClick={() => void row.act('archive', refused)}>
            Archive "{refused.name}" instead
          </button>
        </div>
      ) : null}
      <Loading when={list.loading && !list.rows} />
      <Table<D>
        rows={list.rows ?? []}
        rowKey={(d) => d.id}
        empty={kind.empty}
        columns={[
          {
            label: 'Name',
            cell: (d) => (
              <div class="def-name">
                <button type="button" class="link" onClick={() => setQuery({ edit: d.id })}>
                  {d.name}
                </button>
                {d.description ? <small>{d.description}</small> : null}
              </div>
            ),
          },
          ...columns,
          { label: 'Updated', cell: (d) => fmtTime(d.updated_at) },
          {
            label: '',
            class: 'row-actions-cell',
            cell: (d) => (
              <div class="row-actions">
                <button type="button" class="small" onClick={() => setQuery({ edit: d.id })}>
                  Edit
                </button>
                <button type="button" class="secondary small" onClick={() => setCloning(d)}>
                  Clone
                </button>
                {isArchived(d) ? (
                  <button type="button" class="secondary small" disabled={row.busy} onClick={() => void row.act('activate', d)}>
                    Activate
                  </button>
                ) : (
                  <button type="button" class="secondary small" disabled={row.busy} onClick={() => void row.act('archive', d)}>
                    Archive
                  </button>
                )}
                <ConfirmButton small label="Delete" question={`Delete "${d.name}"?`} busy={row.busy} onConfirm={() => void row.act('delete', d)} />
              </div>
            ),
          },
        ]}
      />
    </Page>
  );
}

/**
 * Loads what an editor needs (again when `deps` change): until then the
 * loading line; a failure shows the API's error and the way back to the list.
 */
type SampleCatalog = components['schemas']['SampleCatalog'];
type Group = components['schemas']['QuestionGroup'];

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

/** The group of a definition: one of the league's groups, or none (`noneLabel`). */
export function GroupSelect({
  value,
  groups,
  noneLabel,
  onValue,
}: {
  value: string | null | undefined;
  groups: Group[];
  noneLabel: string;
  onValue: (id: string | null) => void;
}) {
  return (
    <select value={value ?? ''} onChange={(e) => onValue((e.target as HTMLSelectElement).value || null)}>
      <option value="">{noneLabel}</option>
      {groups.map((g) => (
        <option value={g.id}>
          {g.name} ({g.slug})
        </option>
      ))}
    </select>
  );
}

/**
 * A definition opened (by its id in the address) under a league that is not
 * its own: the editor would show that league's groups, samples and defaults,
 * so it says where the definition belongs instead.
 */
export function OtherLeagueNotice({ definition, page }: { definition: { id: string; league: string }; page: DefinitionKind<never, never, never>['page'] }) {
  return (
    <Notice>
      This definition belongs to league {definition.league}.{' '}
      <Link href={`${page}?league=${encodeURIComponent(definition.league)}&edit=${definition.id}`}>Open it there</Link>.
    </Notice>
  );
}

export function EditorLoader<T>({
  load,
  deps,
  onClose,
  render,
}: {
  load: () => Promise<T>;
  deps: unknown[];
  onClose: () => void;
  render: (data: T) => ComponentChildren;
}) {
  const data = useAsync(load, deps);
  if (data.error && !data.data) {
    return (
      <>
        <ErrorBox error={data.error} />
        <button type="button" class="secondary" onClick={onClose}>
          Back to the list
        </button>
      </>
    );
  }
  if (!data.data) return <Loading when />;
  return <>{render(data.data)}</>;
}

/**
 * A definition editor's state: the form, a setter per field (it clears the
 * "Saved" note), and save: `persist` creates or replaces (a blank
 * description goes as null), then "Saved at <time>." and `onSaved`.
 */
export function useDefinitionForm<I extends { description?: string | null }, D extends { updated_at: string }>(
  initial: () => I,
  flash: string | null,
  persist: (body: I) => Promise<D>,
  onSaved: (d: D) => void,
) {
  const [form, setForm] = useState<I>(initial);
  const [saved, setSaved] = useState<string | null>(flash);
  const set = <K extends keyof I>(key: K, value: I[K]) => {
    setSaved(null);
    setForm((f) => ({ ...f, [key]: value }));
  };
  const save = useAction(async () => {
    setSaved(null);
    const result = await persist({ ...form, description: form.description?.trim() ? form.description : null });
    setSaved(`Saved at ${new Date(result.updated_at).toLocaleTimeString()}.`);
    onSaved(result);
  });
  return { form, set, save, saved };
}

/**
 * A definition editor's frame: the form (its heading with the league, the
 * kind's fields as `children`, save and "Back to the list") beside the live
 * `preview`.
 */
export function DefinitionEditorFrame({
  label,
  heading,
  league,
  creating,
  editor,
  onClose,
  preview,
  children,
}: {
  label: string;
  heading: string;
  league: string;
  creating: boolean;
  editor: { save: ReturnType<typeof useAction<[]>>; saved: string | null };
  onClose: () => void;
  preview: ComponentChildren;
  children: ComponentChildren;
}) {
  const { save, saved } = editor;
  return (
    <div class="editor-layout">
      <form
        class="card form-grid definition-form"
        aria-label={label}
        onSubmit={(e) => {
          e.preventDefault();
          void save.act();
        }}
      >
        <h2>
          {heading} <small>({league})</small>
        </h2>
        {children}
        <EditorActions busy={save.busy} saveLabel={creating ? 'Create definition' : 'Save definition'} saved={saved} error={save.error}>
          <button type="button" class="secondary" onClick={onClose}>
            Back to the list
          </button>
        </EditorActions>
      </form>
      {preview}
    </div>
  );
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

/** The question text template, the choices, and the extract and store maps side by side, labelled with what the kind's expressions see. */
export function QuestionFields<F extends QuestionForm>({
  form,
  set,
  labels,
}: {
  form: F;
  set: <K extends keyof F>(key: K, value: F[K]) => void;
  labels: QuestionLabels;
}) {
  return (
    <>
      <Field label={labels.template}>
        <textarea
          class="mono"
          rows={3}
          value={form.question_text_template}
          onInput={(e) => set('question_text_template', (e.target as HTMLTextAreaElement).value as F['question_text_template'])}
        />
      </Field>
      <ChoicesEditor choices={form.choices} onValue={(c) => set('choices', c as F['choices'])} />
      <div class="wide json-pair">
        <JsonField
          label={labels.extract}
          value={form.issuance_state_extract}
          onValue={(v) => set('issuance_state_extract', v as F['issuance_state_extract'])}
          rows={4}
        />
        <JsonField label={labels.store} value={form.store_state} onValue={(v) => set('store_state', v as F['store_state'])} rows={4} />
      </div>
    </>
  );
}
