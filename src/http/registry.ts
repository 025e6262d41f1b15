/**
 * Every operation of the contract mapped to its handler. `satisfies Handlers`
 * makes a missing or mistyped handler a compile error.
 */
import { accountHandlers } from '../modules/account/account.handlers.js';
import { adminSessionHandlers } from '../modules/admin-sessions/admin-sessions.handlers.js';
import { answerHandlers } from '../modules/answers/answers.handlers.js';
import { authHandlers } from '../modules/auth/auth.handlers.js';
import { brandHandlers } from '../modules/brands/brands.handlers.js';
import { catalogHandlers } from '../modules/catalog/catalog.handlers.js';
import { definitionHandlers } from '../modules/definitions/definitions.handlers.js';
import { feedbackHandlers } from '../modules/feedback/feedback.handlers.js';
import { groupHandlers } from '../modules/groups/groups.handlers.js';
import { inheritanceHandlers } from '../modules/inheritance/inheritance.handlers.js';
import { issuanceHandlers } from '../modules/issuances/issuances.handlers.js';
import { leaderboardHandlers } from '../modules/leaderboards/leaderboards.handlers.js';
import { leagueHandlers } from '../modules/leagues/leagues.handlers.js';
import { listenerHandlers } from '../modules/listeners/listeners.handlers.js';
import { matchControlHandlers } from '../modules/match-control/match-control.handlers.js';
import { matchHandlers } from '../modules/matches/matches.handlers.js';
import { playerGroupHandlers } from '../modules/player-groups/player-groups.handlers.js';
import { pushHandlers } from '../modules/push/push.handlers.js';
import { sponsorshipHandlers } from '../modules/sponsorships/sponsorships.handlers.js';
import { userHandlers } from '../modules/users/users.handlers.js';
import type { Services } from '../services.js';
import type { Handlers } from './handler-types.js';

export function createHandlers(services: Services): Handlers {
  return {
    ...authHandlers(services),
    ...accountHandlers(services),
    ...adminSessionHandlers(services),
    ...answerHandlers(services),
    ...userHandlers(services),
    ...leagueHandlers(services),
    ...brandHandlers(services),
    ...catalogHandlers(),
    ...groupHandlers(services),
    ...definitionHandlers(services),
    ...sponsorshipHandlers(services),
    ...matchHandlers(services),
    ...inheritanceHandlers(services),
    ...matchControlHandlers(services),
    ...issuanceHandlers(services),
    ...listenerHandlers(services),
    ...feedbackHandlers(services),
    ...pushHandlers(services),
    ...leaderboardHandlers(services),
    ...playerGroupHandlers(services),
  } satisfies Handlers;
}
