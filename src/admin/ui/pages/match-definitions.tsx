/**
 * Match (pre-game) question definitions of a league: list with the API's
 * filters in the query string, editor (create and full replace) with a live
 * preview on the league's sample match before kick-off, clone, archive
 * (inactive) and activate, delete, CSV export and import (dry run, then apply).
 */
import { useState } from 'preact/hooks';
import type { components } from '../../../../generated/api-types.js';
import { api, ApiError, unwrap } from '../api.js';
import { Badge, Checkbox, ErrorBox, Field, Loading, Notice, NumberInput, Page, Table, TextInput, fmtTime, useAction, useAsync } from '../components/common.js';
import { ChoicesEditor, ClonePrompt, ConfirmButton, CsvImport, DefinitionFilters, ExportButton, PreviewPanel, definitionListQuery, loadSampleCatalog, useLeagueParam, type SampleCatalog } from '../components/catalog.js';
import { setQuery, useLocation } from '../router.js';

type Definition = components['schemas']['MatchQuestionDefinition'];
type Input = components['schemas']['MatchQuestionDefinitionInput'];

function blankInput(): Input {
  return {
    name: '',
    description: null,
    is_active: true,
    question_text_template: '{{ match.home_team }} vs {{ match.away_team }}: who wins?',
    choices: [
      { identifier: 'home', label_template: '{{ match.home_team }}' },
      { identifier: 'draw', label_template: 'Draw' },
      { identifier: 'away', label_template: '{{ match.away_team }}' },
    ],
    issue_lead_seconds: 86400,
    resolution: { correct_choice: 'result.winner' },
    points: null,
  };
}

const inputOf = (d: Definition): Input => ({
  name: d.name,
  description: d.description,
  is_active: d.is_active,
  question_text_template: d.question_text_template,
  choices: d.choices.map((c) => ({ ...c })),
  issue_lead_seconds: d.issue_lead_seconds,
  resolution: { correct_choice: d.resolution.correct_choice },
  points: d.points,
});

/** The sample match as a Match question sees it: before kick-off, no score yet. */
const PRE_MATCH = { status: 'scheduled', period: null, clock_seconds: null, score: { home: 0, away: 0 }, scheduled: new Date(Math.ceil(Date.now() / 86_400_000) * 86_400_000 + 18 * 3_600_000).toISOString(), venue: null };

const leadText = (s: number) => (s % 3600 === 0 ? `${s / 3600} h` : s % 60 === 0 ? `${s / 60} min` : `${s} s`);

function MatchDefinitionEditor({ league, definition, catalog, flash, onSaved, onClose }: { league: string; definition: Definition | null; catalog: SampleCatalog | undefined; flash: string | null; onSaved: (d: Definition) => void; onClose: () => void }) {
  const [form, setForm] = useState<Input>(() => (definition ? inputOf(definition) : blankInput()));
  const [saved, setSaved] = useState<string | null>(flash);
  const set = <K extends keyof Input>(key: K, value: Input[K]) => {
    setSaved(null);
    setForm((f) => ({ ...f, [key]: value }));
  };
  const save = useAction(async () => {
    setSaved(null);
    const body = { ...form, description: form.description?.trim() ? form.description : null };
    const result = definition
      ? await unwrap(() => api.PUT('/api/match-question-definitions/{definition_id}', { params: { path: { definition_id: definition.id } }, body }))
      : await unwrap(() => api.POST('/api/match-question-definitions', { params: { query: { league } }, body }));
    setSaved(`Saved at ${new Date(result.updated_at).toLocaleTimeString()}.`);
    onSaved(result);
  });
  return (
    <div class="editor-layout">
      <form
        class="card form-grid definition-form"
        aria-label={definition ? `Edit ${definition.name}` : 'New Match question definition'}
        onSubmit={(e) => {
          e.preventDefault();
          void save.act();
        }}
      >
        <h2>
          {definition ? `Edit "${definition.name}"` : 'New Match question definition'} <small>({league})</small>
        </h2>
        <Field label="Name">
          <TextInput value={form.name} onValue={(v) => set('name', v)} required maxLength={200} />
        </Field>
        <Field label="Issue lead (s before kick-off)" hint={`${leadText(form.issue_lead_seconds ?? 0)} before kick-off; answerable until kick-off`}>
          <NumberInput value={form.issue_lead_seconds} min={0} max={1209600} onValue={(v) => set('issue_lead_seconds', v ?? 0)} />
        </Field>
        <Field label="Description">
          <textarea rows={2} value={form.description ?? ''} onInput={(e) => set('description', (e.target as HTMLTextAreaElement).value)} />
        </Field>
        <div class="checks wide">
          <Checkbox checked={form.is_active ?? true} onValue={(v) => set('is_active', v)} label="Active (issued on the league's matches; archive sets it off)" />
        </div>
        <Field label="Question text template (Liquid over match)">
          <textarea class="mono" rows={3} value={form.question_text_template} onInput={(e) => set('question_text_template', (e.target as HTMLTextAreaElement).value)} />
        </Field>
        <ChoicesEditor choices={form.choices} onValue={(c) => set('choices', c)} />
        <Field label="Correct choice (JSONata over result, match)" hint="result: home_score, away_score, winner (home, away or draw), home_team, away_team, goals">
          <input class="mono" value={form.resolution.correct_choice} onInput={(e) => set('resolution', { correct_choice: (e.target as HTMLInputElement).value })} />
        </Field>
        <Field label="Points" hint="Blank: the league's default">
          <NumberInput value={form.points} min={0} max={100000} onValue={(v) => set('points', v)} />
        </Field>
        <div class="form-actions">
          <button type="submit" disabled={save.busy}>
            {save.busy ? 'Saving...' : definition ? 'Save definition' : 'Create definition'}
          </button>
          <button type="button" class="secondary" onClick={onClose}>
            Back to the list
          </button>
          {saved ? <Notice>{saved}</Notice> : null}
        </div>
        <ErrorBox error={save.error} />
      </form>
      <PreviewPanel
        league={league}
        template={form.question_text_template}
        choices={form.choices}
        catalog={catalog}
        eventType={catalog?.event_types[0]?.type ?? ''}
        matchOverrides={PRE_MATCH}
        eventControls={false}
        note="Rendered on the league's sample match before kick-off. A Match question sees only match (no event or state)."
      />
    </div>
  );
}

function EditorLoader({ league, id, flash, onSaved, onClose }: { league: string; id: string; flash: string | null; onSaved: (d: Definition) => void; onClose: () => void }) {
  const data = useAsync(
    async () => {
      const [definition, catalog] = await Promise.all([
        id === 'new' ? Promise.resolve(null) : unwrap(() => api.GET('/api/match-question-definitions/{definition_id}', { params: { path: { definition_id: id } } })),
        loadSampleCatalog(league),
      ]);
      return { definition, catalog };
    },
    [league, id],
  );
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
  return <MatchDefinitionEditor key={data.data.definition?.id ?? 'new'} league={league} definition={data.data.definition} catalog={data.data.catalog} flash={flash} onSaved={onSaved} onClose={onClose} />;
}

export function MatchDefinitionsPage() {
  const { query } = useLocation();
  const league = useLeagueParam(query);
  const edit = query.get('edit');
  const listQuery = definitionListQuery(query);
  const [version, setVersion] = useState(0);
  const [importing, setImporting] = useState(false);
  const [cloning, setCloning] = useState<Definition | null>(null);
  const [notice, setNotice] = useState<{ text: string; id?: string } | null>(null);
  const [flash, setFlash] = useState<string | null>(null);
  const list = useAsync(() => (league ? unwrap(() => api.GET('/api/match-question-definitions', { params: { query: { league, ...listQuery } } })) : Promise.resolve([] as Definition[])), [league, JSON.stringify(listQuery), version]);
  const reload = () => setVersion((v) => v + 1);
  const [refused, setRefused] = useState<Definition | null>(null);
  const row = useAction(async (op: 'archive' | 'activate' | 'delete', d: Definition) => {
    setNotice(null);
    setRefused(null);
    const path = { params: { path: { definition_id: d.id } } };
    if (op === 'archive') await unwrap(() => api.POST('/api/match-question-definitions/{definition_id}/archive', path));
    else if (op === 'activate') await unwrap(() => api.POST('/api/match-question-definitions/{definition_id}/activate', path));
    else {
      try {
        await unwrap(() => api.DELETE('/api/match-question-definitions/{definition_id}', path));
      } catch (err) {
        // 409: still referenced; the detail advises archiving, offered next to it.
        if (err instanceof ApiError && err.status === 409) setRefused(d);
        throw err;
      }
      setNotice({ text: `Deleted "${d.name}".` });
    }
    reload();
  });
  const clone = useAction(async (d: Definition, name: string | undefined) => {
    setNotice(null);
    const copy = await unwrap(() => api.POST('/api/match-question-definitions/{definition_id}/clone', { params: { path: { definition_id: d.id } }, ...(name !== undefined ? { body: { name } } : {}) }));
    setCloning(null);
    setNotice({ text: `Cloned as "${copy.name}".`, id: copy.id });
    reload();
  });

  if (edit && league) {
    return (
      <Page title="Match questions">
        <EditorLoader
          league={league}
          id={edit}
          flash={flash}
          onSaved={(d) => {
            reload();
            if (edit === 'new') {
              setFlash(`Created "${d.name}".`);
              setQuery({ edit: d.id });
            }
          }}
          onClose={() => {
            setFlash(null);
            setQuery({ edit: undefined });
          }}
        />
      </Page>
    );
  }

  return (
    <Page
      title="Match questions"
      actions={
        <>
          <button type="button" onClick={() => setQuery({ edit: 'new' })} disabled={!league}>
            New definition
          </button>
          <ExportButton url="/api/match-question-definitions/export" filename="match-question-definitions.csv" />
          <button type="button" class="secondary" onClick={() => setImporting(!importing)} aria-expanded={importing}>
            Import CSV
          </button>
        </>
      }
    >
      <DefinitionFilters query={query} league={league} archivedLabel="Include inactive (archived)" pivotal={false} />
      {importing ? <CsvImport url="/api/match-question-definitions/import" noun="Match question definitions" onApplied={reload} onClose={() => setImporting(false)} /> : null}
      {cloning ? <ClonePrompt original={cloning.name} busy={clone.busy} onClone={(name) => void clone.act(cloning, name)} onCancel={() => setCloning(null)} /> : null}
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
      {refused && refused.is_active && row.error && !list.error ? (
        <div class="form-actions">
          <button type="button" class="secondary" disabled={row.busy} onClick={() => void row.act('archive', refused)}>
            Archive "{refused.name}" instead
          </button>
        </div>
      ) : null}
      <Loading when={list.loading && !list.data} />
      <Table<Definition>
        rows={list.data ?? []}
        rowKey={(d) => d.id}
        empty="No Match question definitions match these filters."
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
          { label: 'Question', cell: (d) => <code>{d.question_text_template}</code> },
          { label: 'Issued', cell: (d) => `${leadText(d.issue_lead_seconds)} before` },
          { label: 'Points', cell: (d) => d.points ?? 'league', class: 'num' },
          { label: 'Status', cell: (d) => (d.is_active ? <Badge tone="good">active</Badge> : <Badge tone="warn">inactive</Badge>) },
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
                {d.is_active ? (
                  <button type="button" class="secondary small" disabled={row.busy} onClick={() => void row.act('archive', d)}>
                    Archive
                  </button>
                ) : (
                  <button type="button" class="secondary small" disabled={row.busy} onClick={() => void row.act('activate', d)}>
                    Activate
                  </button>
                )}
                <ConfirmButton label="Delete" question={`Delete "${d.name}"?`} disabled={row.busy} onConfirm={() => void row.act('delete', d)} />
              </div>
            ),
          },
        ]}
      />
    </Page>
  );
}
