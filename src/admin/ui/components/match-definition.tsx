/**
 * Match (pre-game) question definitions in the operator UI: the list's
 * columns (question, lead, points, status) and the editor's fields (issue
 * lead, correct choice from the result) with the live preview on the
 * league's sample match before kick-off.
 */
import type { components } from '../../../../generated/api-types.js';
import { api, unwrap } from '../api.js';
import { Badge, Checkbox, Field, NumberInput, TextInput } from './common.js';
import { PreviewPanel } from './catalog/preview-panel.js';
import { GroupSelect } from './catalog/definition-editor.js';
import { NEW_DEFINITION_HEAD, definitionHead, type DefinitionKind, type KindFieldsProps, type KindPreviewProps } from './definition-catalog.js';

type Definition = components['schemas']['MatchQuestionDefinition'];
type Input = components['schemas']['MatchQuestionDefinitionInput'];

function blankInput(): Input {
  return {
    ...NEW_DEFINITION_HEAD,
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
  ...definitionHead(d),
  question_text_template: d.question_text_template,
  choices: d.choices.map((c) => ({ ...c })),
  issuance_state_extract: d.issuance_state_extract,
  store_state: d.store_state,
  issue_lead_seconds: d.issue_lead_seconds,
  resolution: { correct_choice: d.resolution.correct_choice },
  points: d.points,
});

/** The sample match as a Match question sees it: before kick-off, no score yet. */
const PRE_MATCH = {
  status: 'scheduled',
  period: null,
  clock_seconds: null,
  score: { home: 0, away: 0 },
  scheduled: new Date(Math.ceil(Date.now() / 86_400_000) * 86_400_000 + 18 * 3_600_000).toISOString(),
  venue: null,
};

const leadText = (s: number) => (s % 3600 === 0 ? `${s / 3600} h` : s % 60 === 0 ? `${s / 60} min` : `${s} s`);

function MatchPreview({ league, form, catalog }: KindPreviewProps<Input>) {
  return (
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
  );
}

function MatchFields({ form, set, question, groups }: KindFieldsProps<Definition, Input>) {
  return (
    <>
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
        <Checkbox
          checked={form.is_pivotal_moment ?? false}
          onValue={(v) => set('is_pivotal_moment', v)}
          label="Pivotal moment (counted apart from the match's regular questions)"
        />
        <Checkbox checked={form.is_active ?? true} onValue={(v) => set('is_active', v)} label="Active (issued on the league's matches; archive sets it off)" />
      </div>
      {question}
      <Field
        label="Correct choice (JSONata over result, match)"
        hint="result: home_score, away_score, winner (home, away or draw), home_team, away_team, goals"
      >
        <input
          class="mono"
          value={form.resolution.correct_choice}
          onInput={(e) => set('resolution', { correct_choice: (e.target as HTMLInputElement).value })}
        />
      </Field>
      <Field label="Points" hint="Blank: the league's default">
        <NumberInput value={form.points} min={0} max={100000} onValue={(v) => set('points', v)} />
      </Field>
    </>
  );
}

export const MATCH_DEFINITIONS: DefinitionKind<Definition, Definition, Input> = {
  base: '/api/match-question-definitions',
  page: '/admin/match-definitions',
  title: 'Match questions',
  csvFilename: 'match-question-definitions.csv',
  importNoun: 'Match question definitions',
  archivedLabel: 'Include inactive (archived)',
  pivotalFilter: true,
  empty: 'No Match question definitions match these filters.',
  isArchived: (d) => !d.is_active,
  list: (league, query) => unwrap(() => api.GET('/api/match-question-definitions', { params: { query: { league, ...query } } })),
  showsGroups: false,
  columns: () => [
    { label: 'Question', cell: (d) => <code>{d.question_text_template}</code> },
    { label: 'Pivotal', cell: (d) => (d.is_pivotal_moment ? 'yes' : '') },
    { label: 'Issued', cell: (d) => `${leadText(d.issue_lead_seconds)} before` },
    { label: 'Points', cell: (d) => d.points ?? 'league', class: 'num' },
    { label: 'Status', cell: (d) => (d.is_active ? <Badge tone="good">active</Badge> : <Badge tone="warn">inactive</Badge>) },
  ],
  get: (id) => unwrap(() => api.GET('/api/match-question-definitions/{definition_id}', { params: { path: { definition_id: id } } })),
  create: (league, body) => unwrap(() => api.POST('/api/match-question-definitions', { params: { query: { league } }, body })),
  replace: (id, body) => unwrap(() => api.PUT('/api/match-question-definitions/{definition_id}', { params: { path: { definition_id: id } }, body })),
  blankInput,
  inputOf,
  newLabel: 'New Match question definition',
  newHeading: 'New Match question definition',
  questionLabels: {
    template: 'Question text template (Liquid over match, state, extract)',
    extract: 'issuance_state_extract (name -> JSONata over match, state; null for none)',
    store: 'store_state (state key -> JSONata, written at issue; null for none)',
  },
  Fields: MatchFields,
  Preview: MatchPreview,
};
