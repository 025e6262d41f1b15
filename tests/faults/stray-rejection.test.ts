/**
 * A promise rejected with nobody to handle it (a bug anywhere, hit during an
 * outage or by one odd request) does not end the service: it is logged with
 * its reason and counted, and every request is still answered.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../helpers/engine.js';
import { startServiceProcess, type ServiceProcess } from '../helpers/service-process.js';
import { createTestDatabase, type TestDatabase } from '../helpers/test-db.js';

const preload = path.join(path.dirname(fileURLToPath(import.meta.url)), '../helpers/stray-rejection.mjs');

describe('a stray promise rejection', () => {
  let service: ServiceProcess;
  let testDb: TestDatabase | null = null;
  let dataDir: string | null = null;
  const token = 'metrics-token-for-the-test-0123';

  beforeAll(async () => {
    testDb = await createTestDatabase();
    const where: NodeJS.ProcessEnv = {};
    if (testDb.url) where.DATABASE_URL = testDb.url;
    else {
      await testDb.drop();
      testDb = null;
      dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'qp-stray-'));
      where.DATA_DIR = dataDir;
    }
    service = await startServiceProcess({ ...where, METRICS_TOKEN: token }, { preload: [preload] });
  });

  afterAll(async () => {
    await service?.stop('SIGKILL');
    await testDb?.drop();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('is logged and counted, and the service goes on answering', async () => {
    await waitFor(async () => service.output().includes('stray rejection injected by the test'), {
      what: () => `the rejection to be logged:\n${service.output().slice(-2000)}`,
      timeoutMs: 10_000,
    });
    await new Promise((r) => setTimeout(r, 600));
    expect(service.child.exitCode).toBeNull();
    expect((await service.request('GET', '/api/leagues')).status).toBe(200);
    const metrics = await fetch(`${service.url}/metrics`, { headers: { authorization: `Bearer ${token}` } });
    expect(metrics.status).toBe(200);
    const count = Number(/^qp_unhandled_rejections_total (\d+)/m.exec(await metrics.text())?.[1]);
    expect(count).toBeGreaterThanOrEqual(2);
  });
});
