/** A user's points by period, where they stand on the leaderboards, and their latest answers. */
import type { components } from '../../../../../generated/api-types.js';
import { api, unwrap } from '../../api.js';
import { Link } from '../../router.js';
import { Badge, ErrorBox, Loading, Notice, Table, useAsync } from '../common.js';
import { fmtWhen, shortId } from '../controls.js';
import { useLeagues } from '../leagues.js';
import type { User } from './user-forms.js';

type Answer = components['schemas']['AnswerHistoryItem'];
type Position = components['schemas']['LeaderboardPosition'];

const OUTCOME_TONE = { correct: 'good', incorrect: 'bad', void: 'warn', pending: 'neutral' } as const;

/** Where the user stands on the leaderboards: the whole game, their leagues, their latest matches. */
function LeaderboardPositions({ user }: { user: User }) {
  const positions = useAsync(
    () => unwrap(() => api.GET('/api/users/{user_id}/leaderboard-positions', { params: { path: { user_id: user.id } } })),
    [user.id, user.updated_at],
  );
  const leagues = useLeagues();
  const p = positions.data;
  const slug = (x: Position) => leagues.find((l) => l.id === x.league_id)?.slug;
  const periodQuery = (x: Position) => `&period=${x.period}${x.period_start ? `&date=${x.period_start}` : ''}`;
  const board = (x: Position) =>
    x.scope === 'overall' ? (
      <Link href={`/admin/leaderboards?scope=overall${periodQuery(x)}`}>Whole game</Link>
    ) : x.scope === 'league' ? (
      <Link href={`/admin/leaderboards?scope=league&league=${slug(x) ?? ''}${periodQuery(x)}`}>League {slug(x) ?? shortId(x.league_id)}</Link>
    ) : (
      <Link href={`/admin/matches/${x.match_id}`}>Match {shortId(x.match_id)}</Link>
    );
  return (
    <>
      <h3>Leaderboards {p ? <small>(periods in {p.timezone})</small> : null}</h3>
      <ErrorBox error={positions.error} />
      {p && (p.hidden_from_leaderboards || !p.is_active) ? (
        <Notice>
          {p.hidden_from_leaderboards ? 'Hidden from leaderboards' : 'Deactivated'}: on no leaderboard, in no rank. Their answers and points stay.
        </Notice>
      ) : null}
      <div role="region" aria-label="Leaderboard positions">
        <Table<Position>
          rows={p?.positions ?? []}
          rowKey={(x) => `${x.scope}:${x.league_id ?? ''}:${x.match_id ?? ''}:${x.period}`}
          empty={positions.loading ? 'Loading...' : 'On no leaderboard.'}
          columns={[
            { label: 'Board', cell: board },
            { label: 'Period', cell: (x) => (x.period === 'all_time' ? 'all time' : `${x.period} from ${x.period_start}`) },
            { label: 'Rank', class: 'num', cell: (x) => `${x.entry.rank} of ${x.player_count}` },
            { label: 'Points', class: 'num', cell: (x) => x.entry.points },
            { label: 'Correct', class: 'num', cell: (x) => x.entry.correct_count },
            { label: 'Streak', class: 'num', cell: (x) => `${x.entry.current_streak} (best ${x.entry.best_streak})` },
          ]}
        />
      </div>
    </>
  );
}

export function UserActivity({ user }: { user: User }) {
  const points = useAsync(() => unwrap(() => api.GET('/api/users/{user_id}/points', { params: { path: { user_id: user.id } } })), [user.id]);
  const answers = useAsync(
    () => unwrap(() => api.GET('/api/users/{user_id}/question-answers', { params: { path: { user_id: user.id }, query: { limit: 50 } } })),
    [user.id],
  );
  const p = points.data;
  return (
    <div class="user-activity">
      <h3>Points {p ? <small>(periods in {p.timezone})</small> : null}</h3>
      <ErrorBox error={points.error} />
      {p ? (
        <div class="table-wrap">
          <table aria-label="Points">
            <thead>
              <tr>
                <th>Period</th>
                <th class="num">Points</th>
                <th class="num">Answered</th>
                <th class="num">Resolved</th>
                <th class="num">Correct</th>
              </tr>
            </thead>
            <tbody>
              <tr>
                <td>all time</td>
                <td class="num">{p.all_time.points}</td>
                <td class="num">{p.all_time.answered_count}</td>
                <td class="num">{p.all_time.resolved_count}</td>
                <td class="num">{p.all_time.correct_count}</td>
              </tr>
              {p.periods.map((r) => (
                <tr>
                  <td>{r.period.replace('_', ' ')}</td>
                  <td class="num">{r.points}</td>
                  <td class="num">{r.answered_count}</td>
                  <td class="num">{r.resolved_count}</td>
                  <td class="num">{r.correct_count}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        <Loading when={points.loading} />
      )}
      <LeaderboardPositions user={user} />
      <h3>Answers {answers.data ? <small>(latest {answers.data.length})</small> : null}</h3>
      <ErrorBox error={answers.error} />
      <Table<Answer>
        rows={answers.data ?? []}
        rowKey={(a) => a.answer_id}
        empty="No answers yet."
        columns={[
          { label: 'Match', cell: (a) => <Link href={`/admin/matches/${a.match.id}`}>{`${a.match.home_team} - ${a.match.away_team}`}</Link> },
          {
            label: 'Question',
            class: 'wide-cell',
            cell: (a) => (
              <span>
                {a.question_text} <small class="muted">({a.kind === 'in_game' ? 'in-game' : 'Match'})</small>
              </span>
            ),
          },
          { label: 'Answer', cell: (a) => a.choices.find((c) => c.identifier === a.selected_answer_identifier)?.label ?? a.selected_answer_identifier },
          { label: 'Outcome', cell: (a) => <Badge tone={OUTCOME_TONE[a.outcome]}>{a.outcome}</Badge> },
          { label: 'Points', class: 'num', cell: (a) => `${a.points_awarded}/${a.points_possible}` },
          { label: 'Answered', cell: (a) => <span class="text-small nowrap">{fmtWhen(a.answered_at)}</span> },
        ]}
      />
    </div>
  );
}
