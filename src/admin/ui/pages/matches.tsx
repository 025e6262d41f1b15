/** Matches of a day (UTC), with filters and quick listener actions. */
import { MatchStatus } from '../../../../generated/vocabulary.js';
import { isLive } from '../../../domain/statuses.js';
import type { components } from '../../../../generated/api-types.js';
import { api, operatorView, unwrap } from '../api.js';
import { Badge, ErrorBox, Field, Loading, Page, Table, fmtTime, useAction, useAsync } from '../components/common.js';
import { utcDayOf, utcDayRange } from '../components/controls.js';
import { LeagueSelect } from '../components/leagues.js';
import { Link, navigate, setQuery, useLocation } from '../router.js';

type Match = components['schemas']['OperatorMatch'];
type Status = components['schemas']['MatchStatus'];
const STATUSES: readonly Status[] = MatchStatus;

export const statusTone = (s: string) => (isLive.has(s) ? 'live' : s === 'closed' ? 'good' : s === 'cancelled' || s === 'postponed' ? 'warn' : 'neutral');

export function MatchesPage() {
  const { query } = useLocation();
  const day = query.get('day') ?? utcDayOf();
  const league = query.get('league') ?? '';
  const status = query.get('status') ?? '';
  const test = query.get('is_test') ?? '';
  const range = utcDayRange(day);
  const matches = useAsync(
    async () =>
      (
        await unwrap(() =>
          api.GET('/api/matches', {
            params: {
              query: {
                scheduled_from: range.from,
                scheduled_to: range.to,
                ...(league ? { league } : {}),
                ...(status ? { status: [status as Status] } : {}),
                ...(test ? { is_test: test === 'true' } : {}),
              },
            },
          }),
        )
      ).map(operatorView),
    [day, league, status, test],
  );
  const clone = useAction(async (id: string) => {
    const copy = await unwrap(() => api.POST('/api/matches/{match_id}/clone', { params: { path: { match_id: id } } }));
    navigate(`/admin/matches/${copy.id}`);
  });
  return (
    <Page title="Matches">
      <div class="filters">
        <Field label="Day (UTC)">
          <input type="date" value={day} onInput={(e) => setQuery({ day: (e.target as HTMLInputElement).value })} />
        </Field>
        <Field label="League">
          <LeagueSelect allowAll value={league} onValue={(v) => setQuery({ league: v })} />
        </Field>
        <Field label="Status">
          <select value={status} onChange={(e) => setQuery({ status: (e.target as HTMLSelectElement).value })} aria-label="Status">
            <option value="">Any</option>
            {STATUSES.map((s) => (
              <option value={s}>{s}</option>
            ))}
          </select>
        </Field>
        <Field label="Kind">
          <select value={test} onChange={(e) => setQuery({ is_test: (e.target as HTMLSelectElement).value })} aria-label="Kind">
            <option value="">Real and test</option>
            <option value="false">Real only</option>
            <option value="true">Test only</option>
          </select>
        </Field>
      </div>
      <Loading when={matches.loading && !matches.data} />
      <ErrorBox error={matches.error ?? clone.error} />
      <Table<Match>
        rows={matches.data ?? []}
        rowKey={(m) => m.id}
        empty="No matches on this day."
        columns={[
          { label: 'Kick-off', cell: (m) => fmtTime(m.scheduled) },
          { label: 'Match', cell: (m) => <Link href={`/admin/matches/${m.id}`}>{`${m.home_team} - ${m.away_team}`}</Link> },
          { label: 'League', cell: (m) => m.league },
          { label: 'Status', cell: (m) => <Badge tone={statusTone(m.status)}>{m.status}</Badge> },
          { label: 'Score', cell: (m) => (m.home_score === null ? '-' : `${m.home_score}-${m.away_score}`) },
          { label: 'Questions', cell: (m) => `${m.question_issuance_count}/${m.question_max_count} + ${m.pivotal_moment_issuance_count} pivotal` },
          { label: 'Sponsored', cell: (m) => m.sponsored_question_count },
          { label: '', cell: (m) => (m.is_test ? <Badge>test</Badge> : m.listener_events_archived ? <Badge tone="good">recorded</Badge> : null) },
          {
            label: '',
            cell: (m) =>
              m.status === 'closed' && m.listener_events_archived ? (
                <button disabled={clone.busy} onClick={() => void clone.act(m.id)}>
                  Clone as test match
                </button>
              ) : null,
          },
        ]}
      />
    </Page>
  );
}
