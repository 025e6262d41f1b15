/** SQL of live delivery: one statement per event per process, whatever the number of receivers. */
import { anyUuid } from '../db/sql-helpers.js';
import { and, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.js';
import { keyAuthenticates } from '../modules/auth/auth.repository.js';
import type { OpenRow } from '../modules/answers/answers.repository.js';
import { questionIssuances } from '../modules/issuances/issuances.table.js';
import { ALL_TIME_START, boardForDelivery } from '../modules/leaderboards/leaderboards.repository.js';
import { leagues } from '../modules/leagues/leagues.table.js';
import { matches, matchFollows, type MatchRow } from '../modules/matches/matches.table.js';
import { apiKeys } from '../modules/auth/auth.table.js';
import { users } from '../modules/users/users.table.js';

/** Ids of the matches the user follows. */
export async function followedMatchIds({ db, userId }: { db: DbOrTx; userId: string }): Promise<string[]> {
  const rows = await db
    .select({ id: matchFollows.matchId })
    .from(matchFollows)
    .where(and(eq(matchFollows.userId, userId), eq(matchFollows.following, true)));
  return rows.map((r) => r.id);
}

/** The matches each of these users follows: one statement, however many users. */
export async function followsOfUsers({ db, userIds }: { db: DbOrTx; userIds: string[] }): Promise<Map<string, Set<string>>> {
  const out = new Map<string, Set<string>>();
  if (!userIds.length) return out;
  const rows = await db
    .select({ userId: matchFollows.userId, matchId: matchFollows.matchId })
    .from(matchFollows)
    .where(and(anyUuid(matchFollows.userId, userIds), eq(matchFollows.following, true)));
  for (const r of rows) {
    let set = out.get(r.userId);
    if (!set) out.set(r.userId, (set = new Set()));
    set.add(r.matchId);
  }
  return out;
}

/** Which of these keys still authenticate (the rule of authentication itself). */
export async function validKeyIds({ db, keyIds }: { db: DbOrTx; keyIds: string[] }): Promise<Set<string>> {
  if (!keyIds.length) return new Set();
  // One statement however many sockets a process holds: the ids travel as one parameter.
  const rows = await db
    .select({ id: apiKeys.id })
    .from(apiKeys)
    .innerJoin(users, eq(users.id, apiKeys.userId))
    .where(and(anyUuid(apiKeys.id, keyIds), keyAuthenticates()));
  return new Set(rows.map((r) => r.id));
}

/** An issuance with its match and league, as an open question without a caller's answer (a new issuance has none). */
export async function issuanceForDelivery({ db, id }: { db: DbOrTx; id: string }): Promise<OpenRow | undefined> {
  const [row] = await db
    .select({ issuance: questionIssuances, match: matches, league: leagues.slug })
    .from(questionIssuances)
    .innerJoin(matches, eq(matches.id, questionIssuances.matchId))
    .innerJoin(leagues, eq(leagues.id, matches.leagueId))
    .where(eq(questionIssuances.id, id));
  return row ? { ...row, currentAnswer: null } : undefined;
}

export interface SettledForDelivery {
  issuance: Pick<
    typeof questionIssuances.$inferSelect,
    'id' | 'matchId' | 'kind' | 'status' | 'questionText' | 'choices' | 'correctAnswerIdentifier' | 'points' | 'resolvedAt'
  >;
  /** The match, for a resolution a client can render without having seen the question. */
  match: MatchRow;
  league: string;
  /** The answers of the given users (those who answered), by user id. */
  answers: Map<string, { selected: string; outcome: string | null; points: number }>;
}

/**
 * A settled issuance with its match and the answers of the given users to
 * it: one statement for all receivers, one row. The ids travel as one text parameter, whatever
 * their number (a list of parameters would hit the protocol's 65,535
 * limit); the planner folds it into a constant array and hashes it. The
 * answers come back as one JSON array: 10,000 rows each repeating the
 * issuance cost several times more to transfer and map.
 */
export async function settledForDelivery({ db, id, userIds }: { db: DbOrTx; id: string; userIds: string[] }): Promise<SettledForDelivery | undefined> {
  const [row] = await db
    .select({
      id: questionIssuances.id,
      matchId: questionIssuances.matchId,
      kind: questionIssuances.kind,
      status: questionIssuances.status,
      questionText: questionIssuances.questionText,
      choices: questionIssuances.choices,
      correctAnswerIdentifier: questionIssuances.correctAnswerIdentifier,
      points: questionIssuances.points,
      resolvedAt: questionIssuances.resolvedAt,
      match: matches,
      league: leagues.slug,
      // The issuance's id written out qualified: "id" alone would mean the answer's.
      answers: sql<string | [string, string, string | null, number][]>`(
        select coalesce(json_agg(json_build_array(qa.user_id, qa.selected_answer_identifier, qa.outcome, qa.points_awarded)), '[]')
        from question_answers qa
        where qa.question_issuance_id = question_issuances.id and ${anyUuid(sql`qa.user_id`, userIds)}
      )`,
    })
    .from(questionIssuances)
    .innerJoin(matches, eq(matches.id, questionIssuances.matchId))
    .innerJoin(leagues, eq(leagues.id, matches.leagueId))
    .where(eq(questionIssuances.id, id));
  if (!row) return undefined;
  const { answers: raw, match, league, ...issuance } = row;
  const list = typeof raw === 'string' ? (JSON.parse(raw) as [string, string, string | null, number][]) : raw;
  return {
    issuance,
    match,
    league,
    answers: new Map(list.map(([userId, selected, outcome, points]) => [userId, { selected, outcome, points: Number(points) }])),
  };
}

/** Where play stands on each of these matches: one statement, however many. */
export async function matchStates({ db, matchIds }: { db: DbOrTx; matchIds: string[] }): Promise<MatchStateRow[]> {
  if (!matchIds.length) return [];
  return db
    .select({
      id: matches.id,
      status: matches.status,
      period: matches.period,
      clockSeconds: matches.clockSeconds,
      homeScore: matches.homeScore,
      awayScore: matches.awayScore,
    })
    .from(matches)
    .where(anyUuid(matches.id, matchIds))
    .orderBy(matches.scheduled, matches.id);
}

export type MatchStateRow = Pick<MatchRow, 'id' | 'status' | 'period' | 'clockSeconds' | 'homeScore' | 'awayScore'>;

/** A match's leaderboard as the stream sends it: the top rows, the player count, and each receiver's own row and rank (one statement). */
export async function matchLeaderboardForDelivery({ db, matchId, userIds, top }: { db: DbOrTx; matchId: string; userIds: string[]; top: number }) {
  return boardForDelivery({ db, key: { scope: 'match', scopeId: matchId, period: 'all_time', periodStart: ALL_TIME_START }, top, userIds });
}
