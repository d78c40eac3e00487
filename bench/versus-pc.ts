/**
 * Perfect clears the versus policy leaves (bench/notes/versus.md, "Perfect clears found exactly"): plays the games of
 * `stackrank bench game --rules guideline --goal versus` (same seeds, 5 previews, hold), and at every turn whose
 * filled cells all lie in the bottom `--max-lines` rows asks the exhaustive perfect-clear finder
 * (src/tetris-ai/perfect-clear.ts) for a line of the known pieces (the current piece, the hold box, the queue; with
 * `--hold-unknown`, also a last hold of the unknown piece after the queue). A turn with a line is "made" when the
 * game's own perfect clear comes within as many pieces, else "missed"; consecutive missed turns are one opportunity.
 * The pool: per opportunity, 10 (the guideline's perfect clear) minus the attack the game sent over those pieces.
 *
 * `--policy-rows R` plays the games with the policy's own finder looking for perfect clears of up to R rows (default 0:
 * none, the games of the policy before it).
 *
 *   npx tsx bench/versus-pc.ts [--games 10] [--max-pieces 1000] [--seed 1] [--max-lines 4] [--hold-unknown]
 *     [--policy-rows 0]
 */
import { maxHeight } from '../src/board-rows.js';
import { TetrisAI } from '../src/tetris-ai/ai.js';
import { findPerfectClear } from '../src/tetris-ai/perfect-clear.js';
import { benchArgs, printTable } from './common.js';
import { versusGameTurns } from './versus-turns.js';

const { values: args } = benchArgs(import.meta.url, {
  games: { type: 'string', default: '10' },
  'max-pieces': { type: 'string', default: '1000' },
  seed: { type: 'string', default: '1' },
  'max-lines': { type: 'string', default: '4' },
  'hold-unknown': { type: 'boolean', default: false },
  'policy-rows': { type: 'string', default: '0' },
});
const games = Number(args.games);
const maxPieces = Number(args['max-pieces']);
const seed = Number(args.seed);
const maxLines = Number(args['max-lines']);
// The games of the policy without its own finder (perfectClearRows 0: main's before the finder), or with it.
const ai = await TetrisAI.create({
  rules: 'guideline',
  goal: 'versus',
  versus: { perfectClearRows: Number(args['policy-rows']) },
});
const width = ai.width;
const HEIGHT = 20;

/** Per line length (pieces, rows): turns with a line, of them made by the game, missed opportunities, and the
 * attack the game sent over each missed opportunity's pieces. */
const byLine = new Map<
  string,
  { pieces: number; rows: number; turns: number; made: number; missed: number; sent: number }
>();
const totals = {
  pieces: 0,
  attack: 0,
  low: 0,
  withLine: 0,
  made: 0,
  missedTurns: 0,
  missed: 0,
  laterMade: 0,
  gameMade: 0,
};
let gaveUp = 0;
let pool = 0;
let searchMs = 0;
let foundMs = 0;
let maxMs = 0;
let maxNodes = 0;

for (let game = 0; game < games; game++) {
  const turns = await versusGameTurns(ai, game, maxPieces, seed);
  const perfect = turns.map((t) => t.move?.perfectClear === true);
  let inOpportunity = false;
  turns.forEach((t, i) => {
    if (!t.move) return;
    totals.pieces++;
    totals.attack += t.move.attack;
    if (perfect[i]) totals.gameMade++;
    let missed = false;
    if (maxHeight(t.before) <= maxLines) {
      totals.low++;
      const t0 = performance.now();
      const r = findPerfectClear({
        rows: t.before,
        width,
        height: HEIGHT,
        rules: ai.rules,
        current: t.current,
        queue: t.queue,
        hold: t.hold,
        canHold: true,
        maxLines,
        holdUnknown: args['hold-unknown'],
      });
      const ms = performance.now() - t0;
      searchMs += ms;
      maxMs = Math.max(maxMs, ms);
      maxNodes = Math.max(maxNodes, r.nodes);
      if (r.gaveUp) gaveUp++;
      const line = r.line;
      if (line) {
        foundMs += ms;
        // The line checked on its own: its cells fill the board to empty.
        const rows = Array.from(t.before.subarray(0, HEIGHT));
        for (const s of line.steps) {
          for (const [x, y] of s.cells) {
            if ((rows[y] >>> x) & 1) throw new Error(`game ${game} turn ${i}: the line overlaps the board`);
            rows[y] |= 1 << x;
          }
          const kept = rows.filter((r) => r !== (1 << width) - 1);
          while (kept.length < HEIGHT) kept.push(0);
          rows.splice(0, HEIGHT, ...kept);
        }
        if (rows.some((r) => r !== 0)) throw new Error(`game ${game} turn ${i}: the line leaves cells`);
        const n = line.steps.length;
        const key = `${n} pieces, ${line.lines} rows`;
        let row = byLine.get(key);
        if (!row) byLine.set(key, (row = { pieces: n, rows: line.lines, turns: 0, made: 0, missed: 0, sent: 0 }));
        row.turns++;
        totals.withLine++;
        if (perfect.slice(i, i + n).includes(true)) {
          row.made++;
          totals.made++;
        } else {
          missed = true;
          totals.missedTurns++;
          if (!inOpportunity) {
            const sent = turns.slice(i, i + n).reduce((a, u) => a + (u.move?.attack ?? 0), 0);
            row.missed++;
            row.sent += sent;
            totals.missed++;
            if (perfect.slice(i, i + n + 3).includes(true)) totals.laterMade++;
            pool += 10 - sent;
          }
        }
      }
    }
    inOpportunity = missed;
  });
}
const { pieces, attack } = totals;
console.log(
  `${pieces} pieces, ${attack} attack (${(attack / pieces).toFixed(3)} per piece), ${totals.gameMade} perfect clears`,
);
console.log(
  `finder: ${totals.low} turns with the board in ${maxLines} rows; ${searchMs.toFixed(0)} ms in all (${foundMs.toFixed(0)} on turns with a line), at most ${maxMs.toFixed(1)} ms and ${maxNodes} positions at a turn; gave up ${gaveUp} times`,
);
console.log(
  `turns with a line ${totals.withLine}: made by the game within as many pieces ${totals.made}, not made ${totals.missedTurns}; missed opportunities ${totals.missed} (the game made a perfect clear within 3 pieces more after ${totals.laterMade} of them)`,
);
console.log(`pool (10 per missed opportunity minus what the game sent over its pieces): ${pool} attack`);
printTable(
  [...byLine.values()]
    .sort((a, b) => a.pieces - b.pieces || a.rows - b.rows)
    .map((r) => ({
      line: `${r.pieces} pieces, ${r.rows} rows`,
      'turns with a line': r.turns,
      'made by the game': r.made,
      'missed opportunities': r.missed,
      'game attack over them': r.sent,
    })),
);
