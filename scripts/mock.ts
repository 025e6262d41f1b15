/**
 * `npm run mock [-- <prism options>]`: Prism's mock server on the contract.
 * Listens on MOCK_HOST:MOCK_PORT (default 127.0.0.1:4010); options given after
 * `--` go to `prism mock` as they are, and a `--port`/`--host` among them wins
 * over the environment (so `npm run mock -- --port 4011` works).
 */
import { spawn } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const args = process.argv.slice(2);
const given = (long: string, short: string) => args.some((a) => a === long || a === short || a.startsWith(`${long}=`));
const port = process.env.MOCK_PORT || '4010';
if (!/^\d{1,5}$/.test(port) || Number(port) > 65535) {
  console.error(`mock: MOCK_PORT must be a port number (0-65535), got '${port}'`);
  process.exit(2);
}
const defaults = [...(given('--host', '-h') ? [] : ['--host', process.env.MOCK_HOST || '127.0.0.1']), ...(given('--port', '-p') ? [] : ['--port', port])];
const prism = spawn(path.join(root, 'node_modules/.bin/prism'), ['mock', path.join(root, 'openapi/openapi.yaml'), ...defaults, ...args], { stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => prism.kill(signal));
prism.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
