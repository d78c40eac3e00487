import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { Board, fumenFromBoard } from '../../src/index.js';
import { buildRankTable, type RankTable } from '../../src/rank/table.js';
import { TetrisAI } from '../../src/tetris-ai/index.js';
import { RULE_SETS } from '../../src/rules/rule-sets.js';
import { runCli } from '../helpers/cli.js';

let file: string;
let table: RankTable;
beforeAll(async () => {
  file = join(await mkdtemp(join(tmpdir(), 'stackrank-cli-analyze-')), 't.srk');
  table = await buildRankTable({ width: 9, iterations: 3 });
  await table.save(file);
}, 120_000);

const STACK = ['#........', '##..#...#', '###.##.##', '#########'].map((r) => r + '.');

describe('stackrank analyze', () => {
  it('ranks the fumen position as rankPlacements does, one JSON object per line', async () => {
    const fumen = fumenFromBoard(Board.fromRows(STACK, 20), { comment: '#Q=[](T)SZ' });
    const run = await runCli(['analyze', '--fumen', fumen, '--table', file, '--limit', '5', '--json']);
    expect(run.code).toBe(0);
    const lines = run.out.split('\n').map((l) => JSON.parse(l));
    const summary = lines.pop();
    expect(summary).toMatchObject({ summary: true, mode: 'stack', unit: 'expectedPieces', current: 'T', queue: 'SZ' });
    expect(summary.afterNextPiece).toHaveLength(7);
    const ai = await TetrisAI.create({ table, rules: 'guideline', lookahead: 1 });
    const expected = ai.rankPlacements(
      { board: STACK, current: 'T', queue: 'SZ', hold: null, canHold: true },
      { limit: 5 },
    );
    expect(lines.map((l) => [l.rank, l.piece, l.hold, l.cells, l.value])).toEqual(
      expected.placements.map((p, i) => [i + 1, p.piece, p.hold, p.cells, p.value]),
    );
  });

  it('--queue overrides the comment; the text output lists placements and draws the best boards', async () => {
    const fumen = fumenFromBoard(Board.fromRows(STACK, 20), { comment: 'hello' });
    const run = await runCli(['analyze', '--fumen', fumen, '--table', file, '--queue', 'TSZ', '--limit', '4']);
    expect(run.code).toBe(0);
    const out = run.out.split('\n');
    expect(out[0]).toMatch(/^current T {2}queue SZ {2}hold - {2}rules guideline {2}mode stack/);
    expect(out.filter((l) => /^ {0,1}\d+ {2}(yes|no)/.test(l))).toHaveLength(4);
    expect(out.some((l) => /^#1 +#2 +#3/.test(l))).toBe(true);
    // the best board shows the stack and the placed piece's letter
    expect(out.some((l) => /^\|[#.T]{10}\|/.test(l) && /T/.test(l))).toBe(true);
    expect(out.at(-1)).toMatch(/^after #1, if the next piece were: I \d/);
  });

  it('shows "tops out" instead of the top-out cost for a move that tops out', async () => {
    // Columns 3-6 filled to row 18: a T on them tops out.
    const tower = Array.from({ length: 20 }, (_, r) => (r === 0 ? '..........' : '...####...'));
    const fumen = fumenFromBoard(Board.fromRows(tower, 20), { comment: '#Q=[](T)SZ' });
    const json = await runCli(['analyze', '--fumen', fumen, '--table', file, '--limit', '100', '--json']);
    expect(json.code).toBe(0);
    const lines = json.out.split('\n').map((l) => JSON.parse(l));
    lines.pop();
    expect(lines[0].topsOut).toBe(false);
    const over = lines.filter((l) => l.topsOut);
    expect(over.length).toBeGreaterThan(0);
    const text = await runCli(['analyze', '--fumen', fumen, '--table', file, '--limit', '100']);
    const rows = text.out.split('\n').filter((l) => /^ {0,1}\d+ {2}(yes|no)/.test(l));
    expect(rows.filter((l) => / tops out /.test(l))).toHaveLength(over.length);
    // no top-out cost (about -1e9 per move) printed as a number
    expect(text.out).not.toMatch(/\d{7,}/);
  });

  it("refuses a hold piece under a rule set without hold: --hold exit 2, the fumen comment's exit 1", async () => {
    const fumen = fumenFromBoard(Board.fromRows(STACK, 20), { comment: '#Q=[I](T)SZ' });
    const fromComment = await runCli(['analyze', '--fumen', fumen, '--table', file, '--rules', 'nes']);
    expect(fromComment.code).toBe(1);
    expect(fromComment.out).toBe('');
    expect(fromComment.err).toMatch(/nes rule set has no hold.*"I".*\[BAD_ARGUMENT\]/);
    const plain = fumenFromBoard(Board.fromRows(STACK, 20), { comment: '#Q=[](T)SZ' });
    const fromOption = await runCli(['analyze', '--fumen', plain, '--table', file, '--rules', 'nes', '--hold', 'I']);
    expect(fromOption.code).toBe(2);
    expect(fromOption.err).toMatch(/--hold needs a rule set with hold \(guideline\); nes has none/);
    const badLetter = await runCli(['analyze', '--fumen', plain, '--table', file, '--hold', 'Q']);
    expect(badLetter.code).toBe(2);
    expect(badLetter.err).toMatch(/--hold takes one piece letter \(I O T S Z J L\); got "Q"/);
    // with hold, the comment's piece is used and reported
    const guideline = await runCli(['analyze', '--fumen', fumen, '--table', file, '--json']);
    expect(guideline.code).toBe(0);
    expect(JSON.parse(guideline.out.split('\n').at(-1)!)).toMatchObject({ hold: 'I', rules: 'guideline' });
  });

  it('bad fumen and missing pieces are errors with a message', async () => {
    const bad = await runCli(['analyze', '--fumen', 'v115@@@', '--table', file]);
    expect(bad.code).toBe(1);
    expect(bad.err).toBe(
      'stackrank analyze: not a readable fumen ("@" at character 5 is not fumen data); expected a string like "v115@9gA8…" [BAD_FUMEN]',
    );
    // Longer than boardFromFumen reads (docs/rules.md, "fumen"): exit 1 at once, not seconds of decoding.
    const long = await runCli(['analyze', '--fumen', `v115@${'vhA'.repeat(10_000)}`, '--table', file]);
    expect(long.code).toBe(1);
    expect(long.err).toMatch(/at most 8,192 characters.*\[BAD_FUMEN\]$/);
    const none = await runCli(['analyze', '--fumen', fumenFromBoard(Board.empty()), '--table', file]);
    expect(none.code).toBe(2);
    expect(none.err).toBe(
      'stackrank analyze: the fumen page names no current piece (comment "#Q=[](T)SZO" or "TSZO"); give --queue',
    );
    const noFumen = await runCli(['analyze', '--table', file]);
    expect(noFumen.code).toBe(2);
    expect(noFumen.err).toBe('stackrank analyze: --fumen STRING is needed (a fumen string like v115@...)');
  });

  it('--rules nes lists what the frames allow at --level with --timeline, with their frames', async () => {
    // 13 rows with the right well open: the I reaches the well at level 18, not at 29 with X. (docs/rules.md, "Time")
    const stack = Array.from({ length: 20 }, (_, r) => (r >= 7 ? '#########.' : '..........'));
    const fumen = fumenFromBoard(Board.fromRows(stack, 20));
    const ranked = async (level: string) => {
      const args = ['analyze', '--fumen', fumen, '--table', file, '--queue', 'IT', '--rules', 'nes', '--level', level];
      const run = await runCli([...args, '--timeline', 'X.', '--limit', '1000', '--json']);
      expect(run.code).toBe(0);
      const lines = run.out.split('\n').map((l) => JSON.parse(l));
      return { summary: lines.pop(), lines };
    };
    for (const level of [29, 18]) {
      const { summary, lines } = await ranked(String(level));
      expect(summary).toMatchObject({ rules: 'nes', level, timeline: 'X.' });
      const ai = await TetrisAI.create({ table, rules: { ...RULE_SETS.nes, level, timeline: 'X.' }, lookahead: 1 });
      const expected = ai.rankPlacements({ board: stack, current: 'I', queue: 'T' }).placements;
      expect(lines.map((l) => [l.cells, l.inputs, l.value])).toEqual(expected.map((p) => [p.cells, p.inputs, p.value]));
      expect(lines.some((l) => l.linesCleared === 4)).toBe(level === 18);
    }
    const text = await runCli(['analyze', '--fumen', fumen, '--table', file, '--queue', 'IT', '--rules', 'nes']);
    expect(text.out.split('\n')[0]).toMatch(/rules nes level 18 X\. /);
    expect(text.out).toContain('0:RA 2:R 4:R 6:R (locks on frame 56)');
  });

  it("--lines gives the game's LINES counter: over level 38's last 5 lines the stack is tall at 7 rows", async () => {
    // a clean 7-row stack, a notch in column 1, the right well open (test/tetris-ai/nes-timed.test.ts)
    const stack = Array.from({ length: 20 }, (_, r) =>
      [7, 6, 7, 7, 7, 7, 7, 7, 7, 0].map((h) => (19 - r < h ? '#' : '.')).join(''),
    );
    const fumen = fumenFromBoard(Board.fromRows(stack, 20));
    const ai = await TetrisAI.create({ table, rules: { ...RULE_SETS.nes, level: 38 }, lookahead: 1 });
    for (const lines of [324, 327]) {
      const args = ['analyze', '--fumen', fumen, '--table', file, '--queue', 'TT', '--rules', 'nes', '--level', '38'];
      const run = await runCli([...args, '--lines', String(lines), '--limit', '3', '--json']);
      expect(run.code).toBe(0);
      const rows = run.out.split('\n').map((l) => JSON.parse(l));
      const summary = rows.pop();
      expect(summary).toMatchObject({ level: 38, lines, mode: lines === 327 ? 'recover' : 'stack' });
      const expected = ai.rankPlacements({ board: stack, current: 'T', queue: 'T', lines }, { limit: 3 }).placements;
      expect(rows.map((l) => [l.cells, l.value])).toEqual(expected.map((p) => [p.cells, p.value]));
    }
    const base = ['analyze', '--fumen', fumen, '--table', file, '--queue', 'TT', '--rules', 'nes', '--level', '38'];
    const wrong = await runCli([...base, '--lines', '5']);
    expect(wrong.code).toBe(1);
    expect(wrong.err).toMatch(/lines 5 at level 38 is no NES game's count/);
    const negative = await runCli([...base, '--lines', '-1']);
    expect(negative.code).toBe(2);
  });

  it('refuses --level and --timeline under a rule set without time, and a bad timeline', async () => {
    const fumen = fumenFromBoard(Board.fromRows(STACK, 20), { comment: '#Q=[](T)SZ' });
    const untimed = await runCli([
      'analyze',
      '--fumen',
      fumen,
      '--table',
      file,
      '--rules',
      'nesUntimed',
      '--level',
      '18',
    ]);
    expect(untimed.code).toBe(2);
    expect(untimed.err).toMatch(
      /--level, --lines and --timeline are a timed rule set's \(--rules nes\); nesUntimed has no time/,
    );
    const bad = await runCli(['analyze', '--fumen', fumen, '--table', file, '--rules', 'nes', '--timeline', 'XX']);
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/--timeline must be a tap timeline of X and \. starting with X, at most 32 frames/);
  });
});
