/**
 * `npm run checks`: the static checks of `npm test` (the contract lint, the format check, ESLint and the type check),
 * as many at once as the machine has cores: each is one single-threaded process, so on two cores they take about half
 * the time one after another did. Each check's output is printed whole when it ends, in the order they are listed;
 * the command fails when any check fails, naming it. Arguments name the checks to run (default: all).
 */
import { spawn } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';

const CHECKS = ['lint:contract', 'format:check', 'lint', 'typecheck'];
const wanted = process.argv.slice(2);
const unknown = wanted.filter((c) => !CHECKS.includes(c));
if (unknown.length) {
  console.error(`unknown check: ${unknown.join(', ')} (one of ${CHECKS.join(', ')})`);
  process.exit(2);
}
const checks = wanted.length ? wanted : CHECKS;
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const root = path.resolve(import.meta.dirname, '..');

interface Done {
  check: string;
  code: number;
  output: string;
  seconds: number;
}

function run(check: string): Promise<Done> {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(npm, ['run', '--silent', check], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, FORCE_COLOR: process.env.FORCE_COLOR ?? (process.stdout.isTTY ? '1' : '0') },
    });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString('utf8')));
    child.stderr.on('data', (d: Buffer) => (output += d.toString('utf8')));
    child.on('close', (code, signal) => resolve({ check, code: code ?? (signal ? 1 : 0), output, seconds: (performance.now() - started) / 1000 }));
  });
}

// Each check's result, settled when a lane has run it (lanes take the checks in order, as many lanes as cores).
const started = checks.map(() => {
  let resolve!: (done: Done) => void;
  const promise = new Promise<Done>((r) => (resolve = r));
  return { promise, resolve };
});
let next = 0;
const lane = async () => {
  for (let i = next++; i < checks.length; i = next++) started[i]!.resolve(await run(checks[i]!));
};
const lanes = Promise.all(Array.from({ length: Math.max(1, Math.min(checks.length, os.availableParallelism())) }, lane));

const failed: string[] = [];
for (const result of started) {
  const done = await result.promise;
  process.stdout.write(`\n> ${done.check} (${done.seconds.toFixed(1)} s${done.code ? `, exit ${done.code}` : ''})\n${done.output}`);
  if (done.code) failed.push(done.check);
}
await lanes;
if (failed.length) {
  console.error(`\nfailed: ${failed.join(', ')}`);
  process.exit(1);
}
