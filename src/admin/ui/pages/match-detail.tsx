/**
 * One match: header, listener actions (clone, start, stop), its listeners
 * with progress, the event timeline, its in-game and Match questions and
 * blocked attempts, its settings (overrides, allowlists, auto-dispatch,
 * feed URL, sponsor), and where each effective question setting comes from.
 * The match is read with GET /api/matches/{match_id}, which answers admins
 * with the operator view. Each section is a component of components/match/.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { api, operatorView, unwrap } from '../api.js';
import { ErrorBox, Loading, Page, useAction, useAsync } from '../components/common.js';
import { Section, UUID_RE, usePolling, utcDayOf, utcDayRange } from '../components/controls.js';
import { loadLeagues, type League } from '../components/leagues.js';
import { listenerActive, type MatchListener } from '../components/listener-views.js';
import { MatchActions } from '../components/match/actions.js';
import { Denials } from '../components/match/denials.js';
import { MatchHeader } from '../components/match/header.js';
import { InheritanceView } from '../components/match/inheritance.js';
import { LeaderboardSection } from '../components/match/leaderboard.js';
import { ListenersSection } from '../components/match/listeners.js';
import { QuestionsSection } from '../components/match/questions.js';
import { MatchSettings } from '../components/match/settings.js';
import type { Match } from '../components/match/shared.js';
import { TimelineSection } from '../components/match/timeline.js';
import { Link, useLocation } from '../router.js';

const POLL_MS = 2000;

/** The match in the operator view (the API's 404 names the resource). */
async function getMatch(id: string): Promise<Match> {
  if (!UUID_RE.test(id)) throw new Error(`"${id}" is not a match id`);
  return operatorView(await unwrap(() => api.GET('/api/matches/{match_id}', { params: { path: { match_id: id } } })));
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
    if (match)
      loadLeagues().then(
        (ls) => setLeague(ls.find((l) => l.slug === match.league)),
        () => setLeague(undefined),
      );
  }, [match?.league]);

  // Everything that moves while a listener runs reloads together.
  const [tick, setTick] = useState(0);
  const day = match ? utcDayOf(match.scheduled) : null;
  const listeners = useAsync(async (): Promise<MatchListener[]> => {
    if (!match || !day) return [];
    const range = utcDayRange(day);
    const groups = await unwrap(() =>
      api.GET('/api/match-listeners', { params: { query: { league: match.league, scheduled_from: range.from, scheduled_to: range.to } } }),
    );
    return groups.find((g) => g.match.id === id)?.listeners ?? [];
  }, [id, match?.league, day, tick]);
  const timeline = useAsync(() => unwrap(() => api.GET('/api/matches/{match_id}/event-timeline', { params: { path: { match_id: id } } })), [id, tick]);
  // Both kinds in one request, split for their two tables.
  const issuances = useAsync(
    () => unwrap(() => api.GET('/api/matches/{match_id}/question-issuances', { params: { path: { match_id: id }, query: { kind: 'all' } } })),
    [id, tick],
  );
  const leaderboard = useAsync(
    () => unwrap(() => api.GET('/api/leaderboards/matches/{match_id}', { params: { path: { match_id: id }, query: { limit: 10 } } })),
    [id, tick],
  );
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
        <a href="#listeners">Listeners</a> <a href="#timeline">Timeline</a> <a href="#questions">In-game questions</a>{' '}
        <a href="#match-questions">Match questions</a> <a href="#leaderboard">Leaderboard</a> <a href="#denials">Denials</a> <a href="#settings">Settings</a>{' '}
        <a href="#inheritance">Inheritance</a>
      </nav>
      <ErrorBox error={refresh.error} />

      <ListenersSection listeners={rows} error={listeners.error} logOf={logOf} />

      <TimelineSection timeline={timeline} live={live} />

      <QuestionsSection
        id="questions"
        title={
          <>
            In-game questions <small>({inGame.length})</small>
          </>
        }
        kind="in_game"
        issuances={inGame}
        error={issuances.error}
      />

      <QuestionsSection
        id="match-questions"
        title={
          <>
            Match questions <small>({pregame.length})</small>
          </>
        }
        kind="match"
        issuances={pregame}
        error={issuances.error}
      />

      <LeaderboardSection match={match} leaderboard={leaderboard} />

      <Denials matchId={id} failedStep={failedStep} refreshKey={tick} />

      <Section id="settings" title="Settings">
        <MatchSettings key={match.id} match={match} league={league} onSaved={setMatch} />
      </Section>

      <InheritanceView matchId={id} kind={kind} refreshKey={issuances.data?.length ?? 0} />
    </Page>
  );
}
