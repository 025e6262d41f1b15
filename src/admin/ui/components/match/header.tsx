/** The match page's header card: score, state, flags and counts of the match. */
import { hasStarted } from '../../../../domain/statuses.js';
import { Badge, fmtTime } from '../common.js';
import { fmtClock, shortId } from '../controls.js';
import { Link } from '../../router.js';
import { statusTone } from '../../pages/matches.js';
import { BrandChip, type Match } from './shared.js';

export interface MatchHeaderProps {
  match: Match;
}

export function MatchHeader({ match }: MatchHeaderProps) {
  // A match that has kicked off stands 0-0 until its feed reports a goal; only one not started has no score.
  const started = hasStarted.has(match.status);
  const score = match.home_score === null && !started ? '-' : `${match.home_score ?? 0} - ${match.away_score ?? 0}`;
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
        <span aria-label="Feed">
          {match.feed_url ? (
            <>
              feed <code class="feed-url">{match.feed_url}</code>
            </>
          ) : (
            <span class="muted">no feed attached</span>
          )}
        </span>
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
          questions {match.question_issuance_count}/{match.question_max_count}, {match.pivotal_moment_issuance_count} pivotal, {match.sponsored_question_count}{' '}
          sponsored slots
        </span>
        <span>
          sponsor <BrandChip brand={match.sponsor_brand} />
        </span>
      </div>
    </div>
  );
}
