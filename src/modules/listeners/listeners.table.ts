import { sql } from 'drizzle-orm';
import { bigserial, boolean, doublePrecision, index, integer, jsonb, pgTable, primaryKey, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { idColumn, tstz } from '../../db/columns.js';
import { matches } from '../matches/matches.table.js';
import type { ListenerStatus } from '../../domain/vocabulary.js';
import type { FeedEvent } from '../../domain/sports/events.js';

/**
 * A listener consumes one match's event feed. Any process may run it: it is
 * claimed with a lease renewed by heartbeat, and a lease that runs out lets
 * another process take it over (resuming after `last_seq`).
 */
export const matchListeners = pgTable(
  'match_listeners',
  {
    id: idColumn(),
    matchId: uuid('match_id')
      .notNull()
      .references(() => matches.id, { onDelete: 'cascade' }),
    status: text('status').$type<ListenerStatus>().notNull().default('queued'),
    /** 'feed' (a live NDJSON push feed at feed_url) or 'replay' (recorded events of replay_match_id). */
    source: text('source').notNull(),
    feedUrl: text('feed_url'),
    replayMatchId: uuid('replay_match_id'),
    speed: doublePrecision('speed'),
    claimedBy: text('claimed_by'),
    leaseExpiresAt: tstz('lease_expires_at'),
    heartbeatAt: tstz('heartbeat_at'),
    stopRequested: boolean('stop_requested').notNull().default(false),
    eventsConsumed: integer('events_consumed').notNull().default(0),
    /** Replay: how many recorded events it plays (set when it starts); null for a live feed, whose length is unknown. */
    eventsTotal: integer('events_total'),
    issuedCount: integer('issued_count').notNull().default(0),
    deniedCount: integer('denied_count').notNull().default(0),
    resolvedCount: integer('resolved_count').notNull().default(0),
    /**
     * The feed's resume point: every message numbered up to it was consumed and
     * committed with everything decided on it (the last contiguous seq; a jump or
     * a regression never moves it). A takeover and a reconnect resume after it.
     */
    lastSeq: integer('last_seq').notNull().default(0),
    lastEventAt: tstz('last_event_at'),
    /** The match's state store (what definitions' store_state wrote). */
    stateStore: jsonb('state_store').$type<Record<string, unknown>>().notNull().default({}),
    error: text('error'),
    createdAt: tstz('created_at').notNull().defaultNow(),
    startedAt: tstz('started_at'),
    finishedAt: tstz('finished_at'),
  },
  (t) => [
    // One queued or running listener per match, settled by the database.
    uniqueIndex('match_listeners_active_uq')
      .on(t.matchId)
      .where(sql`${t.status} in ('queued', 'running')`),
    index('match_listeners_claim_idx').on(t.status, t.leaseExpiresAt),
    index('match_listeners_match_idx').on(t.matchId, t.createdAt),
  ],
);

/**
 * Every feed message a listener consumed, in arrival order (`id`): the
 * recording (downloadable, replayable). A message is one version of a
 * provider event, identified by `event_key` (provider event id, operation and
 * a hash of its content), not by its seq: two messages sharing a seq are both
 * recorded, and a redelivery under another seq is not recorded twice.
 */
export const listenerEvents = pgTable(
  'listener_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    listenerId: uuid('listener_id')
      .notNull()
      .references(() => matchListeners.id, { onDelete: 'cascade' }),
    matchId: uuid('match_id')
      .notNull()
      .references(() => matches.id, { onDelete: 'cascade' }),
    /** The feed event's own `seq` as the provider numbered it (also what issuances' trigger_seq and resolved_seq show). */
    seq: integer('seq').notNull(),
    providerEventId: text('provider_event_id').notNull(),
    operation: text('operation').notNull(),
    /** `<provider event id>:<operation>[:<content hash>]` (see eventKey in the push client). */
    eventKey: text('event_key').notNull(),
    event: jsonb('event').$type<FeedEvent>().notNull(),
    receivedAt: tstz('received_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('listener_events_listener_key_uq').on(t.listenerId, t.eventKey),
    index('listener_events_listener_idx').on(t.listenerId, t.id),
    index('listener_events_match_idx').on(t.matchId, t.id),
  ],
);

/** The text log of a listener. */
export const listenerLogLines = pgTable(
  'listener_log_lines',
  {
    listenerId: uuid('listener_id')
      .notNull()
      .references(() => matchListeners.id, { onDelete: 'cascade' }),
    lineNo: integer('line_no').notNull(),
    at: tstz('at').notNull().defaultNow(),
    level: text('level').notNull(),
    message: text('message').notNull(),
  },
  (t) => [primaryKey({ columns: [t.listenerId, t.lineNo] })],
);

export type MatchListenerRow = typeof matchListeners.$inferSelect;
export type ListenerEventRow = typeof listenerEvents.$inferSelect;
