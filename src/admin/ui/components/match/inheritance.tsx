/**
 * The match page's question inheritance: each setting's league default, match
 * override and effective value with its source, the per-definition matrix and
 * the decision traces of the questions issued.
 */
import type { components } from '../../../../../generated/api-types.js';
import { api, unwrap } from '../../api.js';
import { ErrorBox, Loading, Table, useAsync } from '../common.js';
import { Section, fmtWhen, shortId } from '../controls.js';
import { setQuery } from '../../router.js';
import { Inherited, Source, fmtValue, type QuestionKind, type SettingSource } from './shared.js';

type Inheritance = components['schemas']['QuestionInheritance'];

interface SettingRowProps {
  label: string;
  leagueDefault: unknown;
  override: unknown;
  effective?: { value: unknown; source: SettingSource };
  asCode?: boolean;
}

/**
 * A row of the match settings table: the league default, the match's
 * override, and the effective value with its source (without one: set per
 * definition, in the matrix below). `asCode` shows the first two as JSON code.
 */
function SettingRow({ label, leagueDefault, override, effective, asCode = false }: SettingRowProps) {
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

export interface InheritanceViewProps {
  matchId: string;
  kind: QuestionKind;
  /** Reloads the view when it changes. */
  refreshKey: number;
}

export function InheritanceView({ matchId, kind, refreshKey }: InheritanceViewProps) {
  const data = useAsync(
    () => unwrap(() => api.GET('/api/matches/{match_id}/question-inheritance', { params: { path: { match_id: matchId }, query: { kind } } })),
    [matchId, kind, refreshKey],
  );
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
            <select
              value={kind}
              aria-label="Question kind"
              onChange={(e) => setQuery({ kind: (e.target as HTMLSelectElement).value === 'in_game' ? undefined : (e.target as HTMLSelectElement).value })}
            >
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
            Precedence, lowest first: <Source source="league" /> <Source source="group" /> <Source source="definition" /> <Source source="match" />. Groups of{' '}
            {inh.league.slug}: {inh.groups.length ? inh.groups.map((g) => g.slug).join(', ') : 'none'}; {inh.definitions.length}{' '}
            {kind === 'in_game' ? 'in-game' : 'Match question'} definitions.
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
                <SettingRow
                  label="Regular questions (cap)"
                  leagueDefault={inh.league_defaults.question_max_count}
                  override={overrides?.question_max_count}
                  effective={inh.match_settings.question_max_count}
                />
                <SettingRow
                  label="Minimum interval (s)"
                  leagueDefault={inh.league_defaults.min_interval_seconds}
                  override={overrides?.question_min_interval_seconds}
                  effective={inh.match_settings.min_interval_seconds}
                />
                <SettingRow
                  label="Period distribution"
                  leagueDefault={inh.league_defaults.period_distribution}
                  override={overrides?.question_period_distribution}
                  effective={inh.match_settings.period_distribution}
                  asCode
                />
                <SettingRow label="Points" leagueDefault={inh.league_defaults.points} override={overrides?.question_points} />
                <SettingRow label="Answer window (s)" leagueDefault={inh.league_defaults.answer_window_seconds} override={overrides?.answer_window_seconds} />
                <SettingRow label="Minimum answer time (s)" leagueDefault={inh.league_defaults.min_answer_seconds} override={overrides?.min_answer_seconds} />
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
              { label: 'Min. answer (s)', cell: (r) => <Inherited {...r.min_answer_seconds} /> },
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
                  {(t.definition_id && names.get(t.definition_id)) ?? 'deleted definition'}{' '}
                  <span class="muted">
                    · {fmtWhen(t.issued_at)} · <code>{shortId(t.question_issuance_id)}</code>
                  </span>
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
