/**
 * What the demo's browser tests share: the built CLI and demo, starting `stackrank demo` on a free port,
 * collecting a page's errors, and watch mode's games replayed in Node. Needs `npm run build` first (npm test does it).
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import type { RandomizerName, RuleSetName, TetrisAI } from 'stackrank';
import { TetrisGame } from '../../demo/tetris-game.js';

export const ROOT = resolve(__dirname, '../..');
export const CLI = join(ROOT, 'dist/cli.js');
export const DEMO = join(ROOT, 'dist/demo/index.html');

export interface Demo {
  url: string;
  child: ChildProcessWithoutNullStreams;
  stderr: () => string;
}

/** Starts `node dist/cli.js demo --port 0 --json` and waits for the line with its URL. */
export function startDemo(env: Record<string, string>): Promise<Demo> {
  const child = spawn(process.execPath, [CLI, 'demo', '--port', '0', '--json'], {
    env: { ...process.env, ...env },
    cwd: ROOT,
  });
  let out = '';
  let err = '';
  child.stderr.on('data', (d) => (err += d));
  return new Promise((res, rej) => {
    const timer = setTimeout(() => rej(new Error(`stackrank demo printed no URL in 20 s; stderr: ${err}`)), 20_000);
    child.stdout.on('data', (d) => {
      out += d;
      const line = out.split('\n').find((l) => l.startsWith('{'));
      if (line) {
        clearTimeout(timer);
        res({ url: JSON.parse(line).url, child, stderr: () => err });
      }
    });
    child.on('exit', (code) => rej(new Error(`stackrank demo exited with ${code}: ${err}`)));
  });
}

/** Console errors and uncaught exceptions of a page. */
export function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(`console.error: ${m.text()}`);
  });
  page.on('pageerror', (e) => errors.push(`uncaught: ${e.message}`));
  return errors;
}

/** Stops a demo server started by startDemo (SIGINT, as Ctrl-C) and waits for it to exit. */
export async function stopDemo(demo: { child: ChildProcessWithoutNullStreams } | undefined): Promise<void> {
  if (!demo || demo.child.exitCode !== null) return;
  await new Promise((res) => {
    demo.child.once('exit', res);
    demo.child.kill('SIGINT');
  });
}

/** Watch mode's counters (docs/demo.md, "Watch"), as numbers; `best` as shown ('–' before a game is over). */
export interface WatchCounters {
  pieces: number;
  tetrises: number;
  gamePieces: number;
  gameTetrises: number;
  lines: number;
  games: number;
  best: string;
}

/**
 * What watch mode's counters read after `at.games` finished games and `at.gamePieces` pieces of the game under way,
 * from the same games played here: the page's real game (demo/tetris-game.ts) with the library's TetrisAI, the first
 * game at the link's seed and each new one at the next (docs/demo.md, "Query parameters"). `ai` must be the page's:
 * its table, rules and lookahead.
 */
export function replayWatch(
  ai: TetrisAI,
  o: { rules: RuleSetName; randomizer: RandomizerName; seed: number; garbage: number },
  at: { games: number; gamePieces: number },
): WatchCounters {
  let pieces = 0;
  let tetrises = 0;
  let best = 0;
  for (let n = 0; ; n++) {
    const game = new TetrisGame(ai, o.rules, { randomizer: o.randomizer, seed: o.seed + n }, o.garbage);
    if (n === at.games) {
      for (let i = 0; i < at.gamePieces; i++) if (!game.step()) throw new Error(`game ${n} ended after ${i} pieces`);
      return {
        pieces: pieces + game.pieces,
        tetrises: tetrises + game.tetrises,
        gamePieces: game.pieces,
        gameTetrises: game.tetrises,
        lines: game.lines,
        games: at.games,
        best: best ? String(best) : '–',
      };
    }
    while (game.step());
    pieces += game.pieces;
    tetrises += game.tetrises;
    best = Math.max(best, game.pieces);
  }
}
