/** Shared steps of the leaderboard tests. */
import { expect } from 'vitest';
import { insertIssuance } from './engine-rows.js';
import { createMatch, follow } from './factories.js';
import { registerUser, type TestApp, type TestUser } from './test-app.js';

/** `N` players, as a tuple (destructured without an undefined case). */
export type Crowd<N extends number, T extends TestUser[] = []> = T['length'] extends N ? T : Crowd<N, [...T, TestUser]>;

/** A live match (kicked off half an hour ago) and `size` new players following it. */
export async function liveMatchWithCrowd<N extends number>(app: TestApp, size: N) {
  const match = await createMatch(app, { status: 'live', scheduled: new Date(Date.now() - 30 * 60_000) });
  const crowd: TestUser[] = [];
  for (let i = 0; i < size; i++) {
    const u = await registerUser(app);
    await follow(app, u.id, match.id);
    crowd.push(u);
  }
  return { match, crowd: crowd as Crowd<N>, ids: crowd.map((u) => u.id) };
}

/**
 * One question on a match: every player answers (choice by player), then it settles as the engine settles it (scoring and
 * the settlement queued for the boards in one transaction), and the boards take it (`drain`: the worker's applier in production).
 */
export async function playQuestion(
  app: TestApp,
  matchId: string,
  answers: [TestUser, 'home' | 'away'][],
  outcome: 'home' | 'away' | 'voided',
  { points = 10, drain = true }: { points?: number; drain?: boolean } = {},
) {
  const issuance = await insertIssuance(app, { matchId, status: 'open', closesAt: new Date(Date.now() + 2 * 60_000), points });
  for (const [user, choice] of answers) {
    const res = await app.request('PUT', '/api/question-answers', {
      token: user.token,
      body: { question_issuance_id: issuance.id, selected_answer_identifier: choice },
    });
    expect(res.status).toBe(201);
  }
  await app.services.engine.store.settleIssuance({
    id: issuance.id,
    status: outcome === 'voided' ? 'voided' : 'resolved',
    correct: outcome === 'voided' ? null : outcome,
    resolvedSeq: null,
    resolutionEventId: null,
  });
  if (drain) await app.services.leaderboards.drain();
  return issuance;
}
