/**
 * `npm run test:busy`: the suite on a busy machine, to check that no test depends on how fast the machine is.
 * Starts CPU-bound processes (busy loops, one per `--hogs`, default 2: on a 2-core machine they take every core), then
 * runs a command (default `npm test`) `--runs` times in a row (default 5), and reports each run: its exit code, wall
 * time and the test runner's counts. Each run's output goes to test-artifacts/busy/run-<n>.log. Exits 1 when a run
 * failed. docs/testing.md has the figures.
 *
 *   npm run test:busy                                   # npm test, 5 times, beside 2 hogs
 *   npm run test:busy -- --runs 3 --hogs 2 -- npx vitest run --project slow
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';

const root = path.resolve(import.meta.dirname, '..');
const split = process.argv.indexOf('--', 2);
const { values } = parseArgs({
  args: process.argv.slice(2, split < 0 ? undefined : split),
  options: { runs: { type: 'string', default: '5' }, hogs: { type: 'string', default: '2' } },
});
const runs = Number(values.runs);
const hogCount = Number(values.hogs);
if (!Number.isInteger(runs) || runs < 1 || !Number.isInteger(hogCount) || hogCount < 0) {
  console.error('usage: npm run test:busy -- [--runs N] [--hogs N] [-- command args...]');
  process.exit(2);
}
const command = split < 0 ? ['npm', 'test'] : process.argv.slice(split + 1);
const logs = path.join(root, 'test-artifacts', 'busy');
fs.mkdirSync(logs, { recursive: true });

/** A CPU-bound process: a busy loop until it is killed. */
const hogs: ChildProcess[] = Array.from({ length: hogCount }, () => spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }));
const stopHogs = () => {
  for (const hog of hogs) hog.kill('SIGKILL');
};
process.on('exit', stopHogs);
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.on(signal, () => {
    stopHogs();
    process.exit(130);
  });

interface Run {
  n: number;
  code: number;
  seconds: number;
  counts: string;
  load: string;
}

const ANSI = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g');

/** The runner's closing counts ("Tests  1234 passed | 4 skipped (1238)"), without colours. */
function countsOf(output: string): string {
  const plain = output.replace(ANSI, '');
  const lines = [...plain.matchAll(/^\s*(Test Files|Tests)\s+(.*)$/gm)].map((m) => `${m[1]}: ${m[2]!.trim()}`);
  return lines.join('; ') || '(no counts)';
}

function runOnce(n: number): Promise<Run> {
  const load = os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');
  const started = performance.now();
  const file = path.join(logs, `run-${n}.log`);
  const out = fs.createWriteStream(file);
  return new Promise((resolve) => {
    const child = spawn(command[0]!, command.slice(1), {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, FORCE_COLOR: '0', NO_COLOR: '1' },
    });
    let output = '';
    const take = (d: Buffer) => {
      output += d.toString('utf8');
      out.write(d);
    };
    child.stdout!.on('data', take);
    child.stderr!.on('data', take);
    child.on('close', (code, signal) => {
      out.end();
      resolve({ n, code: code ?? (signal ? 1 : 0), seconds: (performance.now() - started) / 1000, counts: countsOf(output), load });
    });
  });
}

console.log(
  `${command.join(' ')}: ${runs} runs beside ${hogCount} CPU-bound processes on ${os.availableParallelism()} cores; logs in ${path.relative(root, logs)}/`,
);
const results: Run[] = [];
for (let n = 1; n <= runs; n++) {
  const run = await runOnce(n);
  results.push(run);
  console.log(`run ${n}: ${run.code === 0 ? 'passed' : `FAILED (exit ${run.code})`} in ${run.seconds.toFixed(0)} s (load at start ${run.load}); ${run.counts}`);
}
stopHogs();
const passed = results.filter((r) => r.code === 0).length;
const times = results.map((r) => r.seconds).sort((a, b) => a - b);
console.log(
  `\n${passed} of ${runs} runs passed; wall time min ${times[0]!.toFixed(0)} s, median ${times[Math.floor(times.length / 2)]!.toFixed(0)} s, max ${times[times.length - 1]!.toFixed(0)} s`,
);
process.exitCode = passed === runs ? 0 : 1;
