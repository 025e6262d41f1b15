/**
 * In-game question definitions in the operator UI: the list's columns
 * (trigger, group, flags) and the editor's fields (trigger, resolution
 * rules, timeout, overrides) with the live preview of the sample event.
 */
import type { components } from '../../../../generated/api-types.js';
import { api, unwrap } from '../api.js';
import { Badge, Checkbox, Field, NumberInput, TextInput, Token } from './common.js';
import type { SampleCatalog } from './catalog/loaders.js';
import { PreviewPanel } from './catalog/preview-panel.js';
import { QuestionOverrideFields } from './catalog/question-overrides.js';
import { GroupSelect } from './catalog/definition-editor.js';
import { NEW_DEFINITION_HEAD, definitionHead, type DefinitionKind, type KindFieldsProps, type KindPreviewProps } from './definition-catalog.js';

type Summary = components['schemas']['QuestionDefinitionSummary'];
type Definition = components['schemas']['QuestionDefinition'];
type Input = components['schemas']['QuestionDefinitionInput'];
type Rule = components['schemas']['ResolutionRule'];

function blankInput(eventType: string): Input {
  return {
    ...NEW_DEFINITION_HEAD,
    trigger: { event_type: eventType, condition: null },
    question_text_template: '',
    choices: [
      { identifier: 'yes', label_template: 'Yes' },
      { identifier: 'no', label_template: 'No' },
    ],
    issuance_state_extract: null,
    store_state: null,
    resolution: { rules: [{ event_type: eventType, condition: null, correct_choice: '"yes"' }], timeout: null },
    answer_window_seconds: null,
    min_answer_seconds: null,
    points: null,
    probability: null,
  };
}

function inputOf(d: Definition): Input {
  return {
    ...definitionHead(d),
    trigger: { event_type: d.trigger.event_type, condition: d.trigger.condition ?? null },
    question_text_template: d.question_text_template,
    choices: d.choices.map((c) => ({ ...c })),
    issuance_state_extract: d.issuance_state_extract,
    store_state: d.store_state,
    resolution: { rules: d.resolution.rules.map((r) => ({ ...r, condition: r.condition ?? null })), timeout: d.resolution.timeout ?? null },
    answer_window_seconds: d.answer_window_seconds,
    min_answer_seconds: d.min_answer_seconds,
    points: d.points,
    probability: d.probability,
  };
}

const emptyToNull = (s: string) => (s.trim() === '' ? null : s);

function EventTypeSelect({
  value,
  onValue,
  catalog,
  label,
}: {
  value: string;
  onValue: (v: string) => void;
  catalog: SampleCatalog | undefined;
  label: string;
}) {
  const types = catalog?.event_types ?? [];
  return (
    <select value={value} aria-label={label} onChange={(e) => onValue((e.target as HTMLSelectElement).value)}>
      {types.some((t) => t.type === value) ? null : <option value={value}>{value || '(choose)'}</option>}
      {types.map((t) => (
        <option value={t.type} title={t.description}>
          {t.type}
        </option>
      ))}
    </select>
  );
}

function RulesEditor({ rules, onValue, catalog }: { rules: Rule[]; onValue: (r: Rule[]) => void; catalog: SampleCatalog | undefined }) {
  const set = (i: number, patch: Partial<Rule>) => onValue(rules.map((r, j) => (j === i ? { ...r, ...patch } : r)));
  return (
    <fieldset class="rows wide">
      <legend>Resolution rules (first matching rule decides)</legend>
      {rules.map((r, i) => (
        <div class="rule-row">
          <div class="rule-head">
            <strong>Rule {i + 1}</strong>
            <EventTypeSelect label={`Rule ${i + 1} event type`} value={r.event_type} onValue={(v) => set(i, { event_type: v })} catalog={catalog} />
            <button
              type="button"
              class="secondary small"
              aria-label={`Remove rule ${i + 1}`}
              disabled={rules.length <= 1}
              onClick={() => onValue(rules.filter((_, j) => j !== i))}
            >
              Remove
            </button>
          </div>
          <label class="inline-field">
            <span>When</span>
            <input
              class="mono"
              aria-label={`Rule ${i + 1} condition`}
              placeholder="JSONata over event, state, match, issuance; blank: always"
              value={r.condition ?? ''}
              onInput={(e) => set(i, { condition: emptyToNull((e.target as HTMLInputElement).value) })}
            />
          </label>
          <label class="inline-field">
            <span>Correct</span>
            <input
              class="mono"
              aria-label={`Rule ${i + 1} correct choice`}
              placeholder='JSONata giving a choice identifier, e.g. "yes" or event.team'
              value={r.correct_choice}
              onInput={(e) => set(i, { correct_choice: (e.target as HTMLInputElement).value })}
            />
          </label>
        </div>
      ))}
      <div>
        <button
          type="button"
          class="secondary small"
          disabled={rules.length >= 20}
          onClick={() => onValue([...rules, { event_type: rules[rules.length - 1]?.event_type ?? '', condition: null, correct_choice: '' }])}
        >
          Add rule
        </button>
      </div>
    </fieldset>
  );
}

function InGamePreview({ league, form, catalog }: KindPreviewProps<Input>) {
  return (
    <PreviewPanel
      league={league}
      template={form.question_text_template}
      choices={form.choices}
      extract={form.issuance_state_extract ?? null}
      catalog={catalog}
      eventType={form.trigger.event_type}
    />
  );
}

function InGameFields({ form, set, question, definition, groups, catalog }: KindFieldsProps<Definition, Input>) {
  const timeout = form.resolution.timeout ?? null;
  const setTimeoutValue = (t: typeof timeout) => set('resolution', { ...form.resolution, timeout: t });
  return (
    <>
      {definition?.is_archived ? (
        <p class="wide">
          <Badge tone="warn">archived</Badge> <small class="hint">Never issued until activated again.</small>
        </p>
      ) : null}
      <Field label="Name">
        <TextInput value={form.name} onValue={(v) => set('name', v)} required maxLength={200} />
      </Field>
      <Field label="Group">
        <GroupSelect value={form.group_id} groups={groups} noneLabel="League default lane (no group)" onValue={(v) => set('group_id', v)} />
      </Field>
      <Field label="Description">
        <textarea rows={2} value={form.description ?? ''} onInput={(e) => set('description', (e.target as HTMLTextAreaElement).value)} />
      </Field>
      <div class="checks wide">
        <Checkbox
          checked={form.is_pivotal_moment ?? false}
          onValue={(v) => set('is_pivotal_moment', v)}
          label="Pivotal moment (not counted in the match's cap)"
        />
        <Checkbox checked={form.is_active ?? true} onValue={(v) => set('is_active', v)} label="Active (included by default on the league's matches)" />
      </div>
      <fieldset class="rows wide">
        <legend>Trigger</legend>
        <div class="trigger-row">
          <Field label="Trigger event type">
            <EventTypeSelect
              label="Trigger event type"
              value={form.trigger.event_type}
              onValue={(v) => set('trigger', { ...form.trigger, event_type: v })}
              catalog={catalog}
            />
          </Field>
          <Field label="Condition (JSONata over event, state, match; blank: always)">
            <input
              class="mono"
              value={form.trigger.condition ?? ''}
              onInput={(e) => set('trigger', { ...form.trigger, condition: emptyToNull((e.target as HTMLInputElement).value) })}
            />
          </Field>
        </div>
        {catalog ? <small class="hint">{catalog.event_types.find((t) => t.type === form.trigger.event_type)?.description}</small> : null}
      </fieldset>
      {question}
      <RulesEditor rules={form.resolution.rules} onValue={(rules) => set('resolution', { ...form.resolution, rules })} catalog={catalog} />
      <fieldset class="rows wide">
        <legend>Timeout</legend>
        <Checkbox
          checked={timeout !== null}
          onValue={(v) => setTimeoutValue(v ? { after_seconds: 300, correct_choice: form.choices[form.choices.length - 1]?.identifier ?? null } : null)}
          label="Resolve on timeout"
        />
        {timeout ? (
          <div class="trigger-row">
            <Field label="After (match-clock seconds)">
              <NumberInput value={timeout.after_seconds} min={1} max={36000} onValue={(v) => setTimeoutValue({ ...timeout, after_seconds: v ?? 1 })} />
            </Field>
            <Field label="Correct choice on timeout">
              <select
                value={timeout.correct_choice ?? ''}
                onChange={(e) => setTimeoutValue({ ...timeout, correct_choice: (e.target as HTMLSelectElement).value || null })}
              >
                <option value="">(void the question)</option>
                {form.choices
                  .filter((c) => c.identifier)
                  .map((c) => (
                    <option value={c.identifier}>{c.identifier}</option>
                  ))}
                {timeout.correct_choice && !form.choices.some((c) => c.identifier === timeout.correct_choice) ? (
                  <option value={timeout.correct_choice}>{timeout.correct_choice}</option>
                ) : null}
              </select>
            </Field>
          </div>
        ) : null}
      </fieldset>
      <QuestionOverrideFields values={form} onValue={set} />
    </>
  );
}

export const IN_GAME_DEFINITIONS: DefinitionKind<Summary, Definition, Input> = {
  base: '/api/question-definitions',
  page: '/admin/definitions',
  title: 'In-game questions',
  csvFilename: 'question-definitions.csv',
  importNoun: 'in-game definitions',
  archivedLabel: 'Include archived',
  pivotalFilter: true,
  empty: 'No definitions match these filters.',
  isArchived: (d) => d.is_archived,
  list: (league, query) => unwrap(() => api.GET('/api/question-definitions', { params: { query: { league, ...query } } })),
  showsGroups: true,
  columns: (groupSlug) => [
    { label: 'Trigger', cell: (d) => <Token>{d.trigger_event_type}</Token> },
    { label: 'Group', cell: (d) => groupSlug(d.group_id) },
    {
      label: 'Flags',
      cell: (d) => (
        <span class="badges">
          {d.is_pivotal_moment ? <Badge tone="live">pivotal</Badge> : null}
          {d.is_active ? <Badge tone="good">active</Badge> : <Badge>inactive</Badge>}
          {d.is_archived ? <Badge tone="warn">archived</Badge> : null}
        </span>
      ),
    },
  ],
  get: (id) => unwrap(() => api.GET('/api/question-definitions/{definition_id}', { params: { path: { definition_id: id } } })),
  create: (league, body) => unwrap(() => api.POST('/api/question-definitions', { params: { query: { league } }, body })),
  replace: (id, body) => unwrap(() => api.PUT('/api/question-definitions/{definition_id}', { params: { path: { definition_id: id } }, body })),
  blankInput: (catalog) => blankInput(catalog?.event_types[0]?.type ?? ''),
  inputOf,
  newLabel: 'New definition',
  newHeading: 'New in-game definition',
  questionLabels: {
    template: 'Question text template (Liquid over event, state, match, extract)',
    extract: 'issuance_state_extract (name -> JSONata; null for none)',
    store: 'store_state (state key -> JSONata; null for none)',
  },
  Fields: InGameFields,
  Preview: InGamePreview,
};
