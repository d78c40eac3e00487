/** `stackrank bench game`: TetrisAI playing real games of a rule set, optionally beside its two baselines (docs/game.md). */
import { StackRankError } from '../errors.js';
import { type GamePolicy, HOLD_PLIES, type HoldPlies, MAX_STACK_ROOM, MIN_STACK_ROOM } from '../tetris-ai/policy.js';
import { GAME_GOALS, type GameGoal } from '../tetris-ai/ai-options.js';
import {
  MAX_VERSUS_BEAM,
  VERSUS_BEAM,
  VERSUS_PLACEMENTS,
  VERSUS_WEIGHTS,
  withVersusWeights,
  type VersusPlacements,
  type VersusWeights,
} from '../tetris-ai/versus.js';
import { MAX_SCHEDULE_EVERY, MAX_SCHEDULE_LINES, type GarbageSchedule } from '../tetris-ai/versus-play.js';
import { CLEAR_KINDS } from '../rules/attack.js';
import { benchGame } from '../tetris-ai/bench.js';
import { defaultRecoverWeightSet, RECOVER_WEIGHTS, withRecoverWeights } from '../tetris-ai/evaluate.js';
import type { RecoverWeights } from '../kernels/recover.js';
import { mergeGameResults, type PlayGameResult } from '../tetris-ai/game-results.js';
import type { GameTally } from '../tetris-ai/play-types.js';
import { defaultGameRandomizer } from '../tetris-ai/rules-adapter.js';
import type { GameRange } from '../runs.js';
import { RANDOMIZER_NAMES, type RandomizerName } from '../randomizers/index.js';
import { RULE_SETS, RULE_SET_NAMES } from '../rules/rule-sets.js';
import type { RuleSetName } from '../rules/types.js';
import { UsageError } from './args.js';
import { readOptionFile } from './files.js';
import type { CliIO } from './io.js';
import {
  LEAF_OPTIONS,
  checkLeafOptions,
  checkLeafTable,
  leafOfParams,
  loadLeafValues,
  recordedLeaf,
  type LeafName,
} from './leaf.js';
import { RUN_OPTIONS, runParams, runRecorded, tableIdentity, type ExpectedMeta, type RunFile } from './run-files.js';
import { startRun } from './run-recorder.js';
import { MAX_THREADS } from '../threads.js';
import {
  RULE_SETS_WITH_HOLD,
  TABLE_SOURCE,
  THREADS,
  lookaheadOption,
  refuseHoldWithout,
  seedOption,
} from './options.js';
import { formatDuration } from './progress.js';
import { defineCommand, type ChoiceSpec } from './spec.js';
import { loadTableForCli } from './table-source.js';

/** The players `--baselines` adds after the AI: the stacking-only AI and the full-board BCTS player. */
const WITH_BASELINES: readonly GamePolicy[] = ['both', 'stackOnly', 'fullBoardOnly'];
const PLAYER_NAMES: Record<GamePolicy, string> = {
  both: 'TetrisAI',
  stackOnly: 'stacking only',
  fullBoardOnly: 'full-board bcts',
};

/**
 * The leaf a player's stack search scored with: --leaf for the AI and the stacking-only baseline, null for the
 * full-board player (it has no stack search).
 */
function playerLeaf(player: GamePolicy, leaf: LeafName): LeafName | null {
  return player === 'fullBoardOnly' ? null : leaf;
}

/** One JSON line / table row: the result without the per-game piece list (it can be long). */
function row(r: PlayGameResult, leaf: LeafName) {
  return {
    player: r.policy,
    goal: r.goal,
    garbage: r.garbage,
    leaf: playerLeaf(r.policy, leaf),
    rules: r.rules,
    randomizer: r.randomizer,
    lookahead: r.lookahead,
    hold: r.hold,
    games: r.games,
    pieces: r.pieces,
    lines: r.lines,
    tetrisRate: r.tetrisRate,
    tetrisRateCi95: r.tetrisRateCi95,
    clears: r.clears,
    topOuts: r.topOuts,
    // JSON has no Infinity: no top-out is null, and so is an interval's missing upper end.
    piecesPerTopOut: Number.isFinite(r.piecesPerTopOut) ? r.piecesPerTopOut : null,
    piecesPerTopOutCi95: r.piecesPerTopOutCi95.map((x) => (Number.isFinite(x) ? x : null)),
    stackShare: r.stackShare,
    holesPer1000: r.holesPer1000,
    piecesPerSecond: r.piecesPerSecond,
    seconds: r.seconds,
    cpuSeconds: r.cpuSeconds,
    piecesPerCpuSecond: r.piecesPerCpuSecond,
    versus: r.versus,
    seed: r.seed,
  };
}

/**
 * Versus weights from a JSON file: an object of weights by name (the terms it leaves out keep their defaults), or a
 * bench/tune-versus.ts results file (its `final` weights). Returns every term's weight.
 */
export async function loadVersusWeights(
  path: string,
  option = '--versus-weights',
  signal?: AbortSignal,
): Promise<VersusWeights> {
  return withVersusWeights(VERSUS_WEIGHTS, await weightsFile(path, option, signal), `${option} (${path})`);
}

/** `--garbage LINES/EVERY`: e.g. 1-2/8-12, 1 to 2 lines every 8 to 12 pieces (a single number: that many). */
export function parseGarbage(text: string): GarbageSchedule {
  const m = /^\s*(\d+)(?:\s*-\s*(\d+))?\s*\/\s*(\d+)(?:\s*-\s*(\d+))?\s*$/.exec(text);
  const range = (a: string | undefined, b: string | undefined, max: number): [number, number] | null => {
    const lo = Number(a);
    const hi = b === undefined ? lo : Number(b);
    return lo >= 1 && hi >= lo && hi <= max ? [lo, hi] : null;
  };
  const lines = m && range(m[1], m[2], MAX_SCHEDULE_LINES);
  const every = m && range(m[3], m[4], MAX_SCHEDULE_EVERY);
  if (!lines || !every)
    throw new UsageError(
      `--garbage must be LINES/EVERY, each a number or a range MIN-MAX (e.g. 1-2/8-12: 1 to 2 lines every 8 to 12 pieces; lines 1 to ${MAX_SCHEDULE_LINES}, pieces 1 to ${MAX_SCHEDULE_EVERY}); got ${JSON.stringify(text)}`,
    );
  return { lines, every };
}

const rangeText = ([lo, hi]: readonly [number, number]) => (lo === hi ? `${lo}` : `${lo}-${hi}`);
/** A schedule as --garbage writes it. */
export const garbageText = (g: GarbageSchedule) => `${rangeText(g.lines)}/${rangeText(g.every)}`;

/**
 * Recover weights from a JSON file: an object of weights by name (the terms it leaves out keep `base`, the rule
 * set's defaults: defaultRecoverWeightSet's `usual`), or a bench/tune-recover.ts results file (its `final`
 * weights). Returns every term's weight. `option` names the command-line option in errors (`bench game
 * --recover-weights`; tune-recover's `--from` reads files with it too).
 */
export async function loadRecoverWeights(
  path: string,
  option = '--recover-weights',
  signal?: AbortSignal,
  base: RecoverWeights = RECOVER_WEIGHTS,
): Promise<RecoverWeights> {
  return withRecoverWeights(base, await weightsFile(path, option, signal), `${option} (${path})`);
}

/** A weights file's object: the file's JSON, or a tuning run's results file's `final`. */
async function weightsFile(path: string, option: string, signal: AbortSignal | undefined): Promise<unknown> {
  // A file that cannot be read is a runtime error (exit 1, IO), as for --table (docs/cli.md, "Exit codes"); the one
  // reader refuses what is not a regular file (a FIFO would block, /dev/zero never end).
  const text = await readOptionFile(option, path, 'weights file', signal);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new StackRankError('BAD_ARGUMENT', `${option}: ${path} is not JSON`);
  }
  return (json as { final?: unknown } | null)?.final ?? json;
}

const percent = (x: number) => `${(100 * x).toFixed(1)} %`;

/** bench game's options that set the survival policy alone (--goal survival). */
const SURVIVAL_ONLY = [
  'baselines',
  'recoverChance',
  'recoverWeights',
  'stackRoom',
  'holdPlies',
  'table',
  'leaf',
] as const;

/** The options bench game's goals (--goal) do not share: a versus run refuses the survival policy's, a survival run
 * the versus search's, and versus needs a rule set with an attack table. */
function checkGoalOptions(
  values: {
    rules: RuleSetName;
    goal: GameGoal;
    versusBeam?: number;
    versusPlacements?: VersusPlacements;
    versusWeights?: string;
  },
  given: (option: (typeof SURVIVAL_ONLY)[number]) => boolean,
): void {
  const { rules } = values;
  if (values.goal === 'versus') {
    if (!RULE_SETS[rules].attack)
      throw new UsageError(
        `--goal versus plays for attack: it needs a rule set with an attack table (guideline); ${rules} has none`,
      );
    const survivalOnly = SURVIVAL_ONLY.find((o) => given(o));
    if (survivalOnly)
      throw new UsageError(
        `--${survivalOnly.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)} is an option of the survival policy (--goal survival); compare the two goals in two runs`,
      );
  } else if (
    values.versusBeam !== undefined ||
    values.versusPlacements !== undefined ||
    values.versusWeights !== undefined
  )
    throw new UsageError(
      '--versus-beam, --versus-placements and --versus-weights set the versus search: give them with --goal versus',
    );
}

export const benchGameCommand = defineCommand({
  path: 'bench game',
  summary: 'TetrisAI in real games of a rule set: Tetris rate, top-outs, holes',
  description: `Plays --games games of the rule set (at most --max-pieces pieces each) with TetrisAI and prints
pieces, lines, the Tetris rate (lines cleared by Tetrises / all lines), clears by size, top-outs, the share of pieces
placed by the stacking AI, holes made per 1000 pieces and speed. --baselines adds, from the same seeds, the
stacking-only AI (its game ends at its first position it cannot stack) and the full-board BCTS player with the same
preview and hold. The randomizer defaults to the rule set's own (guideline bag7, nes nes, others tgm1). With --json,
one object per player per line (docs/game.md, "The simulator and the benchmark"). --threads plays games side by side
on worker threads (the same games on any thread count). --shard I/N plays one shard of
the games and --out writes its result file for stackrank merge; --checkpoint FILE records finished games and resumes
from them (docs/distributed.md). --leaf preview scores the leaves of the randomizer-aware stack search (the AI's and
the stacking-only baseline's; the full-board player has none) with the randomizer's preview table (surface x piece
in hand, the rank table's shape and --leaf-iterations; built and cached on first use, about 700 MB in memory)
instead of the rank table's best rank per piece, as bench survival does; not under tgm20g, whose 20G table has no
preview table. --recover-chance sets how many lines the AI's recover mode values over the next piece (its chance
ply; on every recover move, near the top too) and --recover-weights FILE its evaluator's weights: a JSON object of
some of its twelve terms by name, or a bench/tune-recover.ts results file (its final weights); the baselines play
without either. --stack-room ROWS sets the rows the stack keeps free under the top of the field, for the AI and the
stacking-only baseline, and --hold-plies where their stack search may press hold: auto (every ply up to lookahead 2,
the first move beyond), all (every ply; slower) or first (docs/game.md, "Hold"). Measured in bench/notes/results.md
("Real games").`,
  options: {
    rules: {
      type: 'choice',
      choices: RULE_SET_NAMES,
      default: 'guideline',
      help: `rule set (docs/rules.md): ${RULE_SET_NAMES.join(', ')}`,
    } as ChoiceSpec<RuleSetName> & { default: RuleSetName },
    goal: {
      type: 'choice',
      choices: GAME_GOALS,
      default: 'survival',
      help: 'what the AI plays for: survival (Tetrises, a clean stack) or versus (attack; rule sets with an attack table: guideline)',
    } as ChoiceSpec<GameGoal> & { default: GameGoal },
    garbage: {
      type: 'text',
      arg: 'LINES/EVERY',
      help: 'garbage fed to every game, e.g. 1-2/8-12: 1 to 2 lines every 8 to 12 pieces, seeded (docs/game.md)',
      defaultHelp: 'none',
    },
    versusBeam: {
      type: 'int',
      min: 1,
      max: MAX_VERSUS_BEAM,
      arg: 'N',
      help: "the versus search's lines kept per ply (--goal versus)",
      defaultHelp: String(VERSUS_BEAM),
    },
    versusPlacements: {
      type: 'choice',
      choices: VERSUS_PLACEMENTS,
      arg: 'KIND',
      help: 'the placements the versus search tries below the first ply (--goal versus): quick (a piece that cannot spin: drops and one-column tucks) or full (every reachable one)',
      defaultHelp: 'quick',
    } as ChoiceSpec<VersusPlacements>,
    versusWeights: {
      type: 'text',
      arg: 'FILE',
      help: "the versus evaluator's weights (--goal versus): a JSON object of terms by name, or a tune-versus results file",
      defaultHelp: 'VERSUS_WEIGHTS',
    },
    randomizer: {
      type: 'choice',
      choices: RANDOMIZER_NAMES,
      arg: 'NAME',
      help: `piece generator (docs/randomizers.md): ${RANDOMIZER_NAMES.join(', ')}`,
      defaultHelp: "the rule set's",
    } as ChoiceSpec<RandomizerName>,
    lookahead: lookaheadOption(1),
    hold: {
      type: 'flag',
      help: `let the AI use hold (rule sets with hold: ${RULE_SETS_WITH_HOLD}; the default there)`,
      negation: 'play without hold, also where the rule set has it',
    },
    games: { type: 'int', min: 1, max: 1_000_000, default: 1, help: 'games per player' },
    maxPieces: { type: 'int', min: 1, max: Number.MAX_SAFE_INTEGER, default: 10_000, help: 'pieces per game at most' },
    seed: seedOption(0),
    baselines: { type: 'flag', help: 'also run the stacking-only AI and the full-board player on the same seeds' },
    recoverChance: {
      type: 'int',
      min: 0,
      max: 1000,
      arg: 'N',
      help: "lines the AI's recover mode values over the next piece (its chance ply; 0: none; docs/game.md)",
      defaultHelp: '12 under classic and the timed nes, 3 under nesUntimed, tgm and tgm20g, 0 under guideline',
    },
    recoverWeights: {
      type: 'text',
      arg: 'FILE',
      help: "the AI's recover weights: a JSON object of terms by name, or a tune-recover results file (docs/game.md)",
      defaultHelp: 'RECOVER_WEIGHTS',
    },
    stackRoom: {
      type: 'int',
      min: MIN_STACK_ROOM,
      max: MAX_STACK_ROOM,
      arg: 'ROWS',
      help: 'rows the stack keeps free under the top of the field (fewer: more Tetrises and more top-outs; docs/game.md)',
      defaultHelp: 'by rule set and randomizer (docs/game.md, "Options")',
    },
    holdPlies: {
      type: 'choice',
      choices: HOLD_PLIES,
      help: `where the stack search may press hold: ${HOLD_PLIES.join(', ')} (docs/game.md, "Hold")`,
      defaultHelp: 'auto',
    } as ChoiceSpec<HoldPlies>,
    ...LEAF_OPTIONS,
    threads: { ...THREADS, defaultHelp: 'the number of cores, at most --games' },
    ...TABLE_SOURCE,
    ...RUN_OPTIONS,
  },
  async run({ values, given }, io) {
    const { rules, games, maxPieces, seed, leaf, goal } = values;
    const versusGoal = goal === 'versus';
    // Under goal versus the AI sees the rule set's previews unless --lookahead says otherwise.
    const lookahead = given('lookahead') || !versusGoal ? values.lookahead : RULE_SETS[rules].previews;
    const randomizer = values.randomizer ?? defaultGameRandomizer(rules);
    checkGoalOptions(values, given);
    const garbage = values.garbage === undefined ? undefined : parseGarbage(values.garbage);
    const versusWeights =
      values.versusWeights === undefined
        ? undefined
        : await loadVersusWeights(values.versusWeights, undefined, io.signal);
    const versus =
      versusGoal &&
      (values.versusBeam !== undefined || values.versusPlacements !== undefined || versusWeights !== undefined)
        ? { beam: values.versusBeam, placements: values.versusPlacements, weights: versusWeights }
        : undefined;
    const hold = values.hold;
    if (hold) refuseHoldWithout(rules);
    checkLeafOptions(values);
    const at20G = RULE_SETS[rules].gravity === '20G';
    if (leaf === 'preview' && at20G)
      throw new UsageError(
        `--leaf preview plays the rule sets with dropped pieces (${RULE_SET_NAMES.filter((n) => RULE_SETS[n].gravity !== '20G').join(', ')}); ${rules} plays at 20G, and preview tables are built for dropped pieces only`,
      );
    // The weights file first: a file that cannot be read costs nothing then (the table may take seconds to build).
    const recoverWeights =
      values.recoverWeights === undefined
        ? undefined
        : await loadRecoverWeights(
            values.recoverWeights,
            undefined,
            io.signal,
            defaultRecoverWeightSet(RULE_SETS[rules]).usual,
          );
    // tgm20g plays the 20G table (moves reachable at 20G) unless --table names another.
    // The versus search has no stack mode: no rank table.
    const table = versusGoal ? undefined : await loadTableForCli(values, given, io, at20G ? '20G' : 'drop');
    if (table) checkLeafTable(values, table);
    const players = values.baselines ? WITH_BASELINES : (['both'] as const);
    // A run with the default leaf records none: run files made before --leaf existed played piece-max, so they still
    // resume and merge; runs with different leaves differ in their parameters (RUN_MISMATCH). The recover weights
    // are recorded as the weights, not the file's name, so a file changed between runs does not resume.
    // A survival run records no goal, garbage or versus settings: its run files resume and merge as before they
    // existed. The versus weights are recorded as the weights, as the recover weights are.
    const recorded = {
      ...values,
      lookahead,
      leaf: recordedLeaf(leaf),
      recoverWeights,
      goal: versusGoal ? goal : undefined,
      garbage: garbage && garbageText(garbage),
      versusWeights,
    };
    const run = await startRun(io, {
      command: 'bench game',
      params: runParams(recorded, table ? { rankTable: tableIdentity(table, runRecorded(values)) } : {}),
      values,
      recordName: 'game',
      indexOf: (r) => (r as GameTally).game,
      expectedMeta: gameMeta,
    });
    // After the run's checks (a checkpoint of another run is refused before a preview table is built).
    const previewTable = table && (await loadLeafValues(values, table, randomizer, io));
    // One player at a time, so each row is printed as soon as it is ready.
    await run.play(async () => {
      for (const player of players) {
        const part = run.part<GameTally>(`player ${player}`);
        // The status counts this player's games over the whole range (resumed ones too): the game under way is
        // the one after those finished, and once all are finished the last one.
        const total = run.range.end - run.range.start;
        const finished = new Set(part.resume.map((t) => t.game));
        const play = (start: number, end: number) => {
          const before = finished.size; // p.games counts this stretch's games only
          return benchGame({
            rules,
            goal,
            versus,
            garbage,
            randomizer,
            lookahead,
            hold,
            games: end - start,
            firstGame: start,
            maxPieces,
            seed,
            table,
            previewTable,
            recoverChance: values.recoverChance,
            recoverWeights,
            stackRoom: values.stackRoom,
            holdPlies: values.holdPlies,
            threads: values.threads,
            players: [player],
            signal: io.signal,
            onProgress: (p) =>
              io.status(
                `${PLAYER_NAMES[p.player]}: game ${Math.min(Math.max(finished.size, before + p.games) + 1, total)}/${total}, ${p.pieces.toLocaleString('en-US')} pieces, ${p.lines.toLocaleString('en-US')} lines, ${p.topOuts} top-outs, ${formatDuration(p.elapsedMs)}`,
              ),
            onGame: (_, tally) => {
              finished.add(tally.game);
              part.add(tally);
            },
          }).then((r) => r[player]!);
        };
        const result = await playResuming(run.range, part.resume, part.meta, play);
        // The row's time (and speed) is the part's over every session, as merge prints it.
        result.seconds = part.finish(runMeta(result), result.seconds);
        result.piecesPerSecond = result.seconds > 0 ? result.pieces / result.seconds : 0;
        io.status('');
        if (versusGoal || garbage) printVersusRow(io, values.json, result, games, player === players[0], leaf);
        else printGameRow(io, values.json, result, games, player === players[0], leaf);
      }
    });
    return 0;
  },
});

/**
 * The games `range` of one player: those of `resumed` (a checkpoint's tallies) are not played again; the others are
 * played in contiguous stretches. The run's description comes from a played stretch: when every game was resumed,
 * the last one is played again, and only the thread count is taken from the part's recorded `meta`. The stretches
 * are always pooled by mergeGameResults, as `stackrank merge` pools shards (partResult): a rerun with a finished
 * checkpoint prints what the uninterrupted run printed (docs/distributed.md, "Checkpoints").
 */
export async function playResuming(
  range: GameRange,
  resumed: readonly GameTally[],
  meta: Record<string, unknown> | null,
  play: (start: number, end: number) => Promise<PlayGameResult>,
): Promise<PlayGameResult> {
  const done = new Map(resumed.map((t) => [t.game, t]));
  // A fully finished part plays its last game again: the run's description then comes from this run, never from
  // the file (a damaged one would otherwise be copied into the checkpoint, which then would not merge).
  if (done.size === range.end - range.start) done.delete(range.end - 1);
  const results: PlayGameResult[] = [];
  const stretches = (has: boolean) => {
    const out: GameRange[] = [];
    for (let g = range.start; g < range.end; g++) {
      if (done.has(g) !== has) continue;
      const last = out.at(-1);
      if (last && last.end === g) last.end++;
      else out.push({ start: g, end: g + 1 });
    }
    return out;
  };
  for (const { start, end } of stretches(false)) results.push(await play(start, end));
  const described = runMeta(results[0]);
  for (const { start, end } of stretches(true)) {
    const tallies = [];
    for (let g = start; g < end; g++) tallies.push(done.get(g)!);
    results.push(partResult(described, { start, end }, tallies, 0));
  }
  const merged = mergeGameResults(results);
  // The resumed games' thread count (the most any part used), when the file holds one that could be.
  const threads = meta?.threads;
  if (Number.isInteger(threads) && (threads as number) > merged.threads && (threads as number) <= MAX_THREADS)
    merged.threads = threads as number;
  return merged;
}

/**
 * Recorded games as mergeGameResults takes them: the run's description (runMeta) with the tallies of the games
 * `range`. Used for a checkpoint's games and for the shards `stackrank merge` pools.
 */
export function partResult(
  meta: Record<string, unknown>,
  range: GameRange,
  tallies: GameTally[],
  seconds: number,
): PlayGameResult {
  return {
    ...(meta as unknown as PlayGameResult),
    firstGame: range.start,
    games: range.end - range.start,
    tallies,
    seconds,
  };
}

/**
 * What a finished part's `meta` (playGame's description of its run) must say, from the run's params: the rules,
 * seed, piece cap and lookahead the games were played with, which the command passes to playGame as recorded
 * (bench game records the lookahead it played; bench nes adds its format: nesMeta in src/cli/nes.ts).
 */
export const gameMeta: ExpectedMeta = ({ rules, seed, maxPieces, lookahead }) => ({
  rules,
  seed,
  maxPieces,
  lookahead,
});

/** What mergeGameResults needs besides the tallies: the result's description of its run. */
export function runMeta(r: PlayGameResult): Record<string, unknown> {
  const { rules, format, goal, garbage, randomizer, lookahead, hold, policy, well, stackRoom, holdPlies, strength } = r;
  const { playOuts, seed, maxPieces, threads } = r;
  return {
    rules,
    format,
    goal,
    garbage,
    randomizer,
    lookahead,
    hold,
    policy,
    well,
    stackRoom,
    holdPlies,
    strength,
    playOuts,
    seed,
    maxPieces,
    threads,
  };
}

/** One player's row; the first one comes after the header, which names the randomizer actually played. */
function printGameRow(
  io: CliIO,
  json: boolean,
  result: PlayGameResult,
  games: number,
  first: boolean,
  leaf: LeafName,
): void {
  const r = row(result, leaf);
  if (!json && first) {
    // The header names the randomizer actually played (the rule set's when --randomizer is not given).
    io.out(
      `real games under ${r.rules}, randomizer ${r.randomizer}, lookahead ${r.lookahead}, ${r.hold ? 'hold' : 'no hold'}, leaf ${leaf}, ${games} game${games === 1 ? '' : 's'} of at most ${result.maxPieces.toLocaleString('en-US')} pieces, seed ${r.seed}`,
    );
    io.out(
      'player               pieces      lines   Tetris rate  clears 1/2/3/4         top-outs  stack share  holes/1000  pieces/s',
    );
  }
  if (json) {
    io.out(JSON.stringify(r));
    return;
  }
  const clears = `${r.clears.single}/${r.clears.double}/${r.clears.triple}/${r.clears.tetris}`;
  io.out(
    `${PLAYER_NAMES[r.player].padEnd(17)} ${r.pieces.toLocaleString('en-US').padStart(9)}  ${r.lines.toLocaleString('en-US').padStart(9)}  ${percent(r.tetrisRate).padStart(12)}  ${clears.padEnd(21)} ${String(r.topOuts).padStart(9)}  ${percent(r.stackShare).padStart(11)}  ${r.holesPer1000.toFixed(1).padStart(10)}  ${Math.round(r.piecesPerSecond).toLocaleString('en-US').padStart(8)}`,
  );
  io.out(`${''.padEnd(17)} 95 % intervals: ${intervalText(result)}`);
}

/**
 * One player's row of a versus run (--goal versus, or any run with --garbage): attack per piece with its 95 %
 * interval, the T-spin and other clears by kind, perfect clears, the longest combo, top-outs, the garbage, speed per
 * CPU second. The first row comes after the header.
 */
function printVersusRow(
  io: CliIO,
  json: boolean,
  result: PlayGameResult,
  games: number,
  first: boolean,
  leaf: LeafName,
): void {
  const r = row(result, leaf);
  if (json) {
    io.out(JSON.stringify(r));
    return;
  }
  const v = result.versus;
  if (first) {
    const garbage = result.garbage ? `, garbage ${garbageText(result.garbage)}` : '';
    io.out(
      `real games under ${r.rules}, goal ${r.goal}, randomizer ${r.randomizer}, lookahead ${r.lookahead}, ${r.hold ? 'hold' : 'no hold'}, ${games} game${games === 1 ? '' : 's'} of at most ${result.maxPieces.toLocaleString('en-US')} pieces, seed ${r.seed}${garbage}`,
    );
    io.out(
      'player               pieces     attack  attack/piece  TSS/TSD/TST   mini S/D  Tetrises    PCs  max combo  top-outs  pieces/CPU-s',
    );
  }
  const count = (x: number) => x.toLocaleString('en-US');
  const k = v?.kinds;
  const cpu = result.piecesPerCpuSecond === null ? '–' : count(Math.round(result.piecesPerCpuSecond));
  io.out(
    `${PLAYER_NAMES[r.player].padEnd(17)} ${count(r.pieces).padStart(9)}  ${(v ? count(v.attack) : '–').padStart(9)}  ${(v ? v.attackPerPiece.toFixed(3) : '–').padStart(12)}  ${(k ? `${k.tSpinSingle}/${k.tSpinDouble}/${k.tSpinTriple}` : '–').padEnd(12)} ${(k ? `${k.tSpinMiniSingle}/${k.tSpinMiniDouble}` : '–').padStart(9)}  ${(k ? count(k.tetris) : '–').padStart(8)}  ${(v ? count(v.perfectClears) : '–').padStart(5)}  ${(v ? String(v.maxCombo) : '–').padStart(9)}  ${String(r.topOuts).padStart(8)}  ${cpu.padStart(12)}`,
  );
  if (!v) {
    io.out(`${''.padEnd(17)} (parts of this run were recorded without the versus figures)`);
    return;
  }
  const ci = v.attackPerPieceCi95
    ? `${v.attackPerPieceCi95[0].toFixed(3)}–${v.attackPerPieceCi95[1].toFixed(3)}`
    : 'none (fewer than 2 games)';
  const [low, high] = result.piecesPerTopOutCi95;
  const perTopOut = Number.isFinite(high)
    ? `${count(Math.round(low))}–${count(Math.round(high))}`
    : `at least ${count(Math.round(low))}`;
  io.out(`${''.padEnd(17)} 95 % intervals: attack per piece ${ci}, pieces per top-out ${perTopOut}`);
  const kinds = CLEAR_KINDS.filter((kind) => kind !== 'none').map((kind) => `${kind} ${count(v.kinds[kind])}`);
  io.out(`${''.padEnd(17)} locks by kind: ${kinds.join(', ')}; back-to-back clears ${count(v.backToBackClears)}`);
  if (result.garbage)
    io.out(
      `${''.padEnd(17)} garbage: ${count(v.garbageReceived)} lines received, ${count(v.garbageCancelled)} cancelled, ${count(v.garbageEntered)} entered`,
    );
}

/** The row's 95 % intervals: the Tetris rate's (over games) and pieces per top-out (Poisson on the count). */
function intervalText(r: PlayGameResult): string {
  const rate = r.tetrisRateCi95
    ? `${(100 * r.tetrisRateCi95[0]).toFixed(1)}–${percent(r.tetrisRateCi95[1])}`
    : 'none (fewer than 2 games with lines)';
  const [low, high] = r.piecesPerTopOutCi95;
  const count = (x: number) => Math.round(x).toLocaleString('en-US');
  const perTopOut = Number.isFinite(high) ? `${count(low)}–${count(high)}` : `at least ${count(low)}`;
  return `Tetris rate ${rate}, pieces per top-out ${perTopOut}`;
}

/** `stackrank merge` of bench game shards (checked by checkShardSet, in shard order): one row per player. */
export function printMergedGames(io: CliIO, json: boolean, shards: readonly { run: RunFile }[]): void {
  // Every part is pooled (and checked) before anything is printed.
  const results = shards[0].run.parts.map((_, k) =>
    mergeGameResults(
      shards.map(({ run }) => {
        const part = run.parts[k];
        return partResult(part.meta!, run.shard, part.records as GameTally[], part.seconds);
      }),
    ),
  );
  const { params } = shards[0].run;
  const games = params.games as number;
  const leaf = leafOfParams(params);
  results.forEach((result, k) => {
    if (result.goal === 'versus' || result.garbage) printVersusRow(io, json, result, games, k === 0, leaf);
    else printGameRow(io, json, result, games, k === 0, leaf);
  });
}
