/**
 * A watchdog for tests whose app runs in the test's own process: when a
 * request stalls the event loop, no timer of the test fires (not its
 * timeout, not an abort), and the run would hang. A worker thread watches a
 * heartbeat the event loop writes; when it stops for `limitMs`, the watchdog
 * writes what was running to stderr and ends the process, so the run fails
 * with the reason instead of hanging.
 */
import { Worker } from 'node:worker_threads';

export interface StallWatchdog {
  /** What the test is doing now (named in the report when the loop stalls). */
  doing(text: string): void;
  stop(): Promise<void>;
}

const WATCHER = `
const { workerData } = require('node:worker_threads');
const fs = require('node:fs');
const beat = new Float64Array(workerData.beat);
const doing = new Uint8Array(workerData.doing);
const timer = setInterval(() => {
  if (Date.now() - beat[0] <= workerData.limitMs) return;
  const end = doing.indexOf(0);
  const what = Buffer.from(doing.subarray(0, end < 0 ? doing.length : end)).toString('utf8');
  fs.writeSync(2, '\\nSTALL: the event loop has not turned for ' + workerData.limitMs + ' ms, during: ' + what + '\\nA request holds the process; ending it.\\n');
  process.kill(process.pid, 'SIGKILL');
}, 200);
`;

export function startStallWatchdog(limitMs: number): StallWatchdog {
  const beat = new Float64Array(new SharedArrayBuffer(8));
  const doing = new Uint8Array(new SharedArrayBuffer(1024));
  beat[0] = Date.now();
  const heartbeat = setInterval(() => (beat[0] = Date.now()), 100);
  heartbeat.unref();
  const worker = new Worker(WATCHER, { eval: true, workerData: { beat: beat.buffer, doing: doing.buffer, limitMs } });
  worker.unref();
  return {
    doing(text) {
      const bytes = Buffer.from(text.slice(0, 400), 'utf8').subarray(0, doing.length - 1);
      doing.fill(0);
      doing.set(bytes);
      beat[0] = Date.now();
    },
    async stop() {
      clearInterval(heartbeat);
      await worker.terminate();
    },
  };
}
