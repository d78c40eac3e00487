/**
 * What an NES run reports besides the real-game figures (docs/game.md, "NES Tetris: the competition format"): the
 * score with its 95 % interval, lines (mean, median, 1st percentile), the Tetris rate by level band and the levels
 * games ended at. From the games' tallies alone, so parts of a run pool exactly.
 */
import { StackRankError } from '../errors.js';
import type { NesGame } from '../rules/nes-game.js';
import { recordInt } from '../runs.js';
import { meanInterval } from './intervals.js';

/** Level bands the Tetris rate is reported by: up to 18 (where a level-18 start spends its first 130 lines), the
 * levels of two frames per row, the killscreen's one row per frame, and the double killscreen's two rows. */
export const NES_LEVEL_BANDS: readonly { readonly label: string; readonly from: number }[] = Object.freeze([
  { label: '≤18', from: 0 },
  { label: '19–28', from: 19 },
  { label: '29–38', from: 29 },
  { label: '39+', from: 39 },
]);

/** The band of a level (an index into NES_LEVEL_BANDS). */
export function bandOf(level: number): number {
  let b = 0;
  while (b + 1 < NES_LEVEL_BANDS.length && level >= NES_LEVEL_BANDS[b + 1].from) b++;
  return b;
}

/** One NES game's part of its tally (GameTally's NES fields). */
export interface NesTally {
  score: number;
  /** The level the game ended at (or was cut at by maxPieces). */
  endLevel: number;
  /** Whether it ended by reaching the format's level cap. */
  reachedCap: boolean;
  /** Lines cleared, and lines cleared by Tetrises, by the band of the level each clearing piece was placed at. */
  bandLines: number[];
  bandTetrisLines: number[];
  /** Points scored by the clears of pieces placed at each band's levels (they add up to `score`). */
  bandScore: number[];
}

/**
 * One simulated NES game's tally as it is played: its lines and Tetris lines by the band of the level each clearing
 * piece was placed at, and each clear's points by the same band.
 */
export class NesGameTally {
  private readonly bandLines = NES_LEVEL_BANDS.map(() => 0);
  private readonly bandTetrisLines = NES_LEVEL_BANDS.map(() => 0);
  private readonly bandScore = NES_LEVEL_BANDS.map(() => 0);

  constructor(readonly game: NesGame) {}

  /** A lock's cleared lines, at the level it was placed at (before the clear's level-up). */
  countLines(lines: number): void {
    const band = bandOf(this.game.level);
    this.bandLines[band] += lines;
    if (lines === 4) this.bandTetrisLines[band] += 4;
  }

  /** The game counts the lock's clear (level-up and points, the points to the band it was placed at); returns
   * whether the game ended there (its level cap). */
  clear(lines: number): boolean {
    const band = bandOf(this.game.level);
    this.bandScore[band] += this.game.clear(lines);
    return this.game.end !== null;
  }

  /** The game's tally, `topOut` when its last piece could not be placed or locked above the field. */
  finish(topOut: boolean): NesTally {
    const { game } = this;
    if (topOut) game.topOut();
    return {
      score: game.score,
      endLevel: game.level,
      reachedCap: game.end === 'maxLevel',
      bandLines: this.bandLines,
      bandTetrisLines: this.bandTetrisLines,
      bandScore: this.bandScore,
    };
  }
}

export interface NesRunStats {
  averageScore: number;
  /** 95 % interval of the average score (normal approximation over games); null with fewer than 2 games. */
  averageScoreCi95: [number, number] | null;
  meanLines: number;
  medianLines: number;
  /** The 1st percentile of lines per game (nearest rank): a bad game's lines. */
  p1Lines: number;
  /** Games that reached the level cap. */
  reachedCap: number;
  /**
   * Per band (NES_LEVEL_BANDS): lines, the Tetris rate there (null: no line cleared in the band), and the average
   * score a game makes there (its points over all games, so the bands add up to the average score).
   */
  bands: { band: string; lines: number; tetrisRate: number | null; averageScore: number }[];
  /** Games by the level they ended at. */
  endLevels: Record<string, number>;
}

/** The run's NES figures from its games (each with its lines and NES tally). */
export function nesRunStats(games: readonly { lines: number; nes: NesTally }[]): NesRunStats {
  const n = games.length;
  const { mean, ci95 } = meanInterval(games.map((g) => g.nes.score));
  const lines = games.map((g) => g.lines).sort((a, b) => a - b);
  const median = n % 2 === 1 ? lines[(n - 1) / 2] : (lines[n / 2 - 1] + lines[n / 2]) / 2;
  const bands = NES_LEVEL_BANDS.map((b, i) => {
    const l = games.reduce((a, g) => a + g.nes.bandLines[i], 0);
    const t = games.reduce((a, g) => a + g.nes.bandTetrisLines[i], 0);
    const points = games.reduce((a, g) => a + g.nes.bandScore[i], 0);
    return { band: b.label, lines: l, tetrisRate: l > 0 ? t / l : null, averageScore: points / n };
  });
  const endLevels: Record<string, number> = {};
  for (const g of games) endLevels[g.nes.endLevel] = (endLevels[g.nes.endLevel] ?? 0) + 1;
  return {
    averageScore: mean,
    // a score is never negative: the normal approximation's lower end is clipped at 0 (as ratioInterval's is)
    averageScoreCi95: ci95 && [Math.max(0, ci95[0]), ci95[1]],
    meanLines: lines.reduce((a, b) => a + b, 0) / n,
    medianLines: median,
    p1Lines: lines[Math.max(0, Math.ceil(0.01 * n) - 1)],
    reachedCap: games.filter((g) => g.nes.reachedCap).length,
    bands,
    endLevels,
  };
}

/** An NES tally read back (from a checkpoint or a shard file), checked; `lines` is its game's lines. */
export function checkNesTally(where: string, value: unknown, lines: number): NesTally {
  const r = value !== null && typeof value === 'object' ? (value as Record<string, unknown>) : null;
  const list = (name: string) => {
    const v = r?.[name];
    if (!Array.isArray(v) || v.length !== NES_LEVEL_BANDS.length)
      throw new StackRankError('BAD_ARGUMENT', `${where}: nes.${name} must be ${NES_LEVEL_BANDS.length} counts`);
    return Array.from(v, (c, i) => recordInt(where, `nes.${name}[${i}]`, c));
  };
  if (!r || typeof r.reachedCap !== 'boolean')
    throw new StackRankError('BAD_ARGUMENT', `${where}: nes must be an NES game record { score, endLevel, … }`);
  const tally: NesTally = {
    score: recordInt(where, 'nes.score', r.score),
    endLevel: recordInt(where, 'nes.endLevel', r.endLevel, 0, 255),
    reachedCap: r.reachedCap,
    bandLines: list('bandLines'),
    bandTetrisLines: list('bandTetrisLines'),
    bandScore: list('bandScore'),
  };
  if (tally.bandLines.reduce((a, b) => a + b, 0) !== lines)
    throw new StackRankError('BAD_ARGUMENT', `${where}: nes.bandLines do not add up to the game's lines`);
  if (tally.bandScore.reduce((a, b) => a + b, 0) !== tally.score)
    throw new StackRankError('BAD_ARGUMENT', `${where}: nes.bandScore does not add up to the game's score`);
  return tally;
}
