/**
 * Leaderboards: the whole game's, a league's (all time, or a day, week or
 * month) and a match's, paged, ranked by points or by current or best
 * streak (the streak boards). Filters live in the address, so a view can be
 * shared; the match page links here for its full board.
 */
import { useState } from 'preact/hooks';
import type { components } from '../../../../generated/api-types.js';
import { api, unwrap } from '../api.js';
import { ErrorBox, Field, Loading, Page, TextInput, useAsync } from '../components/common.js';
import { Pager, UUID_RE, queryPaging } from '../components/controls.js';
import { LeaderboardTable } from '../components/leaderboards.js';
import { useLeaguesState } from '../components/leagues.js';
import { Link, setQuery, useLocation } from '../router.js';

type Leaderboard = components['schemas']['Leaderboard'];
type Scope = 'overall' | 'league' | 'match';
type Period = 'all_time' | 'day' | 'week' | 'month';
type RankBy = Leaderboard['rank_by'];

const PERIODS: { value: Period; label: string }[] = [
  { value: 'all_time', label: 'All time' },
  { value: 'day', label: 'Day' },
  { value: 'week', label: 'Week' },
  { value: 'month', label: 'Month' },
];

const RANKINGS: { value: RankBy; label: string; says: string }[] = [
  { value: 'points', label: 'Points', says: 'Ranked by points, then correct answers, then who reached them first.' },
  { value: 'current_streak', label: 'Current streak', says: 'Ranked by current streak (correct answers in a row now), then as by points.' },
  { value: 'best_streak', label: 'Best streak', says: 'Ranked by best streak (the longest run of correct answers), then as by points.' },
];

const periodText = (b: Leaderboard) => (b.period === 'all_time' ? 'all time' : `${b.period} from ${b.period_start} (${b.timezone})`);

export function LeaderboardsPage() {
  const { query } = useLocation();
  const scope = (['overall', 'league', 'match'].includes(query.get('scope') ?? '') ? query.get('scope') : 'overall') as Scope;
  const { leagues, error: leaguesError } = useLeaguesState();
  const league = query.get('league') ?? leagues[0]?.slug ?? '';
  const matchId = query.get('match') ?? '';
  const period = (PERIODS.find((p) => p.value === query.get('period'))?.value ?? 'all_time') as Period;
  const date = query.get('date') ?? '';
  const rankBy = RANKINGS.find((r) => r.value === query.get('rank_by'))?.value ?? 'points';
  const paging = queryPaging(query);
  const limit = Math.min(100, paging.limit);
  const { offset } = paging;
  const [matchText, setMatchText] = useState(matchId);

  const board = useAsync(async (): Promise<Leaderboard | null> => {
    const common = { offset, limit, ...(rankBy !== 'points' ? { rank_by: rankBy } : {}) };
    const periodic = { period, ...(date && period !== 'all_time' ? { date } : {}) };
    if (scope === 'overall') return unwrap(() => api.GET('/api/leaderboards/overall', { params: { query: { ...common, ...periodic } } }));
    if (scope === 'league') {
      if (!league) return null;
      return unwrap(() => api.GET('/api/leaderboards/leagues/{league_id}', { params: { path: { league_id: league }, query: { ...common, ...periodic } } }));
    }
    if (!UUID_RE.test(matchId)) return null;
    return unwrap(() => api.GET('/api/leaderboards/matches/{match_id}', { params: { path: { match_id: matchId }, query: common } }));
  }, [scope, league, matchId, period, date, rankBy, offset, limit]);
  const filter = (values: Record<string, string | undefined>) => setQuery({ ...values, offset: undefined });
  const b = board.data;

  return (
    <Page title="Leaderboards">
      <form
        class="filters"
        aria-label="Choose a leaderboard"
        onSubmit={(e) => {
          e.preventDefault();
          filter({ match: matchText.trim() || undefined });
        }}
      >
        <Field label="Board">
          <select value={scope} aria-label="Board" onChange={(e) => filter({ scope: (e.target as HTMLSelectElement).value })}>
            <option value="overall">Whole game</option>
            <option value="league">League</option>
            <option value="match">Match</option>
          </select>
        </Field>
        {scope === 'league' ? (
          <Field label="League">
            <select value={league} aria-label="League" onChange={(e) => filter({ league: (e.target as HTMLSelectElement).value })}>
              {leagues.map((l) => (
                <option value={l.slug}>{l.slug}</option>
              ))}
            </select>
          </Field>
        ) : null}
        {scope === 'match' ? (
          <Field label="Match (id)">
            <TextInput value={matchText} onValue={setMatchText} placeholder="match uuid" size={36} aria-label="Match id" />
          </Field>
        ) : (
          <>
            <Field label="Period">
              <select value={period} aria-label="Period" onChange={(e) => filter({ period: (e.target as HTMLSelectElement).value })}>
                {PERIODS.map((p) => (
                  <option value={p.value}>{p.label}</option>
                ))}
              </select>
            </Field>
            {period !== 'all_time' ? (
              <Field label="Containing the date" hint="Empty: the current period in your time zone.">
                <input type="date" value={date} aria-label="Date" onInput={(e) => filter({ date: (e.target as HTMLInputElement).value || undefined })} />
              </Field>
            ) : null}
          </>
        )}
        <Field label="Ranked by">
          <select
            value={rankBy}
            aria-label="Ranked by"
            onChange={(e) => filter({ rank_by: (e.target as HTMLSelectElement).value === 'points' ? undefined : (e.target as HTMLSelectElement).value })}
          >
            {RANKINGS.map((r) => (
              <option value={r.value}>{r.label}</option>
            ))}
          </select>
        </Field>
        {scope === 'match' ? <button type="submit">Show</button> : null}
      </form>
      <ErrorBox error={leaguesError ?? board.error} />
      {scope === 'match' && matchId && !UUID_RE.test(matchId) ? <p role="alert">{matchId} is not a match id.</p> : null}
      <Loading when={board.loading && !b} />
      {b ? (
        <section aria-label="Leaderboard">
          <p class="muted">
            {b.scope === 'overall' ? 'Whole game' : b.scope === 'league' ? `League ${league}` : <Link href={`/admin/matches/${b.match_id}`}>Match page</Link>},{' '}
            {periodText(b)}: {b.player_count} players. {RANKINGS.find((r) => r.value === b.rank_by)?.says} Hidden and deactivated users and test matches never
            count.
          </p>
          <LeaderboardTable rows={b.rows} label="Leaderboard rows" />
          <Pager
            label="players"
            total={b.player_count}
            offset={offset}
            limit={limit}
            onOffset={paging.onOffset}
            onLimit={paging.onLimit}
            sizes={[10, 25, 50, 100]}
          />
        </section>
      ) : null}
    </Page>
  );
}
