/**
 * benchGame: one row of the real-game benchmark (docs/game.md, "Benchmark"): the AI and, from the same seeds, the
 * two baselines — the stacking-only AI, whose game ends at its first null, and the full-board BCTS player with the
 * same preview and hold. The CLI's `bench game` and bench/game.ts both call it.
 */
import type { RandomizerName } from '../randomizers/index.js';
import type { RankTable } from '../rank/table.js';
import type { RuleSetName } from '../rules/types.js';
import type { GamePolicy } from './ai.js';
import type { GameRange } from '../runs.js';
import { playGame, type PlayGameResult, type RealGameRecord } from './play.js';

export interface BenchGameOptions {
  rules: RuleSetName;
  /** Default: the rule set's own (playGame). */
  randomizer?: RandomizerName;
  lookahead: number;
  hold?: boolean;
  games?: number;
  maxPieces?: number;
  seed?: number;
  table?: RankTable;
  /** Which players to run; default all three. */
  players?: readonly GamePolicy[];
  onProgress?: (p: {
    player: GamePolicy;
    games: number;
    pieces: number;
    lines: number;
    topOuts: number;
    elapsedMs: number;
  }) => void;
  signal?: AbortSignal;
  /** The games to play (one shard of a run; playGame's `range`). */
  range?: GameRange;
  /** Games already played per player (from a checkpoint; playGame's `resume`). */
  resume?: Partial<Record<GamePolicy, readonly RealGameRecord[]>>;
  /** Each finished game of each player (to write checkpoints). */
  onGame?: (player: GamePolicy, record: RealGameRecord) => void;
}

export type BenchGameResult = Partial<Record<GamePolicy, PlayGameResult>>;

export async function benchGame(opts: BenchGameOptions): Promise<BenchGameResult> {
  const out: BenchGameResult = {};
  for (const policy of opts.players ?? (['both', 'stackOnly', 'fullBoardOnly'] as const)) {
    out[policy] = await playGame({
      rules: opts.rules,
      randomizer: opts.randomizer,
      lookahead: opts.lookahead,
      hold: opts.hold,
      games: opts.games,
      maxPieces: opts.maxPieces,
      seed: opts.seed,
      table: opts.table,
      policy,
      signal: opts.signal,
      onProgress: opts.onProgress && ((p) => opts.onProgress!({ player: policy, ...p })),
      range: opts.range,
      resume: opts.resume?.[policy],
      onGame: opts.onGame && ((r) => opts.onGame!(policy, r)),
    });
  }
  return out;
}
