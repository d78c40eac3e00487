/**
 * Records the games an end-value table is fitted on (bench/nes-end-values-fit.mjs; docs/game.md, "Play-outs"): for
 * each turn of the competition format's games (`bench nes`'s defaults), the LINES counter, the board's height and
 * holes before the move, and the move's points; one JSON line per game. `--no-play-outs`: the games of the AI
 * without play-outs, which the table in src/tetris-ai/nes-end-values.ts was fitted on.
 *
 *   npx tsx bench/nes-end-values-collect.ts --seed 1000 --from 0 --to 500 --no-play-outs --out d1.jsonl
 */
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { countHoles, maxHeight } from '../src/board-rows.js';
import { nesClearPoints } from '../src/rules/nes-game.js';
import { type PlayedTurn, playOneGame } from '../src/tetris-ai/game-simulator.js';
import { competitionReplay } from './nes-replay.js';

const { values } = parseArgs({
  options: {
    seed: { type: 'string' },
    from: { type: 'string' },
    to: { type: 'string' },
    out: { type: 'string' },
    'no-play-outs': { type: 'boolean' },
  },
});
const seed = Number(values.seed ?? 1000);
const from = Number(values.from ?? 0);
const to = Number(values.to ?? 1000);
if (!values.out || !(Number.isInteger(from) && Number.isInteger(to) && from >= 0 && to > from))
  throw new Error('usage: --seed S --from A --to B [--no-play-outs] --out F.jsonl (0 <= A < B)');
const { ai, settings } = await competitionReplay(seed, !values['no-play-outs']);
const games: string[] = [];
for (let game = from; game < to; game++) {
  const turns: PlayedTurn[] = [];
  await playOneGame(ai, game, settings, { onTurn: (turn) => turns.push(turn) });
  const record = turns.map((t, i) => {
    const levelAfter = i + 1 < turns.length ? turns[i + 1].nes!.level : t.nes!.level;
    return [
      t.nes!.lines,
      maxHeight(t.before),
      countHoles(t.before, ai.width),
      t.move ? nesClearPoints(t.lines, levelAfter) : 0,
    ];
  });
  games.push(JSON.stringify(record));
  if ((game - from) % 50 === 49) console.error(`${game + 1 - from} of ${to - from} games`);
}
writeFileSync(values.out, games.join('\n') + '\n');
