/**
 * The errors of what src/domain answers for the modules (a league slug the
 * service does not support, a definition's template or expression that does
 * not parse or evaluate), as the contract's: their status, their stable code
 * (X-Error-Code) and message. The domain itself knows no HTTP statuses: it
 * answers `undefined` or throws its languages' own errors, and the modules
 * turn them into these with the two functions below.
 */
import { ExpressionError } from '../../domain/language/expressions.js';
import { TemplateError } from '../../domain/language/templates.js';
import { findSupportedLeague, SUPPORTED_LEAGUES, type LeagueDefinition } from '../../domain/sports/league-registry.js';
import { errorFactory, quote } from '../../errors.js';

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

/** The supported league of a slug; 400 league.unsupported naming the slug and the supported ones otherwise. */
export function supportedLeague(slug: string): LeagueDefinition {
  const league = findSupportedLeague(slug);
  if (!league)
    throw domainErrors.unsupportedLeague(
      slug,
      SUPPORTED_LEAGUES.map((l) => l.slug),
    );
  return league;
}

/** A template or expression failure as the contract's 400 (its message names the field); anything else unchanged. */
export function definitionErrorToBadRequest(err: unknown): unknown {
  if (err instanceof TemplateError) return domainErrors.templateInvalid(err.message);
  if (err instanceof ExpressionError) return domainErrors.expressionInvalid(err.message);
  return err;
}
