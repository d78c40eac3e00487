/**
 * What bench/setup-lag.ts measures, as functions a test can call in its own process: how long a setup takes to be
 * ready, the longest stretch it keeps the event loop from running, and how soon it stops after an abort.
 *
 * The event loop is watched two ways: a 5 ms interval timer (the longest gap between two of its runs, less the 5 ms
 * it waits, is the longest stall) and Node's `perf_hooks.monitorEventLoopDelay` histogram (its maximum, for a
 * second opinion). Both see every synchronous stretch on this thread, whatever code runs it.
 */
import { readFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';

/** The probe timer's period. */
const PROBE_MS = 5;

/**
 * CPU time this thread (the main thread: its task id is the process id) has used, in ms, from Linux's
 * /proc/self/task/<pid>/stat (clock ticks, usually 10 ms); null elsewhere. A stall in which the thread used little
 * CPU was the machine running something else (other processes, on a shared machine), not the setup's code.
 */
function mainThreadCpuMs(): number | null {
  try {
    const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime and stime are fields 14 and 15 of the whole line (11 and 12 after the command name).
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return null;
  }
}

export interface LagMeasure {
  /** From the call to the settled promise. */
  readyMs: number;
  /** The longest time the event loop did not run (interval probe). */
  longestStallMs: number;
  /**
   * The longest stall counting only the main thread's own CPU time in it (Linux; else the same as longestStallMs): on
   * a shared machine a stall can be the thread waiting for a core, which no code of the setup can avoid.
   */
  longestBusyStallMs: number;
  /** When (ms after the call) that stall ended. */
  stallEndedAtMs: number;
  /** monitorEventLoopDelay's maximum, ms. */
  histogramMaxMs: number;
  /** CPU time of this process (all threads) during the setup. */
  cpuMs: number;
}

/** Watches the event loop while `run()` runs; rejects with run's error. */
export async function measureLag<T>(run: () => Promise<T>): Promise<LagMeasure & { value: T }> {
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  const t0 = performance.now();
  let last = t0;
  let longest = 0;
  let endedAt = 0;
  let lastCpu = mainThreadCpuMs();
  let longestBusy = 0;
  const probe = setInterval(() => {
    const now = performance.now();
    const gap = now - last - PROBE_MS;
    if (gap > longest) {
      longest = gap;
      endedAt = now - t0;
    }
    const cpu = mainThreadCpuMs();
    // The ticks are coarse (10 ms): a stall counts as busy up to the CPU the thread used around it.
    const busy = cpu === null || lastCpu === null ? gap : Math.min(gap, cpu - lastCpu);
    if (busy > longestBusy) longestBusy = busy;
    lastCpu = cpu;
    last = now;
  }, PROBE_MS);
  histogram.enable();
  const c0 = process.cpuUsage();
  try {
    const value = await run();
    const readyMs = performance.now() - t0;
    // The last stretch before the promise settled counts too.
    const tail = performance.now() - last - PROBE_MS;
    if (tail > longest) [longest, endedAt] = [tail, readyMs];
    const cpuNow = mainThreadCpuMs();
    const tailBusy = cpuNow === null || lastCpu === null ? tail : Math.min(tail, cpuNow - lastCpu);
    if (tailBusy > longestBusy) longestBusy = tailBusy;
    const cpu = process.cpuUsage(c0);
    return {
      value,
      readyMs,
      longestStallMs: Math.max(0, longest),
      longestBusyStallMs: Math.max(0, longestBusy),
      stallEndedAtMs: endedAt,
      histogramMaxMs: histogram.max / 1e6,
      cpuMs: (cpu.user + cpu.system) / 1000,
    };
  } finally {
    clearInterval(probe);
    histogram.disable();
  }
}

export interface AbortMeasure {
  /** When the abort was sent, ms after the call. */
  abortAtMs: number;
  /**
   * From the time the abort was due to the promise's rejection; null when the setup finished before. Counted from
   * when it was due, not from when the timer ran: a setup that blocks the event loop delays the abort itself (as it
   * would a page's click on "cancel").
   */
  stopMs: number | null;
  /** The rejection's code (ABORTED expected), or 'resolved'. */
  outcome: string;
  /**
   * CPU time this process used in the `afterMs` after the rejection, and the longest event-loop stall then: work an
   * aborted setup leaves running (a rejection that comes at once while the work runs on is no stop).
   */
  cpuAfterMs: number | null;
  stallAfterMs: number | null;
  afterMs: number;
}

/**
 * Starts `run(signal)`, aborts it `abortAtMs` later and measures how long it takes to reject, then what still runs
 * in the `afterMs` that follow.
 */
export async function measureAbort(
  run: (signal: AbortSignal) => Promise<unknown>,
  abortAtMs: number,
  afterMs = 1000,
): Promise<AbortMeasure> {
  const controller = new AbortController();
  const due = performance.now() + abortAtMs;
  let aborted = false;
  const timer = setTimeout(() => {
    aborted = true;
    controller.abort();
  }, abortAtMs);
  let outcome = 'resolved';
  let stopMs: number | null = null;
  try {
    await run(controller.signal);
  } catch (e) {
    stopMs = aborted ? performance.now() - due : null;
    outcome = (e as { code?: string }).code ?? String(e);
  } finally {
    clearTimeout(timer);
  }
  if (stopMs === null) return { abortAtMs, stopMs, outcome, cpuAfterMs: null, stallAfterMs: null, afterMs };
  const c0 = process.cpuUsage();
  const after = await measureLag(() => new Promise<void>((resolve) => setTimeout(resolve, afterMs)));
  const cpu = process.cpuUsage(c0);
  return {
    abortAtMs,
    stopMs,
    outcome,
    cpuAfterMs: (cpu.user + cpu.system) / 1000,
    stallAfterMs: after.longestStallMs,
    afterMs,
  };
}
