/** The only writer of the denial trail (the live engine records through it). */
import { eq } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../../db/client.js';
import { chunks, nowPlusMicros } from '../../db/sql-helpers.js';
import { questionIssuanceDenials } from './denials.table.js';

export type NewDenial = typeof questionIssuanceDenials.$inferInsert;

/**
 * Records blocked attempts (each once per match, definition and triggering
 * event), a thousand per statement, listed in the order decided.
 */
export async function insertDenials({ db, values }: { db: DbOrTx; values: NewDenial[] }): Promise<void> {
  let position = 0;
  for (const chunk of chunks(values)) {
    await db
      .insert(questionIssuanceDenials)
      .values(chunk.map((v) => ({ ...v, createdAt: nowPlusMicros(position++) })))
      .onConflictDoNothing();
  }
}

/** Deletes the match's denial trail (a test match replayed again from the start). */
export async function deleteDenialsOfMatch({ tx, matchId }: { tx: Tx; matchId: string }): Promise<void> {
  await tx.delete(questionIssuanceDenials).where(eq(questionIssuanceDenials.matchId, matchId));
}

/** The (definition, trigger event) pairs denied on a match. */
export async function deniedOfMatch({ db, matchId }: { db: DbOrTx; matchId: string }) {
  return db
    .select({ definitionId: questionIssuanceDenials.definitionId, triggerEventId: questionIssuanceDenials.triggerEventId })
    .from(questionIssuanceDenials)
    .where(eq(questionIssuanceDenials.matchId, matchId));
}
