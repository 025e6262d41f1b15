/** Every error the sample catalog and the question preview answer with, beside league.unsupported and the definition language's: its status, its stable code (X-Error-Code) and its message. */
import { errorFactory, quote } from '../../errors.js';

export const catalogErrors = {
  sampleEventNotFound: errorFactory(
    404,
    'sample_event.not_found',
    (type: string, league: { slug: string; sport: string }, known: readonly string[]) =>
      `sample event type ${quote(type)} not found in the ${league.slug} (${league.sport}) catalog; known: ${known.join(', ')}`,
  ),
  sampleRequired: errorFactory(
    400,
    'preview.sample_required',
    () => 'give exactly one of sample_event_type (a type of the sample catalog) or sample_event (an inline event)',
  ),
  /** An inline sample event whose period is not one of the sport's (the one rule its schema cannot know). */
  sampleEventInvalid: errorFactory(
    400,
    'preview.sample_event_invalid',
    (sport: string, periods: readonly string[]) => `sample_event: period must be null or a ${sport} period (${periods.join(', ')})`,
  ),
  duplicateChoice: errorFactory(400, 'preview.duplicate_choice', (identifier: string) => `choices: identifier ${quote(identifier)} is used more than once`),
};
