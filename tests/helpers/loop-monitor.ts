/**
 * How long this process's own work held the event loop, measured so that a
 * loaded machine does not count. An event-loop delay monitor
 * (perf_hooks.monitorEventLoopDelay) sees every delay of the loop, but on a
 * shared 2-core machine most of them are the process waiting for a core,
 * not the process working. So a sampler timer turns every few milliseconds
 * and reads the CPU time of this thread (the one that runs the event loop):
 * between two turns of the sampler the loop ran one stretch of callbacks,
 * and the thread CPU it used in that stretch is the work that held the loop,
 * however long the wall clock says it took. Garbage collection on this
 * thread counts (what a request allocates, it collects); the GC pauses in a
 * stretch (a PerformanceObserver reports them) are shown beside it. Worker
 * threads (the sandbox) are not this thread, and time this thread spends
 * waiting (for a core, for GC helper threads) is not work.
 *
 * The thread's CPU clock: `process.threadCpuUsage()` where Node has it, else
 * /proc/self/task/<pid>/stat on Linux (10 ms ticks). Where
 * neither exists the monitor falls back to wall time (`cpu: false`).
 */
import { readFileSync } from 'node:fs';
import { monitorEventLoopDelay, PerformanceObserver, type PerformanceEntry } from 'node:perf_hooks';

/** Ms of CPU this thread has used, or null where it cannot be read. */
const threadCpuMs: () => number | null = (() => {
  const threadCpuUsage = (process as { threadCpuUsage?: () => { user: number; system: number } }).threadCpuUsage;
  if (typeof threadCpuUsage === 'function') {
    return () => {
      const { user, system } = threadCpuUsage.call(process);
      return (user + system) / 1000;
    };
  }
  const stat = `/proc/self/task/${process.pid}/stat`;
  try {
    readFileSync(stat, 'utf8');
  } catch {
    return () => null;
  }
  // utime and stime, the 14th and 15th fields, in clock ticks (USER_HZ: 100 on Linux).
  return () => {
    const text = readFileSync(stat, 'utf8');
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  };
})();

export interface LoopStretch {
  /** When it began and ended (performance.now()). */
  start: number;
  end: number;
  /** CPU of this thread in it (ms); wall time without a CPU clock. */
  workMs: number;
  /** GC pauses in it (ms of wall time). */
  gcMs: number;
}

export interface LoopReport {
  /** Whether the work was measured as this thread's CPU (else as wall time). */
  cpu: boolean;
  /** The stretch of this thread's own work that held the loop longest. */
  longest: LoopStretch;
  /** The event-loop delay monitor's largest delay (ms of wall time, the machine's load included). */
  maxDelayMs: number;
  /** Sampler turns seen. */
  turns: number;
}

const SAMPLE_EVERY_MS = 5;

/** Starts the monitor; `stop()` says what held the loop since. */
export function startLoopMonitor(): { stop(): LoopReport } {
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  const gcs: PerformanceEntry[] = [];
  const observer = new PerformanceObserver((list) => gcs.push(...list.getEntries()));
  observer.observe({ entryTypes: ['gc'] });

  const cpu = threadCpuMs() !== null;
  /** Stretches worth a look: their raw work is at least this (the rest cannot be the longest). */
  const keep = 5;
  const stretches: LoopStretch[] = [];
  let turns = 0;
  let lastAt = performance.now();
  let lastCpu = threadCpuMs() ?? 0;
  const timer = setInterval(() => {
    const at = performance.now();
    const used = threadCpuMs();
    const work = used === null ? at - lastAt - SAMPLE_EVERY_MS : used - lastCpu;
    if (work >= keep) stretches.push({ start: lastAt, end: at, workMs: work, gcMs: 0 });
    turns++;
    lastAt = at;
    lastCpu = used ?? 0;
  }, SAMPLE_EVERY_MS);

  return {
    stop() {
      clearInterval(timer);
      delay.disable();
      gcs.push(...observer.takeRecords());
      observer.disconnect();
      for (const s of stretches) {
        for (const gc of gcs) {
          const overlap = Math.min(s.end, gc.startTime + gc.duration) - Math.max(s.start, gc.startTime);
          if (overlap > 0) s.gcMs += overlap;
        }
      }
      const longest = stretches.reduce<LoopStretch>((a, b) => (b.workMs > a.workMs ? b : a), { start: 0, end: 0, workMs: 0, gcMs: 0 });
      return { cpu, longest, maxDelayMs: delay.max / 1e6, turns };
    },
  };
}

/** A report in a line, for an assertion's message. */
export const describeReport = (r: LoopReport): string =>
  `longest stretch of this thread's work ${r.longest.workMs.toFixed(0)} ms (${r.cpu ? 'CPU' : 'wall'}; GC pauses in it ${r.longest.gcMs.toFixed(0)} ms; ` +
  `${(r.longest.end - r.longest.start).toFixed(0)} ms of wall time), largest loop delay ${r.maxDelayMs.toFixed(0)} ms, ${r.turns} sampler turns`;
