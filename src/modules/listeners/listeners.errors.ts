/** Every error the listeners module answers with, beside league.not_found: its status, its stable code (X-Error-Code) and its message. */
import { errorFactory } from '../../errors.js';
import { halfRangeMessage } from '../shared/shared.errors.js';

export const listenerErrors = {
  notFound: errorFactory(404, 'listener.not_found', () => 'listener not found'),
  invalidRange: errorFactory(400, 'match_listeners.invalid_range', halfRangeMessage),
};
