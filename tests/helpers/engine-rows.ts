/**
 * Rows the live engine writes (issuances, denials, listeners, recorded feed
 * messages, log lines), inserted directly for tests of the read endpoints.
 */
import type { FeedEvent } from '../../src/domain/sports/events.js';
import { dedupeKey } from '../../src/engine/feed/push-client.js';
import { questionIssuanceDenials, type IssuanceDenialRow } from '../../src/modules/denials/denials.table.js';
import { questionIssuances, type QuestionIssuanceRow } from '../../src/modules/issuances/issuances.table.js';
import { listenerEvents, listenerLogLines, matchListeners, type ListenerEventRow, type MatchListenerRow } from '../../src/modules/listeners/listeners.table.js';
import { createMatch } from './factories.js';
import type { TestApp } from './test-app.js';

const db = (app: TestApp) => app.services.database.db;

let counter = 0;

/** An in-game issuance of a match (open, issued now, closing in a minute unless told otherwise). */
export async function insertIssuance(app: TestApp, values: Partial<typeof questionIssuances.$inferInsert> & { matchId: string }): Promise<QuestionIssuanceRow> {
  const n = counter++;
  const [row] = await db(app)
    .insert(questionIssuances)
    .values({
      kind: 'in_game',
      definitionName: `Definition ${n}`,
      questionText: `Question ${n}?`,
      choices: [
        { identifier: 'home', label: 'Team A' },
        { identifier: 'away', label: 'Team B' },
      ],
      resolution: { rules: [] },
      triggerEventId: `evt-trigger-${n}`,
      closesAt: new Date(Date.now() + 60_000),
      points: 10,
      ...values,
    })
    .returning();
  return row!;
}

/**
 * An open issuance made from a stored definition, in-game (`definitionId`) or
 * Match (`matchQuestionDefinitionId`, no trigger event), on a new match of its
 * own: what makes the definition referenced.
 */
export async function insertIssuanceOf(
  app: TestApp,
  definition: { definitionId: string } | { matchQuestionDefinitionId: string },
  values: Partial<typeof questionIssuances.$inferInsert> = {},
): Promise<QuestionIssuanceRow> {
  const match = await createMatch(app);
  const kind = 'definitionId' in definition ? { kind: 'in_game' as const, ...definition } : { kind: 'match' as const, triggerEventId: null, ...definition };
  return insertIssuance(app, { matchId: match.id, ...kind, ...values });
}

export async function insertDenial(
  app: TestApp,
  values: Partial<typeof questionIssuanceDenials.$inferInsert> & { matchId: string },
): Promise<IssuanceDenialRow> {
  const n = counter++;
  const [row] = await db(app)
    .insert(questionIssuanceDenials)
    .values({
      definitionName: `Definition ${n}`,
      failedStep: 'min_interval',
      detail: '40 s since the last question in lane default (minimum 120 s)',
      triggerEventId: `evt-denied-${n}`,
      triggerEventType: 'corner',
      ...values,
    })
    .returning();
  return row!;
}

export async function insertListener(app: TestApp, values: Partial<typeof matchListeners.$inferInsert> & { matchId: string }): Promise<MatchListenerRow> {
  const [row] = await db(app)
    .insert(matchListeners)
    .values({ source: 'feed', status: 'completed', ...values })
    .returning();
  return row!;
}

/** A normalized feed event with defaults (a create of a `shot` at the given seq). */
export function feedEvent(overrides: Partial<FeedEvent> & { seq: number }): FeedEvent {
  return {
    provider_event_id: `evt-${overrides.seq}`,
    operation: 'create',
    type: 'shot',
    period: '1',
    clock_seconds: overrides.seq * 10,
    occurred_at: new Date(Date.UTC(2026, 10, 20, 19, 0, 0) + overrides.seq * 10_000).toISOString(),
    team: 'home',
    score: { home: 0, away: 0 },
    final: true,
    data: {},
    ...overrides,
  };
}

/** Messages a listener consumed, recorded as the engine records them (one row per message, in the order given). */
export async function insertListenerEvents(app: TestApp, listener: Pick<MatchListenerRow, 'id' | 'matchId'>, events: FeedEvent[]): Promise<ListenerEventRow[]> {
  if (!events.length) return [];
  return db(app)
    .insert(listenerEvents)
    .values(
      events.map((e) => ({
        listenerId: listener.id,
        matchId: listener.matchId,
        seq: e.seq,
        providerEventId: e.provider_event_id,
        operation: e.operation,
        eventKey: dedupeKey(e),
        event: e,
      })),
    )
    .returning();
}

/** Log lines numbered from `firstLineNo` (1 by default), one second apart. */
export async function insertLogLines(
  app: TestApp,
  listenerId: string,
  lines: { level?: string; message: string; at?: Date }[],
  firstLineNo = 1,
): Promise<void> {
  const start = Date.UTC(2026, 10, 20, 19, 0, 0);
  const rows = lines.map((l, i) => ({
    listenerId,
    lineNo: firstLineNo + i,
    level: l.level ?? 'info',
    message: l.message,
    at: l.at ?? new Date(start + (firstLineNo + i) * 1000),
  }));
  for (let i = 0; i < rows.length; i += 1000)
    await db(app)
      .insert(listenerLogLines)
      .values(rows.slice(i, i + 1000));
}
