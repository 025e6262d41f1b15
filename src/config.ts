/** Environment -> typed configuration, validated once at start with errors that say what to fix. */
import { createECDH } from 'node:crypto';
import { isIP } from 'node:net';
import path from 'node:path';
import type { DatabaseLimits } from './db/client.js';
import { feedUrlTemplateProblem } from './engine/schedule/feed-url-template.js';
import type { PasswordHashCost } from './modules/auth/credentials.js';

export type AppEnv = 'main' | 'staging' | 'development' | 'test';

/** Sign-in throttling: see src/modules/auth/login-throttle.ts. */
export interface LoginThrottleConfig {
  /** Attempts per login name from one address per window; 0 turns this budget off. */
  maxAttempts: number;
  /** Attempts from one address, all names together, per window; 0 turns this budget off. */
  maxAttemptsPerIp: number;
  windowSeconds: number;
}

/** Minutes, not seconds, to answer a live demo match's Match questions before its kick-off. */
export const DEMO_KICKOFF_SECONDS = 180;

export const DEFAULT_LOGIN_THROTTLE: LoginThrottleConfig = { maxAttempts: 10, maxAttemptsPerIp: 100, windowSeconds: 900 };

/** Registration throttling (also in src/modules/auth/login-throttle.ts). */
export interface RegisterThrottleConfig {
  /** Registrations from one address per window; 0 turns the budget off. */
  maxPerIp: number;
  windowSeconds: number;
}

/** Private player groups: limits and the join throttle (src/modules/player-groups). */
export interface PlayerGroupsConfig {
  /** Groups a player may belong to (owned ones included). */
  maxGroupsPerUser: number;
  /** Members a group may have (its owner included). */
  maxMembers: number;
  /** Join attempts (with an invite code) per player per window; 0 turns this budget off. */
  joinMaxAttempts: number;
  /** Join attempts from one address, all players together, per window; 0 turns this budget off. */
  joinMaxAttemptsPerIp: number;
  joinWindowSeconds: number;
}

export const DEFAULT_PLAYER_GROUPS: PlayerGroupsConfig = {
  maxGroupsPerUser: 20,
  maxMembers: 50,
  joinMaxAttempts: 10,
  joinMaxAttemptsPerIp: 100,
  joinWindowSeconds: 900,
};

/** REDIS_URL and REDIS_KEY_PREFIX: src/redis/client.ts. */
export interface RedisConfig {
  /** redis:// or rediss:// URL (credentials and database number in it). */
  url: string;
  /** Prepended to every key and channel the service uses, so deployments (and test runs) can share one server. */
  keyPrefix: string;
}

/** Mail (password resets, email verification): src/mail/mailer.ts. */
export interface MailConfig {
  /** smtp:// or smtps:// URL of the SMTP server (credentials in it); null: mails are logged, not sent. */
  smtpUrl: string | null;
  /** The sender of every mail. */
  from: string;
  /** Base URL of the player app: mails link to `<url>/reset-password?token=...` and `<url>/verify-email?token=...`. */
  playerAppUrl: string;
  /** How long a password-reset link works. */
  resetTtlMinutes: number;
  /** How long an email-verification link works. */
  verifyTtlHours: number;
  /** Mails to one recipient asked for from one client address per window; 0 turns this budget off. */
  maxPerRecipient: number;
  /** Mails asked for from one client address per window, all recipients together; 0 turns this budget off. */
  maxPerIp: number;
  windowSeconds: number;
}

export interface S3Config {
  bucket: string;
  region: string;
  endpoint: string | undefined;
  accessKeyId: string | undefined;
  secretAccessKey: string | undefined;
  publicBaseUrl: string | undefined;
  forcePathStyle: boolean;
}

export interface Config {
  host: string;
  port: number;
  databaseUrl: string | undefined;
  /** PGlite data directory (unused when databaseUrl is set); null means in memory. */
  dataDir: string | null;
  appEnv: AppEnv;
  logLevel: 'debug' | 'info' | 'warn' | 'error' | 'silent';
  /** 'json' lines, readable 'pretty' lines, or 'auto': pretty when stdout is a terminal, JSON otherwise. */
  logFormat: 'auto' | 'json' | 'pretty';
  /** Seed demo data (brands, users, matches) into an empty database at start. */
  demoData: boolean;
  /** Port of the demo's feed server on loopback (0: a free port). */
  demoFeedPort: number;
  /** Seconds from scheduling a live demo match to its kick-off: how long its Match questions are open. */
  demoKickoffSeconds: number;
  /** Largest JSON request body, bytes. */
  jsonBodyLimitBytes: number;
  s3: S3Config | null;
  /** Trust X-Forwarded-* from a proxy in front (for Secure cookies, client IPs). */
  /**
   * Which reverse proxies' X-Forwarded-* to believe (express's `trust proxy`):
   * false none, a number of proxy hops in front of the service, or the
   * proxies' addresses and subnets. Never "all": the left part of
   * X-Forwarded-For is whatever the client wrote.
   */
  trustProxy: false | number | string[];
  /** Origins allowed to call the JSON API from browsers: '*', a list, or none (empty list). */
  corsOrigins: '*' | string[];
  engine: EngineConfig;
  push: PushConfig;
  /** Sign-in throttling (API login and the operator UI's form). */
  /** The authentication step's cache of key lookups (src/modules/auth/key-cache.ts); ttlMs 0: off. */
  authCache: { ttlMs: number; maxEntries: number };
  /** argon2id's cost for new password hashes: 'standard' always, except 'minimal' in test runs (src/modules/auth/credentials.ts). */
  passwordHashCost: PasswordHashCost;
  /** LANGUAGE_TIME_SCALE: the language's wall-clock limits times this (1 but in test runs; src/domain/language/time-scale.ts). */
  languageTimeScale: number;
  loginThrottle: LoginThrottleConfig;
  registerThrottle: RegisterThrottleConfig;
  playerGroups: PlayerGroupsConfig;
  mail: MailConfig;
  /** Redis, when a deployment outgrows one process (src/redis/client.ts); null: nothing uses Redis. */
  redis: RedisConfig | null;
  /** The live stream (WS /api/play/stream) of this process. */
  stream: StreamConfig;
  /** PostgreSQL: how long the database may keep the API and the engine waiting. */
  database: DatabaseConfig;
  /** After SIGTERM or SIGINT: how long requests in flight get to finish before the process exits anyway. */
  shutdownTimeoutMs: number;
  /** Connection-level limits of the HTTP server (src/http/server-limits.ts). */
  http: ServerLimits;
  /** Health checks, metrics and traces (docs/operations.md). */
  ops: OpsConfig;
}

export interface OpsConfig {
  /** GET /metrics on the service's own port needs `Authorization: Bearer <token>`; unset, it is not served there (404). */
  metricsToken: string | null;
  /** A second, internal port serving /healthz, /readyz and /metrics (no token): for workers, and for scrapers inside the network. */
  port: number | null;
  host: string;
  /** OTLP/HTTP endpoint (OTEL_EXPORTER_OTLP_ENDPOINT); unset, no traces are made. */
  otlpEndpoint: string | null;
  serviceName: string;
}

export interface DatabaseConfig {
  /** The API's connections (requests, the live stream, the operator UI): an outage answers 503 within about this. */
  api: DatabaseLimits;
  /** The engine worker's own connections: a longer budget; it retries by itself. */
  engine: DatabaseLimits;
}

/** The live stream's connect budget: see src/live/connect-budget.ts. */
export interface ConnectBudgetConfig {
  /** Connects per API key per window; 0 turns this budget off. */
  perKey: number;
  /** Connects per client address (an IPv6 client by its /64) per window; 0 turns this budget off. */
  perAddress: number;
  windowSeconds: number;
}

export const DEFAULT_CONNECT_BUDGET: ConnectBudgetConfig = { perKey: 30, perAddress: 600, windowSeconds: 60 };

export interface StreamConfig {
  /** A WebSocket ping to every socket this often; one that misses it is terminated. */
  heartbeatMs: number;
  /** Most unsent bytes a socket may hold before it is closed (4008). */
  maxBufferedBytes: number;
  /** Most sockets one user may hold open on one process; a new one closes the oldest (4009). */
  maxSocketsPerUser: number;
  /** Connects per key and per client address per window, per process; more close with 4429. */
  connectBudget: ConnectBudgetConfig;
  /** Shortest interval between two `match_state` messages of one match (changes in between are merged into the next). */
  matchStateIntervalMs: number;
  /** Shortest interval between two `leaderboard` messages of one match (settlements in between are merged into the next). */
  leaderboardIntervalMs: number;
}

/** Connection-level limits of the HTTP server. */
export interface ServerLimits {
  /** The request line and headers must arrive within this (else 408). */
  headersTimeoutMs: number;
  /** The whole request, body included, must arrive within this (else 408). Uploads need it to cover their size at a slow link. */
  requestTimeoutMs: number;
  /** An idle keep-alive connection is closed after this. */
  keepAliveTimeoutMs: number;
  /** How often the two timeouts above are checked. */
  checkIntervalMs: number;
}

/** VAPID (RFC 8292) application server identity of Web Push. */
export interface VapidConfig {
  /** Uncompressed P-256 public key, base64url (65 bytes); browsers subscribe with it as `applicationServerKey`. */
  publicKey: string;
  /** P-256 private key, base64url (32 bytes). */
  privateKey: string;
  /** `mailto:` or `https:` contact of the sender, given to push services. */
  subject: string;
}

export interface PushConfig {
  /** `log` records notifications as delivered without network; `webpush` sends Web Push with VAPID. */
  provider: 'log' | 'webpush';
  vapid: VapidConfig | null;
  /**
   * Accept `http:` Web Push endpoints (loopback test receivers). Never set
   * from the environment: real push services are https only.
   */
  allowHttpEndpoints: boolean;
}

export interface EngineConfig {
  /** Run the live engine worker in this process (listeners, dispatch, Match questions). */
  worker: boolean;
  pollMs: number;
  leaseMs: number;
  heartbeatMs: number;
  staleAfterMs: number;
  maxListeners: number;
  /** Seed of the probability gate: the same seed draws the same questions on a replay. */
  seed: string;
  /** Replays: an open question stays answerable at least this long (real time) before the replay goes on (ENGINE_REPLAY_MIN_ANSWER_SECONDS, 0 = no hold). */
  replayMinAnswerSeconds: number;
  /** Where the provider's live feeds are: `{sr_id}` is replaced (used when a match has no feed_url). */
  feedUrlTemplate: string | undefined;
  /**
   * Feed URLs may name local, private or reserved addresses (loopback feeds
   * of the demo and the tests). Off: such a feed URL is refused when it is
   * attached, and the feed client must refuse to connect to one.
   */
  feedAllowPrivateAddresses: boolean;
  /** How often the worker looks for settlements the leaderboards have not taken yet (besides at once after each of its own). */
  leaderboardApplyPollMs: number;
  /** Board rows the leaderboards' applier writes per transaction. */
  leaderboardChunkRows: number;
}

/** Wrong settings: every one of them, each a line that names the variable and says what to set. */
export class ConfigError extends Error {
  readonly problems: string[];

  constructor(problems: string | string[]) {
    const list = typeof problems === 'string' ? [problems] : problems;
    super(list.length === 1 ? list[0]! : `${list.length} settings are wrong:\n${list.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
    this.problems = list;
  }
}

/** The problems found by the loadConfig running now (null outside it): it checks every setting, then reports them all. */
let problems: string[] | null = null;

/** A wrong setting: recorded while loadConfig runs (the check goes on with `fallback`), else thrown at once. */
function invalid<T>(message: string, fallback: T): T {
  if (!problems) throw new ConfigError(message);
  problems.push(message);
  return fallback;
}

/** Settings checked together (a key pair, say): their first problem ends the group, not the whole check. */
function group<T>(read: () => T, fallback: T): T {
  try {
    return read();
  } catch (e) {
    if (!(e instanceof ConfigError) || !problems) throw e;
    problems.push(...e.problems);
    return fallback;
  }
}

function opsConfig(env: NodeJS.ProcessEnv): OpsConfig {
  let metricsToken = env.METRICS_TOKEN || null;
  if (metricsToken !== null && (metricsToken.length < 16 || /\s/.test(metricsToken))) {
    metricsToken = invalid('METRICS_TOKEN must be at least 16 characters without spaces (for example: openssl rand -hex 24)', null);
  }
  let otlpEndpoint = env.OTEL_EXPORTER_OTLP_ENDPOINT || null;
  if (otlpEndpoint !== null) {
    let u: URL | undefined;
    try {
      u = new URL(otlpEndpoint);
    } catch {
      u = undefined;
    }
    if (!u || (u.protocol !== 'http:' && u.protocol !== 'https:')) {
      otlpEndpoint = invalid(
        `OTEL_EXPORTER_OTLP_ENDPOINT: '${otlpEndpoint}' is not an http(s) URL; give the collector's OTLP/HTTP base URL, like http://otel-collector:4318`,
        null,
      );
    }
  }
  return {
    metricsToken,
    port: env.OPS_PORT ? int(env, 'OPS_PORT', 0, 0, 65_535) : null,
    host: env.OPS_HOST || env.HOST || '127.0.0.1',
    otlpEndpoint,
    serviceName: env.OTEL_SERVICE_NAME || 'question-play',
  };
}

const APP_ENVS: AppEnv[] = ['main', 'staging', 'development', 'test'];
const LOG_LEVELS = ['debug', 'info', 'warn', 'error', 'silent'] as const;
const LOG_FORMATS = ['auto', 'json', 'pretty'] as const;

function bool(env: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (/^(1|true|yes|on)$/i.test(raw)) return true;
  if (/^(0|false|no|off)$/i.test(raw)) return false;
  return invalid(`${name} must be true or false, got '${raw}'`, fallback);
}

const PROXY_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/**
 * TRUST_PROXY: unset, false or 0 trusts no proxy; true is one proxy (the
 * address it appends to X-Forwarded-For is the client); a number is that many
 * proxy hops; otherwise a comma-separated list of the proxies' addresses or
 * subnets (or loopback, linklocal, uniquelocal).
 */
function trustProxy(value: string | undefined): false | number | string[] {
  const raw = value?.trim() ?? '';
  if (raw === '' || /^(false|no|off|0)$/i.test(raw)) return false;
  if (/^(true|yes|on)$/i.test(raw)) return 1;
  if (/^\d+$/.test(raw)) return Number(raw);
  const entries = raw
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean);
  for (const entry of entries) {
    const [address, prefix, ...rest] = entry.split('/');
    const version = isIP(address ?? '');
    const prefixOk = prefix === undefined || (/^\d+$/.test(prefix) && Number(prefix) <= (version === 6 ? 128 : 32));
    if (!PROXY_NAMES.has(entry) && (!version || !prefixOk || rest.length)) {
      return invalid(
        `TRUST_PROXY: '${entry}' is not an address, a subnet or one of ${[...PROXY_NAMES].join(', ')}; give false, true (one proxy), a number of proxies, or the proxies' addresses (comma-separated, like 10.0.0.0/8,loopback)`,
        false,
      );
    }
  }
  return entries;
}

/** CORS_ORIGINS: unset or `*` any origin; a comma-separated list of origins; empty none. */
function corsOrigins(value: string | undefined): '*' | string[] {
  if (value === undefined || value.trim() === '*') return '*';
  const origins = value
    .split(',')
    .map((o) => o.trim())
    .filter(Boolean);
  for (const origin of origins) {
    let url: URL | undefined;
    try {
      url = new URL(origin);
    } catch {
      url = undefined;
    }
    if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || url.origin !== origin) {
      return invalid(
        `CORS_ORIGINS: '${origin}' is not an origin; give scheme, host and port only, like https://play.example.com or http://localhost:3000 (comma-separated), or * for any`,
        [],
      );
    }
  }
  return origins;
}

function int(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max) return invalid(`${name} must be an integer from ${min} to ${max}, got '${raw}'`, fallback);
  return n;
}

/**
 * The configuration from the environment. Every setting is checked before
 * anything is reported: a ConfigError lists every wrong one, not only the
 * first, so a deployment is fixed in one round.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const outer = problems;
  problems = [];
  try {
    const config = readConfig(env);
    // A setting read in two places (DB_PREPARED_STATEMENTS) is reported once.
    if (problems.length) throw new ConfigError([...new Set(problems)]);
    return config;
  } finally {
    problems = outer;
  }
}

/** One of `allowed`, else a problem naming them (the check goes on with `fallback`). */
function oneOf<T extends string>(name: string, raw: string | undefined, allowed: readonly T[], fallback: T): T {
  const value = (raw || fallback) as T;
  return allowed.includes(value) ? value : invalid(`${name} must be one of ${allowed.join(', ')}, got '${raw}'`, fallback);
}

/**
 * PASSWORD_HASH_COST: `minimal` hashes are cheap to guess, so only a test run (APP_ENV=test, whose players are made up)
 * may ask for them; anywhere else the setting stops the start.
 */
function passwordHashCost(env: NodeJS.ProcessEnv, appEnv: AppEnv): PasswordHashCost {
  const cost = oneOf<PasswordHashCost>('PASSWORD_HASH_COST', env.PASSWORD_HASH_COST, ['standard', 'minimal'], 'standard');
  if (cost === 'minimal' && appEnv !== 'test')
    return invalid(`PASSWORD_HASH_COST=minimal is for test runs only (APP_ENV=test), got APP_ENV=${appEnv}`, 'standard');
  return cost;
}

/**
 * LANGUAGE_TIME_SCALE: stretches the wall-clock limits of definitions' expressions and templates (the sandbox's 250 ms),
 * so that a test run on a busy machine gets the answers, not the deadlines. Limits that a slow machine would then exceed
 * protect a production process, so only a test run (APP_ENV=test) may ask for it; anywhere else the setting stops the start.
 */
function languageTimeScale(env: NodeJS.ProcessEnv, appEnv: AppEnv): number {
  const scale = int(env, 'LANGUAGE_TIME_SCALE', 1, 1, 1000);
  if (scale !== 1 && appEnv !== 'test') return invalid(`LANGUAGE_TIME_SCALE is for test runs only (APP_ENV=test), got APP_ENV=${appEnv}`, 1);
  return scale;
}

function readConfig(env: NodeJS.ProcessEnv): Config {
  const appEnv = oneOf('APP_ENV', env.APP_ENV, APP_ENVS, 'development');
  const logLevel = oneOf('LOG_LEVEL', env.LOG_LEVEL, LOG_LEVELS, 'info');
  const logFormat = oneOf('LOG_FORMAT', env.LOG_FORMAT, LOG_FORMATS, 'auto');
  let databaseUrl = env.DATABASE_URL || undefined;
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    databaseUrl = invalid(`DATABASE_URL must be a postgres:// URL, got '${databaseUrl.slice(0, 20)}...'; unset it to use the embedded database`, undefined);
  }
  const dataDirRaw = env.DATA_DIR ?? '.data';
  const dataDir = dataDirRaw === ':memory:' ? null : path.resolve(dataDirRaw);

  let s3: S3Config | null = null;
  if (env.S3_BUCKET) {
    const endpoint = env.S3_ENDPOINT || undefined;
    if (endpoint && !/^https?:\/\//.test(endpoint)) invalid(`S3_ENDPOINT must be an http(s) URL, got '${endpoint}'`, undefined);
    const publicBaseUrl = env.S3_PUBLIC_BASE_URL || undefined;
    if (publicBaseUrl && !/^https?:\/\//.test(publicBaseUrl)) invalid(`S3_PUBLIC_BASE_URL must be an http(s) URL, got '${publicBaseUrl}'`, undefined);
    if (Boolean(env.S3_ACCESS_KEY_ID) !== Boolean(env.S3_SECRET_ACCESS_KEY)) {
      invalid('set both S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY, or neither (to use the default AWS credential chain)', undefined);
    }
    s3 = {
      bucket: env.S3_BUCKET,
      region: env.S3_REGION || 'us-east-1',
      endpoint,
      accessKeyId: env.S3_ACCESS_KEY_ID || undefined,
      secretAccessKey: env.S3_SECRET_ACCESS_KEY || undefined,
      publicBaseUrl,
      forcePathStyle: bool(env, 'S3_FORCE_PATH_STYLE', Boolean(endpoint)),
    };
  }

  const leaseMs = int(env, 'ENGINE_LEASE_MS', 15_000, 100, 3_600_000);
  const heartbeatMs = int(env, 'ENGINE_HEARTBEAT_MS', 3000, 10, 600_000);
  if (heartbeatMs * 2 > leaseMs)
    invalid(`ENGINE_HEARTBEAT_MS (${heartbeatMs}) must be at most half of ENGINE_LEASE_MS (${leaseMs}), or leases run out between heartbeats`, undefined);

  const feedAllowPrivateAddresses = bool(env, 'FEED_ALLOW_PRIVATE_ADDRESSES', appEnv === 'development' || appEnv === 'test');
  const feedUrlTemplate = env.FEED_URL_TEMPLATE || undefined;
  const templateProblem = feedUrlTemplate === undefined ? null : feedUrlTemplateProblem(feedUrlTemplate, { allowPrivateAddresses: feedAllowPrivateAddresses });
  if (templateProblem) invalid(`FEED_URL_TEMPLATE ${templateProblem}; got '${feedUrlTemplate}'`, undefined);

  // The VAPID keys depend on each other: their first problem is the one to fix.
  const push = group<PushConfig>(() => pushConfig(env), { provider: 'log', vapid: null, allowHttpEndpoints: false });

  return {
    host: env.HOST || '127.0.0.1',
    port: int(env, 'PORT', 8000, 0, 65535),
    databaseUrl,
    dataDir,
    appEnv,
    logLevel,
    logFormat,
    demoData: bool(env, 'DEMO_DATA', appEnv !== 'main' && appEnv !== 'test'),
    demoFeedPort: int(env, 'DEMO_FEED_PORT', 0, 0, 65535),
    demoKickoffSeconds: int(env, 'DEMO_KICKOFF_SECONDS', DEMO_KICKOFF_SECONDS, 0, 86400),
    jsonBodyLimitBytes: int(env, 'JSON_BODY_LIMIT_BYTES', 1024 * 1024, 1024, 64 * 1024 * 1024),
    s3,
    trustProxy: trustProxy(env.TRUST_PROXY),
    corsOrigins: corsOrigins(env.CORS_ORIGINS),
    engine: {
      worker: bool(env, 'ENGINE_WORKER', appEnv !== 'test'),
      pollMs: int(env, 'ENGINE_POLL_MS', 2000, 10, 600_000),
      leaseMs,
      heartbeatMs,
      staleAfterMs: int(env, 'ENGINE_STALE_AFTER_MS', 10_000, 100, 3_600_000),
      maxListeners: int(env, 'ENGINE_MAX_LISTENERS', 20, 0, 1000),
      seed: env.ENGINE_SEED ?? '',
      // Test runs replay at thousands of times real speed: no hold there unless asked.
      replayMinAnswerSeconds: int(env, 'ENGINE_REPLAY_MIN_ANSWER_SECONDS', appEnv === 'test' ? 0 : 10, 0, 3600),
      feedUrlTemplate,
      feedAllowPrivateAddresses,
      leaderboardApplyPollMs: int(env, 'LEADERBOARD_APPLY_POLL_MS', 500, 10, 600_000),
      leaderboardChunkRows: int(env, 'LEADERBOARD_APPLY_CHUNK_ROWS', 20_000, 1, 1_000_000),
    },
    push,
    stream: {
      heartbeatMs: int(env, 'STREAM_HEARTBEAT_SECONDS', 30, 1, 3600) * 1000,
      maxBufferedBytes: int(env, 'STREAM_MAX_BUFFERED_BYTES', 1024 * 1024, 16 * 1024, 64 * 1024 * 1024),
      maxSocketsPerUser: int(env, 'STREAM_MAX_SOCKETS_PER_USER', 10, 1, 1000),
      connectBudget: {
        // Off by default in tests, which open hundreds of sockets from one address (and 10,000 in bench:ws).
        perKey: int(env, 'STREAM_CONNECTS_PER_KEY', appEnv === 'test' ? 0 : DEFAULT_CONNECT_BUDGET.perKey, 0, 1_000_000),
        perAddress: int(env, 'STREAM_CONNECTS_PER_IP', appEnv === 'test' ? 0 : DEFAULT_CONNECT_BUDGET.perAddress, 0, 1_000_000),
        windowSeconds: int(env, 'STREAM_CONNECT_WINDOW_SECONDS', DEFAULT_CONNECT_BUDGET.windowSeconds, 1, 86_400),
      },
      matchStateIntervalMs: int(env, 'STREAM_MATCH_STATE_INTERVAL_MS', 1000, 0, 600_000),
      leaderboardIntervalMs: int(env, 'STREAM_LEADERBOARD_INTERVAL_MS', 5000, 0, 600_000),
    },
    database: {
      api: apiDatabaseLimits(env),
      engine: {
        connectTimeoutMs: int(env, 'ENGINE_DB_CONNECT_TIMEOUT_MS', 10_000, 100, 600_000),
        statementTimeoutMs: int(env, 'ENGINE_DB_STATEMENT_TIMEOUT_MS', 30_000, 100, 3_600_000),
        idleInTransactionTimeoutMs: int(env, 'ENGINE_DB_IDLE_IN_TRANSACTION_TIMEOUT_MS', 60_000, 100, 3_600_000),
        preparedStatements: bool(env, 'DB_PREPARED_STATEMENTS', true),
        retryConnectFailures: true,
      },
    },
    shutdownTimeoutMs: int(env, 'SHUTDOWN_TIMEOUT_MS', 10_000, 0, 600_000),
    http: httpLimits(env),
    ops: opsConfig(env),
    authCache: {
      ttlMs: int(env, 'AUTH_CACHE_TTL_MS', 10_000, 0, 600_000),
      maxEntries: int(env, 'AUTH_CACHE_MAX_ENTRIES', 100_000, 1, 10_000_000),
    },
    passwordHashCost: passwordHashCost(env, appEnv),
    languageTimeScale: languageTimeScale(env, appEnv),
    loginThrottle: {
      maxAttempts: int(env, 'LOGIN_MAX_ATTEMPTS', DEFAULT_LOGIN_THROTTLE.maxAttempts, 0, 1_000_000),
      maxAttemptsPerIp: int(env, 'LOGIN_MAX_ATTEMPTS_PER_IP', DEFAULT_LOGIN_THROTTLE.maxAttemptsPerIp, 0, 1_000_000),
      windowSeconds: int(env, 'LOGIN_WINDOW_SECONDS', DEFAULT_LOGIN_THROTTLE.windowSeconds, 1, 86_400),
    },
    registerThrottle: {
      // Off by default in tests, which register hundreds of users from one address.
      maxPerIp: int(env, 'REGISTER_MAX_PER_IP', appEnv === 'test' ? 0 : 20, 0, 1_000_000),
      windowSeconds: int(env, 'REGISTER_WINDOW_SECONDS', 3600, 1, 7 * 86_400),
    },
    mail: mailConfig(env),
    redis: redisConfig(env),
    playerGroups: {
      maxGroupsPerUser: int(env, 'PLAYER_GROUPS_PER_USER', DEFAULT_PLAYER_GROUPS.maxGroupsPerUser, 1, 1000),
      maxMembers: int(env, 'PLAYER_GROUP_MAX_MEMBERS', DEFAULT_PLAYER_GROUPS.maxMembers, 2, 1000),
      joinMaxAttempts: int(env, 'GROUP_JOIN_MAX_ATTEMPTS', DEFAULT_PLAYER_GROUPS.joinMaxAttempts, 0, 1_000_000),
      joinMaxAttemptsPerIp: int(env, 'GROUP_JOIN_MAX_ATTEMPTS_PER_IP', DEFAULT_PLAYER_GROUPS.joinMaxAttemptsPerIp, 0, 1_000_000),
      joinWindowSeconds: int(env, 'GROUP_JOIN_WINDOW_SECONDS', DEFAULT_PLAYER_GROUPS.joinWindowSeconds, 1, 86_400),
    },
  };
}

/** The API's database budgets: a COMMIT is bounded like a statement, and the wait for a connection has a budget of its own. */
function apiDatabaseLimits(env: NodeJS.ProcessEnv): DatabaseLimits {
  const statementTimeoutMs = int(env, 'DB_STATEMENT_TIMEOUT_MS', 2000, 100, 3_600_000);
  return {
    connectTimeoutMs: int(env, 'DB_CONNECT_TIMEOUT_MS', 2000, 100, 600_000),
    statementTimeoutMs,
    poolWaitMs: int(env, 'DB_POOL_WAIT_MS', 5000, 100, 600_000),
    commitTimeoutMs: statementTimeoutMs,
    idleInTransactionTimeoutMs: int(env, 'DB_IDLE_IN_TRANSACTION_TIMEOUT_MS', 5000, 100, 3_600_000),
    preparedStatements: bool(env, 'DB_PREPARED_STATEMENTS', true),
  };
}

/** REDIS_URL (redis:// or rediss://) and the key prefix; unset: the embedded default, no Redis. */
function redisConfig(env: NodeJS.ProcessEnv): RedisConfig | null {
  const url = env.REDIS_URL || null;
  if (url === null) return null;
  if (!/^rediss?:\/\/[^/]*/.test(url)) {
    invalid(`REDIS_URL must be a redis:// or rediss:// URL, like redis://127.0.0.1:6379/0; unset it to run without Redis`, null);
  }
  const keyPrefix = env.REDIS_KEY_PREFIX ?? 'qp:';
  if (!/^[A-Za-z0-9:_.-]{0,64}$/.test(keyPrefix)) {
    invalid(`REDIS_KEY_PREFIX may hold letters, digits and ':_.-' (at most 64), got '${keyPrefix}'`, null);
  }
  return { url, keyPrefix };
}

/** SMTP_URL and the mail settings: a URL must be smtp:// or smtps://, the app URL http(s). */
function mailConfig(env: NodeJS.ProcessEnv): MailConfig {
  const smtpUrl = env.SMTP_URL || null;
  if (smtpUrl !== null && !/^smtps?:\/\/[^/]/.test(smtpUrl)) {
    invalid('SMTP_URL must be an smtp:// or smtps:// URL, like smtps://user:password@smtp.example.com:465; unset it to log mails instead', null);
  }
  const playerAppUrl = (env.PLAYER_APP_URL || 'http://127.0.0.1:8000').replace(/\/+$/, '');
  if (!/^https?:\/\/[^/]/.test(playerAppUrl)) invalid(`PLAYER_APP_URL must be an http(s) URL, got '${playerAppUrl}'`, null);
  return {
    smtpUrl,
    from: env.MAIL_FROM || 'Question-Play <no-reply@question-play.invalid>',
    playerAppUrl,
    resetTtlMinutes: int(env, 'PASSWORD_RESET_TTL_MINUTES', 60, 5, 7 * 24 * 60),
    verifyTtlHours: int(env, 'EMAIL_VERIFICATION_TTL_HOURS', 48, 1, 30 * 24),
    maxPerRecipient: int(env, 'MAIL_MAX_PER_RECIPIENT', 3, 0, 1_000_000),
    maxPerIp: int(env, 'MAIL_MAX_PER_IP', 20, 0, 1_000_000),
    windowSeconds: int(env, 'MAIL_WINDOW_SECONDS', 3600, 1, 7 * 86_400),
  };
}

function httpLimits(env: NodeJS.ProcessEnv): ServerLimits {
  const headersTimeoutMs = int(env, 'HTTP_HEADERS_TIMEOUT_SECONDS', 10, 1, 3600) * 1000;
  const requestTimeoutMs = int(env, 'HTTP_REQUEST_TIMEOUT_SECONDS', 60, 1, 3600) * 1000;
  if (requestTimeoutMs < headersTimeoutMs) {
    invalid(
      `HTTP_REQUEST_TIMEOUT_SECONDS (${requestTimeoutMs / 1000}) must be at least HTTP_HEADERS_TIMEOUT_SECONDS (${headersTimeoutMs / 1000}): the headers are part of the request`,
      undefined,
    );
  }
  return {
    headersTimeoutMs,
    requestTimeoutMs,
    keepAliveTimeoutMs: int(env, 'HTTP_KEEP_ALIVE_TIMEOUT_SECONDS', 5, 1, 3600) * 1000,
    checkIntervalMs: Math.min(1000, headersTimeoutMs / 2),
  };
}

const PUSH_PROVIDERS = ['log', 'webpush'] as const;

function base64urlBytes(env: NodeJS.ProcessEnv, name: string, length: number, hint: string): Buffer {
  const raw = env[name]!.trim();
  if (!/^[A-Za-z0-9_-]+={0,2}$/.test(raw))
    throw new ConfigError(`${name} must be base64url (${hint}); generate keys with \`npx web-push generate-vapid-keys\``);
  const bytes = Buffer.from(raw.replace(/=+$/, ''), 'base64url');
  if (bytes.length !== length) {
    throw new ConfigError(
      `${name} must be ${length} bytes base64url (${hint}), got ${bytes.length} bytes; generate keys with \`npx web-push generate-vapid-keys\``,
    );
  }
  return bytes;
}

/** PUSH_PROVIDER and the VAPID keys: the keys are checked whenever given, and required by the webpush provider. */
function pushConfig(env: NodeJS.ProcessEnv): PushConfig {
  const provider = (env.PUSH_PROVIDER || 'log') as PushConfig['provider'];
  if (!PUSH_PROVIDERS.includes(provider)) throw new ConfigError(`PUSH_PROVIDER must be one of ${PUSH_PROVIDERS.join(', ')}, got '${env.PUSH_PROVIDER}'`);
  const names = ['VAPID_PUBLIC_KEY', 'VAPID_PRIVATE_KEY', 'VAPID_SUBJECT'] as const;
  const given = names.filter((n) => env[n]);
  if (!given.length) {
    if (provider === 'webpush')
      throw new ConfigError(`PUSH_PROVIDER=webpush needs ${names.join(', ')}; generate the keys with \`npx web-push generate-vapid-keys\``);
    return { provider, vapid: null, allowHttpEndpoints: false };
  }
  const missing = names.filter((n) => !env[n]);
  if (missing.length) throw new ConfigError(`set all of ${names.join(', ')} or none; missing ${missing.join(', ')}`);
  const publicKey = base64urlBytes(env, 'VAPID_PUBLIC_KEY', 65, 'an uncompressed P-256 public key');
  if (publicKey[0] !== 0x04) throw new ConfigError('VAPID_PUBLIC_KEY must be an uncompressed P-256 public key (65 bytes starting 0x04)');
  const privateKey = base64urlBytes(env, 'VAPID_PRIVATE_KEY', 32, 'a P-256 private key');
  let derived: Buffer;
  try {
    const ecdh = createECDH('prime256v1');
    ecdh.setPrivateKey(privateKey);
    derived = ecdh.getPublicKey();
  } catch {
    throw new ConfigError('VAPID_PRIVATE_KEY is not a valid P-256 private key');
  }
  if (!derived.equals(publicKey)) throw new ConfigError('VAPID_PUBLIC_KEY is not the public key of VAPID_PRIVATE_KEY; set the pair generated together');
  const subject = env.VAPID_SUBJECT!.trim();
  let subjectOk: boolean;
  try {
    const u = new URL(subject);
    subjectOk = (u.protocol === 'mailto:' && u.pathname.includes('@')) || (u.protocol === 'https:' && Boolean(u.host));
  } catch {
    subjectOk = false;
  }
  if (!subjectOk) throw new ConfigError(`VAPID_SUBJECT must be a mailto: address or an https: URL (a contact for push services), got '${subject}'`);
  return {
    provider,
    vapid: { publicKey: publicKey.toString('base64url'), privateKey: privateKey.toString('base64url'), subject },
    allowHttpEndpoints: false,
  };
}
