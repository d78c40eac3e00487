/**
 * The versus policy's perfect-clear finder (src/tetris-ai/perfect-clear.ts; docs/game.md, "The versus policy")
 * against an independent search (test/reference/perfect-clear-reference.ts) on golden positions and random low
 * boards, and the policy playing a perfect clear its beam search alone does not make.
 */
import { describe, expect, it } from 'vitest';
import { PIECES, type Piece } from '../../src/pieces.js';
import { Rng } from '../../src/random.js';
import { Board, reachablePlacements } from '../../src/rules/index.js';
import { StackRankError } from '../../src/errors.js';
import { TetrisAI } from '../../src/tetris-ai/index.js';
import { findPerfectClear, type PerfectClearLine } from '../../src/tetris-ai/perfect-clear.js';
import { ruleFacts } from '../../src/tetris-ai/rules-adapter.js';
import { refShortestPerfectClear } from '../reference/perfect-clear-reference.js';
import { cellKey } from '../reference/rules-reference.js';

const RULES = ruleFacts('guideline');

interface Position {
  board: Board;
  current: Piece;
  queue: Piece[];
  hold: Piece | null;
  canHold: boolean;
  maxLines: number;
}

function find(pos: Position, holdUnknown = false) {
  return findPerfectClear({
    rows: pos.board.rows,
    width: pos.board.width,
    height: pos.board.height,
    rules: RULES,
    current: pos.current,
    queue: pos.queue,
    hold: pos.hold,
    canHold: pos.canHold,
    maxLines: pos.maxLines,
    holdUnknown,
  });
}

/**
 * Plays a line on the position by the game's rules, checked step by step with the public rules layer: each step's
 * piece is the one the hold rules give, its cells a reachable placement; returns the board after the line.
 */
function playLine(pos: Position, line: PerfectClearLine, holdUnknown = false): Board {
  let board = pos.board;
  let pieces = [pos.current, ...pos.queue];
  let hold = pos.hold;
  line.steps.forEach((step, i) => {
    let piece: Piece | undefined = pieces[0];
    if (step.hold) {
      expect(i > 0 || pos.canHold).toBe(true);
      if (hold === null) {
        piece = pieces[1];
        hold = pieces[0];
        pieces = pieces.slice(2);
      } else {
        piece = hold;
        // past the queue the held piece changes places with an unknown one (holdUnknown)
        hold = pieces[0] ?? null;
        if (pieces.length === 0) expect(holdUnknown).toBe(true);
        pieces = pieces.slice(1);
      }
    } else pieces = pieces.slice(1);
    expect(step.piece).toBe(piece);
    const reach = reachablePlacements(board, step.piece, { rules: 'guideline' });
    expect(reach.some((p) => cellKey(p.cells) === cellKey(step.cells))).toBe(true);
    board = board.place(step.cells).board;
  });
  return board;
}

const empty = (height = 20) => Board.fromBits([], 10, height);
const pieces = (s: string) => [...s] as Piece[];

describe('findPerfectClear', () => {
  it('finds a 2-line perfect clear of 5 pieces from the empty board, as the reference does', () => {
    // O in columns 0-1, two Is over each other in 2-5, a J and a turned J in 6-9
    const pos: Position = {
      board: empty(),
      current: 'O',
      queue: pieces('IIJJ'),
      hold: null,
      canHold: true,
      maxLines: 4,
    };
    const r = find(pos);
    expect(r.line).not.toBeNull();
    expect([r.line!.steps.length, r.line!.lines]).toEqual([5, 2]);
    expect(playLine(pos, r.line!).rows.every((row) => row === 0)).toBe(true);
    expect(refShortestPerfectClear(pos)).toBe(5);
  });

  it('finds none where the known pieces make none (S pieces cannot fill a 2-row box), as the reference', () => {
    const pos: Position = {
      board: empty(),
      current: 'S',
      queue: pieces('SSSSS'),
      hold: null,
      canHold: true,
      maxLines: 2,
    };
    expect(find(pos).line).toBeNull();
    expect(refShortestPerfectClear(pos)).toBeNull();
  });

  it('holds when the line needs it, and not when hold is pressed already', () => {
    // a 2x2 hole at columns 8-9: only the O, which comes after the T or waits in the box
    const board = Board.fromRows(['########..', '########..'], 20);
    for (const [queue, hold] of [
      ['O', null],
      ['', 'O'],
    ] as const) {
      const pos: Position = { board, current: 'T', queue: pieces(queue), hold, canHold: true, maxLines: 4 };
      const r = find(pos);
      expect(r.line?.steps.map((s) => [s.hold, s.piece])).toEqual([[true, 'O']]);
      expect(playLine(pos, r.line!).rows.every((row) => row === 0)).toBe(true);
      expect(refShortestPerfectClear(pos)).toBe(1);
      expect(find({ ...pos, canHold: false }).line).toBeNull();
      expect(refShortestPerfectClear({ ...pos, canHold: false })).toBeNull();
    }
  });

  it('with holdUnknown, ends by holding the unknown piece after the queue to place the held one', () => {
    // two Os fill columns 6-9; the queue holds one, the box the other
    const pos: Position = {
      board: Board.fromRows(['######....', '######....'], 20),
      current: 'O',
      queue: [],
      hold: 'O',
      canHold: true,
      maxLines: 4,
    };
    expect(find(pos).line).toBeNull();
    const r = find(pos, true);
    expect(r.line?.steps.map((s) => [s.hold, s.piece])).toEqual([
      [false, 'O'],
      [true, 'O'],
    ]);
    expect(playLine(pos, r.line!, true).rows.every((row) => row === 0)).toBe(true);
  });

  it('stops at maxNodes and says it gave up; unlimited, it visits 5 positions for the 5-piece line', () => {
    // the first test's position: the line is found at the 5th position visited (one per piece, no dead end first)
    const query = {
      rows: empty().rows,
      width: 10,
      height: 20,
      rules: RULES,
      current: 'O' as Piece,
      queue: pieces('IIJJ'),
      hold: null,
      canHold: true,
      maxLines: 4,
    };
    // the visit past the limit is counted, then the search stops
    expect(findPerfectClear({ ...query, maxNodes: 1 })).toEqual({ line: null, nodes: 2, gaveUp: true });
    expect(findPerfectClear({ ...query, maxNodes: 4 })).toEqual({ line: null, nodes: 5, gaveUp: true });
    for (const maxNodes of [5, undefined]) {
      const r = findPerfectClear({ ...query, maxNodes });
      expect([r.line?.steps.length, r.line?.lines, r.nodes, r.gaveUp]).toEqual([5, 2, 5, false]);
    }
  });

  it('3- and 4-row perfect clears over low stacks: the shortest line, or none, as the reference finds', () => {
    // positions of random stacks a random line of placements empties (the known pieces that line's, and a random
    // piece in the box), and the same boards with other random pieces; the shortest line by the reference, by hand
    const cases: [string[], string, Piece | null, number | null][] = [
      [['#......#..', '#.######.#', '#.######.#'], 'TJIJ', null, 3],
      [['#......#..', '#.######.#', '#.######.#'], 'IOTZ', null, null],
      [['####..#..#', '####..##.#', '########.#'], 'SOL', null, 2],
      [['####..#..#', '####..##.#', '########.#'], 'JOO', null, null],
      [['#........#', '##..##...#', '##.###..##'], 'LSLL', 'L', 4],
      [['#........#', '##..##...#', '##.###..##'], 'SZIL', 'L', null],
      [['#..#..###.', '##.#.####.', '##.#.####.', '#########.'], 'IJL', 'L', 3],
      [['#..#..###.', '##.#.####.', '##.#.####.', '#########.'], 'LJS', 'L', null],
      [['......##..', '..##.###..', '..########', '.#########'], 'JJTIO', null, 4],
      [['......##..', '..##.###..', '..########', '.#########'], 'TJZLT', null, null],
      [['###..#..#.', '###..##.#.', '###..##.#.', '###..####.'], 'LJLIL', null, 4],
    ];
    for (const [rows, known, hold, want] of cases) {
      const pos: Position = {
        board: Board.fromRows(rows, 20),
        current: known[0] as Piece,
        queue: pieces(known.slice(1)),
        hold,
        canHold: true,
        maxLines: rows.length,
      };
      const r = find(pos);
      const got = r.line && [r.line.steps.length, r.line.lines];
      expect([rows, known, got, refShortestPerfectClear(pos)]).toEqual([
        rows,
        known,
        want && [want, rows.length],
        want,
      ]);
      if (r.line) expect(playLine(pos, r.line).rows.every((row) => row === 0)).toBe(true);
    }
  });

  it('misses a line that fills a covered region only after the row over it clears (documented), as the reference does not', () => {
    // the reference's only lines (searched by hand over the rules layer): hold the O, an L over column 2 covers its
    // two bottom cells (a region of 2), two Js on the right clear the top row, the last J fills the region and clears
    // the 3 rows left; the finder's region check cuts the line at the L
    const pos: Position = {
      board: Board.fromRows(['##..#....#', '##..#....#', '##..######', '##..######'], 20),
      current: 'O',
      queue: pieces('LJJJ'),
      hold: null,
      canHold: true,
      maxLines: 4,
    };
    expect(find(pos)).toMatchObject({ line: null, gaveUp: false });
    expect(refShortestPerfectClear(pos)).toBe(4);
  });

  it('on random positions with a line: every line it finds is played out to an empty board, as short as the reference', () => {
    const rng = new Rng(54);
    let found = 0;
    for (let run = 0; run < 40; run++) {
      // A random 2-row perfect clear from the empty board (a random walk over reachable placements in the rows still
      // to clear, retried until 5 pieces empty the board); the position is the board after its first k pieces, the
      // rest of its pieces known, and a random piece put in front of them or in the box (hold may be needed).
      let line: { pieces: Piece[]; boards: Board[] } | null = null;
      while (!line) {
        let board = empty();
        let cleared = 0;
        const walk: { pieces: Piece[]; boards: Board[] } = { pieces: [], boards: [board] };
        for (let k = 0; k < 5; k++) {
          const piece = PIECES[rng.nextInt(7)];
          const fits = reachablePlacements(board, piece, { rules: 'guideline' }).filter((p) =>
            p.cells.every(([, y]) => y < 2 - cleared),
          );
          if (fits.length === 0) break;
          const placed = board.place(fits[rng.nextInt(fits.length)].cells);
          board = placed.board;
          cleared += placed.lines;
          walk.pieces.push(piece);
          walk.boards.push(board);
        }
        if (walk.pieces.length === 5 && board.rows.every((r) => r === 0)) line = walk;
      }
      const k = rng.nextInt(3);
      const rest = line.pieces.slice(k);
      const extra = PIECES[rng.nextInt(7)];
      const inBox = rng.nextInt(2) === 0;
      const known = inBox ? rest : [extra, ...rest];
      const pos: Position = {
        board: line.boards[k],
        current: known[0],
        queue: known.slice(1),
        hold: inBox ? extra : null,
        canHold: true,
        maxLines: 2,
      };
      const r = find(pos);
      const want = refShortestPerfectClear(pos);
      expect(want).not.toBeNull();
      // the finder may miss a line that opens a covered region by a clear (its region check); none of these
      expect(r.line).not.toBeNull();
      found++;
      expect(playLine(pos, r.line!).rows.every((row) => row === 0)).toBe(true);
      expect([pos.board.rows.join(), known.join(''), r.line!.steps.length]).toEqual([
        pos.board.rows.join(),
        known.join(''),
        want,
      ]);
    }
    expect(found).toBe(40);
  }, 120_000);
});

describe('the versus policy plays the perfect clear', () => {
  // A turn of the policy's games (seed 1, game 0) where the beam search alone plays the J on the right and no
  // perfect clear follows; the known pieces make one of 4 rows in 6 (J, O, the held T, I, J, T).
  const start = {
    board: ['.........#', '........##', '......####', '####.#####'],
    current: 'J' as Piece,
    queue: 'OLIJT',
    hold: 'T' as Piece,
  };

  /** The first placement of the finder's line from `start`: the J flat on the left, over the stack's step. */
  const PC_FIRST_J = [
    [1, 1],
    [2, 1],
    [3, 1],
    [1, 2],
  ];

  /** Plays the known pieces out with nextMove; the clear kinds and whether a lock emptied the board. */
  function playOut(ai: TetrisAI) {
    let board = Board.fromRows(start.board, 40);
    let known = [start.current, ...pieces(start.queue)];
    let hold: Piece | null = start.hold;
    const perfect: boolean[] = [];
    while (known.length > 0) {
      const move = ai.nextMove({ board, current: known[0], queue: known.slice(1), hold, canHold: true });
      if (!move) break;
      if (move.hold) {
        if (hold === null) known = [known[0], ...known.slice(2)];
        hold = known[0];
      }
      known = known.slice(1);
      perfect.push(move.perfectClear);
      board = board.place(move.cells).board;
    }
    return { perfect, board };
  }

  it('makes the perfect clear its finder sees, which the beam search alone misses', async () => {
    const ai = await TetrisAI.create({ rules: 'guideline', goal: 'versus' });
    const withFinder = playOut(ai);
    expect(withFinder.perfect).toEqual([false, false, false, false, false, true]);
    expect(withFinder.board.rows.every((r) => r === 0)).toBe(true);
    const beamOnly = await TetrisAI.create({ rules: 'guideline', goal: 'versus', versus: { perfectClearRows: 0 } });
    expect(playOut(beamOnly).perfect).not.toContain(true);
  });

  it('the first move of the line reports its search value when asked by nextMove', async () => {
    const ai = await TetrisAI.create({ rules: 'guideline', goal: 'versus' });
    const move = ai.nextMove({ ...start, canHold: true })!;
    expect(move.mode).toBe('versus');
    // the line's first J, flat on the left
    expect([move.hold, move.piece, move.cells]).toEqual([false, 'J', PC_FIRST_J]);
    // valued as rankPlacements values the same root move (every root move searched forced, another code path)
    const ranked = ai
      .rankPlacements({ ...start, canHold: true })
      .placements.find((p) => !p.hold && cellKey(p.cells) === cellKey(PC_FIRST_J))!;
    expect(Object.is(move.value, ranked.value)).toBe(true);
    // the beam search alone plays another move, of another value
    const beamOnly = await TetrisAI.create({ rules: 'guideline', goal: 'versus', versus: { perfectClearRows: 0 } });
    const beam = beamOnly.nextMove({ ...start, canHold: true })!;
    expect(cellKey(beam.cells)).not.toBe(cellKey(PC_FIRST_J));
    expect(beam.value).not.toBe(move.value);
  });

  it('plays no perfect clear while garbage is waiting (it would rise under the line): the beam search move', async () => {
    const ai = await TetrisAI.create({ rules: 'guideline', goal: 'versus' });
    const beamOnly = await TetrisAI.create({ rules: 'guideline', goal: 'versus', versus: { perfectClearRows: 0 } });
    const state = { ...start, canHold: true, incoming: [{ lines: 1, delay: 0 }] };
    const move = ai.nextMove(state)!;
    expect([move.hold, move.piece, move.cells]).toEqual([
      false,
      'J',
      [
        [5, 2],
        [6, 2],
        [7, 2],
        [5, 3],
      ],
    ]);
    expect(cellKey(move.cells)).toBe(cellKey(beamOnly.nextMove(state)!.cells));
    expect(Object.is(move.value, beamOnly.nextMove(state)!.value)).toBe(true);
  });

  it('refuses perfectClearRows outside 0..6', async () => {
    for (const perfectClearRows of [-1, 7, 2.5, '4' as never])
      await expect(TetrisAI.create({ goal: 'versus', versus: { perfectClearRows } })).rejects.toThrow(StackRankError);
    await expect(TetrisAI.create({ goal: 'versus', versus: { perfectClearRows: 7 } })).rejects.toThrow(
      /versus.perfectClearRows/,
    );
  });
});
