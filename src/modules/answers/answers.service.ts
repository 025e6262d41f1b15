/**
 * Answers, open questions, answer history and points of players.
 *
 * Answering rules, in order: unknown issuance 404; in-game questions need the
 * caller to follow the match, and so do Match questions for callers with a
 * daily follow quota (403); a settled question 409; a closed answer window
 * (in-game) or kick-off passed (Match questions, locked) 410; a choice the
 * question does not have 400. The issuance row is locked while the answer is
 * written, so an answer and the question's settling never cross.
 */
import type { components } from '../../../generated/api-types.js';
import type { Db } from '../../db/client.js';
import { issuanceErrors } from '../issuances/issuances.errors.js';
import { answerErrors } from './answers.errors.js';
import { notStarted, unsettled } from '../../domain/vocabulary.js';
import type { UserRow } from '../users/users.table.js';
import { history, lockIssuanceForAnswer, openForUser, pointsOf, upsertAnswer, type HistoryRow, type OpenRow } from './answers.repository.js';
import type { QuestionAnswerRow } from './answers.table.js';
import { calendarPeriods, zoneOrUtc } from '../shared/calendar.js';
import { createCrowdCounter } from './crowd-counter.js';

type Schemas = components['schemas'];

/** Open questions are listed for live matches and for matches scheduled in [now - 12 h, now + 48 h). */
/**
 * The sliding window of open questions: matches scheduled from 12 hours ago
 * to 14 days ahead, the longest `issue_lead_seconds` a Match question can
 * have (so every question the stream delivers is also in the catch-up list).
 */
export const OPEN_WINDOW = { beforeMs: 12 * 3600_000, afterMs: 14 * 86_400_000 };

export type AnswersService = ReturnType<typeof createAnswersService>;

export function createAnswersService({ db, now = () => new Date() }: { db: Db; now?: () => Date }) {
  const countsFor = createCrowdCounter({ db });
  return {
    async answer({
      user,
      issuanceId,
      choice,
    }: {
      user: UserRow;
      issuanceId: string;
      choice: string;
    }): Promise<{ answer: QuestionAnswerRow; created: boolean }> {
      return db.transaction(async (tx) => {
        const found = await lockIssuanceForAnswer({ tx, issuanceId, userId: user.id });
        if (!found) throw issuanceErrors.notFound();
        const { issuance, following, matchStatus } = found;
        const restricted = user.matchDailyFollowCount !== null;
        if (!following && (issuance.kind === 'in_game' || restricted)) throw answerErrors.notFollowing(issuance.kind);
        if (!unsettled.has(issuance.status)) throw answerErrors.alreadyResolved(issuance.status);
        const t = now();
        // A Match question locks at kick-off: its closing time, or the match starting earlier (before the worker marks it locked).
        const started = issuance.kind === 'match' && !notStarted.has(matchStatus);
        if (issuance.status === 'locked' || t >= issuance.closesAt || started) {
          throw issuance.kind === 'match' ? answerErrors.locked() : answerErrors.windowExpired();
        }
        if (!issuance.choices.some((c) => c.identifier === choice))
          throw answerErrors.invalidChoice(
            choice,
            issuance.choices.map((c) => c.identifier),
          );
        return upsertAnswer({
          tx,
          values: { userId: user.id, questionIssuanceId: issuance.id, matchId: issuance.matchId, selectedAnswerIdentifier: choice },
        });
      });
    },

    /** The caller's open questions; those they answered carry how everyone answered so far (one statement at most). */
    async open(user: UserRow, matchIds?: string[]): Promise<OpenRow[]> {
      const t = now();
      const rows = await openForUser({
        db,
        userId: user.id,
        now: t,
        windowFrom: new Date(t.getTime() - OPEN_WINDOW.beforeMs),
        windowTo: new Date(t.getTime() + OPEN_WINDOW.afterMs),
        ...(matchIds ? { matchIds } : {}),
      });
      const answered = rows.filter((r) => r.currentAnswer !== null);
      if (!answered.length) return rows;
      const counts = await countsFor(
        answered.map((r) => ({ issuanceId: r.issuance.id, stored: r.issuance.crowd, mine: { choice: r.currentAnswer!, createdAt: r.answeredAt ?? t } })),
      );
      return rows.map((r) => (r.currentAnswer !== null ? { ...r, crowd: counts.get(r.issuance.id) ?? {} } : r));
    },

    /** The user's answers, each with how everyone answered (stored once settled, else counted: one statement at most). */
    async history({
      userId,
      limit,
      offset,
      matchId,
    }: {
      userId: string;
      limit?: number | undefined;
      offset?: number | undefined;
      matchId?: string | undefined;
    }): Promise<HistoryRow[]> {
      const rows = await history({ db, userId, limit, offset, matchId });
      const counts = await countsFor(
        rows.map((r) => ({
          issuanceId: r.issuance.id,
          stored: r.issuance.crowd,
          mine: { choice: r.answer.selectedAnswerIdentifier, createdAt: r.answer.createdAt },
        })),
      );
      return rows.map((r) => ({ ...r, crowd: counts.get(r.issuance.id) ?? {} }));
    },

    async points(user: UserRow): Promise<Schemas['UserPoints']> {
      const timezone = zoneOrUtc(user.matchFollowTimezone);
      const periods = calendarPeriods(now(), timezone);
      const totals = await pointsOf({ db, userId: user.id, periods });
      const dto = (t: typeof totals.allTime) => ({ points: t.points, answered_count: t.answered, resolved_count: t.resolved, correct_count: t.correct });
      return {
        user_id: user.id,
        timezone,
        all_time: dto(totals.allTime),
        periods: periods.map((p, i) => ({ period: p.key, starts_at: p.from.toISOString(), ends_at: p.to.toISOString(), ...dto(totals.periods[i]!) })),
      };
    },
  };
}
