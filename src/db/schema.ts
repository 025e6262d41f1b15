/** Every Drizzle table of the service (drizzle-kit reads this file). */
export * from '../modules/users/users.table.js';
export * from '../modules/leagues/leagues.table.js';
export * from '../modules/brands/brands.table.js';
export * from '../modules/matches/matches.table.js';
export * from '../modules/groups/groups.table.js';
export * from '../modules/definitions/definitions.table.js';
export * from '../modules/match-definitions/match-definitions.table.js';
export * from '../modules/issuances/issuances.table.js';
export * from '../modules/sponsorships/sponsorships.table.js';
export * from '../modules/listeners/listeners.table.js';
export * from '../modules/denials/denials.table.js';
export * from '../modules/answers/answers.table.js';
export * from '../modules/feedback/feedback.table.js';
export * from '../modules/push/push.table.js';
export * from '../modules/admin-sessions/admin-sessions.table.js';
export * from '../modules/auth/login-throttle.table.js';
export * from '../modules/leaderboards/leaderboards.table.js';
