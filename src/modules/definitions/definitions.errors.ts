/**
 * Every error the question definitions answer with (both kinds, their CSV
 * import and the allowlists that name them), beside league.not_found,
 * league.unsupported and the domain's template and expression errors: its
 * status, its stable code (X-Error-Code) and its message. The rules both
 * kinds share have one code; what a kind answers under a code of its own
 * (not found, name taken, unknown group, in use) is declared per kind, and
 * each kind names its set (`errors` in in-game.kind.ts and match.kind.ts).
 */
import type { components } from '../../../generated/api-types.js';
import { errorFactory, quote, type ErrorFactory } from '../../errors.js';
import { halfRangeMessage } from '../shared/shared.errors.js';

type ImportResult = components['schemas']['ImportResult'];

export const definitionErrors = {
  /** Text PostgreSQL cannot store, in input that does not come as JSON (a CSV row); `where` is the location, or 'the request'. */
  nulCharacter: errorFactory(400, 'request.nul_character', (where: string) => `${where} must not contain the NUL character (U+0000)`),
  /** A blank name (`field` is 'name', or the clone body's). */
  invalidName: errorFactory(400, 'definition.invalid_name', (field: string) => `${field} must not be blank`),
  duplicateChoice: errorFactory(
    400,
    'definition.duplicate_choice',
    (index: number, identifier: string) => `choices[${index}].identifier ${quote(identifier)} is used by an earlier choice; identifiers must be unique`,
  ),
  /** A list filter's range given by half (`created` or `updated`). */
  invalidRange: errorFactory(400, 'definition.invalid_range', halfRangeMessage),
  /** In-game: a blank event type of the trigger or a resolution rule. */
  invalidEventType: errorFactory(400, 'definition.invalid_event_type', (field: string) => `${field} must not be blank`),
  /** In-game: an event type the league's sport does not have. */
  unknownEventType: errorFactory(
    400,
    'definition.unknown_event_type',
    (field: string, type: string, sport: string) =>
      `${field}: ${quote(type)} is not an event type of ${sport}; see GET /api/question-definitions/sample-catalog`,
  ),
  /** In-game: a timeout choice that is not one of the choice identifiers (nor null). */
  invalidTimeoutChoice: errorFactory(
    400,
    'definition.invalid_timeout_choice',
    (choice: string, choiceIds: readonly string[]) =>
      `resolution.timeout.correct_choice '${choice}' is not one of the choice identifiers (${choiceIds.join(', ')}); use one of them, or null to void`,
  ),
  /** An allowlist (of a league or a match) naming ids that are not definitions of the league and kind. */
  unknownInAllowlist: errorFactory(
    400,
    'allowlist.unknown_definition',
    (field: string, unknown: readonly string[], kind: 'in_game' | 'match') =>
      `${field}: ${unknown.join(', ')} ${unknown.length === 1 ? 'is not one of the' : 'are not'} ` +
      `${kind === 'in_game' ? 'in-game question definitions' : 'Match question definitions'} of this league`,
  ),
  /** A CSV import that cannot be read: the body is the (empty) result, its detail the reason. */
  importInvalidFile: errorFactory(
    400,
    'import.invalid_file',
    (result: ImportResult) => result.detail,
    (result: ImportResult) => ({ body: { ...result } }),
  ),
  /** A CSV apply refused for its row errors (nothing written): the body is the preview. */
  importRefused: errorFactory(
    400,
    'import.refused',
    (result: ImportResult) => result.detail,
    (result: ImportResult) => ({ body: { ...result } }),
  ),
};

/** The errors a kind answers under codes of its own. */
export interface KindErrors {
  notFound: ErrorFactory;
  /** A name another definition of the kind has in the league (without regard to case). */
  nameTaken: ErrorFactory<[name: string, leagueSlug: string]>;
  /** A group_id that is not a question group of the league. */
  unknownGroup: ErrorFactory<[groupId: string, leagueSlug: string]>;
  /** A delete while something refers to the definition: `references` counts them ('2 question issuances'). */
  inUse: ErrorFactory<[references: string, id: string]>;
}

const nameTaken = (noun: string) => (name: string, leagueSlug: string) => `a ${noun} named ${quote(name)} already exists in league '${leagueSlug}'`;
const unknownGroup = (groupId: string, leagueSlug: string) => `group_id: ${groupId} is not a question group of league '${leagueSlug}'`;
const inUse = (path: string) => (references: string, id: string) =>
  `this definition is referenced by ${references}, so it cannot be deleted; archive it instead (POST ${path}/${id}/archive)`;

export const inGameDefinitionErrors: KindErrors = {
  notFound: errorFactory(404, 'question_definition.not_found', () => 'question definition not found'),
  nameTaken: errorFactory(409, 'definition.name_taken', nameTaken('question definition')),
  unknownGroup: errorFactory(400, 'definition.unknown_group', unknownGroup),
  inUse: errorFactory(409, 'definition.in_use', inUse('/api/question-definitions')),
};

export const matchDefinitionErrors: KindErrors = {
  notFound: errorFactory(404, 'match_definition.not_found', () => 'Match question definition not found'),
  nameTaken: errorFactory(409, 'match_definition.name_taken', nameTaken('Match question definition')),
  unknownGroup: errorFactory(400, 'match_definition.unknown_group', unknownGroup),
  inUse: errorFactory(409, 'match_definition.in_use', inUse('/api/match-question-definitions')),
};
