/**
 * Where the versus policy's attack goes (bench/notes/versus.md, "Where the attack is lost"): plays the games of
 * `stackrank bench game --rules guideline --goal versus` (same seeds, 5 previews, hold) and labels three kinds of
 * lock that send less than a T-spin double would: plain clears (single, double, triple) by whether a perfect clear
 * follows within 4 pieces and whether a back-to-back chain was alive (a break: the next difficult clear sends 1
 * less); T-spin singles by the Ts known at the time (the current piece, the hold box and the queue) and the chain;
 * Ts locked without a spin that clears, by the Ts known. Prints the pieces and attack, then counts per label.
 *
 *   npx tsx bench/versus-clears.ts [--games 10] [--max-pieces 1000] [--seed 1]
 */
import { TetrisAI } from '../src/tetris-ai/ai.js';
import type { PlayedTurn } from '../src/tetris-ai/game-simulator.js';
import { benchArgs, printTable } from './common.js';
import { versusGameTurns } from './versus-turns.js';

const { values: args } = benchArgs(import.meta.url, {
  games: { type: 'string', default: '10' },
  'max-pieces': { type: 'string', default: '1000' },
  seed: { type: 'string', default: '1' },
});
const games = Number(args.games);
const maxPieces = Number(args['max-pieces']);
const seed = Number(args.seed);
const ai = await TetrisAI.create({ rules: 'guideline', goal: 'versus' });
const counts = new Map<string, number>();
const totals = { pieces: 0, attack: 0 };
const count = (label: string) => counts.set(label, (counts.get(label) ?? 0) + 1);
/** The Ts a turn knows: the current piece, the hold box, the queue. */
const tsKnown = (t: PlayedTurn) =>
  (t.current === 'T' ? 1 : 0) + (t.hold === 'T' ? 1 : 0) + t.queue.filter((p) => p === 'T').length;

for (let game = 0; game < games; game++) {
  const turns = await versusGameTurns(ai, game, maxPieces, seed);
  const perfect = turns.map((t) => t.move?.perfectClear === true);
  turns.forEach((t, i) => {
    const m = t.move;
    if (!m) return;
    totals.pieces++;
    totals.attack += m.attack;
    const chain = t.backToBack > 0 ? 'chain alive' : 'no chain';
    if (m.clearKind === 'single' || m.clearKind === 'double' || m.clearKind === 'triple') {
      const pc = perfect.slice(i, i + 5).includes(true);
      count(`plain clear, ${pc ? 'a perfect clear within 4 pieces' : `no perfect clear near, ${chain}`}`);
    }
    if (m.clearKind === 'tSpinSingle') count(`T-spin single, ${tsKnown(t)} T known, ${chain}`);
    if (m.piece === 'T' && !(m.spin !== 'none' && t.lines > 0))
      count(`T without a spin that clears (${m.clearKind}), ${tsKnown(t)} T known`);
  });
}
console.log(`${totals.pieces} pieces, ${totals.attack} attack`);
printTable([...counts.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([lock, n]) => ({ lock, count: n })));
