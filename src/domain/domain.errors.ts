/** Every error the domain core answers with: its status, its stable code (X-Error-Code) and its message. */
import { errorFactory, quote } from '../errors.js';

export const domainErrors = {
  unsupportedLeague: errorFactory(
    400,
    'league.unsupported',
    (slug: string, supported: readonly string[]) => `unsupported league slug ${quote(slug)}; supported: ${supported.join(', ')}`,
  ),
  /** A definition's template or expression that does not parse or evaluate; the message (the language's) names the field. */
  templateInvalid: errorFactory(400, 'definition.template_invalid', (message: string) => message),
  expressionInvalid: errorFactory(400, 'definition.expression_invalid', (message: string) => message),
};
