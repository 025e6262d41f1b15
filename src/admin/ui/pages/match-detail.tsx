/**
 * One match: header, listener actions (clone, start, stop), its listeners
 * with progress, the event timeline, its in-game and Match questions and
 * blocked attempts, its settings (overrides, allowlists, auto-dispatch,
 * feed URL, sponsor), and where each effective question setting comes from.
 * The match is read with GET /api/matches/{match_id}, which answers admins
 * with the operator view.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import type { components } from '../../../../generated/api-types.js';
import { api, operatorView, unwrap } from '../api.js';
import { Badge, Checkbox, EditorActions, ErrorBox, Field, JsonField, Loading, Notice, NumberInput, Page, Table, Token, fmtTime, useAction, useAsync } from '../components/common.js';
import { LeaderboardTable } from '../components/leaderboards.js';
import { ConfirmButton, Pager, Section, UUID_RE, fmtClock, fmtWhen, shortId, usePatchForm, usePolling, utcDayOf, utcDayRange } from '../components/controls.js';
import { loadLeagues, type League } from '../components/leagues.js';
import { LogViewer, ListenerTable, listenerActive, type MatchListener } from '../components/listener-views.js';
import { EventTimelineChart } from '../components/timeline.js';
import { Link, navigate, setQuery, useLocation } from '../router.js';
import { statusTone } from './matches.js';

type Match = components['schemas']['MatchDetail'];
type MatchPatch = components['schemas']['MatchPatch'];
type Issuance = components['schemas']['QuestionIssuance'];
type Denial = components['schemas']['IssuanceDenial'];
type Inheritance = components['schemas']['QuestionInheritance'];
type BrandSummary = components['schemas']['BrandSummary'];
type SettingSource = components['schemas']['SettingSource'];

/** Gate ids, in the order the engine runs them (the contract lists them on the denials operation; the browser test holds this copy to the engine's GATES). */
export const GATES = ['listener_running', 'definition_allowed', 'match_cap', 'period_quota', 'min_interval', 'group_lane', 'probability', 'render'] as const;

const POLL_MS = 2000;

/** The match in the operator view (the API's 404 names the resource). */
async function getMatch(id: string): Promise<Match> {
  if (!UUID_RE.test(id)) throw new Error(`"${id}" is not a match id`);
  return operatorView(await unwrap(() => api.GET('/api/matches/{match_id}', { params: { path: { match_id: id } } })));
}

export function BrandChip({ brand, prefix }: { brand: BrandSummary | null | undefined; prefix?: string }) {
  if (!brand) return <span class="muted">-</span>;
  return (
    <span class="brand-chip" title={brand.id}>
      <i class="swatch" style={{ background: brand.primary_color }} />
      {prefix ? `${prefix} ` : ''}
      {brand.name}
    </span>
  );
}

const SOURCE_TONE: Record<SettingSource, 'neutral' | 'good' | 'warn' | 'live'> = { league: 'neutral', group: 'warn', definition: 'good', match: 'live' };
function Source({ source }: { source: SettingSource }) {
  return (
    <span class={`source source-${source}`} title={`from the ${source}`}>
      <Badge tone={SOURCE_TONE[source]}>{source}</Badge>
    </span>
  );
}

const fmtValue = (v: unknown) => (v === null || v === undefined ? 'null' : typeof v === 'object' ? JSON.stringify(v) : String(v));

function Inherited({ value, source }: { value: unknown; source: SettingSource }) {
  return (
    <span class="inherited">
      <code>{fmtValue(value)}</code> <Source source={source} />
    </span>
  );
}

/**
 * A row of the match settings table: the league default, the match's
 * override, and the effective value with its source (without one: set per
 * definition, in the matrix below). `asCode` shows the first two as JSON code.
 */
function SettingRow({ label, leagueDefault, override, effective, asCode = false }: { label: string; leagueDefault: unknown; override: unknown; effective?: { value: unknown; source: SettingSource }; asCode?: boolean }) {
  const cell = (v: unknown) => (asCode ? <code>{fmtValue(v)}</code> : fmtValue(v));
  return (
    <tr>
      <td>{label}</td>
      <td>{cell(leagueDefault)}</td>
      <td>{cell(override)}</td>
      {effective ? (
        <td>
          <Inherited {...effective} />
        </td>
      ) : (
        <td class="muted">per definition, below</td>
      )}
    </tr>
  );
}

function MatchHeader({ match }: { match: Match }) {
  const score = match.home_score === null ? '-' : `${match.home_score} - ${match.away_score}`;
  return (
    <div class="card match-head" aria-label="Match">
      <div class="match-score">
        <span class="team">{match.home_team}</span>
        <span class="score" aria-label="Score">
          {score}
        </span>
        <span class="team">{match.away_team}</span>
      </div>
      <div class="match-state">
        <Badge tone={statusTone(match.status)}>{match.status}</Badge>
        {match.period !== null ? (
          <span>
            period {match.period}, {fmtClock(match.clock_seconds)}
          </span>
        ) : null}
        <span>kick-off {fmtTime(match.scheduled)}</span>
        <span>
          league <strong>{match.league}</strong>
        </span>
        <span title="provider match id">
          <code>{match.sr_id}</code>
        </span>
        <span aria-label="Feed">{match.feed_url ? <>feed <code class="feed-url">{match.feed_url}</code></> : <span class="muted">no feed attached</span>}</span>
      </div>
      <div class="match-flags" aria-label="Flags">
        {match.is_test ? <Badge>test match</Badge> : <Badge tone="good">real match</Badge>}
        {match.listener_events_archived ? <Badge tone="good">events recorded</Badge> : <Badge>no recording</Badge>}
        <Badge tone={match.auto_dispatch_listener ? 'good' : 'neutral'}>auto-dispatch {match.auto_dispatch_listener ? 'on' : 'off'}</Badge>
        {match.is_followed ? <Badge tone="live">you follow it</Badge> : null}
        {match.cloned_from_match_id ? (
          <span>
            cloned from <Link href={`/admin/matches/${match.cloned_from_match_id}`}>{shortId(match.cloned_from_match_id)}</Link>
          </span>
        ) : null}
        <span>
          questions {match.question_issuance_count}/{match.question_max_count}, {match.pivotal_moment_issuance_count} pivotal, {match.sponsored_question_count} sponsored slots
        </span>
        <span>
          sponsor <BrandChip brand={match.sponsor_brand} />
        </span>
      </div>
    </div>
  );
}

function MatchActions({ match, active, onChanged }: { match: Match; active: boolean; onChanged: () => void }) {
  const [speed, setSpeed] = useState<number | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const clone = useAction(async () => {
    const copy = await unwrap(() => api.POST('/api/matches/{match_id}/clone', { params: { path: { match_id: match.id } } }));
    navigate(`/admin/matches/${copy.id}`);
  });
  const start = useAction(async () => {
    setNotice(null);
    const listener = await unwrap(() =>
      api.POST('/api/matches/{match_id}/start-listener', { params: { path: { match_id: match.id } }, ...(speed !== null ? { body: { speed } } : {}) }),
    );
    const which = `listener ${shortId(listener.id)} (replay at speed ${listener.speed ?? 1})`;
    // The notice says what the request did; the Listeners table follows the listener from there.
    setNotice(`${listener.status === 'queued' ? `Queued ${which}` : `The ${which} was already ${listener.status}`}; the Listeners table below follows its progress.`);
    onChanged();
  });
  const stop = useAction(async () => {
    setNotice(null);
    const result = await unwrap(() => api.POST('/api/matches/{match_id}/stop-listener', { params: { path: { match_id: match.id } } }));
    const n = result.stopped_listener_ids.length;
    setNotice(
      `Stopped ${n} listener${n === 1 ? '' : 's'}${n ? ` (${result.stopped_listener_ids.map(shortId).join(', ')})` : ''}; revoked ${result.revoked_issuance_count} open question${result.revoked_issuance_count === 1 ? '' : 's'}.`,
    );
    onChanged();
  });
  const remove = useAction(async () => {
    await unwrap(() => api.DELETE('/api/matches/{match_id}', { params: { path: { match_id: match.id } } }));
    navigate('/admin/matches');
  });
  const busy = clone.busy || start.busy || stop.busy || remove.busy;
  return (
    <div class="card match-actions" role="group" aria-label="Listener actions">
      <div class="form-actions">
        {match.status === 'closed' ? (
          <button type="button" disabled={busy} onClick={() => void clone.act()}>
            {clone.busy ? 'Cloning...' : 'Clone as test match'}
          </button>
        ) : null}
        {match.is_test ? (
          <>
            <label class="check speed">
              Speed
              <NumberInput value={speed} onValue={setSpeed} min={0.1} max={1000} step="0.1" placeholder="10" aria-label="Replay speed" />
            </label>
            <button type="button" disabled={busy} onClick={() => void start.act()}>
              {start.busy ? 'Starting...' : 'Start listener'}
            </button>
          </>
        ) : null}
        {active ? (
          <ConfirmButton
            label="Stop listener"
            question="Stop this match's listeners and revoke its open questions?"
            confirmLabel="Stop and revoke"
            busy={busy}
            onConfirm={() => void stop.act()}
          />
        ) : null}
        {match.is_test ? (
          <ConfirmButton label="Delete test match" question="Delete this test match with its listeners, questions and answers?" confirmLabel="Delete" busy={busy} onConfirm={() => void remove.act()} />
        ) : null}
        {active ? <span class="muted">a listener is queued or running; this page refreshes every few seconds</span> : null}
      </div>
      {notice ? <Notice>{notice}</Notice> : null}
      <ErrorBox error={clone.error ?? start.error ?? stop.error ?? remove.error} />
    </div>
  );
}

interface DefOption {
  id: string;
  name: string;
  note?: string;
}

/** An allowlist: null (none: the league's applies) or the ids of the definitions checked. */
function AllowlistField({ label, value, options, onValue }: { label: string; value: string[] | null; options: DefOption[]; onValue: (v: string[] | null) => void }) {
  const unknown = (value ?? []).filter((id) => !options.some((o) => o.id === id));
  const all = [...options, ...unknown.map((id) => ({ id, name: id, note: 'not a definition of this league' }))];
  return (
    <fieldset class="allowlist wide">
      <legend>{label}</legend>
      <label class="check">
        <input type="radio" checked={value === null} onChange={() => onValue(null)} /> No allowlist (the league's allowlist or each definition's active flag decides)
      </label>
      <label class="check">
        <input type="radio" checked={value !== null} onChange={() => onValue(value ?? [])} /> Only the definitions checked below ({value?.length ?? 0})
      </label>
      {value !== null ? (
        <div class="allowlist-options">
          {all.length === 0 ? <span class="muted">No definitions in this league.</span> : null}
          {all.map((o) => (
            <label class="check" key={o.id}>
              <input type="checkbox" checked={value.includes(o.id)} onChange={(e) => onValue((e.target as HTMLInputElement).checked ? [...value, o.id] : value.filter((id) => id !== o.id))} /> {o.name}
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
  question_probability: m.overrides.question_probability,
  question_definition_allowlist: m.question_definition_allowlist,
  match_question_definition_allowlist: m.match_question_definition_allowlist,
  auto_dispatch_listener: m.auto_dispatch_listener,
  is_test: m.is_test,
  sponsor_brand_id: m.sponsor_brand_id,
  feed_url: m.feed_url,
});

function MatchSettings({ match, league, onSaved }: { match: Match; league: League | undefined; onSaved: (m: Match) => void }) {
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
  const inGame: DefOption[] = (defs.data?.[0] ?? []).map((d) => ({ id: d.id, name: d.name, ...(d.is_archived ? { note: 'archived' } : !d.is_active ? { note: 'inactive' } : {}) }));
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
        <NumberInput value={form.question_max_count} onValue={set('question_max_count')} min={0} max={200} placeholder={inherit(league?.default_question_max_count)} />
      </Field>
      <Field label="Minimum interval (s)">
        <NumberInput value={form.question_min_interval_seconds} onValue={set('question_min_interval_seconds')} min={0} placeholder={inherit(league?.default_question_min_interval_seconds)} />
      </Field>
      <Field label="Points">
        <NumberInput value={form.question_points} onValue={set('question_points')} min={0} placeholder={inherit(league?.default_question_points)} />
      </Field>
      <Field label="Answer window (s)">
        <NumberInput value={form.answer_window_seconds} onValue={set('answer_window_seconds')} min={1} placeholder={inherit(league?.default_answer_window_seconds)} />
      </Field>
      <Field label="Probability (0 to 1)">
        <NumberInput value={form.question_probability} onValue={set('question_probability')} min={0} max={1} step="0.05" placeholder={inherit(league?.default_question_probability)} />
      </Field>
      <Field label="Sponsor brand">
        <select value={form.sponsor_brand_id ?? ''} onChange={(e) => set('sponsor_brand_id')((e.target as HTMLSelectElement).value || null)}>
          <option value="">No sponsor</option>
          {(brands.data ?? []).map((b) => (
            <option value={b.id}>{b.name}</option>
          ))}
          {form.sponsor_brand_id && brands.data && !brands.data.some((b) => b.id === form.sponsor_brand_id) ? <option value={form.sponsor_brand_id}>{form.sponsor_brand_id}</option> : null}
        </select>
      </Field>
      <label class="field wide">
        <span class="field-label">Feed URL</span>
        <input type="text" inputMode="url" spellcheck={false} value={form.feed_url ?? ''} placeholder="https://feeds.example.com/..." onInput={(e) => set('feed_url')((e.target as HTMLInputElement).value.trim() || null)} />
        <small class="hint">The provider's live push feed its listener reads (http or https, no credentials in it); empty detaches it. A running listener keeps the feed it started with.</small>
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
      <AllowlistField label="In-game question allowlist" value={form.question_definition_allowlist} options={inGame} onValue={set('question_definition_allowlist')} />
      <AllowlistField label="Match question allowlist" value={form.match_question_definition_allowlist} options={matchDefs} onValue={set('match_question_definition_allowlist')} />
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

/** Issuances of one kind: in-game questions (numbered, with the match clock) or Match questions (issued before kick-off, locking at it). */
function IssuanceTable({ kind, issuances }: { kind: 'in_game' | 'match'; issuances: Issuance[] }) {
  const tone = (s: Issuance['status']) => (s === 'open' ? 'live' : s === 'resolved' ? 'good' : s === 'revoked' ? 'bad' : s === 'locked' ? 'neutral' : 'warn');
  return (
    <Table<Issuance>
      rows={issuances}
      rowKey={(i) => i.id}
      empty={kind === 'in_game' ? 'No in-game questions issued on this match.' : 'No Match questions issued on this match.'}
      columns={[
        { label: '#', class: 'num', cell: (i) => (i.is_pivotal_moment ? <Badge tone="live">pivotal</Badge> : (i.question_number ?? '-')) },
        { label: 'Status', cell: (i) => <Badge tone={tone(i.status)}>{i.status}</Badge> },
        {
          label: 'Question',
          class: 'wide-cell',
          cell: (i) => (
            <div>
              <div class="question-text">{i.question_text}</div>
              <small class="muted">
                {i.definition_name} · {i.choices.map((c) => `${c.identifier}: ${c.label}`).join(' / ')}
              </small>
            </div>
          ),
        },
        {
          label: 'Correct answer',
          cell: (i) => {
            if (!i.correct_answer_identifier) return <span class="muted">-</span>;
            const label = i.choices.find((c) => c.identifier === i.correct_answer_identifier)?.label;
            return (
              <span>
                <code>{i.correct_answer_identifier}</code>
                {label ? ` (${label})` : ''}
              </span>
            );
          },
        },
        { label: 'Points', class: 'num', cell: (i) => i.points },
        { label: 'Answers', class: 'num', cell: (i) => i.answer_count },
        {
          label: 'Sponsor',
          cell: (i) => (
            <span>
              <BrandChip brand={i.sponsor_brand} />
              {i.match_sponsor_brand ? (
                <div class="text-small">
                  <BrandChip brand={i.match_sponsor_brand} prefix="match:" />
                </div>
              ) : null}
            </span>
          ),
        },
        {
          label: 'Issued / ended',
          cell: (i) => (
            <span class="text-small">
              {i.period !== null ? `P${i.period} ${fmtClock(i.clock_seconds)} · ` : ''}
              {fmtWhen(i.issued_at)}
              <div class="muted">{i.resolved_at ? `ended ${fmtWhen(i.resolved_at)}` : `${kind === 'match' ? 'locks' : 'closes'} ${fmtWhen(i.closes_at)}`}</div>
            </span>
          ),
        },
      ]}
    />
  );
}

function Denials({ matchId, failedStep, refreshKey }: { matchId: string; failedStep: string; refreshKey: number }) {
  const [limit, setLimit] = useState(50);
  const [offset, setOffset] = useState(0);
  useEffect(() => setOffset(0), [matchId, failedStep]);
  const denials = useAsync(
    () =>
      unwrap(() =>
        api.GET('/api/matches/{match_id}/question-issuance-denials', { params: { path: { match_id: matchId }, query: { limit, offset, ...(failedStep ? { failed_step: failedStep } : {}) } } }),
      ),
    [matchId, failedStep, limit, offset, refreshKey],
  );
  const rows = denials.data?.denials ?? [];
  const total = denials.data?.denial_count ?? 0;
  return (
    <Section
      id="denials"
      title={
        <>
          Issuance denials <small>({total})</small>
        </>
      }
      tools={
        <label class="check">
          Failed step
          <select value={failedStep} aria-label="Failed step" onChange={(e) => setQuery({ failed_step: (e.target as HTMLSelectElement).value })}>
            <option value="">Any gate</option>
            {GATES.map((g) => (
              <option value={g}>{g}</option>
            ))}
          </select>
        </label>
      }
    >
      <ErrorBox error={denials.error} />
      <div class="scroll-box">
        <Table<Denial>
          rows={rows}
          rowKey={(d) => d.id}
          empty={failedStep ? `No attempt was blocked at ${failedStep}.` : 'No attempt was blocked on this match.'}
          columns={[
            { label: 'When', cell: (d) => <span class="text-small nowrap">{fmtWhen(d.created_at)}</span> },
            { label: 'Definition', cell: (d) => d.definition_name },
            { label: 'Failed step', cell: (d) => <Badge tone="warn"><Token>{d.failed_step}</Token></Badge> },
            { label: 'Detail', class: 'wide-cell', cell: (d) => d.detail },
            {
              label: 'Trigger',
              cell: (d) => (
                <span class="text-small">
                  <Token>{d.trigger_event_type}</Token>
                  {d.period !== null ? ` · P${d.period} ${fmtClock(d.clock_seconds)}` : ''}
                  <div class="muted">
                    <Token>{d.trigger_event_id}</Token>
                  </div>
                </span>
              ),
            },
          ]}
        />
      </div>
      {denials.data ? (
        <Pager
          label="denials"
          offset={offset}
          limit={limit}
          total={total}
          onOffset={setOffset}
          onLimit={(l) => {
            setLimit(l);
            setOffset(0);
          }}
        />
      ) : null}
    </Section>
  );
}

function InheritanceView({ matchId, kind, refreshKey }: { matchId: string; kind: 'in_game' | 'match'; refreshKey: number }) {
  const data = useAsync(() => unwrap(() => api.GET('/api/matches/{match_id}/question-inheritance', { params: { path: { match_id: matchId }, query: { kind } } })), [matchId, kind, refreshKey]);
  const inh: Inheritance | undefined = data.data;
  const names = new Map((inh?.definitions ?? []).map((d) => [d.id, d.name]));
  const overrides = inh?.match_overrides ?? null;
  return (
    <Section
      id="inheritance"
      title="Question inheritance"
      tools={
        <>
          <label class="check">
            Kind
            <select value={kind} aria-label="Question kind" onChange={(e) => setQuery({ kind: (e.target as HTMLSelectElement).value === 'in_game' ? undefined : (e.target as HTMLSelectElement).value })}>
              <option value="in_game">in-game questions</option>
              <option value="match">Match questions</option>
            </select>
          </label>
          <button type="button" class="secondary" onClick={data.reload}>
            Refresh
          </button>
        </>
      }
    >
      <Loading when={data.loading && !inh} />
      <ErrorBox error={data.error} />
      {inh ? (
        <>
          <p class="muted text-small inheritance-note">
            Precedence, lowest first: <Source source="league" /> <Source source="group" /> <Source source="definition" /> <Source source="match" />. Groups of {inh.league.slug}:{' '}
            {inh.groups.length ? inh.groups.map((g) => g.slug).join(', ') : 'none'}; {inh.definitions.length} {kind === 'in_game' ? 'in-game' : 'Match question'} definitions.
          </p>
          <div class="table-wrap">
            <table aria-label="Match settings and their sources">
              <thead>
                <tr>
                  <th>Setting</th>
                  <th>League default</th>
                  <th>Match override</th>
                  <th>Effective (source)</th>
                </tr>
              </thead>
              <tbody>
                <SettingRow label="Regular questions (cap)" leagueDefault={inh.league_defaults.question_max_count} override={overrides?.question_max_count} effective={inh.match_settings.question_max_count} />
                <SettingRow label="Minimum interval (s)" leagueDefault={inh.league_defaults.min_interval_seconds} override={overrides?.question_min_interval_seconds} effective={inh.match_settings.min_interval_seconds} />
                <SettingRow label="Period distribution" leagueDefault={inh.league_defaults.period_distribution} override={overrides?.question_period_distribution} effective={inh.match_settings.period_distribution} asCode />
                <SettingRow label="Points" leagueDefault={inh.league_defaults.points} override={overrides?.question_points} />
                <SettingRow label="Answer window (s)" leagueDefault={inh.league_defaults.answer_window_seconds} override={overrides?.answer_window_seconds} />
                <SettingRow label="Probability" leagueDefault={inh.league_defaults.probability} override={overrides?.question_probability} />
              </tbody>
            </table>
          </div>
          <h3>Settings matrix</h3>
          <Table
            rows={inh.matrix}
            rowKey={(r) => r.definition_id}
            empty="No definitions of this kind in the league."
            columns={[
              { label: 'Definition', cell: (r) => r.definition_name },
              { label: 'Included', cell: (r) => <Inherited {...r.included} /> },
              { label: 'Answer window (s)', cell: (r) => <Inherited {...r.answer_window_seconds} /> },
              { label: 'Points', cell: (r) => <Inherited {...r.points} /> },
              { label: 'Probability', cell: (r) => <Inherited {...r.probability} /> },
              { label: 'Lane interval (s)', cell: (r) => <Inherited {...r.min_interval_seconds} /> },
            ]}
          />
          <h3>Decision traces of issued questions ({inh.issuances.length})</h3>
          {inh.issuances.length === 0 ? <p class="empty">No question of this kind has been issued on this match.</p> : null}
          <div class="traces">
            {inh.issuances.map((t) => (
              <details class="trace" key={t.question_issuance_id}>
                <summary>
                  {(t.definition_id && names.get(t.definition_id)) ?? 'deleted definition'} <span class="muted">· {fmtWhen(t.issued_at)} · <code>{shortId(t.question_issuance_id)}</code></span>
                </summary>
                <ol>
                  {t.steps.map((s) => (
                    <li class={s.passed ? 'step-pass' : 'step-fail'}>
                      <span aria-label={s.passed ? 'passed' : 'closed'}>{s.passed ? '✓' : '✗'}</span> <code>{s.step}</code> {s.detail}
                    </li>
                  ))}
                </ol>
              </details>
            ))}
          </div>
        </>
      ) : null}
    </Section>
  );
}

export function MatchDetailPage({ params }: { params: Record<string, string> }) {
  const id = params.id ?? '';
  const { query } = useLocation();
  const failedStep = query.get('failed_step') ?? '';
  const kind = query.get('kind') === 'match' ? 'match' : 'in_game';
  const logOf = query.get('log');

  const found = useAsync(() => getMatch(id), [id]);
  const [current, setMatch] = useState<Match | null>(null);
  useEffect(() => setMatch(found.data ?? null), [found.data]);
  // Another match's data stays until this one is found (after navigating from match to match).
  const match = current && current.id === id ? current : null;
  const [league, setLeague] = useState<League | undefined>(undefined);
  useEffect(() => {
    if (match) loadLeagues().then((ls) => setLeague(ls.find((l) => l.slug === match.league)), () => setLeague(undefined));
  }, [match?.league]);

  // Everything that moves while a listener runs reloads together.
  const [tick, setTick] = useState(0);
  const day = match ? utcDayOf(match.scheduled) : null;
  const listeners = useAsync(async (): Promise<MatchListener[]> => {
    if (!match || !day) return [];
    const range = utcDayRange(day);
    const groups = await unwrap(() => api.GET('/api/match-listeners', { params: { query: { league: match.league, scheduled_from: range.from, scheduled_to: range.to } } }));
    return groups.find((g) => g.match.id === id)?.listeners ?? [];
  }, [id, match?.league, day, tick]);
  const timeline = useAsync(() => unwrap(() => api.GET('/api/matches/{match_id}/event-timeline', { params: { path: { match_id: id } } })), [id, tick]);
  // Both kinds in one request, split for their two tables.
  const issuances = useAsync(() => unwrap(() => api.GET('/api/matches/{match_id}/question-issuances', { params: { path: { match_id: id }, query: { kind: 'all' } } })), [id, tick]);
  const leaderboard = useAsync(() => unwrap(() => api.GET('/api/leaderboards/matches/{match_id}', { params: { path: { match_id: id }, query: { limit: 10 } } })), [id, tick]);
  const inGame = (issuances.data ?? []).filter((i) => i.kind === 'in_game');
  const pregame = (issuances.data ?? []).filter((i) => i.kind === 'match');
  const refresh = useAction(async () => {
    if (!match) return;
    setMatch(await getMatch(match.id));
  });

  const rows = listeners.data ?? [];
  const anyActive = rows.some(listenerActive);
  const live = anyActive || match?.status === 'live' || match?.status === 'break';
  const reloadAll = () => {
    setTick((n) => n + 1);
    void refresh.act();
  };
  usePolling(reloadAll, POLL_MS, !!match && live);
  // One more read when the last listener stops, for the final counts and markers.
  const wasLive = useRef(false);
  useEffect(() => {
    if (wasLive.current && !live) reloadAll();
    wasLive.current = live;
  }, [live]);

  const logListener = rows.find((l) => l.id === logOf);
  if (!match) {
    return (
      <Page title="Match">
        <p>
          <Link href="/admin/matches">All matches</Link>
        </p>
        <Loading when={found.loading} />
        <ErrorBox error={found.error} />
      </Page>
    );
  }
  return (
    <Page
      title={`${match.home_team} - ${match.away_team}`}
      actions={
        <>
          <Link href={`/admin/matches?day=${utcDayOf(match.scheduled)}`} class="button secondary">
            Matches of the day
          </Link>
          <button type="button" class="secondary" onClick={reloadAll}>
            Refresh
          </button>
        </>
      }
    >
      <MatchHeader match={match} />
      <MatchActions match={match} active={anyActive} onChanged={reloadAll} />
      <nav class="in-page" aria-label="Sections">
        <a href="#listeners">Listeners</a> <a href="#timeline">Timeline</a> <a href="#questions">In-game questions</a> <a href="#match-questions">Match questions</a> <a href="#leaderboard">Leaderboard</a> <a href="#denials">Denials</a>{' '}
        <a href="#settings">Settings</a> <a href="#inheritance">Inheritance</a>
      </nav>
      <ErrorBox error={refresh.error} />

      <Section id="listeners" title={<>Listeners <small>({rows.length})</small></>}>
        <ErrorBox error={listeners.error} />
        <ListenerTable listeners={rows} logOf={logOf} onLog={(l) => setQuery({ log: l ?? undefined })} />
        {logListener ? <LogViewer listener={logListener} onClose={() => setQuery({ log: undefined })} /> : null}
      </Section>

      <Section id="timeline" title="Event timeline">
        <ErrorBox error={timeline.error} />
        <Loading when={timeline.loading && !timeline.data} />
        {timeline.data ? <EventTimelineChart timeline={timeline.data} live={live} /> : null}
      </Section>

      <Section id="questions" title={<>In-game questions <small>({inGame.length})</small></>}>
        <ErrorBox error={issuances.error} />
        <IssuanceTable kind="in_game" issuances={inGame} />
      </Section>

      <Section id="match-questions" title={<>Match questions <small>({pregame.length})</small></>}>
        <ErrorBox error={issuances.error} />
        <IssuanceTable kind="match" issuances={pregame} />
      </Section>

      <Section
        id="leaderboard"
        title={<>Leaderboard {leaderboard.data ? <small>({leaderboard.data.player_count} players)</small> : null}</>}
        tools={
          <Link href={`/admin/leaderboards?scope=match&match=${id}`} class="button secondary">
            Full leaderboard
          </Link>
        }
      >
        <ErrorBox error={leaderboard.error} />
        {match.is_test ? <p class="muted">A test match: its answers count on no leaderboard.</p> : null}
        <LeaderboardTable rows={leaderboard.data?.rows ?? []} label="Match leaderboard" />
      </Section>

      <Denials matchId={id} failedStep={failedStep} refreshKey={tick} />

      <Section id="settings" title="Settings">
        <MatchSettings key={match.id} match={match} league={league} onSaved={setMatch} />
      </Section>

      <InheritanceView matchId={id} kind={kind} refreshKey={issuances.data?.length ?? 0} />
    </Page>
  );
}

