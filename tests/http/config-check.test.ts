/** `npm run config:check`: the effective settings with secrets redacted, and a clear failure before start. */
import webpush from 'web-push';
import { describe, expect, it } from 'vitest';
import { configCheck } from '../../scripts/config-check.js';

describe('config:check', () => {
  it('prints every effective setting, defaults included, with no secret in the output', async () => {
    const vapid = webpush.generateVAPIDKeys();
    const env = {
      DATABASE_URL: 'postgres://qp:db-pass-123@db.internal:5432/qp',
      S3_BUCKET: 'logos',
      S3_ACCESS_KEY_ID: 'AKIDEXAMPLE',
      S3_SECRET_ACCESS_KEY: 's3-secret-456',
      PUSH_PROVIDER: 'webpush',
      VAPID_PUBLIC_KEY: vapid.publicKey,
      VAPID_PRIVATE_KEY: vapid.privateKey,
      VAPID_SUBJECT: 'mailto:ops@example.com',
      SMTP_URL: 'smtps://mailer:smtp-pass-789@smtp.example.com:465',
    };
    const { code, out, err } = await configCheck([], env);
    expect(code).toBe(0);
    expect(err).toBe('config:check: configuration valid');
    const shown = JSON.parse(out) as Record<string, any>;
    expect(shown).toMatchObject({
      port: 8000,
      appEnv: 'development',
      databaseUrl: 'postgres://qp:***@db.internal:5432/qp',
      s3: { bucket: 'logos', secretAccessKey: '[redacted]' },
    });
    expect(shown.push.vapid).toMatchObject({ publicKey: vapid.publicKey, privateKey: '[redacted]', subject: 'mailto:ops@example.com' });
    expect(shown.mail).toMatchObject({ smtpUrl: 'smtps://mailer:***@smtp.example.com:465', playerAppUrl: 'http://127.0.0.1:8000' });
    for (const secret of ['db-pass-123', 'AKIDEXAMPLE', 's3-secret-456', vapid.privateKey, 'smtp-pass-789']) expect(out).not.toContain(secret);
  });

  it('refuses an SMTP_URL that is not smtp:// or smtps://', async () => {
    const { code, err } = await configCheck([], { SMTP_URL: 'http://smtp.example.com' });
    expect(code).toBe(1);
    expect(err).toMatch(/SMTP_URL must be an smtp:\/\/ or smtps:\/\/ URL/);
  });

  it('fails with what to fix when a setting is wrong', async () => {
    const { code, out, err } = await configCheck([], { PORT: 'eighty' });
    expect(code).toBe(1);
    expect(out).toBe('');
    expect(err).toMatch(/^config:check: PORT must be an integer from 0 to 65535, got 'eighty'$/);
  });

  it('reports every wrong setting at once, not only the first', async () => {
    const { code, out, err } = await configCheck([], {
      PORT: 'eighty',
      APP_ENV: 'prod',
      CORS_ORIGINS: 'play.example.com',
      DB_PREPARED_STATEMENTS: 'maybe',
      ENGINE_LEASE_MS: '1000',
      ENGINE_HEARTBEAT_MS: '900',
      VAPID_SUBJECT: 'mailto:ops@example.com',
    });
    expect(code).toBe(1);
    expect(out).toBe('');
    const lines = err.split('\n');
    expect(lines[0]).toBe('config:check: 6 settings are wrong:');
    expect(lines.slice(1)).toEqual([
      "  - APP_ENV must be one of main, staging, development, test, got 'prod'",
      expect.stringMatching(/^ {2}- ENGINE_HEARTBEAT_MS \(900\) must be at most half of ENGINE_LEASE_MS \(1000\)/),
      expect.stringMatching(/^ {2}- set all of VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY, VAPID_SUBJECT or none/),
      "  - PORT must be an integer from 0 to 65535, got 'eighty'",
      expect.stringMatching(/^ {2}- CORS_ORIGINS: 'play.example.com' is not an origin/),
      "  - DB_PREPARED_STATEMENTS must be true or false, got 'maybe'",
    ]);
  });

  it('checks FEED_URL_TEMPLATE at start by the rules of a feed URL, with the private-address policy in force', async () => {
    const ok = await configCheck([], { APP_ENV: 'main', FEED_URL_TEMPLATE: 'https://feeds.example.com/{sr_id}' });
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.out).engine.feedUrlTemplate).toBe('https://feeds.example.com/{sr_id}');
    for (const [template, why] of [
      ['https://feeds.example.com/all', /FEED_URL_TEMPLATE must contain \{sr_id\}/],
      ['ftp://feeds.example.com/{sr_id}', /FEED_URL_TEMPLATE builds feed URLs that are refused: .*http or https/],
      ['http://127.0.0.1:9000/{sr_id}', /FEED_URL_TEMPLATE builds feed URLs that are refused: .*public host/],
    ] as const) {
      const { code, out, err } = await configCheck([], { APP_ENV: 'main', FEED_URL_TEMPLATE: template });
      expect(code).toBe(1);
      expect(out).toBe('');
      expect(err).toMatch(why);
    }
    // Where private addresses are allowed (development), a loopback feed template is fine.
    expect((await configCheck([], { APP_ENV: 'development', FEED_URL_TEMPLATE: 'http://127.0.0.1:9000/{sr_id}' })).code).toBe(0);
  });

  it('with --connect, opens the database: an unreachable one fails the check, the embedded one passes', async () => {
    const down = await configCheck(['--connect'], { DATABASE_URL: 'postgres://postgres@127.0.0.1:1/none' });
    expect(down.code).toBe(1);
    expect(down.err).toMatch(/cannot connect to PostgreSQL at postgres:\/\/postgres@127\.0\.0\.1:1\/none/);
    const embedded = await configCheck(['--connect'], { DATA_DIR: ':memory:' });
    expect(embedded).toMatchObject({ code: 0, err: 'config:check: configuration valid; the embedded database opens' });
  });

  it('refuses an unknown option with its usage', async () => {
    const { code, err } = await configCheck(['--conect'], {});
    expect(code).toBe(2);
    expect(err).toMatch(/Usage: npm run config:check \[-- --connect\]/);
  });
});
