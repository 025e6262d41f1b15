/**
 * Redis for tests: the real server every machine of this project runs
 * (127.0.0.1:6379, or TEST_REDIS_URL), with a key prefix of the test's own
 * so that parallel workers and runs never see each other's keys. Never
 * FLUSHALL/FLUSHDB: `dropPrefix` deletes this test's keys only.
 */
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import type { RedisConfig } from '../../src/config.js';

export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379/0';

/** A configuration with a prefix no other test uses. */
export function testRedisConfig(name = 'test'): RedisConfig {
  return { url: TEST_REDIS_URL, keyPrefix: `qp-test:${name}:${process.pid}:${randomBytes(4).toString('hex')}:` };
}

/** Deletes every key under the configuration's prefix (SCAN, not KEYS: the server is shared). */
export async function dropPrefix(config: RedisConfig): Promise<void> {
  const redis = new Redis(config.url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  redis.on('error', () => {});
  try {
    await redis.connect();
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${config.keyPrefix}*`, 'COUNT', 1000);
      cursor = next;
      if (keys.length) await redis.unlink(...keys);
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}
