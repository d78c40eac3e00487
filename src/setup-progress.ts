/**
 * What a setup (TetrisAI.create, StackingAI.create, playGame before its first piece) tells its `onProgress` while it
 * loads or builds its tables and lays out its search (docs/game.md, "Setup: progress, abort and the cache").
 */
import type { BuildProgress } from './rank/build.js';

/**
 * - `load`: reading a cached file (`path`, `bytes`);
 * - `plan`: laying out the rank-table build (at 20G: finding which placements a piece reaches);
 * - `build`: the rank table's iterations;
 * - `write`: writing a file to the cache folder (`path`, `bytes`): fraction 0 as it begins, 1 once it is in place;
 * - `reach`: the rule set's reach records, and at 20G which stacks let an I reach the well;
 * - `search`: laying out the search's memory (the ranks, the leaf rows);
 * - `ready`: the last event, fraction 1.
 */
export type SetupStage = 'load' | 'plan' | 'build' | 'write' | 'reach' | 'search' | 'ready';

export interface SetupProgress {
  stage: SetupStage;
  /** How far this stage is, 0..1. */
  fraction: number;
  /** Milliseconds since the setup began. */
  elapsedMs: number;
  /** `load` and `write`: the file. */
  path?: string;
  /** `load` and `write`: its size in bytes. */
  bytes?: number;
}

/** A setup event before it is stamped with the caller's elapsed time (shared work reports to several callers). */
export type SetupEvent = Omit<SetupProgress, 'elapsedMs'>;
export type SetupReport = (e: SetupEvent) => void;

/** A setup's reporter: stamps each event with the time since now and hands it to `onProgress`, if given. */
export function setupReporter(onProgress: ((p: SetupProgress) => void) | undefined): SetupReport | undefined {
  if (!onProgress) return undefined;
  const started = performance.now();
  return (e) => onProgress({ ...e, elapsedMs: performance.now() - started });
}

/** A table build's progress as setup events: the plan (with the 20G moves) first, then the iterations. */
export function buildEvents(report: SetupReport | undefined): ((p: BuildProgress) => void) | undefined {
  if (!report) return undefined;
  return (p) =>
    p.planned !== undefined
      ? report({ stage: 'plan', fraction: p.planned })
      : report({ stage: 'build', fraction: p.fraction });
}
