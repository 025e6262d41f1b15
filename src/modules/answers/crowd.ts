/**
 * The crowd's answer: how everyone answered a question, as the contract's
 * `Crowd`. Counted from the answers in one statement per read while the
 * question is open (crowd-counter.ts) and stored on the question when it
 * settles, so answering (`PUT /api/question-answers`) writes nothing more
 * than the answer itself.
 */
import type { components } from '../../../generated/api-types.js';

export type CrowdDto = components['schemas']['Crowd'];
/** Answers per choice identifier. */
export type CrowdCounts = Record<string, number>;

/**
 * Counts per choice in the question's order, with shares in whole percent
 * that add up to 100: each share rounded down, the points left over to the
 * largest remainders (an earlier choice first on a tie); all 0 with no answer.
 */
export function toCrowd(choices: readonly { identifier: string }[], counts: CrowdCounts): CrowdDto {
  const list = choices.map((c) => ({ identifier: c.identifier, count: counts[c.identifier] ?? 0 }));
  const total = list.reduce((n, c) => n + c.count, 0);
  if (!total) return { answer_count: 0, choices: list.map((c) => ({ ...c, percent: 0 })) };
  const shares = list.map((c) => ({ ...c, percent: Math.floor((c.count * 100) / total), rest: (c.count * 100) % total }));
  let left = 100 - shares.reduce((n, c) => n + c.percent, 0);
  const order = shares.map((_, i) => i).sort((a, b) => shares[b]!.rest - shares[a]!.rest || a - b);
  for (const i of order) {
    if (left <= 0) break;
    shares[i]!.percent++;
    left--;
  }
  return { answer_count: total, choices: shares.map(({ identifier, count, percent }) => ({ identifier, count, percent })) };
}
