/**
 * The match settings form: overrides of the league defaults, sponsor brand,
 * feed URL, flags and the two definition allowlists; saving sends only what
 * changed.
 */
import type { components } from '../../../../../generated/api-types.js';
import { api, unwrap } from '../../api.js';
import { Checkbox, EditorActions, ErrorBox, Field, JsonField, NumberInput, useAsync } from '../common.js';
import { usePatchForm } from '../controls.js';
import type { League } from '../leagues.js';
import type { Match } from './shared.js';

type MatchPatch = components['schemas']['MatchPatch'];

interface DefOption {
  id: string;
  name: string;
  note?: string;
}

/** An allowlist: null (none: the league's applies) or the ids of the definitions checked. */
function AllowlistField({
  label,
  value,
  options,
  onValue,
}: {
  label: string;
  value: string[] | null;
  options: DefOption[];
  onValue: (v: string[] | null) => void;
}) {
  const unknown = (value ?? []).filter((id) => !options.some((o) => o.id === id));
  const all = [...options, ...unknown.map((id) => ({ id, name: id, note: 'not a definition of this league' }))];
  return (
    <fieldset class="allowlist wide">
      <legend>{label}</legend>
      <label class="check">
        <input type="radio" checked={value === null} onChange={() => onValue(null)} /> No allowlist (the league's allowlist or each definition's active flag
        decides)
      </label>
      <label class="check">
        <input type="radio" checked={value !== null} onChange={() => onValue(value ?? [])} /> Only the definitions checked below ({value?.length ?? 0})
      </label>
      {value !== null ? (
        <div class="allowlist-options">
          {all.length === 0 ? <span class="muted">No definitions in this league.</span> : null}
          {all.map((o) => (
            <label class="check" key={o.id}>
              <input
                type="checkbox"
                checked={value.includes(o.id)}
                onChange={(e) => onValue((e.target as HTMLInputElement).checked ? [...value, o.id] : value.filter((id) => id !== o.id))}
              />{' '}
              {o.name}
              {o.note ? <small class="muted"> ({o.note})</small> : null}
            </label>
          ))}
        </div>
      ) : null}
    </fieldset>
  );
}

type SettingsForm = {
  question_max_count: number | null;
  question_min_interval_seconds: number | null;
  question_period_distribution: unknown;
  question_points: number | null;
  answer_window_seconds: number | null;
  min_answer_seconds: number | null;
  question_probability: number | null;
  question_definition_allowlist: string[] | null;
  match_question_definition_allowlist: string[] | null;
  auto_dispatch_listener: boolean;
  is_test: boolean;
  sponsor_brand_id: string | null;
  feed_url: string | null;
};

const formOf = (m: Match): SettingsForm => ({
  question_max_count: m.overrides.question_max_count,
  question_min_interval_seconds: m.overrides.question_min_interval_seconds,
  question_period_distribution: m.overrides.question_period_distribution,
  question_points: m.overrides.question_points,
  answer_window_seconds: m.overrides.answer_window_seconds,
  min_answer_seconds: m.overrides.min_answer_seconds,
  question_probability: m.overrides.question_probability,
  question_definition_allowlist: m.question_definition_allowlist,
  match_question_definition_allowlist: m.match_question_definition_allowlist,
  auto_dispatch_listener: m.auto_dispatch_listener,
  is_test: m.is_test,
  sponsor_brand_id: m.sponsor_brand_id,
  feed_url: m.feed_url,
});

export interface MatchSettingsProps {
  match: Match;
  league: League | undefined;
  onSaved: (m: Match) => void;
}

export function MatchSettings({ match, league, onSaved }: MatchSettingsProps) {
  const { form, set, changed, save, saved, setSaved, undo } = usePatchForm({
    stored: match,
    formOf,
    send: (changes) => unwrap(() => api.PATCH('/api/matches/{match_id}', { params: { path: { match_id: match.id } }, body: changes as MatchPatch })),
    savedText: (changed) => `Saved ${changed.length} setting${changed.length === 1 ? '' : 's'}.`,
    onSaved,
  });
  const brands = useAsync(() => unwrap(() => api.GET('/api/brands')), []);
  const defs = useAsync(
    () =>
      Promise.all([
        unwrap(() => api.GET('/api/question-definitions', { params: { query: { league: match.league, include_inactive: true } } })),
        unwrap(() => api.GET('/api/match-question-definitions', { params: { query: { league: match.league, include_inactive: true } } })),
      ]),
    [match.league],
  );
  const inherit = (v: number | undefined) => (v === undefined ? 'inherit' : `inherit (${v})`);
  const inGame: DefOption[] = (defs.data?.[0] ?? []).map((d) => ({
    id: d.id,
    name: d.name,
    ...(d.is_archived ? { note: 'archived' } : !d.is_active ? { note: 'inactive' } : {}),
  }));
  const matchDefs: DefOption[] = (defs.data?.[1] ?? []).map((d) => ({ id: d.id, name: d.name, ...(!d.is_active ? { note: 'inactive' } : {}) }));
  return (
    <form
      class="card form-grid"
      aria-label="Match settings"
      onSubmit={(e) => {
        e.preventDefault();
        void save.act();
      }}
    >
      <p class="muted wide form-note">Empty fields inherit the league default (shown in grey); saving sends only what changed.</p>
      <Field label="Regular questions (cap)">
        <NumberInput
          value={form.question_max_count}
          onValue={set('question_max_count')}
          min={0}
          max={200}
          placeholder={inherit(league?.default_question_max_count)}
        />
      </Field>
      <Field label="Minimum interval (s)">
        <NumberInput
          value={form.question_min_interval_seconds}
          onValue={set('question_min_interval_seconds')}
          min={0}
          placeholder={inherit(league?.default_question_min_interval_seconds)}
        />
      </Field>
      <Field label="Points">
        <NumberInput value={form.question_points} onValue={set('question_points')} min={0} placeholder={inherit(league?.default_question_points)} />
      </Field>
      <Field label="Answer window (s)">
        <NumberInput
          value={form.answer_window_seconds}
          onValue={set('answer_window_seconds')}
          min={1}
          placeholder={inherit(league?.default_answer_window_seconds)}
        />
      </Field>
      <Field label="Minimum answer time (s)">
        <NumberInput
          value={form.min_answer_seconds}
          onValue={set('min_answer_seconds')}
          min={0}
          max={3600}
          placeholder={inherit(league?.default_min_answer_seconds)}
        />
      </Field>
      <Field label="Probability (0 to 1)">
        <NumberInput
          value={form.question_probability}
          onValue={set('question_probability')}
          min={0}
          max={1}
          step="0.05"
          placeholder={inherit(league?.default_question_probability)}
        />
      </Field>
      <Field label="Sponsor brand">
        <select value={form.sponsor_brand_id ?? ''} onChange={(e) => set('sponsor_brand_id')((e.target as HTMLSelectElement).value || null)}>
          <option value="">No sponsor</option>
          {(brands.data ?? []).map((b) => (
            <option value={b.id}>{b.name}</option>
          ))}
          {form.sponsor_brand_id && brands.data && !brands.data.some((b) => b.id === form.sponsor_brand_id) ? (
            <option value={form.sponsor_brand_id}>{form.sponsor_brand_id}</option>
          ) : null}
        </select>
      </Field>
      <label class="field wide">
        <span class="field-label">Feed URL</span>
        <input
          type="text"
          inputMode="url"
          spellcheck={false}
          value={form.feed_url ?? ''}
          placeholder="https://feeds.example.com/..."
          onInput={(e) => set('feed_url')((e.target as HTMLInputElement).value.trim() || null)}
        />
        <small class="hint">
          The provider's live push feed its listener reads (http or https, no credentials in it); empty detaches it. A running listener keeps the feed it
          started with.
        </small>
      </label>
      <div class="field">
        <span class="field-label">Flags</span>
        <Checkbox label="Auto-dispatch a listener" checked={form.auto_dispatch_listener} onValue={set('auto_dispatch_listener')} />
        <Checkbox label="Test match" checked={form.is_test} onValue={set('is_test')} />
      </div>
      <JsonField
        label={`Period distribution (period -> questions; null inherits ${league ? JSON.stringify(league.default_question_period_distribution) : 'the league default'})`}
        value={form.question_period_distribution}
        onValue={set('question_period_distribution')}
        rows={3}
      />
      <AllowlistField
        label="In-game question allowlist"
        value={form.question_definition_allowlist}
        options={inGame}
        onValue={set('question_definition_allowlist')}
      />
      <AllowlistField
        label="Match question allowlist"
        value={form.match_question_definition_allowlist}
        options={matchDefs}
        onValue={set('match_question_definition_allowlist')}
      />
      <ErrorBox error={brands.error ?? defs.error} />
      <EditorActions busy={save.busy} saveLabel="Save settings" saved={saved} error={save.error}>
        <button
          type="button"
          class="secondary"
          disabled={!changed.length}
          onClick={() => {
            undo();
            setSaved(null);
          }}
        >
          Undo changes
        </button>
        {changed.length ? <span class="muted">changed: {changed.join(', ')}</span> : null}
      </EditorActions>
    </form>
  );
}
