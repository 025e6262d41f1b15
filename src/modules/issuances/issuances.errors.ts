/** Every error the issuances module declares (its own lookups raise the matches module's match.not_found): its status, its stable code (X-Error-Code) and its message. */
import { errorFactory } from '../../errors.js';

export const issuanceErrors = {
  /** A question issuance that does not exist (answering names one by id). */
  notFound: errorFactory(404, 'issuance.not_found', () => 'question issuance not found'),
};
