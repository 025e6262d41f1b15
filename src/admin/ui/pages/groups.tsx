/** Question groups (issuance lanes) of a league: list, create, edit (slug fixed after create), delete, CSV export. */
import { useState } from 'preact/hooks';
import type { components } from '../../../../generated/api-types.js';
import { api, unwrap } from '../api.js';
import { EditorActions, ErrorBox, Field, JsonField, Loading, Notice, NumberInput, Page, Table, TextInput, useAction, useAsync } from '../components/common.js';
import { ExportButton } from '../components/catalog/csv-export.js';
import { EditToggle, useInlineEditor } from '../components/catalog/inline-editor.js';
import { useLeagueParam } from '../components/catalog/league-param.js';
import { QuestionOverrideFields } from '../components/catalog/question-overrides.js';
import { ConfirmButton } from '../components/controls.js';
import { LeagueSelect, useLeagues } from '../components/leagues.js';
import { setQuery, useLocation } from '../router.js';

type Group = components['schemas']['QuestionGroup'];

interface GroupForm {
  slug: string;
  name: string;
  description: string;
  max_open_questions: number;
  question_max_count: number | null;
  min_interval_seconds: number | null;
  period_distribution: unknown;
  answer_window_seconds: number | null;
  min_answer_seconds: number | null;
  points: number | null;
  probability: number | null;
}

const formOf = (g: Group | null): GroupForm => ({
  slug: g?.slug ?? '',
  name: g?.name ?? '',
  description: g?.description ?? '',
  max_open_questions: g?.max_open_questions ?? 1,
  question_max_count: g?.question_max_count ?? null,
  min_interval_seconds: g?.min_interval_seconds ?? null,
  period_distribution: g?.period_distribution ?? null,
  answer_window_seconds: g?.answer_window_seconds ?? null,
  min_answer_seconds: g?.min_answer_seconds ?? null,
  points: g?.points ?? null,
  probability: g?.probability ?? null,
});

function GroupEditor({
  league,
  group,
  periods,
  flash,
  onSaved,
  onClose,
}: {
  league: string;
  group: Group | null;
  periods: string[];
  flash: boolean;
  onSaved: (g: Group) => void;
  onClose: () => void;
}) {
  const [form, setForm] = useState<GroupForm>(() => formOf(group));
  const [saved, setSaved] = useState(flash);
  const set =
    <K extends keyof GroupForm>(key: K) =>
    (value: GroupForm[K]) => {
      setSaved(false);
      setForm((f) => ({ ...f, [key]: value }));
    };
  const save = useAction(async () => {
    const { slug, ...rest } = form;
    const fields = { ...rest, description: rest.description.trim() ? rest.description : null, period_distribution: rest.period_distribution };
    const result = group
      ? await unwrap(() => api.PATCH('/api/question-groups/{group_id}', { params: { path: { group_id: group.id } }, body: fields }))
      : await unwrap(() => api.POST('/api/question-groups', { params: { query: { league } }, body: { slug, ...fields } }));
    setSaved(true);
    onSaved(result);
  });
  return (
    <form
      class="card form-grid group-form"
      aria-label={group ? `Edit group ${group.slug}` : 'New question group'}
      onSubmit={(e) => {
        e.preventDefault();
        void save.act();
      }}
    >
      <h2>
        {group ? `Edit "${group.name}"` : 'New question group'} <small>({league})</small>
      </h2>
      {group ? (
        <div class="field">
          <span class="field-label">Slug</span>
          <code class="readonly" aria-label="Slug (read-only)">
            {group.slug}
          </code>
          <small class="hint">Fixed after create.</small>
        </div>
      ) : (
        <Field label="Slug" hint="a-z, 0-9, - and _; cannot change later">
          <TextInput value={form.slug} onValue={set('slug')} required maxLength={64} class="mono" />
        </Field>
      )}
      <Field label="Name">
        <TextInput value={form.name} onValue={set('name')} required maxLength={120} />
      </Field>
      <Field label="Open at once (lane width)">
        <NumberInput value={form.max_open_questions} min={1} max={20} onValue={(v) => set('max_open_questions')(v ?? 1)} />
      </Field>
      <Field label="Questions per match" hint="Blank: only the match cap applies">
        <NumberInput value={form.question_max_count} min={0} max={200} onValue={set('question_max_count')} />
      </Field>
      <Field label="Minimum interval (s)" hint="Blank inherits">
        <NumberInput value={form.min_interval_seconds} min={0} max={86400} onValue={set('min_interval_seconds')} />
      </Field>
      <QuestionOverrideFields values={form} onValue={(key, v) => set(key)(v)} />
      <Field label="Description">
        <textarea rows={2} value={form.description} onInput={(e) => set('description')((e.target as HTMLTextAreaElement).value)} />
      </Field>
      <JsonField
        label={`Period distribution (period -> questions, or null; periods ${periods.join(', ')})`}
        value={form.period_distribution}
        onValue={set('period_distribution')}
        rows={4}
      />
      <EditorActions busy={save.busy} saveLabel={group ? 'Save group' : 'Create group'} saved={saved ? 'Saved.' : null} error={save.error}>
        <button type="button" class="secondary" onClick={onClose}>
          Close
        </button>
      </EditorActions>
    </form>
  );
}

export function GroupsPage() {
  const { query } = useLocation();
  const league = useLeagueParam(query);
  const leagues = useLeagues();
  const periods = leagues.find((l) => l.slug === league)?.periods ?? [];
  const editor = useInlineEditor();
  const groups = useAsync(
    () => (league ? unwrap(() => api.GET('/api/question-groups', { params: { query: { league } } })) : Promise.resolve([] as Group[])),
    [league],
  );
  const remove = useAction(async (g: Group) => {
    editor.setNotice(null);
    await unwrap(() => api.DELETE('/api/question-groups/{group_id}', { params: { path: { group_id: g.id } } }));
    editor.closeIf(g.id);
    editor.setNotice(`Deleted group ${g.slug}.`);
    groups.reload();
  });
  const current = editor.openOf(groups.data);
  return (
    <Page
      title="Question groups"
      actions={
        <>
          <button type="button" disabled={!league} onClick={editor.openNew}>
            New group
          </button>
          <ExportButton url="/api/question-groups/export" filename="question-groups.csv" label="Export CSV (all leagues)" />
        </>
      }
    >
      <div class="filters">
        <Field label="League">
          <LeagueSelect
            remember
            value={league}
            onValue={(v) => {
              editor.close();
              setQuery({ league: v });
            }}
          />
        </Field>
      </div>
      <p class="hint lead-hint">
        A group is an issuance lane: its questions open at most "open at once" at a time on a match, with their own caps and overrides of the league's settings.
      </p>
      {current !== undefined ? (
        <GroupEditor
          key={`${league}:${editor.editing}`}
          league={league}
          group={current}
          periods={periods}
          flash={editor.flash}
          onSaved={(g) => {
            groups.reload();
            editor.saved(g.id);
          }}
          onClose={editor.close}
        />
      ) : null}
      {editor.notice ? <Notice>{editor.notice}</Notice> : null}
      <ErrorBox error={groups.error ?? remove.error} />
      <Loading when={groups.loading && !groups.data} />
      <Table<Group>
        rows={groups.data ?? []}
        rowKey={(g) => g.id}
        empty="This league has no question groups yet."
        columns={[
          { label: 'Slug', cell: (g) => <code class="slug">{g.slug}</code> },
          {
            label: 'Name',
            cell: (g) => (
              <div class="def-name">
                <span>{g.name}</span>
                {g.description ? <small>{g.description}</small> : null}
              </div>
            ),
          },
          { label: 'Open at once', cell: (g) => g.max_open_questions, class: 'num' },
          {
            label: 'Caps',
            cell: (g) => (
              <div class="facts">
                <span>per match: {g.question_max_count ?? <span class="muted">match cap</span>}</span>
                <span>per period: {g.period_distribution ? <code>{JSON.stringify(g.period_distribution)}</code> : <span class="muted">none</span>}</span>
              </div>
            ),
          },
          {
            label: 'Overrides',
            cell: (g) => {
              const set = [
                g.min_interval_seconds !== null ? `interval ${g.min_interval_seconds} s` : null,
                g.answer_window_seconds !== null ? `window ${g.answer_window_seconds} s` : null,
                g.min_answer_seconds !== null ? `min. answer ${g.min_answer_seconds} s` : null,
                g.points !== null ? `${g.points} points` : null,
                g.probability !== null ? `probability ${g.probability}` : null,
              ].filter(Boolean);
              return set.length ? (
                <div class="facts">
                  {set.map((t) => (
                    <span>{t}</span>
                  ))}
                </div>
              ) : (
                <span class="muted">inherits the league</span>
              );
            },
          },
          {
            label: '',
            class: 'row-actions-cell',
            cell: (g) => (
              <div class="row-actions">
                <EditToggle editor={editor} id={g.id} />
                <ConfirmButton small label="Delete" question={`Delete group ${g.slug}?`} busy={remove.busy} onConfirm={() => void remove.act(g)} />
              </div>
            ),
          },
        ]}
      />
    </Page>
  );
}
