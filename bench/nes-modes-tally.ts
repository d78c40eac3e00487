/**
 * The counts bench/nes-modes.ts prints, over a game's turns (playOneGame's onTurn), by level band: which mode placed
 * each piece, the board each I piece came to and whether it made a Tetris, the boards stack mode handed to recover
 * mode, and how long recover mode then kept the game. Kept apart from the script so a test can feed it turns.
 */
import type { PlayedTurn } from '../src/tetris-ai/game-simulator.js';
import { bandOf, NES_LEVEL_BANDS } from '../src/tetris-ai/nes-stats.js';
import { isTetrisReady, stackSurfaces } from '../src/tetris-ai/stack.js';

/**
 * A board as stack mode sees it (stackSurfaces, either well side): a clean stack on the field's bottom, Tetris-ready
 * for a well or still building; a clean stack over a floor of buried rows; or no clean stack at all.
 */
export const BOARD_KINDS = ['ready', 'building', 'over a floor', 'no clean stack'] as const;
export type BoardKind = (typeof BOARD_KINDS)[number];

export function boardKind(rows: Uint32Array, width: number): BoardKind {
  const surfaces = stackSurfaces(rows, width, ['right', 'left']);
  const bottom = surfaces.filter((s) => s.floor === 0);
  if (bottom.length > 0) return bottom.some(isTetrisReady) ? 'ready' : 'building';
  return surfaces.length > 0 ? 'over a floor' : 'no clean stack';
}

const byKind = () => Object.fromEntries(BOARD_KINDS.map((k) => [k, 0])) as Record<BoardKind, number>;

export interface BandTally {
  pieces: number;
  /** Pieces placed by each mode. */
  modes: Record<string, number>;
  /** I pieces by the board they came to, and the Tetrises those made. */
  iPieces: Record<BoardKind, number>;
  iTetrises: Record<BoardKind, number>;
  /** Turns recover mode played right after a stack-mode turn, by the board it was given. */
  handoffs: Record<BoardKind, number>;
  /** Lengths (pieces) of recover mode's runs that started in this band. */
  recoverRuns: number[];
}

export function emptyTallies(): BandTally[] {
  return NES_LEVEL_BANDS.map(() => ({
    pieces: 0,
    modes: {},
    iPieces: byKind(),
    iTetrises: byKind(),
    handoffs: byKind(),
    recoverRuns: [],
  }));
}

/**
 * Adds one game's turns (in order; an NES game's, each with its level) to `tallies`. A top-out's turn (no move)
 * places nothing.
 */
export function tallyGame(tallies: BandTally[], turns: readonly PlayedTurn[], width: number): void {
  let run: { band: number; length: number } | null = null;
  let previous: PlayedTurn | null = null;
  const endRun = () => {
    if (run) tallies[run.band].recoverRuns.push(run.length);
    run = null;
  };
  for (const turn of turns) {
    const move = turn.move;
    if (!move) break;
    if (!turn.nes) throw new Error('tallyGame counts NES games: a turn came without its level');
    const band = bandOf(turn.nes.level);
    const t = tallies[band];
    t.pieces++;
    t.modes[move.mode] = (t.modes[move.mode] ?? 0) + 1;
    const handoff = move.mode === 'recover' && previous?.move?.mode === 'stack';
    const kind = turn.current === 'I' || handoff ? boardKind(turn.before, width) : null;
    if (kind && turn.current === 'I') {
      t.iPieces[kind]++;
      if (turn.lines === 4) t.iTetrises[kind]++;
    }
    if (kind && handoff) t.handoffs[kind]++;
    if (move.mode === 'recover') {
      if (run) run.length++;
      else run = { band, length: 1 };
    } else endRun();
    previous = turn;
  }
  endRun();
}
