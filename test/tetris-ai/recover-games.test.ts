/**
 * Whole games are unchanged by how recover mode computes (docs/game.md, "Recover"): every move of a few short games
 * (its hold, piece, rotation, place, mode and value, the value to the last bit) and playGame's tallies equal the
 * recorded ones (test/golden/recover-games.json: the current policy's play; its git log says which change of play
 * last rewrote each row). The games use a weak table and start over garbage, so a large share of their moves are
 * recover moves. Regenerate only for an intended change of play:
 * UPDATE_GOLDEN=1 npx vitest run test/tetris-ai/recover-games.test.ts
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { beforeAll, expect, it } from 'vitest';
import type { Piece } from '../../src/pieces.js';
import { buildRankTable, type RankTable } from '../../src/rank/table.js';
import { createRandomizer, type RandomizerName } from '../../src/randomizers/index.js';
import type { RuleSetName } from '../../src/rules/types.js';
import { TetrisAI, type GamePolicy } from '../../src/tetris-ai/ai.js';
import { lockCells } from '../../src/tetris-ai/grid.js';
import { playGame } from '../../src/tetris-ai/play.js';

const GOLDEN = new URL('../golden/recover-games.json', import.meta.url);
const update = process.env.UPDATE_GOLDEN === '1';

interface Row {
  rules: RuleSetName;
  randomizer: RandomizerName;
  lookahead: number;
  hold: boolean;
  policy: GamePolicy;
  games: number;
  pieces: number;
}
const ROWS: Row[] = [
  { rules: 'nesUntimed', randomizer: 'nes', lookahead: 1, hold: false, policy: 'both', games: 3, pieces: 600 },
  { rules: 'guideline', randomizer: 'bag7', lookahead: 5, hold: true, policy: 'both', games: 4, pieces: 250 },
  // lookahead 1: the stack search holds at every ply (docs/game.md, "Hold")
  { rules: 'guideline', randomizer: 'bag7', lookahead: 1, hold: true, policy: 'both', games: 2, pieces: 250 },
  { rules: 'classic', randomizer: 'tgm1', lookahead: 1, hold: false, policy: 'fullBoardOnly', games: 1, pieces: 300 },
  // classic's default recover search has the chance ply (docs/game.md, "Recover")
  { rules: 'classic', randomizer: 'tgm1', lookahead: 1, hold: false, policy: 'both', games: 2, pieces: 300 },
  { rules: 'tgm20g', randomizer: 'tgm1', lookahead: 1, hold: false, policy: 'both', games: 1, pieces: 300 },
];

let table: RankTable;
beforeAll(async () => {
  table = await buildRankTable({ width: 9, iterations: 3, threads: 1 });
}, 120_000);

/** One game move by move: a digest of every move (value as its exact decimal) and how many were recover moves. */
async function digestGame(row: Row, seed: number) {
  const ai = await TetrisAI.create({ rules: row.rules, lookahead: row.lookahead, table, policy: row.policy });
  const rng = createRandomizer(row.randomizer, { seed });
  const hash = createHash('sha256');
  // Six garbage rows (one gap each, not lined up) so every game starts in recover mode.
  let rows: Uint32Array = new Uint32Array(44);
  for (let y = 0; y < 6; y++) rows[y] = 0x3ff & ~(1 << ((3 * y + seed) % 10));
  const stream: Piece[] = [];
  let held: Piece | null = null;
  let recover = 0;
  let n = 0;
  for (; n < row.pieces; n++) {
    while (stream.length < row.lookahead + 1) stream.push(rng.next() as Piece);
    const [current, ...queue] = stream;
    const move = ai.nextMove({
      board: { width: 10, rows: rows.subarray(0, 20) },
      current,
      queue,
      hold: held,
      canHold: row.hold,
    });
    if (!move) break;
    hash.update(`${move.hold}${move.piece}${move.rotation}${move.x},${move.y}${move.mode}${move.value};`);
    if (move.mode === 'recover') recover++;
    if (move.hold) {
      if (held === null) stream.shift();
      held = current;
    }
    stream.shift();
    rows = lockCells(rows, 10, move.cells).rows;
    if (rows.subarray(20).some((m) => m !== 0)) break;
  }
  return { pieces: n, recover, digest: hash.digest('hex').slice(0, 32) };
}

it('moves and playGame tallies equal the recorded ones', async () => {
  const got: Record<string, unknown> = {};
  for (const row of ROWS) {
    const key = `${row.rules}/${row.randomizer}/${row.lookahead}${row.hold ? '/hold' : ''}/${row.policy}`;
    const games = [];
    for (let seed = 1; seed <= row.games; seed++) games.push(await digestGame(row, seed));
    const r = await playGame({
      rules: row.rules,
      randomizer: row.randomizer,
      lookahead: row.lookahead,
      hold: row.hold,
      policy: row.policy,
      games: row.games,
      maxPieces: row.pieces,
      seed: 7,
      threads: 1,
      table,
    });
    const { pieces, lines, clears, topOuts, gamePieces, gameStackPieces, gameHolesMade } = r;
    got[key] = { games, playGame: { pieces, lines, clears, topOuts, gamePieces, gameStackPieces, gameHolesMade } };
  }
  if (update) writeFileSync(GOLDEN, `${JSON.stringify(got, null, 1)}\n`);
  const want = JSON.parse(readFileSync(GOLDEN, 'utf8'));
  expect(got).toEqual(want);
  // The games exercise recover mode (else this test could not fail for it).
  for (const row of Object.values(want) as { games: { recover: number }[] }[])
    expect(row.games.reduce((s, g) => s + g.recover, 0)).toBeGreaterThan(20);
}, 300_000);
