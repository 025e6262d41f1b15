/** The match page's leaderboard: its top rows, with a link to the full board. */
import type { components } from '../../../../../generated/api-types.js';
import { ErrorBox, type AsyncState } from '../common.js';
import { Section } from '../controls.js';
import { LeaderboardTable } from '../leaderboards.js';
import { Link } from '../../router.js';
import type { Match } from './shared.js';

type Leaderboard = components['schemas']['Leaderboard'];

export interface LeaderboardSectionProps {
  match: Match;
  leaderboard: AsyncState<Leaderboard>;
}

export function LeaderboardSection({ match, leaderboard }: LeaderboardSectionProps) {
  return (
    <Section
      id="leaderboard"
      title={<>Leaderboard {leaderboard.data ? <small>({leaderboard.data.player_count} players)</small> : null}</>}
      tools={
        <Link href={`/admin/leaderboards?scope=match&match=${match.id}`} class="button secondary">
          Full leaderboard
        </Link>
      }
    >
      <ErrorBox error={leaderboard.error} />
      {match.is_test ? <p class="muted">A test match: its answers count on no leaderboard.</p> : null}
      <LeaderboardTable rows={leaderboard.data?.rows ?? []} label="Match leaderboard" />
    </Section>
  );
}
