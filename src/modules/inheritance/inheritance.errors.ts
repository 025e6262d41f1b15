/** Every error the settings inspection answers with, beside league.not_found and match.not_found: its status, its stable code (X-Error-Code) and its message. */
import { errorFactory } from '../../errors.js';

export const inheritanceErrors = {
  /** The definition asked about is not one of the league's, of that kind. */
  definitionNotFound: errorFactory(
    404,
    'definition.not_found',
    (kind: 'in_game' | 'match', definitionId: string, leagueSlug: string) =>
      `${kind === 'match' ? 'Match question' : 'in-game'} definition ${definitionId} not found in league '${leagueSlug}'`,
  ),
};
