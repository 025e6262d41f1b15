/**
 * Match (pre-game) questions: issued by every active, included Match question
 * definition of the league `issue_lead_seconds` before kick-off (at once when
 * that time has passed; each in a transaction that holds the match row, runs
 * `store_state` on the match's state store, snapshots
 * `issuance_state_extract` and renders), answerable until kick-off, locked at
 * kick-off, and resolved from the final result once the match is closed (voided when it is
 * cancelled). A worker task runs these three steps; each is idempotent and
 * safe in several processes at once (unique issuance per match and
 * definition; settling only moves rows still open or locked).
 */
import type { Db } from '../db/client.js';
import type { Logger } from '../logger.js';
import type { BrandRow } from '../modules/brands/brands.table.js';
import { dueMatchQuestions, insertMatchIssuance, lockStartedMatchQuestions, matchQuestionsToResolve } from '../modules/issuances/issuances.public.js';
import type { BrandSnapshot, QuestionIssuanceRow } from '../modules/issuances/issuances.table.js';
import { lockMatchStateStore, saveMatchStateStore } from '../modules/matches/matches.public.js';
import { evaluateExpression } from '../domain/language/expressions.js';
import type { EngineHooks } from './listener-runner.js';
import { applyStoreState, extractIssuanceState, isDefinitionError, renderQuestion } from '../domain/question-render.js';
import { matchQuestionSettings } from '../domain/settings.js';
import type { EngineStore } from './store.js';
import type { WorkerTask } from './worker.js';
import { preGameIssueContext, preGameMatchContext } from '../domain/match-context.js';

/** The longest `issue_lead_seconds` the contract allows. */
export const MAX_ISSUE_LEAD_SECONDS = 1_209_600;

export function createMatchQuestions({
  db,
  store,
  hooks,
  logger,
  brandSnapshot,
  now = () => new Date(),
  batch = 500,
}: {
  db: Db;
  store: EngineStore;
  hooks: EngineHooks;
  logger: Logger;
  brandSnapshot: (brand: BrandRow) => BrandSnapshot;
  now?: () => Date;
  /** Most pairs (match, definition) handled per step and tick. */
  batch?: number;
}) {
  /** Pairs that failed to render, with the definition version: warned about once, not every poll. */
  const renderFailures = new Set<string>();

  /**
   * Issues the Match questions that are due on matches not started yet; or,
   * with `matchId`, every Match question of that match not issued yet, whatever
   * its lead (a test match cloned or restarted: it kicks off when its replay
   * starts, not at a time the leads count back from). A question never closes
   * before it was issued.
   */
  async function issueDue({ matchId }: { matchId?: string } = {}): Promise<number> {
    const t = now();
    const due = await dueMatchQuestions({
      db,
      now: t,
      matchId,
      maxLeadSeconds: MAX_ISSUE_LEAD_SECONDS,
      // Pairs known not to render come back every tick: room for each, so they never crowd out due ones.
      limit: batch + renderFailures.size,
    });
    let issued = 0;
    for (const { match, league, group, definition, sponsor } of due) {
      const settings = matchQuestionSettings(league, group, definition, match);
      const matchContext = preGameIssueContext(match, league.slug);
      let row: QuestionIssuanceRow | undefined;
      try {
        row = await db.transaction(async (tx) => {
          // The match row, locked: its state store is read, updated and written by one Match question at a time.
          const current = await lockMatchStateStore({ tx, id: match.id });
          if (current?.status !== 'scheduled') return undefined;
          const before = { match: matchContext, state: current.stateStore };
          const state = await applyStoreState(definition.storeState, before);
          const extract = await extractIssuanceState(definition.issuanceStateExtract, { ...before, state });
          const rendered = await renderQuestion(
            { question_text_template: definition.questionTextTemplate, choices: definition.choices },
            { match: matchContext, state, extract },
          );
          const inserted = await insertMatchIssuance({
            tx,
            values: {
              matchId: match.id,
              kind: 'match',
              matchQuestionDefinitionId: definition.id,
              definitionName: definition.name,
              groupId: definition.groupId,
              isPivotalMoment: definition.isPivotalMoment,
              status: 'open',
              questionText: rendered.question_text,
              choices: rendered.choices,
              choiceTemplates: definition.choices,
              state: extract,
              resolution: definition.resolution,
              issuedAt: t,
              closesAt: match.scheduled > t ? match.scheduled : t,
              points: settings.points.value,
              matchSponsorBrand: sponsor ? brandSnapshot(sponsor) : null,
              decisionTrace: [
                { step: 'definition_allowed', passed: true, detail: `included (${settings.included.source})` },
                { step: 'render', passed: true, detail: 'rendered' },
              ],
            },
          });
          // Another process issued this pair first: its store_state ran then, not again now.
          if (inserted && state !== current.stateStore) await saveMatchStateStore({ tx, id: match.id, state });
          return inserted;
        });
      } catch (err) {
        if (!isDefinitionError(err)) throw err;
        const key = `${match.id}:${definition.id}:${definition.updatedAt.getTime()}`;
        if (!renderFailures.has(key)) {
          if (renderFailures.size >= 10_000) renderFailures.clear();
          renderFailures.add(key);
          logger.warn(
            { match: match.id, definition: definition.id, err: (err as Error).message },
            'Match question not issued: it does not render (retried every tick; fix the definition)',
          );
        }
        continue;
      }
      if (!row) continue;
      issued += 1;
      await hooks.onIssued?.(row);
    }
    return issued;
  }

  /**
   * Kick-off: open Match questions lock (answers then get 410) until the
   * result resolves them: at their closing time (the match's scheduled time,
   * kept in step by the schedule sync), or as soon as the match has started
   * (or been called off) earlier.
   */
  async function lockStarted(): Promise<number> {
    const rows = await lockStartedMatchQuestions({ db, now: now() });
    for (const row of rows) await hooks.onSettled?.(row);
    return rows.length;
  }

  /** Closed matches resolve their Match questions from the result; cancelled ones void them. */
  async function resolveFinished(): Promise<number> {
    const pending = await matchQuestionsToResolve({ db, limit: batch });
    let settled = 0;
    for (const { issuance, match, league } of pending) {
      let correct: string | null = null;
      if (match.status === 'closed') {
        try {
          const value = await evaluateExpression(
            'resolution.correct_choice',
            String((issuance.resolution as { correct_choice?: string }).correct_choice ?? 'null'),
            {
              result: match.result,
              match: preGameMatchContext(match, league),
              issuance: { state: issuance.state, issued_at: issuance.issuedAt.toISOString() },
            },
          );
          correct = typeof value === 'string' && issuance.choices.some((c) => c.identifier === value) ? value : null;
        } catch (err) {
          logger.warn({ issuance: issuance.id, err: (err as Error).message }, 'Match question resolution failed; voiding it');
        }
      }
      const row = await store.settleIssuance({
        id: issuance.id,
        status: correct ? 'resolved' : 'voided',
        correct,
        resolvedSeq: null,
        resolutionEventId: null,
      });
      if (!row) continue;
      settled += 1;
      await hooks.onSettled?.(row);
    }
    return settled;
  }

  return {
    issueDue,
    lockStarted,
    resolveFinished,
    /** One round of the three steps. */
    async tick(): Promise<{ issued: number; locked: number; settled: number }> {
      const locked = await lockStarted();
      const issued = await issueDue();
      const settled = await resolveFinished();
      return { issued, locked, settled };
    },
    task(everyMs = 5000): WorkerTask {
      return { name: 'match-questions', everyMs, run: async () => void (await this.tick()) };
    },
  };
}
