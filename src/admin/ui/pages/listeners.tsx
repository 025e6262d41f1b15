/**
 * Listeners of a league's matches on a UTC day, grouped by match, with their
 * status and counts (polled while one is queued or running), a log viewer
 * that follows a listener's log, and downloads of the log and the recording.
 */
import type { components } from '../../../../generated/api-types.js';
import { api, unwrap } from '../api.js';
import { Badge, Checkbox, ErrorBox, Field, Loading, Page, fmtTime, useAsync } from '../components/common.js';
import { usePolling, utcDayOf, utcDayRange } from '../components/controls.js';
import { useLeagueParam } from '../components/catalog/league-param.js';
import { LeagueSelect } from '../components/leagues.js';
import { ListenerTable, LogViewer, listenerActive } from '../components/listener-views.js';
import { Link, setQuery, useLocation } from '../router.js';
import { statusTone } from './matches.js';

type Group = components['schemas']['MatchListenerGroup'];

export function ListenersPage() {
  const { query } = useLocation();
  const league = useLeagueParam(query);
  const day = query.get('day') ?? utcDayOf();
  const logOf = query.get('log');
  const withListeners = query.get('with_listeners') === 'true';
  const range = utcDayRange(day);
  const groups = useAsync(
    async (): Promise<Group[]> =>
      league ? unwrap(() => api.GET('/api/match-listeners', { params: { query: { league, scheduled_from: range.from, scheduled_to: range.to } } })) : [],
    [league, day],
  );
  const all = groups.data ?? [];
  const listeners = all.flatMap((g) => g.listeners);
  const active = listeners.filter(listenerActive).length;
  usePolling(groups.reload, 3000, active > 0);
  const shown = withListeners ? all.filter((g) => g.listeners.length) : all;

  return (
    <Page title="Listeners">
      <div class="filters">
        <Field label="League">
          <LeagueSelect remember value={league} onValue={(v) => setQuery({ league: v, log: undefined })} />
        </Field>
        <Field label="Day (UTC)">
          <input type="date" value={day} onInput={(e) => setQuery({ day: (e.target as HTMLInputElement).value, log: undefined })} />
        </Field>
        <div class="field">
          <span class="field-label">Show</span>
          <Checkbox label="Only matches with listeners" checked={withListeners} onValue={(v) => setQuery({ with_listeners: v ? 'true' : undefined })} />
        </div>
        <button type="button" class="secondary" onClick={groups.reload}>
          Refresh
        </button>
      </div>
      <p class="muted" aria-live="polite">
        {all.length} match{all.length === 1 ? '' : 'es'}, {listeners.length} listener{listeners.length === 1 ? '' : 's'}
        {active ? `, ${active} queued or running (refreshing every 3 s)` : ''}
      </p>
      <Loading when={groups.loading && !groups.data} />
      <ErrorBox error={groups.error} />
      {groups.data && !shown.length ? (
        <p class="empty">{withListeners ? 'No listener ran for a match of this league on this day.' : 'No matches of this league on this day.'}</p>
      ) : null}
      {shown.map((g) => {
        const logListener = g.listeners.find((l) => l.id === logOf);
        return (
          <section class="card listener-group" key={g.match.id} aria-label={`${g.match.home_team} - ${g.match.away_team}`}>
            <header class="section-head">
              <h2>
                <Link href={`/admin/matches/${g.match.id}`}>{`${g.match.home_team} - ${g.match.away_team}`}</Link>{' '}
                <Badge tone={statusTone(g.match.status)}>{g.match.status}</Badge> {g.match.is_test ? <Badge>test</Badge> : null}
              </h2>
              <span class="muted">kick-off {fmtTime(g.match.scheduled)}</span>
            </header>
            {g.listeners.length ? (
              <ListenerTable listeners={g.listeners} logOf={logOf} onLog={(id) => setQuery({ log: id ?? undefined })} />
            ) : (
              <p class="empty">
                No listener yet{g.match.status === 'scheduled' ? ' (real matches get one 10 minutes before kick-off when they have a feed)' : ''}.
              </p>
            )}
            {logListener ? <LogViewer listener={logListener} onClose={() => setQuery({ log: undefined })} /> : null}
          </section>
        );
      })}
    </Page>
  );
}
