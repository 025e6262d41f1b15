/** Every error the leagues module answers with: its status, its stable code (X-Error-Code) and its message. */
import { errorFactory, quote } from '../../errors.js';

export interface CapExample {
  id: string;
  slots: number;
  highestNumber: number | null;
}

export const leagueErrors = {
  /** Raised wherever a league is looked up (definitions, groups, catalog): `where` says it is supported but absent here. */
  notFound: errorFactory(
    404,
    'league.not_found',
    (idOrSlug: string, where?: 'in this database') => `league ${quote(idOrSlug)} not found${where ? ` ${where}` : ''}`,
  ),
  capBelowSlots: errorFactory(409, 'league.cap_below_slots', (cap: number, count: number, example: CapExample) => {
    const what =
      example.slots > cap ? `${example.slots} question sponsorship slots` : `a question sponsorship slot on question number ${example.highestNumber}`;
    return (
      `default_question_max_count ${cap} is below the question sponsorship slots of ${count} ${count === 1 ? 'match' : 'matches'} not over yet that ` +
      `${count === 1 ? 'uses' : 'use'} the league default (match ${example.id} has ${what}); remove those slots, or give those matches their own question_max_count, first`
    );
  }),
  /** A period distribution (of a league, a match or a group) that is not a map of the sport's periods to counts; `subject` is the field (or one of its keys). */
  periodDistributionInvalid: errorFactory(400, 'period_distribution.invalid', (subject: string, problem: string) => `${subject} ${problem}`),
};
