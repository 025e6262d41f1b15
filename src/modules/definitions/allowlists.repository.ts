/** SQL on the definition allowlists of leagues and matches, for both kinds of definition. */
import { and, eq, inArray } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { removeFromLeagueAllowlists } from '../leagues/leagues.public.js';
import { removeFromMatchAllowlists } from '../matches/matches.public.js';
import type { DefinitionKindId } from './definition-kind.js';
import { questionDefinitions } from './definitions.table.js';
import { matchQuestionDefinitions } from './match-definitions.table.js';

/**
 * Which of `ids` are definitions of the league and kind. The rows found are
 * locked (FOR KEY SHARE) until the transaction ends, so a concurrent delete
 * waits and then scrubs the allowlist this transaction writes.
 */
export async function findDefinitionIdsInLeague({
  db,
  leagueId,
  kind,
  ids,
}: {
  db: DbOrTx;
  leagueId: string;
  kind: DefinitionKindId;
  ids: string[];
}): Promise<Set<string>> {
  if (!ids.length) return new Set();
  const table = kind === 'in_game' ? questionDefinitions : matchQuestionDefinitions;
  const rows = await db
    .select({ id: table.id })
    .from(table)
    .where(and(eq(table.leagueId, leagueId), inArray(table.id, ids)))
    .for('key share');
  return new Set(rows.map((r) => r.id));
}

/** Removes the id from every league's and every match's allowlist of that kind: one UPDATE per table. */
export async function scrubFromAllowlists({ db, kind, id }: { db: DbOrTx; kind: DefinitionKindId; id: string }): Promise<void> {
  await removeFromLeagueAllowlists({ db, kind, id });
  await removeFromMatchAllowlists({ db, kind, id });
}
