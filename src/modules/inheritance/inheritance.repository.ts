import { and, asc, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { questionDefinitions, type QuestionDefinitionRow } from '../definitions/definitions.table.js';
import { listGroups } from '../groups/groups.public.js';
import type { QuestionGroupRow } from '../groups/groups.table.js';
import { questionIssuances } from '../issuances/issuances.table.js';
import { matchQuestionDefinitions, type MatchQuestionDefinitionRow } from '../definitions/match-definitions.table.js';

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
  const groups = await listGroups({ db, leagueId });
  if (kind === 'match') {
    const match = await db
      .select()
      .from(matchQuestionDefinitions)
      .where(and(eq(matchQuestionDefinitions.leagueId, leagueId), definitionId ? eq(matchQuestionDefinitions.id, definitionId) : undefined))
      .orderBy(asc(sql`lower(${matchQuestionDefinitions.name})`), asc(matchQuestionDefinitions.id));
    return { groups, inGame: [], match };
  }
  const inGame = await db
    .select()
    .from(questionDefinitions)
    .where(and(eq(questionDefinitions.leagueId, leagueId), definitionId ? eq(questionDefinitions.id, definitionId) : undefined))
    .orderBy(asc(sql`lower(${questionDefinitions.name})`), asc(questionDefinitions.id));
  return { groups, inGame, match: [] };
}

export interface IssuanceTraceRow {
  id: string;
  definitionId: string | null;
  issuedAt: Date;
  decisionTrace: { step: string; passed: boolean; detail: string }[];
}

/** Decision traces of a match's issuances of one kind (optionally of one definition), in issue order. */
export async function loadDecisionTraces({
  db,
  matchId,
  kind,
  definitionId,
}: {
  db: DbOrTx;
  matchId: string;
  kind: 'in_game' | 'match';
  definitionId?: string | undefined;
}): Promise<IssuanceTraceRow[]> {
  const definitionColumn = kind === 'match' ? questionIssuances.matchQuestionDefinitionId : questionIssuances.definitionId;
  return db
    .select({ id: questionIssuances.id, definitionId: definitionColumn, issuedAt: questionIssuances.issuedAt, decisionTrace: questionIssuances.decisionTrace })
    .from(questionIssuances)
    .where(and(eq(questionIssuances.matchId, matchId), eq(questionIssuances.kind, kind), definitionId ? eq(definitionColumn, definitionId) : undefined))
    .orderBy(asc(questionIssuances.issuedAt), asc(questionIssuances.id));
}
