/**
 * The live stream's connect budget (src/live/connect-budget.ts): connects
 * per key and per client address in a window; past either, the handshake
 * completes and closes with 4429 before the key is looked up.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { loadAsyncApi } from '../helpers/asyncapi.js';
import { openStream, type StreamClient } from '../helpers/live-client.js';
import { registerUser, startTestApp, type TestApp } from '../helpers/test-app.js';

let app: TestApp;
const clients: StreamClient[] = [];

beforeAll(async () => {
  const base = loadConfig({ APP_ENV: 'test', DATA_DIR: ':memory:' });
  app = await startTestApp({ config: { stream: { ...base.stream, connectBudget: { perKey: 3, perAddress: 8, windowSeconds: 600 } } } });
});
afterAll(async () => {
  for (const c of clients) await c.close().catch(() => {});
  await app?.close();
});

async function connect(key: string | null, headers: Record<string, string> = {}): Promise<{ code: number; reason: string } | 'open'> {
  const client = await openStream(app, key, { headers });
  clients.push(client);
  const first = await Promise.race([
    client.closed,
    client.ready().then(
      () => 'open' as const,
      () => client.closed,
    ),
  ]);
  return first;
}

describe('the connect budget of WS /api/play/stream', () => {
  it('takes 3 connects per key per window, then closes with 4429 and the wait, without looking the key up', async () => {
    const user = await registerUser(app);
    const authenticate = vi.spyOn(app.services.auth, 'authenticate');
    for (let i = 0; i < 3; i++) expect(await connect(user.token)).toBe('open');
    const refused = await connect(user.token);
    expect(refused).toEqual({ code: 4429, reason: expect.stringMatching(/^too many connects; retry in \d+ s$/) });
    expect(authenticate).toHaveBeenCalledTimes(3);
    authenticate.mockRestore();
    // Another key of another user has its own budget.
    expect(await connect((await registerUser(app)).token)).toBe('open');
  });

  it('takes 8 connects per address per window whatever the keys, and X-Forwarded-For buys nothing without TRUST_PROXY', async () => {
    // 5 connects of the first test came from this address too (the refused one included); 3 remain.
    for (let i = 0; i < 3; i++)
      expect(await connect(`qp_made_up_${i}`, { 'x-forwarded-for': `203.0.113.${i}` })).toEqual({ code: 4401, reason: 'invalid API key' });
    const authenticate = vi.spyOn(app.services.auth, 'authenticate');
    expect(await connect('qp_made_up_9')).toEqual({ code: 4429, reason: expect.stringMatching(/^too many connects/) });
    expect(await connect(null)).toEqual({ code: 4429, reason: expect.stringMatching(/^too many connects/) });
    expect(authenticate).not.toHaveBeenCalled();
    authenticate.mockRestore();
  });

  it('is documented: close code 4429 in the AsyncAPI document, settings STREAM_CONNECTS_PER_KEY, STREAM_CONNECTS_PER_IP, STREAM_CONNECT_WINDOW_SECONDS', () => {
    expect(loadConfig({ APP_ENV: 'development' }).stream.connectBudget).toEqual({ perKey: 30, perAddress: 600, windowSeconds: 60 });
    expect(loadConfig({ APP_ENV: 'test' }).stream.connectBudget).toEqual({ perKey: 0, perAddress: 0, windowSeconds: 60 });
    expect(
      loadConfig({ APP_ENV: 'test', STREAM_CONNECTS_PER_KEY: '5', STREAM_CONNECTS_PER_IP: '50', STREAM_CONNECT_WINDOW_SECONDS: '10' }).stream.connectBudget,
    ).toEqual({ perKey: 5, perAddress: 50, windowSeconds: 10 });
    const closeCode = loadAsyncApi().info['x-close-codes'].find((c) => c.code === 4429);
    expect(closeCode?.reason).toBe('too many connects; retry in <seconds> s');
  });
});
