/** Log lines: JSON for machines, readable lines on a terminal (LOG_FORMAT), secrets redacted in both. */
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { createLogger, prettyLogs } from '../../src/logger.js';

function capture(format: 'json' | 'pretty') {
  const out = new PassThrough();
  let text = '';
  out.on('data', (d) => (text += String(d)));
  const logger = createLogger('info', { role: 'test' }, format, out);
  return { logger, text: () => text };
}

describe('log format', () => {
  it("'auto' is readable on a terminal and JSON otherwise; 'json' and 'pretty' are what they say", () => {
    expect(prettyLogs('auto', true)).toBe(true);
    expect(prettyLogs('auto', false)).toBe(false);
    expect(prettyLogs('json', true)).toBe(false);
    expect(prettyLogs('pretty', false)).toBe(true);
  });

  it('LOG_FORMAT is validated, auto by default', () => {
    expect(loadConfig({}).logFormat).toBe('auto');
    expect(loadConfig({ LOG_FORMAT: 'pretty' }).logFormat).toBe('pretty');
    expect(() => loadConfig({ LOG_FORMAT: 'xml' })).toThrow(/LOG_FORMAT must be one of auto, json, pretty/);
  });

  it('JSON lines carry the fields; pretty lines read as text; both redact keys and passwords', async () => {
    const json = capture('json');
    json.logger.info({ api_key: 'qp_secret', user: { password: 'hunter2' } }, 'signed in');
    const pretty = capture('pretty');
    pretty.logger.info({ api_key: 'qp_secret', user: { password: 'hunter2' } }, 'signed in');
    await new Promise((r) => setImmediate(r));
    const line = JSON.parse(json.text().trim()) as Record<string, unknown>;
    expect(line).toMatchObject({ level: 30, msg: 'signed in', role: 'test', api_key: '[redacted]' });
    expect(pretty.text()).toMatch(/INFO.*signed in/);
    expect(() => JSON.parse(pretty.text().trim())).toThrow();
    for (const text of [json.text(), pretty.text()]) {
      expect(text).not.toContain('qp_secret');
      expect(text).not.toContain('hunter2');
    }
  });
});
