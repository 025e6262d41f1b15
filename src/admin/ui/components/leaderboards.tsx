/** Leaderboard rows as operators see them: rank, player (to their user page), points and the figures behind the ranking. */
import type { components } from '../../../../generated/api-types.js';
import { Table } from './common.js';
import { fmtWhen } from './controls.js';
import { Link } from '../router.js';

export type LeaderboardEntry = components['schemas']['LeaderboardEntry'];

export function LeaderboardTable({ rows, empty = 'Nobody has scored on this board yet.', label }: { rows: LeaderboardEntry[]; empty?: string; label: string }) {
  return (
    <div aria-label={label} role="region">
      <Table<LeaderboardEntry>
        rows={rows}
        rowKey={(r) => r.user_id}
        empty={empty}
        columns={[
          { label: 'Rank', class: 'num', cell: (r) => r.rank },
          { label: 'Player', cell: (r) => <Link href={`/admin/users?user=${r.user_id}`}>{r.display_name}</Link> },
          { label: 'Points', class: 'num', cell: (r) => r.points },
          { label: 'Correct', class: 'num', cell: (r) => r.correct_count },
          { label: 'Answered', class: 'num', cell: (r) => r.answered_count },
          { label: 'Streak', class: 'num', cell: (r) => `${r.current_streak} (best ${r.best_streak})` },
          { label: 'Reached', cell: (r) => <span class="text-small nowrap">{fmtWhen(r.reached_at)}</span> },
        ]}
      />
    </div>
  );
}
