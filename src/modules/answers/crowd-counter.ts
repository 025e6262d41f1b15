/** Counts of the crowd's answer for reads: one statement per read at most, shared by a process's reads for a second. */
import type { DbOrTx } from '../../db/client.js';
import { crowdCounts } from './answers.repository.js';
import type { CrowdCounts } from './crowd.js';

/** How long a count of an open question is served from a process's cache. */
export const CROWD_TTL_MS = 1000;
const CROWD_CACHE_MAX = 10_000;

/** A question whose crowd a read shows, with the caller's own answer (its choice and when it was first given). */
export interface CrowdWanted {
  issuanceId: string;
  /** The counts stored at settlement, when the question has settled. */
  stored: CrowdCounts | null;
  mine: { choice: string; createdAt: Date } | null;
}

/**
 * The counts of open questions, shared by the reads of a process: one
 * statement for every question a read needs that no count younger than
 * `CROWD_TTL_MS` covers. A count taken before the caller's own answer is
 * given that answer, so a player always finds themself in the crowd.
 */
export function createCrowdCounter({ db, now = () => Date.now() }: { db: DbOrTx; now?: () => number }) {
  const cache = new Map<string, { at: number; counts: CrowdCounts }>();

  return async function countsFor(wanted: CrowdWanted[]): Promise<Map<string, CrowdCounts>> {
    const out = new Map<string, CrowdCounts>();
    const t = now();
    const missing: string[] = [];
    for (const w of wanted) {
      if (w.stored) out.set(w.issuanceId, w.stored);
      else {
        const hit = cache.get(w.issuanceId);
        if (!hit || t - hit.at > CROWD_TTL_MS) missing.push(w.issuanceId);
      }
    }
    if (missing.length) {
      const counted = await crowdCounts({ db, issuanceIds: [...new Set(missing)] });
      for (const id of missing) {
        cache.delete(id);
        cache.set(id, { at: t, counts: counted.get(id) ?? {} });
      }
      while (cache.size > CROWD_CACHE_MAX) cache.delete(cache.keys().next().value!);
    }
    for (const w of wanted) {
      if (w.stored) continue;
      const hit = cache.get(w.issuanceId)!;
      let counts = hit.counts;
      // An answer first given after the count was taken is not in it yet.
      if (w.mine && w.mine.createdAt.getTime() > hit.at) counts = { ...counts, [w.mine.choice]: (counts[w.mine.choice] ?? 0) + 1 };
      out.set(w.issuanceId, counts);
    }
    return out;
  };
}

export type CrowdCounter = ReturnType<typeof createCrowdCounter>;
