import type { AllowlistChecker } from '../leagues/leagues.service.js';
import { findDefinitionIdsInLeague } from './allowlists.repository.js';
import { definitionErrors } from './definitions.errors.js';

/**
 * Every id of an allowlist must be a definition of the league and kind
 * (archived or inactive ones included); otherwise 400 naming the unknown ids.
 * Returns the list as it is stored: ids in lowercase (a UUID may be sent in
 * either case), each once, in the order given. Used by league updates, and by
 * match updates for their overrides.
 */
export const checkDefinitionAllowlist: AllowlistChecker = async ({ db, leagueId, kind, field, ids }) => {
  const normalized = [...new Set(ids.map((id) => id.toLowerCase()))];
  const found = await findDefinitionIdsInLeague({ db, leagueId, kind, ids: normalized });
  const unknown = normalized.filter((id) => !found.has(id));
  if (unknown.length) throw definitionErrors.unknownInAllowlist(field, unknown, kind);
  return normalized;
};
