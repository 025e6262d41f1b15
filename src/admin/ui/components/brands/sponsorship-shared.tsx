/** What the parts of a brand's sponsorship panel share: the matches that take changes, and how a match and a slot target are named. */
import type { components } from '../../../../../generated/api-types.js';
import { notStarted } from '../../../../domain/statuses.js';
import { Badge } from '../common.js';

export type Match = components['schemas']['OperatorMatch'];
export type Slot = components['schemas']['QuestionSponsorship'];

/** The match statuses that take sponsorship changes: not started. */
export const EDITABLE = notStarted;
const matchName = (m: Pick<Match, 'home_team' | 'away_team'>) => `${m.home_team} - ${m.away_team}`;

/** A match's teams, marked when it is a test match (a replayed clone, not a real fixture). */
export function MatchName({ match }: { match: Pick<Match, 'home_team' | 'away_team' | 'is_test'> }) {
  return (
    <>
      {matchName(match)}
      {match.is_test ? (
        <>
          {' '}
          <Badge>test</Badge>
        </>
      ) : null}
    </>
  );
}
/** A slot's target as a short text ('' when it has none; a definition by the start of its id). */
export const targetText = (s: Pick<Slot, 'strategy' | 'target'>) =>
  s.target === null || s.target === undefined ? '' : s.strategy === 'definition' ? String(s.target).slice(0, 8) : String(s.target);
