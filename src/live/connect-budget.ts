/**
 * The connect budget of the live stream. Every connect costs a key lookup
 * and, once authenticated, a snapshot read; without a budget one key (or one
 * address trying keys) could make thousands per second. Each process counts
 * connects per key and per client address over a fixed window, in memory
 * (the bound is per process, like the sockets per user: a shared count would
 * cost a round trip per connect). Both are taken before the key is looked up;
 * a connect over either budget completes the handshake and closes with 4429
 * and the seconds to wait, which browsers can read (they cannot read the
 * status of a refused handshake).
 */
import { createHash } from 'node:crypto';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import type { ConnectBudgetConfig } from '../config.js';
import { addressKey } from '../modules/auth/login-throttle.js';

export interface ConnectBudget {
  /** Counts one connect; resolves to the seconds to wait when a budget is spent, else 0. */
  take(address: string, key: string | null): Promise<number>;
}

export function createConnectBudget(config: ConnectBudgetConfig): ConnectBudget {
  const limiter = (points: number, keyPrefix: string) => (points > 0 ? new RateLimiterMemory({ points, duration: config.windowSeconds, keyPrefix }) : null);
  const byAddress = limiter(config.perAddress, 'ws-ip');
  const byKey = limiter(config.perKey, 'ws-key');
  const spend = async (budget: RateLimiterMemory | null, id: string): Promise<number> => {
    if (!budget) return 0;
    try {
      await budget.consume(id);
      return 0;
    } catch (res) {
      if (res instanceof RateLimiterRes) return Math.max(1, Math.ceil(res.msBeforeNext / 1000));
      throw res;
    }
  };
  return {
    async take(address, key) {
      // The address first: a flood of made-up keys from one address stops there, and adds no
      // counters per key.
      const wait = await spend(byAddress, addressKey(address));
      if (wait || !key) return wait;
      // Counted by a digest: the map holds no keys.
      return spend(byKey, createHash('sha256').update(key).digest('base64url').slice(0, 22));
    },
  };
}
