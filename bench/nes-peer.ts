/**
 * `stackrank bench nes` beside another NES player on the same pieces (bench/notes/nes.md, "Beside StackRabbit on
 * the same pieces"). Two steps:
 *
 *   npx tsx bench/nes-peer.ts sequences --seed 1 --games 200 [--pieces 2000] --out seqs.txt
 *   (the peer plays seqs.txt: one game a line, its pieces as letters IOTSZLJ, and prints one JSON line a game)
 *   stackrank bench nes --reaction 0 --max-level 29 --games 200 --seed 1 --out ours.json
 *   npx tsx bench/nes-peer.ts compare --peer peer.jsonl --ours ours.json [--first N] [--json]
 *
 * `sequences` writes the pieces `bench nes --seed S` deals its games 0 .. G - 1, each to --pieces pieces (a game
 * capped at 29 from 18 takes about 600, at 49 about 1,100; a peer that runs out of pieces ends its game early).
 * `compare` pairs each game of the peer's output (one JSON object a line with `game`, the line's number in the
 * file from 0, `score`, `lines` and the clears `singles`, `doubles`, `triples`, `tetrises`, `topout` optional;
 * lines with `summary: true` are skipped; `--first N`: the peer's game g is game g + N, for a peer given the lines
 * of games N .. of a longer file) with the same game of a finished run file of that seed (`bench nes`, or `bench
 * game` under a timed rule set: bench/nes-runs.ts) and prints, over the games both played: the average score of each
 * with ours − peer, its standard error and 95 % interval (a paired comparison), mean lines, the Tetris rate (4 ×
 * Tetrises / lines over all games), the lines cleared outside Tetrises a game, top-outs, and the games each scored
 * more; writes bench/results/nes-peer.json
 * (`--json` prints the same object instead: `peerFile`, `runFile`, `seed`, `games`, each player's figures as
 * `ours` and `peer`, `difference`, `standardError`, `ci95`). A peer that sees the next piece from the first frame
 * is compared like for like with `--reaction 0`. Exits 2 naming the problem on a bad file or option.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { StackRankError } from '../src/errors.js';
import { meanInterval } from '../src/tetris-ai/intervals.js';
import { gameRandomizer } from '../src/tetris-ai/game-simulator.js';
import { benchArgs, machine, printTable, writeResults } from './common.js';
import { readNesRun } from './nes-runs.js';

/** One player's game: its score, lines, clears by size (singles .. Tetrises) and whether it topped out. */
interface PeerGame {
  score: number;
  lines: number;
  clears: [number, number, number, number];
  topOut: boolean;
}

/** The pieces `bench nes --seed seed` deals game `game` (its randomizer is the NES one). */
function gamePieces(seed: number, game: number, pieces: number): string {
  return gameRandomizer('nes', seed, game).take(pieces);
}

const count = (v: unknown, what: string): number => {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0)
    throw new StackRankError('BAD_ARGUMENT', `${what} is ${JSON.stringify(v)}, not a whole number of at least 0`);
  return v;
};

/** The peer's games by game number, from its JSON lines (summary lines skipped). */
function readPeerGames(text: string, name: string, first: number): Map<number, PeerGame> {
  const games = new Map<number, PeerGame>();
  text.split('\n').forEach((line, i) => {
    if (line.trim() === '') return;
    let o: Record<string, unknown>;
    try {
      o = JSON.parse(line);
    } catch {
      throw new StackRankError('BAD_ARGUMENT', `${name} line ${i + 1} is not JSON`);
    }
    if (o === null || typeof o !== 'object')
      throw new StackRankError('BAD_ARGUMENT', `${name} line ${i + 1} is not an object`);
    if (o.summary === true) return;
    const at = `${name} line ${i + 1}:`;
    const game = count(o.game, `${at} game`) + first;
    if (games.has(game)) throw new StackRankError('BAD_ARGUMENT', `${at} game ${game} appears twice`);
    games.set(game, {
      score: count(o.score, `${at} score`),
      lines: count(o.lines, `${at} lines`),
      clears: [
        count(o.singles, `${at} singles`),
        count(o.doubles, `${at} doubles`),
        count(o.triples, `${at} triples`),
        count(o.tetrises, `${at} tetrises`),
      ],
      topOut: o.topout === true,
    });
  });
  if (games.size === 0) throw new StackRankError('BAD_ARGUMENT', `${name} holds no games`);
  return games;
}

/** One player's figures over the paired games. */
interface PlayerFigures {
  averageScore: number;
  meanLines: number;
  tetrisRate: number;
  /** Lines cleared by singles, doubles and triples, a game. */
  otherLines: number;
  topOuts: number;
  /** Games this player scored more than the other. */
  gamesAhead: number;
}

interface PeerComparison {
  games: number;
  ours: PlayerFigures;
  peer: PlayerFigures;
  /** Mean of ours − peer over the games, its standard error (null for one game) and 95 % interval. */
  difference: number;
  standardError: number | null;
  ci95: [number, number] | null;
}

function figures(mine: PeerGame[], theirs: PeerGame[]): PlayerFigures {
  const n = mine.length;
  const lines = mine.reduce((a, g) => a + g.lines, 0);
  const tetrises = mine.reduce((a, g) => a + g.clears[3], 0);
  return {
    averageScore: mine.reduce((a, g) => a + g.score, 0) / n,
    meanLines: lines / n,
    tetrisRate: lines === 0 ? 0 : (4 * tetrises) / lines,
    otherLines: mine.reduce((a, g) => a + g.clears[0] + 2 * g.clears[1] + 3 * g.clears[2], 0) / n,
    topOuts: mine.filter((g) => g.topOut).length,
    gamesAhead: mine.filter((g, i) => g.score > theirs[i]!.score).length,
  };
}

/** Ours against the peer over the games both played; throws BAD_ARGUMENT when they share none. */
function comparePeer(ours: Map<number, PeerGame>, peer: Map<number, PeerGame>): PeerComparison {
  const both = [...peer.keys()].filter((g) => ours.has(g)).sort((a, b) => a - b);
  if (both.length === 0) throw new StackRankError('BAD_ARGUMENT', 'the peer and the run file share no game numbers');
  const a = both.map((g) => ours.get(g)!);
  const b = both.map((g) => peer.get(g)!);
  const d = meanInterval(a.map((g, i) => g.score - b[i]!.score));
  return {
    games: both.length,
    ours: figures(a, b),
    peer: figures(b, a),
    difference: d.mean,
    standardError: d.standardError,
    ci95: d.ci95,
  };
}

async function main(): Promise<void> {
  // the mode comes first; benchArgs reads the options after it (and --help anywhere)
  const mode = process.argv[2]?.startsWith('-') ? undefined : process.argv.splice(2, 1)[0];
  const { values: args } = benchArgs(import.meta.url, {
    seed: { type: 'string' },
    games: { type: 'string' },
    pieces: { type: 'string', default: '2000' },
    out: { type: 'string' },
    peer: { type: 'string' },
    ours: { type: 'string' },
    first: { type: 'string', default: '0' },
    json: { type: 'boolean', default: false },
  });
  if (mode === 'sequences') {
    const seed = Number(args.seed);
    const games = Number(args.games);
    const pieces = Number(args.pieces);
    if (!args.out || !Number.isInteger(seed) || seed < 0 || !(Number.isInteger(games) && games >= 1))
      throw new StackRankError(
        'BAD_ARGUMENT',
        'sequences needs --seed S (0 or more), --games G (1 or more) and --out FILE',
      );
    if (!(Number.isInteger(pieces) && pieces >= 1 && pieces <= 100_000))
      throw new StackRankError(
        'BAD_ARGUMENT',
        `--pieces is ${args.pieces}; it must be a whole number from 1 to 100000`,
      );
    const lines: string[] = [];
    for (let g = 0; g < games; g++) lines.push(gamePieces(seed, g, pieces));
    writeFileSync(args.out, lines.join('\n') + '\n');
    console.log(`wrote ${games} games of seed ${seed}, ${pieces} pieces each, to ${args.out}`);
    return;
  }
  if (mode !== 'compare')
    throw new StackRankError('BAD_ARGUMENT', 'the first argument is sequences or compare (--help shows both)');
  if (!args.peer || !args.ours)
    throw new StackRankError('BAD_ARGUMENT', 'compare needs --peer FILE.jsonl and --ours RUN.json');
  let peerText: string;
  try {
    peerText = readFileSync(args.peer, 'utf8');
  } catch {
    throw new StackRankError('BAD_ARGUMENT', `cannot read ${args.peer}`);
  }
  const first = Number(args.first);
  if (!(Number.isInteger(first) && first >= 0))
    throw new StackRankError('BAD_ARGUMENT', `--first is ${args.first}; it must be a whole number of at least 0`);
  const peer = readPeerGames(peerText, args.peer, first);
  const { run, games } = await readNesRun(args.ours);
  const ours = new Map<number, PeerGame>();
  for (const [g, r] of games) ours.set(g, { score: r.nes.score, lines: r.lines, clears: r.clears, topOut: r.topOut });
  const result = {
    machine: machine(),
    peerFile: args.peer,
    runFile: args.ours,
    seed: Number(run.params.seed),
    ...comparePeer(ours, peer),
  };
  if (args.json) {
    console.log(JSON.stringify(result));
    return;
  }
  const path = writeResults('nes-peer', result);
  const row = (who: string, f: PlayerFigures) => ({
    player: who,
    'average score': Math.round(f.averageScore),
    'mean lines': f.meanLines.toFixed(1),
    'Tetris rate': `${(100 * f.tetrisRate).toFixed(1)} %`,
    'other lines a game': f.otherLines.toFixed(1),
    'top-outs': f.topOuts,
    'games ahead': f.gamesAhead,
  });
  console.log(`${result.games} games of seed ${result.seed}: ours ${args.ours}, peer ${args.peer}`);
  printTable([row('ours', result.ours), row('peer', result.peer)]);
  const fmt = (x: number) => Math.round(x).toLocaleString('en-US');
  const interval = result.ci95 ? `, 95 % interval ${fmt(result.ci95[0])} to ${fmt(result.ci95[1])}` : '';
  const se = result.standardError === null ? '' : ` (standard error ${fmt(result.standardError)}${interval})`;
  console.log(`ours − peer: ${fmt(result.difference)} a game${se}`);
  console.log(`wrote ${path}`);
}

main().catch((e) => {
  if (!(e instanceof StackRankError)) throw e;
  console.error(`nes-peer: ${e.message} [${e.code}]`);
  process.exit(2);
});
