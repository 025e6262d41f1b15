/**
 * What both kinds' definition editors are made of: the loader, the form's
 * state and save, the frame (heading, fields, save, the preview beside), the
 * question fields both show alike, the group choice, and the notice for a
 * definition opened under another league.
 */
import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { Link } from '../../router.js';
import { EditorActions, ErrorBox, Field, JsonField, Loading, Notice, useAction, useAsync } from '../common.js';
import type { DefinitionKind, Group, QuestionForm, QuestionLabels } from '../definition-catalog.js';
import { ChoicesEditor } from './choices-editor.js';

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

/**
 * Loads what an editor needs (again when `deps` change): until then the
 * loading line; a failure shows the API's error and the way back to the list.
 */
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
