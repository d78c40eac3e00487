/**
 * `stackrank bench versus`: versus matches between TetrisAI and TetrisAI with other settings, or a Tetris Bot Protocol
 * bot (docs/versus.md). The result's table and JSON line are made here for the benchmark script too
 * (bench/versus-match.ts).
 */
import type { ClearKind } from '../rules/attack.js';
import { DEFAULT_MESSINESS, MAX_GARBAGE_DELAY } from '../rules/garbage.js';
import { VERSUS_PLACEMENTS, type VersusPlacements } from '../tetris-ai/versus.js';
import { MAX_LOOKAHEAD } from '../stacking-ai/input.js';
import { playVersus, type VersusAIOptions, type VersusResult, type VersusSide } from '../versus/run.js';
import { UsageError } from './args.js';
import { TABLE_SOURCE, THREADS, lookaheadOption, seedOption } from './options.js';
import { defineCommand, type ChoiceSpec } from './spec.js';
import { loadTableForCli } from './table-source.js';

const STREAMS = ['same', 'independent'] as const;
const GOALS = ['survival', 'versus'] as const;
type Goal = (typeof GOALS)[number];

/** TetrisAI's options for a side from --goal, --lookahead, --expectimax and --versus-placements (or their --b-
 * forms). */
function aiSide(
  goal: Goal,
  lookahead: number,
  expectimax: boolean,
  placements: VersusPlacements | undefined,
): { ai: VersusAIOptions } {
  if (goal === 'versus' && expectimax)
    throw new UsageError("--expectimax is the survival policy's; goal versus searches the known pieces");
  if (goal !== 'versus' && placements !== undefined)
    throw new UsageError('--versus-placements and --b-versus-placements set a side playing goal versus');
  return {
    ai: {
      ...(goal === 'versus' ? { goal } : {}),
      lookahead,
      ...(expectimax ? { randomizer: 'bag7' as const } : {}),
      ...(placements !== undefined ? { versus: { placements } } : {}),
    },
  };
}

export const benchVersusCommand = defineCommand({
  path: 'bench versus',
  summary: 'versus matches: TetrisAI against TetrisAI or a TBP bot; wins, attack, garbage',
  description: `Plays --matches versus matches under guideline rules (docs/versus.md): two seats on 10-wide boards,
5 previews and hold, each lock's attack cancelling the seat's own incoming garbage and sending the rest to the
other seat, a seat that tops out loses, a match still on after --max-pieces pieces each is a draw. Side A is TetrisAI
(--goal, --lookahead, --expectimax); side B is TetrisAI with --b-goal, --b-lookahead and --b-expectimax (default: as
side A; --versus-placements and --b-versus-placements: the versus search's placements below the first ply), or, with
--tbp, a Tetris Bot Protocol bot program given --think-ms milliseconds before each suggest. Matches 2k and 2k + 1
deal the same pieces and garbage holes with the sides swapped. Prints each side's wins, attack per piece (before
cancelling), lines sent per piece, pieces, garbage cancelled and received, clears by kind and how it lost, then
side A's score (wins + draws / 2 per match) with its 95 % interval. --threads plays matches side by side on worker
threads (the same matches on any thread count when both sides are TetrisAI). With --json, one object.`,
  options: {
    matches: { type: 'int', min: 1, max: 1_000_000, default: 2, help: 'matches to play (even: each deal both ways)' },
    maxPieces: {
      type: 'int',
      min: 1,
      max: Number.MAX_SAFE_INTEGER,
      default: 500,
      help: 'pieces per side at most: a match still on then is a draw',
    },
    seed: seedOption(0),
    goal: {
      type: 'choice',
      choices: GOALS,
      default: 'survival',
      help: "side A's TetrisAI plays for survival (Tetrises, a clean stack) or versus (attack: docs/game.md)",
    } as ChoiceSpec<Goal> & { default: Goal },
    bGoal: {
      type: 'choice',
      choices: GOALS,
      help: "side B's TetrisAI plays for survival or versus",
      defaultHelp: '--goal',
    } as ChoiceSpec<Goal>,
    lookahead: lookaheadOption(5),
    expectimax: {
      type: 'flag',
      help: "side A's TetrisAI averages over the piece after the queue with the bag's chances (about 400 MB more)",
    },
    bLookahead: {
      type: 'int',
      min: 0,
      max: MAX_LOOKAHEAD,
      arg: 'N',
      help: "side B's TetrisAI: preview pieces its search sees",
      defaultHelp: '--lookahead',
    },
    bExpectimax: {
      type: 'flag',
      help: "side B's TetrisAI averages over the piece after the queue",
      negation: "side B's TetrisAI searches the known pieces only",
      defaultHelp: '--expectimax',
    },
    versusPlacements: {
      type: 'choice',
      choices: VERSUS_PLACEMENTS,
      arg: 'KIND',
      help: "side A's versus search below the first ply: quick (drops and tucks but for the T) or full (docs/game.md)",
      defaultHelp: 'quick',
    } as ChoiceSpec<VersusPlacements>,
    bVersusPlacements: {
      type: 'choice',
      choices: VERSUS_PLACEMENTS,
      arg: 'KIND',
      help: "side B's versus search below the first ply: quick or full",
      defaultHelp: '--versus-placements',
    } as ChoiceSpec<VersusPlacements>,
    tbp: {
      type: 'text',
      arg: 'CMD',
      help: 'side B is this Tetris Bot Protocol bot program (its command line, words split on spaces)',
    },
    thinkMs: {
      type: 'number',
      min: 0,
      max: 60_000,
      default: 50,
      arg: 'MS',
      help: 'with --tbp: milliseconds the bot has before each suggest (for bots that search until asked)',
    },
    garbageDelay: {
      type: 'int',
      min: 0,
      max: MAX_GARBAGE_DELAY,
      default: 0,
      arg: 'LOCKS',
      help: "the receiver's locks before sent garbage may enter its board (0: at its next lock that clears nothing)",
    },
    messinessWithin: {
      type: 'number',
      min: 0,
      max: 1,
      default: DEFAULT_MESSINESS.withinAttack,
      arg: 'P',
      help: "chance that a garbage row's hole moves from the row below's inside one attack (docs/rules.md)",
    },
    messinessBetween: {
      type: 'number',
      min: 0,
      max: 1,
      default: DEFAULT_MESSINESS.betweenAttacks,
      arg: 'P',
      help: "chance that an attack's first row moves the hole from the last attack's",
    },
    streams: {
      type: 'choice',
      choices: STREAMS,
      default: 'same',
      help: 'same: both seats draw the same pieces; independent: each its own',
    } as ChoiceSpec<(typeof STREAMS)[number]> & { default: (typeof STREAMS)[number] },
    threads: { ...THREADS, defaultHelp: 'the number of cores, at most --matches' },
    ...TABLE_SOURCE,
  },
  async run({ values, given }, io) {
    if (
      values.tbp !== undefined &&
      (values.bLookahead !== undefined ||
        values.bExpectimax !== undefined ||
        values.bGoal !== undefined ||
        values.bVersusPlacements !== undefined)
    )
      throw new UsageError(
        '--b-lookahead, --b-expectimax, --b-goal and --b-versus-placements set a TetrisAI side B; with --tbp side B is the bot',
      );
    if (values.tbp === undefined && given('thinkMs')) throw new UsageError('--think-ms needs --tbp');
    const table = await loadTableForCli(values, given, io);
    const a = aiSide(values.goal, values.lookahead, values.expectimax, values.versusPlacements);
    const b: VersusSide =
      values.tbp !== undefined
        ? { tbp: values.tbp, thinkMs: values.thinkMs }
        : aiSide(
            values.bGoal ?? values.goal,
            values.bLookahead ?? values.lookahead,
            values.bExpectimax ?? values.expectimax,
            values.bVersusPlacements ??
              ((values.bGoal ?? values.goal) === 'versus' ? values.versusPlacements : undefined),
          );
    let done = 0;
    const result = await playVersus({
      a,
      b,
      matches: values.matches,
      seed: values.seed,
      maxPieces: values.maxPieces,
      garbageDelay: values.garbageDelay,
      messiness: { withinAttack: values.messinessWithin, betweenAttacks: values.messinessBetween },
      streams: values.streams,
      table,
      threads: values.threads,
      signal: io.signal,
      onMatch: () => io.status(`match ${++done}/${values.matches}`),
    });
    io.status('');
    if (values.json) io.out(JSON.stringify(versusJson(result)));
    else for (const line of versusTable(result)) io.out(line);
    return 0;
  },
});

/** The result as the JSON line prints it: every figure but the per-match tallies. */
export function versusJson(result: VersusResult): Omit<VersusResult, 'tallies'> {
  const { tallies, ...rest } = result;
  return (void tallies, rest);
}

/** Short names of the clear kinds in the table. */
const KIND_NAMES: Partial<Record<ClearKind, string>> = {
  single: 'S',
  double: 'D',
  triple: 'T',
  tetris: 'Q',
  tSpinMiniSingle: 'TSMS',
  tSpinMiniDouble: 'TSMD',
  tSpinSingle: 'TSS',
  tSpinDouble: 'TSD',
  tSpinTriple: 'TST',
};

const count = (n: number) => n.toLocaleString('en-US');

/** The result as lines of text: the run, a row per side, side A's score. */
export function versusTable(r: VersusResult): string[] {
  const m = r.messiness;
  const lines = [
    `versus, guideline, ${r.width}-wide boards: ${count(r.matches)} match${r.matches === 1 ? '' : 'es'} from ${r.firstMatch}, at most ${count(r.maxPieces)} pieces each, seed ${r.seed}, ${r.streams} pieces, garbage delay ${r.garbageDelay}, messiness ${m.withinAttack}/${m.betweenAttacks}, ${r.threads} thread${r.threads === 1 ? '' : 's'}`,
    `A: ${r.sides[0].player}`,
    `B: ${r.sides[1].player}`,
    'side   wins  attack/piece  sent/piece     pieces  cancelled   received  clears                          lost by',
  ];
  r.sides.forEach((s, k) => {
    const clears = Object.entries(s.clears)
      .map(([kind, n]) => `${KIND_NAMES[kind as ClearKind] ?? kind} ${n}`)
      .join(', ');
    const lost = Object.entries(s.losses)
      .map(([how, n]) => `${how} ${n}`)
      .join(', ');
    lines.push(
      `${k === 0 ? 'A' : 'B'}    ${String(s.wins).padStart(6)}  ${s.attackPerPiece.toFixed(3).padStart(12)}  ${s.sentPerPiece.toFixed(3).padStart(10)}  ${count(s.pieces).padStart(9)}  ${count(s.cancelled).padStart(9)}  ${count(s.received).padStart(9)}  ${(clears || '-').padEnd(30)}  ${lost || '-'}`,
    );
  });
  const [low, high] = r.winRateCi95;
  const pct = (x: number) => `${(100 * x).toFixed(1)} %`;
  lines.push(
    `A's score ${pct(r.winRate)} (95 % interval ${pct(low)}–${pct(high)}): ${r.wins} won, ${r.losses} lost, ${r.draws} drawn (${r.capped} at the piece cap); ${r.meanRounds.toFixed(1)} pieces per side per match, ${Math.round(r.piecesPerSecond).toLocaleString('en-US')} pieces/s`,
  );
  const tbp = r.sides.filter((s) => s.restarts + s.retries + s.unreachable > 0);
  for (const s of tbp)
    lines.push(
      `${s === r.sides[0] ? 'A' : 'B'} over TBP: told the position again ${count(s.restarts)} times, empty suggestions asked again ${s.retries}, moves the rules layer does not reach ${s.unreachable}`,
    );
  return lines;
}
