/**
 * The service's Redis connections (ioredis), when REDIS_URL is set.
 *
 * Redis is where a deployment goes past one process: boards as sorted sets
 * shared by every process, live messages fanned out per match. PostgreSQL
 * stays the durable truth; whatever is in Redis can be rebuilt from it.
 *
 * Every connection made here:
 * - has its `error` listener from the moment it exists (an unhandled
 *   'error' would end the process) and logs each distinct outage once;
 * - prefixes every key with the configured prefix (`keyPrefix`), so several
 *   deployments or test runs can share a server; channels are prefixed by
 *   `channel()` (ioredis does not prefix pub/sub channels);
 * - bounds every command by `commandTimeoutMs` (queued while connecting
 *   included) and gives up on it after one reconnect attempt, so a request
 *   that needs Redis answers its documented error instead of waiting for
 *   an outage to end; reconnects go on in the background.
 */
import { Redis, type RedisOptions } from 'ioredis';
import type { RedisConfig } from '../config.js';
import type { Logger } from '../logger.js';

export type { Redis };

export interface RedisConnectOptions {
  /** What the connection is for, in logs ("boards", "live subscriber"). */
  name: string;
  logger: Logger;
  /** A command's budget, ms (a frozen server must not hold a request longer). */
  commandTimeoutMs?: number;
  extra?: RedisOptions;
}

export function connectRedis(config: RedisConfig, { name, logger, commandTimeoutMs = 1000, extra }: RedisConnectOptions): Redis {
  const redis = new Redis(config.url, {
    keyPrefix: config.keyPrefix,
    connectionName: `question-play:${name}`,
    maxRetriesPerRequest: 1,
    commandTimeout: commandTimeoutMs,
    // Back off to at most 2 s between attempts, for ever: Redis coming back is the normal end of an outage.
    retryStrategy: (times) => Math.min(times * 100, 2000),
    lazyConnect: false,
    ...extra,
  });
  let down = false;
  redis.on('error', (err: Error) => {
    if (down) return;
    down = true;
    logger.warn({ err: err.message, redis: name }, 'redis unreachable; retrying in the background');
  });
  redis.on('ready', () => {
    if (down) logger.info({ redis: name }, 'redis reachable again');
    down = false;
  });
  return redis;
}

/** A pub/sub channel or stream name with the deployment's prefix (ioredis prefixes keys, not channels). */
export function channel(config: RedisConfig, name: string): string {
  return `${config.keyPrefix}${name}`;
}
