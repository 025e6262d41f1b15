/**
 * Whether `type` is a canonical feed event type of `sport`: the one place the
 * definition rules ask it (trigger.event_type and every resolution rule's
 * event_type of an in-game definition). The per-sport catalog is the sample
 * catalog's (src/domain/sports/sports.ts).
 */
export { isKnownEventType } from '../../domain/sports/sports.js';
