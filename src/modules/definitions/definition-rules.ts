/**
 * Rules shared by both kinds of definition that the contract leaves to the
 * service (all answer 400): names, choice identifiers, list filters.
 */
import { findNulCharacter, formatLocation } from '../../db/sql-helpers.js';
import { parseTimeRange, type TimeRange } from '../shared/time-range.js';
import { definitionErrors } from './definitions.errors.js';

/**
 * 400 when any text holds U+0000 (PostgreSQL cannot store it). JSON requests
 * are refused earlier by the HTTP layer (422); this guards input that does
 * not come as JSON, such as CSV rows.
 */
export function rejectNulCharacters(value: unknown, path = ''): void {
  const at = findNulCharacter(value, path ? [path] : []);
  if (at !== undefined) throw definitionErrors.nulCharacter(formatLocation(at) || 'the request');
}

/** Names are trimmed; a blank name is refused. */
export function parseDefinitionName(value: string, field = 'name'): string {
  const name = value.trim();
  if (!name) throw definitionErrors.invalidName(field);
  return name;
}

/** Default name of a copy. */
export const copyName = (name: string) => `${name} (copy)`;

/** Choice identifiers are unique within a definition. */
export function checkChoiceIdentifiers(choices: readonly { identifier: string }[]): Set<string> {
  const seen = new Set<string>();
  for (const [i, c] of choices.entries()) {
    if (seen.has(c.identifier)) throw definitionErrors.duplicateChoice(i, c.identifier);
    seen.add(c.identifier);
  }
  return seen;
}

/** Filters common to both definition lists. */
export interface DefinitionListFilter {
  leagueId: string;
  includeInactive: boolean;
  q?: string | undefined;
  created?: TimeRange | undefined;
  updated?: TimeRange | undefined;
}

export function parseListFilter(
  leagueId: string,
  query: { include_inactive?: boolean; q?: string; created_from?: string; created_to?: string; updated_from?: string; updated_to?: string },
): DefinitionListFilter {
  rejectNulCharacters(query.q, 'q');
  return {
    leagueId,
    includeInactive: query.include_inactive ?? false,
    q: query.q || undefined,
    created: parseTimeRange({ name: 'created', from: query.created_from, to: query.created_to, error: definitionErrors.invalidRange }),
    updated: parseTimeRange({ name: 'updated', from: query.updated_from, to: query.updated_to, error: definitionErrors.invalidRange }),
  };
}
