/**
 * Match (pre-game) question definitions of a league: list with the API's
 * filters in the query string, editor (create and full replace) with a live
 * preview on the league's sample match before kick-off, clone, archive
 * (inactive) and activate, delete, CSV export and import (dry run, then apply).
 */
import type { components } from '../../../../generated/api-types.js';
import { api, unwrap } from '../api.js';
import { Badge, Checkbox, Field, JsonField, NumberInput, TextInput, useAsync } from '../components/common.js';
import { ChoicesEditor, PreviewPanel, definitionListQuery, loadGroups, loadSampleCatalog, useLeagueParam } from '../components/catalog.js';
import { DefinitionEditorFrame, DefinitionListPage, EditorLoader, GroupSelect, OtherLeagueNotice, useDefinitionForm, type KindEditorProps, type DefinitionEditorProps, type DefinitionKind } from '../components/definition-catalog.js';
import { useLocation } from '../router.js';

type Definition = components['schemas']['MatchQuestionDefinition'];
type Input = components['schemas']['MatchQuestionDefinitionInput'];

function blankInput(): Input {
  return {
    name: '',
    description: null,
    is_pivotal_moment: false,
    is_active: true,
    group_id: null,
    question_text_template: '{{ match.home_team }} vs {{ match.away_team }}: who wins?',
    choices: [
      { identifier: 'home', label_template: '{{ match.home_team }}' },
      { identifier: 'draw', label_template: 'Draw' },
      { identifier: 'away', label_template: '{{ match.away_team }}' },
    ],
    issuance_state_extract: null,
    store_state: null,
    issue_lead_seconds: 86400,
    resolution: { correct_choice: 'result.winner' },
    points: null,
  };
}

const inputOf = (d: Definition): Input => ({
  name: d.name,
  description: d.description,
  is_pivotal_moment: d.is_pivotal_moment,
  is_active: d.is_active,
  group_id: d.group_id,
  question_text_template: d.question_text_template,
  choices: d.choices.map((c) => ({ ...c })),
  issuance_state_extract: d.issuance_state_extract,
  store_state: d.store_state,
  issue_lead_seconds: d.issue_lead_seconds,
  resolution: { correct_choice: d.resolution.correct_choice },
  points: d.points,
});

/** The sample match as a Match question sees it: before kick-off, no score yet. */
const PRE_MATCH = { status: 'scheduled', period: null, clock_seconds: null, score: { home: 0, away: 0 }, scheduled: new Date(Math.ceil(Date.now() / 86_400_000) * 86_400_000 + 18 * 3_600_000).toISOString(), venue: null };

const leadText = (s: number) => (s % 3600 === 0 ? `${s / 3600} h` : s % 60 === 0 ? `${s / 60} min` : `${s} s`);

function MatchDefinitionEditor({ league, definition, groups, catalog, flash, onSaved, onClose }: KindEditorProps<Definition>) {
  const editor = useDefinitionForm<Input, Definition>(
    () => (definition ? inputOf(definition) : blankInput()),
    flash,
    (body) =>
      definition
        ? unwrap(() => api.PUT('/api/match-question-definitions/{definition_id}', { params: { path: { definition_id: definition.id } }, body }))
        : unwrap(() => api.POST('/api/match-question-definitions', { params: { query: { league } }, body })),
    onSaved,
  );
  const { form, set } = editor;
  return (
    <DefinitionEditorFrame
      label={definition ? `Edit ${definition.name}` : 'New Match question definition'}
      heading={definition ? `Edit "${definition.name}"` : 'New Match question definition'}
      league={league}
      creating={!definition}
      editor={editor}
      onClose={onClose}
      preview={
        <PreviewPanel
          league={league}
          template={form.question_text_template}
          choices={form.choices}
          extract={form.issuance_state_extract ?? null}
          catalog={catalog}
          eventType={catalog?.event_types[0]?.type ?? ''}
          matchOverrides={PRE_MATCH}
          eventControls={false}
          note="Rendered on the league's sample match before kick-off. A Match question sees match, the match's state store before kick-off (state) and its extract (no event)."
        />
      }
    >
      <Field label="Name">
        <TextInput value={form.name} onValue={(v) => set('name', v)} required maxLength={200} />
      </Field>
      <Field label="Issue lead (s before kick-off)" hint={`${leadText(form.issue_lead_seconds ?? 0)} before kick-off; answerable until kick-off`}>
        <NumberInput value={form.issue_lead_seconds} min={0} max={1209600} onValue={(v) => set('issue_lead_seconds', v ?? 0)} />
      </Field>
      <Field label="Description">
        <textarea rows={2} value={form.description ?? ''} onInput={(e) => set('description', (e.target as HTMLTextAreaElement).value)} />
      </Field>
      <Field label="Group" hint="Its points apply when the definition sets none">
        <GroupSelect value={form.group_id} groups={groups} noneLabel="No group" onValue={(v) => set('group_id', v)} />
      </Field>
      <div class="checks wide">
        <Checkbox checked={form.is_pivotal_moment ?? false} onValue={(v) => set('is_pivotal_moment', v)} label="Pivotal moment (counted apart from the match's regular questions)" />
        <Checkbox checked={form.is_active ?? true} onValue={(v) => set('is_active', v)} label="Active (issued on the league's matches; archive sets it off)" />
      </div>
      <Field label="Question text template (Liquid over match, state, extract)">
        <textarea class="mono" rows={3} value={form.question_text_template} onInput={(e) => set('question_text_template', (e.target as HTMLTextAreaElement).value)} />
      </Field>
      <ChoicesEditor choices={form.choices} onValue={(c) => set('choices', c)} />
      <div class="wide json-pair">
        <JsonField label="issuance_state_extract (name -> JSONata over match, state; null for none)" value={form.issuance_state_extract} onValue={(v) => set('issuance_state_extract', v as Input['issuance_state_extract'])} rows={4} />
        <JsonField label="store_state (state key -> JSONata, written at issue; null for none)" value={form.store_state} onValue={(v) => set('store_state', v as Input['store_state'])} rows={4} />
      </div>
      <Field label="Correct choice (JSONata over result, match)" hint="result: home_score, away_score, winner (home, away or draw), home_team, away_team, goals">
        <input class="mono" value={form.resolution.correct_choice} onInput={(e) => set('resolution', { correct_choice: (e.target as HTMLInputElement).value })} />
      </Field>
      <Field label="Points" hint="Blank: the league's default">
        <NumberInput value={form.points} min={0} max={100000} onValue={(v) => set('points', v)} />
      </Field>
    </DefinitionEditorFrame>
  );
}

function MatchEditor({ league, id, flash, onSaved, onClose }: DefinitionEditorProps) {
  return (
    <EditorLoader
      load={async () => {
        const [definition, groups, catalog] = await Promise.all([
          id === 'new' ? Promise.resolve(null) : unwrap(() => api.GET('/api/match-question-definitions/{definition_id}', { params: { path: { definition_id: id } } })),
          loadGroups(league),
          loadSampleCatalog(league),
        ]);
        return { definition, groups, catalog };
      }}
      deps={[league, id]}
      onClose={onClose}
      render={({ definition, groups, catalog }) =>
        definition && definition.league !== league ? (
          <OtherLeagueNotice definition={definition} page="/admin/match-definitions" />
        ) : (
          <MatchDefinitionEditor key={definition?.id ?? 'new'} league={league} definition={definition} groups={groups} catalog={catalog} flash={flash} onSaved={onSaved} onClose={onClose} />
        )
      }
    />
  );
}

const MATCH: DefinitionKind<Definition> = {
  base: '/api/match-question-definitions',
  title: 'Match questions',
  csvFilename: 'match-question-definitions.csv',
  importNoun: 'Match question definitions',
  archivedLabel: 'Include inactive (archived)',
  pivotalFilter: true,
  empty: 'No Match question definitions match these filters.',
  isArchived: (d) => !d.is_active,
};

export function MatchDefinitionsPage() {
  const { query } = useLocation();
  const league = useLeagueParam(query);
  const pivotal = query.get('pivotal') ?? '';
  const listQuery = definitionListQuery(query);
  const list = useAsync(
    () => (league ? unwrap(() => api.GET('/api/match-question-definitions', { params: { query: { league, ...listQuery, ...(pivotal ? { is_pivotal_moment: pivotal === 'true' } : {}) } } })) : Promise.resolve([] as Definition[])),
    [league, JSON.stringify(listQuery), pivotal],
  );
  return (
    <DefinitionListPage
      kind={MATCH}
      query={query}
      league={league}
      list={{ rows: list.data, error: list.error, loading: list.loading, reload: list.reload }}
      editor={(props) => <MatchEditor {...props} />}
      columns={[
        { label: 'Question', cell: (d) => <code>{d.question_text_template}</code> },
        { label: 'Pivotal', cell: (d) => (d.is_pivotal_moment ? 'yes' : '') },
        { label: 'Issued', cell: (d) => `${leadText(d.issue_lead_seconds)} before` },
        { label: 'Points', cell: (d) => d.points ?? 'league', class: 'num' },
        { label: 'Status', cell: (d) => (d.is_active ? <Badge tone="good">active</Badge> : <Badge tone="warn">inactive</Badge>) },
      ]}
    />
  );
}
