/**
 * The Redis connection (src/redis/client.ts) and its settings: keys carry the
 * deployment's prefix, a command fails at once while Redis is unreachable
 * within its budget (the caller answers its documented error; nothing
 * waits for the outage to end), and an unreachable server never ends the process.
 */
import { once } from 'node:events';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/logger.js';
import { channel, connectRedis } from '../../src/redis/client.js';
import { dropPrefix, testRedisConfig } from '../helpers/redis.js';

const logger = createLogger('silent');

describe('REDIS_URL', () => {
  it('is off unless set, and takes a redis:// or rediss:// URL with an optional key prefix', () => {
    expect(loadConfig({ APP_ENV: 'test' }).redis).toBeNull();
    expect(loadConfig({ APP_ENV: 'test', REDIS_URL: 'redis://127.0.0.1:6379/2' }).redis).toEqual({ url: 'redis://127.0.0.1:6379/2', keyPrefix: 'qp:' });
    expect(loadConfig({ APP_ENV: 'test', REDIS_URL: 'rediss://u:p@cache.example.com:6380', REDIS_KEY_PREFIX: 'eu1:' }).redis?.keyPrefix).toBe('eu1:');
  });

  it('refuses anything else, saying what to write', () => {
    expect(() => loadConfig({ APP_ENV: 'test', REDIS_URL: 'http://127.0.0.1:6379' })).toThrow(ConfigError);
    expect(() => loadConfig({ APP_ENV: 'test', REDIS_URL: 'http://127.0.0.1:6379' })).toThrow(/redis:\/\/ or rediss:\/\//);
    expect(() => loadConfig({ APP_ENV: 'test', REDIS_URL: 'redis://127.0.0.1', REDIS_KEY_PREFIX: 'has space' })).toThrow(/REDIS_KEY_PREFIX/);
  });
});

describe('connectRedis', () => {
  const config = testRedisConfig('client');
  afterAll(() => dropPrefix(config));

  it("prefixes every key with the deployment's prefix, and channels through channel()", async () => {
    const redis = connectRedis(config, { name: 'test', logger });
    try {
      await redis.set('k', 'v');
      const raw = connectRedis({ ...config, keyPrefix: '' }, { name: 'raw', logger });
      try {
        expect(await raw.get(`${config.keyPrefix}k`)).toBe('v');
      } finally {
        raw.disconnect();
      }
      expect(channel(config, 'match:1')).toBe(`${config.keyPrefix}match:1`);
    } finally {
      redis.disconnect();
    }
  });

  it('fails a command within its budget while the server is unreachable, logs the outage once, and never ends the process', async () => {
    const warnings: unknown[] = [];
    const spy = { ...logger, warn: (...args: unknown[]) => warnings.push(args), info: () => {} } as unknown as typeof logger;
    // A port nothing listens on (the discard port on loopback): connection refused at once.
    const redis = connectRedis({ url: 'redis://127.0.0.1:9/0', keyPrefix: 'x:' }, { name: 'down', logger: spy });
    try {
      await expect(redis.get('k')).rejects.toThrow();
      await once(redis, 'error');
      // A reconnect attempt fails again: still the one warning for the one outage.
      await once(redis, 'error');
      await expect(redis.get('k')).rejects.toThrow();
      expect(warnings).toHaveLength(1);
    } finally {
      redis.disconnect();
    }
  });
});
