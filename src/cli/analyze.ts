/** `stackrank analyze`: every placement of a fumen position ranked by the game AI, with boards for the best ones. */
import { TetrisAI } from '../tetris-ai/ai.js';
import type { RankedPlacement } from '../tetris-ai/rank-placements.js';
import type { Piece } from '../pieces.js';
import type { Board } from '../rules/board.js';
import { boardFromFumen } from '../rules/fumen.js';
import { RULE_SETS, RULE_SET_NAMES, isTimed, type RuleSet } from '../rules/rule-sets.js';
import { MAX_LEVEL, formatFrameInputs } from '../rules/timing.js';
import type { FrameInput, RuleSetName } from '../rules/types.js';
import { UsageError } from './args.js';
import {
  RULE_SETS_WITH_HOLD,
  TABLE_SOURCE,
  TIMELINE,
  checkTimelineOption,
  lookaheadOption,
  refuseHoldWithout,
} from './options.js';
import { defineCommand } from './spec.js';
import { loadTableForCli } from './table-source.js';

/** Boards drawn under the list: the best few, side by side. */
const BOARDS_DRAWN = 3;

/** The board's rows from the highest filled one (at least 6 rows): '#' filled, the placement as its piece letter. */
export function drawPlacement(board: Board, p: Pick<RankedPlacement, 'piece' | 'cells'> | null, minRows = 6): string[] {
  const cells = new Set((p?.cells ?? []).map(([x, y]) => `${x},${y}`));
  let top = 0;
  for (let y = 0; y < board.height; y++) if (board.rows[y] !== 0) top = y + 1;
  for (const [, y] of p?.cells ?? []) top = Math.max(top, y + 1);
  const lines: string[] = [];
  for (let y = Math.max(top, minRows) - 1; y >= 0; y--) {
    let s = '|';
    for (let x = 0; x < board.width; x++) s += cells.has(`${x},${y}`) ? p!.piece : board.filled(x, y) ? '#' : '.';
    lines.push(s + '|');
  }
  lines.push('+' + '-'.repeat(board.width) + '+');
  return lines;
}

export const analyzeCommand = defineCommand({
  path: 'analyze',
  summary: 'rank every placement of a fumen position with the game AI',
  description: `Reads the position from a fumen string (docs/rules.md, "fumen"). The current piece and the queue
come from the page comment ("#Q=[H](C)QUEUE" or a list of piece letters); --queue overrides them. Prints every
reachable placement, the AI's move first, with its value and loss, or "tops out" for a move that ends the game
(docs/game.md, "Ranking placements"), then the best ones drawn on the board. Under --rules nes only the placements
the frames allow at --level with --timeline, each with its frame inputs (docs/rules.md, "Time"); --lines gives the
game's LINES counter, which the AI reads with the level (docs/game.md, "The lines count"). With --json: one
object per placement (topsOut among its fields), then one summary object.`,
  options: {
    fumen: { type: 'text', arg: 'STRING', help: 'the position: a fumen string (v115@...) or a fumen URL' },
    page: { type: 'int', min: 0, max: 100_000, default: 0, help: 'fumen page to analyse' },
    rules: {
      type: 'choice',
      choices: RULE_SET_NAMES,
      default: 'guideline' as RuleSetName,
      help: 'rule set (docs/rules.md)',
    },
    queue: {
      type: 'text',
      arg: 'PIECES',
      help: 'the current piece then the queue, e.g. TSZO (instead of the fumen comment)',
    },
    hold: {
      type: 'text',
      arg: 'PIECE',
      help: `the piece in the hold box (instead of the fumen comment); rule sets with hold only (${RULE_SETS_WITH_HOLD})`,
    },
    level: {
      type: 'int',
      min: 0,
      max: MAX_LEVEL,
      default: RULE_SETS.nes.level!,
      arg: 'LEVEL',
      help: 'the level whose gravity the frames follow (--rules nes)',
    },
    lines: {
      type: 'int',
      min: 0,
      max: Number.MAX_SAFE_INTEGER,
      arg: 'LINES',
      defaultHelp: 'not known',
      help: 'the game\'s LINES counter, lines cleared since it began (--rules nes; with --level, the lines to the next level-up: docs/game.md, "The lines count")',
    },
    timeline: { ...TIMELINE, help: `${TIMELINE.help} (--rules nes)` },
    limit: { type: 'int', min: 1, max: 10_000, default: 10, help: 'placements listed' },
    lookahead: lookaheadOption(1),
    ...TABLE_SOURCE,
  },
  async run({ values, given }, io) {
    if (values.fumen === undefined) throw new UsageError('--fumen STRING is needed (a fumen string like v115@...)');
    const position = boardFromFumen(values.fumen, { page: values.page });
    let current: string | undefined = position.current;
    let queue: string[] = position.queue ?? [];
    if (values.queue !== undefined) {
      if (!/^[IOTSZJL]+$/.test(values.queue))
        throw new UsageError(
          `--queue takes piece letters (I O T S Z J L), e.g. TSZO; got ${JSON.stringify(values.queue)}`,
        );
      current = values.queue[0];
      queue = [...values.queue.slice(1)];
    }
    if (current === undefined)
      throw new UsageError('the fumen page names no current piece (comment "#Q=[](T)SZO" or "TSZO"); give --queue');
    if (values.hold !== undefined) {
      if (!/^[IOTSZJL]$/.test(values.hold))
        throw new UsageError(`--hold takes one piece letter (I O T S Z J L); got ${JSON.stringify(values.hold)}`);
      refuseHoldWithout(values.rules as RuleSetName);
    }
    // A hold piece from the fumen's comment under a rule set without hold is the library's to refuse (BAD_ARGUMENT).
    const hold = values.hold ?? position.hold ?? null;
    const preset = RULE_SETS[values.rules as RuleSetName];
    const timed = isTimed(preset);
    if (!timed && (given('level') || given('timeline') || given('lines')))
      throw new UsageError(
        `--level, --lines and --timeline are a timed rule set's (--rules nes); ${values.rules} has no time`,
      );
    const rules: RuleSet | RuleSetName = timed
      ? { ...preset, level: values.level, timeline: checkTimelineOption(values.timeline) }
      : (values.rules as RuleSetName);
    const table = await loadTableForCli(values, given, io);
    const ai = await TetrisAI.create({ table, rules, lookahead: values.lookahead });
    const state = {
      board: position.board,
      current: current as Piece,
      queue: queue.join(''),
      hold,
      canHold: ai.rules.hold,
      ...(values.lines === undefined ? {} : { lines: values.lines }),
    };
    const ranking = ai.rankPlacements(state, { limit: values.limit });
    if (values.json) {
      ranking.placements.forEach((p, i) => {
        io.out(
          JSON.stringify({
            rank: i + 1,
            hold: p.hold,
            piece: p.piece,
            rotation: p.rotation,
            x: p.x,
            y: p.y,
            cells: p.cells,
            inputs: p.inputs,
            linesCleared: p.linesCleared,
            value: p.value,
            loss: p.loss,
            topsOut: p.topsOut,
            unit: ranking.unit,
          }),
        );
      });
      io.out(
        JSON.stringify({
          summary: true,
          mode: ranking.mode,
          unit: ranking.unit,
          current,
          queue: queue.join(''),
          hold,
          rules: values.rules,
          ...(timed ? { level: values.level, timeline: values.timeline } : {}),
          ...(values.lines === undefined ? {} : { lines: values.lines }),
          afterNextPiece: ranking.afterNextPiece,
        }),
      );
      return 0;
    }
    const unit =
      ranking.unit === 'expectedPieces'
        ? 'expected pieces of perfect-stack survival'
        : 'evaluator score (higher is better)';
    io.out(
      `current ${current}  queue ${queue.join('') || '-'}  hold ${hold ?? '-'}  rules ${values.rules}${timed ? ` level ${values.level}${values.lines === undefined ? '' : ` lines ${values.lines}`} ${values.timeline}` : ''}  mode ${ranking.mode ?? '-'}  value: ${unit}`,
    );
    if (ranking.placements.length === 0) {
      io.out('no reachable placement: the game is lost');
      return 0;
    }
    io.out(` #  hold piece rot   x   y     value      loss  ${timed ? 'frames' : 'keys'}`);
    ranking.placements.forEach((p, i) => {
      // A line that tops out is valued by the top-out's cost, not in the unit's scale: no number to read.
      const worth = p.topsOut
        ? `${'tops out'.padStart(9)} ${''.padStart(9)}`
        : `${p.value.toFixed(2).padStart(9)} ${p.loss.toFixed(2).padStart(9)}`;
      io.out(
        `${String(i + 1).padStart(2)}  ${p.hold ? 'yes ' : 'no  '} ${p.piece}     ${p.rotation.padEnd(3)} ${String(p.x).padStart(3)} ${String(p.y).padStart(3)} ${worth}  ${timed ? formatFrameInputs(p.inputs as readonly FrameInput[]) : p.inputs.join(' ')}`,
      );
    });
    const boards = ranking.placements.slice(0, BOARDS_DRAWN).map((p) => drawPlacement(position.board, p));
    const rows = Math.max(...boards.map((b) => b.length));
    io.out('');
    io.out(boards.map((b, i) => `#${i + 1}`.padEnd(b[0].length)).join('   '));
    for (let r = 0; r < rows; r++) {
      io.out(boards.map((b) => (b[r - (rows - b.length)] ?? '').padEnd(b[0].length)).join('   '));
    }
    if (ranking.afterNextPiece) {
      io.out('');
      io.out(
        'after #1, if the next piece were: ' +
          ranking.afterNextPiece.map((a) => `${a.piece} ${a.value.toFixed(1)}`).join('  '),
      );
    }
    return 0;
  },
});
