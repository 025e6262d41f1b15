import { and, asc, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { questionDefinitions, type QuestionDefinitionRow } from '../definitions/definitions.table.js';
import { questionGroups, type QuestionGroupRow } from '../groups/groups.table.js';
import { matchQuestionDefinitions, type MatchQuestionDefinitionRow } from '../match-definitions/match-definitions.table.js';

/** A league's groups and definitions of one kind (optionally one definition), in two queries. */
export async function loadCatalog({
  db,
  leagueId,
  kind,
  definitionId,
}: {
  db: DbOrTx;
  leagueId: string;
  kind: 'in_game' | 'match';
  definitionId?: string | undefined;
}): Promise<{ groups: QuestionGroupRow[]; inGame: QuestionDefinitionRow[]; match: MatchQuestionDefinitionRow[] }> {
  if (kind === 'match') {
    const match = await db
      .select()
      .from(matchQuestionDefinitions)
      .where(and(eq(matchQuestionDefinitions.leagueId, leagueId), definitionId ? eq(matchQuestionDefinitions.id, definitionId) : undefined))
      .orderBy(asc(sql`lower(${matchQuestionDefinitions.name})`), asc(matchQuestionDefinitions.id));
    return { groups: [], inGame: [], match };
  }
  const groups = await db.select().from(questionGroups).where(eq(questionGroups.leagueId, leagueId)).orderBy(sql`${questionGroups.slug} collate "C"`);
  const inGame = await db
    .select()
    .from(questionDefinitions)
    .where(and(eq(questionDefinitions.leagueId, leagueId), definitionId ? eq(questionDefinitions.id, definitionId) : undefined))
    .orderBy(asc(sql`lower(${questionDefinitions.name})`), asc(questionDefinitions.id));
  return { groups, inGame, match: [] };
}
