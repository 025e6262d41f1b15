/** Leagues and their question defaults. */
import { useState } from 'preact/hooks';
import { api, unwrap } from '../api.js';
import { ErrorBox, Field, JsonField, Loading, Notice, NumberInput, Page, Table, useAction, useAsync } from '../components/common.js';
import { loadLeagues, type League } from '../components/leagues.js';

function LeagueEditor({ league, onSaved }: { league: League; onSaved: () => void }) {
  const [form, setForm] = useState({
    default_question_max_count: league.default_question_max_count,
    default_question_min_interval_seconds: league.default_question_min_interval_seconds,
    default_question_points: league.default_question_points,
    default_answer_window_seconds: league.default_answer_window_seconds,
    default_min_answer_seconds: league.default_min_answer_seconds,
    default_question_probability: league.default_question_probability,
    default_question_period_distribution: league.default_question_period_distribution as unknown,
    question_definition_allowlist: league.question_definition_allowlist as unknown,
    match_question_definition_allowlist: league.match_question_definition_allowlist as unknown,
  });
  const [saved, setSaved] = useState(false);
  const save = useAction(async () => {
    setSaved(false);
    await unwrap(() =>
      api.PATCH('/api/leagues/{league_id}', {
        params: { path: { league_id: league.id } },
        body: {
          ...form,
          question_definition_allowlist: form.question_definition_allowlist as string[] | null,
          match_question_definition_allowlist: form.match_question_definition_allowlist as string[] | null,
        },
      }),
    );
    setSaved(true);
    onSaved();
  });
  const set =
    <K extends keyof typeof form>(key: K) =>
    (value: (typeof form)[K]) =>
      setForm({ ...form, [key]: value });
  return (
    <form
      class="card form-grid"
      aria-label={`Defaults of ${league.slug}`}
      onSubmit={(e) => {
        e.preventDefault();
        void save.act();
      }}
    >
      <h2>
        {league.name}{' '}
        <small>
          ({league.slug}, {league.sport}; periods {league.periods.join(', ')})
        </small>
      </h2>
      <Field label="Regular questions per match">
        <NumberInput value={form.default_question_max_count} onValue={(v) => set('default_question_max_count')(v ?? 0)} min={0} />
      </Field>
      <Field label="Minimum interval (s)">
        <NumberInput value={form.default_question_min_interval_seconds} onValue={(v) => set('default_question_min_interval_seconds')(v ?? 0)} min={0} />
      </Field>
      <Field label="Points">
        <NumberInput value={form.default_question_points} onValue={(v) => set('default_question_points')(v ?? 0)} min={0} />
      </Field>
      <Field label="Answer window (s)">
        <NumberInput value={form.default_answer_window_seconds} onValue={(v) => set('default_answer_window_seconds')(v ?? 1)} min={1} />
      </Field>
      <Field label="Minimum answer time (s)" hint="An in-game question decided sooner after it was asked is voided; 0: off">
        <NumberInput value={form.default_min_answer_seconds} onValue={(v) => set('default_min_answer_seconds')(v ?? 0)} min={0} max={3600} />
      </Field>
      <Field label="Probability (0 to 1)">
        <NumberInput value={form.default_question_probability} onValue={(v) => set('default_question_probability')(v ?? 1)} min={0} max={1} step="0.05" />
      </Field>
      <JsonField
        label="Period distribution (period -> questions)"
        value={form.default_question_period_distribution}
        onValue={set('default_question_period_distribution')}
        rows={3}
      />
      <JsonField
        label="In-game allowlist (definition ids, or null)"
        value={form.question_definition_allowlist}
        onValue={set('question_definition_allowlist')}
        rows={2}
      />
      <JsonField
        label="Match question allowlist (definition ids, or null)"
        value={form.match_question_definition_allowlist}
        onValue={set('match_question_definition_allowlist')}
        rows={2}
      />
      <div class="form-actions">
        <button type="submit" disabled={save.busy}>
          {save.busy ? 'Saving...' : 'Save defaults'}
        </button>
        {saved ? <Notice>Saved.</Notice> : null}
      </div>
      <ErrorBox error={save.error} />
    </form>
  );
}

export function LeaguesPage() {
  const leagues = useAsync(() => loadLeagues(true), []);
  const [editing, setEditing] = useState<string | null>(null);
  return (
    <Page title="Leagues">
      <Loading when={leagues.loading && !leagues.data} />
      <ErrorBox error={leagues.error} />
      <Table
        rows={leagues.data ?? []}
        rowKey={(l) => l.id}
        columns={[
          { label: 'League', cell: (l) => `${l.name} (${l.slug})` },
          { label: 'Questions', cell: (l) => l.default_question_max_count },
          { label: 'Interval (s)', cell: (l) => l.default_question_min_interval_seconds },
          { label: 'Per period', cell: (l) => <code>{JSON.stringify(l.default_question_period_distribution)}</code> },
          { label: 'Points', cell: (l) => l.default_question_points },
          { label: 'Window (s)', cell: (l) => l.default_answer_window_seconds },
          { label: 'Min. answer (s)', cell: (l) => l.default_min_answer_seconds },
          { label: '', cell: (l) => <button onClick={() => setEditing(editing === l.id ? null : l.id)}>{editing === l.id ? 'Close' : 'Edit'}</button> },
        ]}
      />
      {(leagues.data ?? [])
        .filter((l) => l.id === editing)
        .map((l) => (
          <LeagueEditor key={l.id} league={l} onSaved={leagues.reload} />
        ))}
    </Page>
  );
}
