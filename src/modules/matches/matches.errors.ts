/** Every error the matches module answers with (matches and following): its status, its stable code (X-Error-Code) and its message. */
import { errorFactory } from '../../errors.js';
import { halfRangeMessage } from '../shared/shared.errors.js';

const BEARER = () => ({ headers: { 'WWW-Authenticate': 'Bearer' } });

export const matchErrors = {
  /** Raised wherever a match is looked up; `id` is named when the match was referenced by another resource (a sponsorship). */
  notFound: errorFactory(404, 'match.not_found', (id?: string) => (id === undefined ? 'match not found' : `match ${id} not found`)),
  invalidRange: errorFactory(400, 'match.invalid_range', halfRangeMessage),
  followedNeedsKey: errorFactory(401, 'match.followed_needs_key', () => 'the followed filter needs a valid API key', BEARER),
  /** A feed URL that may not be attached (feed-url.ts says why); `subject` names the field, or the provider and match of a schedule sync. */
  invalidFeedUrl: errorFactory(400, 'match.invalid_feed_url', (subject: string, problem: string) => `${subject} ${problem}`),
  capBelowSlots: errorFactory(409, 'match.cap_below_slots', (cap: number, over: { slots: number } | { questionNumber: number }) =>
    'slots' in over
      ? `question_max_count ${cap} is below the ${over.slots} question sponsorship slots already placed on this match; remove slots first`
      : `question_max_count ${cap} is below question number ${over.questionNumber}, which a question sponsorship slot on this match targets; remove or move that slot first`,
  ),
  /** Only test matches may be deleted, or replayed with start-listener (match-control). */
  notTest: errorFactory(409, 'match.not_test', (...refused: [operation: 'delete', id: string, srId: string] | [operation: 'start-listener']) =>
    refused[0] === 'delete'
      ? `only test matches can be deleted; match ${refused[1]} is a real match (sr_id ${refused[2]})`
      : 'start-listener is for test matches; a real match gets its listener automatically when its feed goes live',
  ),
  notFollowable: errorFactory(409, 'match.not_followable', (id: string, status: string) => `match ${id} is ${status} and can no longer be followed`),
};

export const followErrors = {
  notFound: errorFactory(404, 'follow.not_found', (matchId: string) => `you do not follow match ${matchId}`),
  dailyLimit: errorFactory(
    409,
    'follow.daily_limit',
    (quota: number, day: string, timezone: string) => `daily follow limit reached: ${quota} new follow${quota === 1 ? '' : 's'} per day (${day}, ${timezone})`,
  ),
  busy: errorFactory(409, 'follow.busy', () => 'the follow changed concurrently; try again'),
};
