/**
 * `stackrank bench nes` (docs/cli.md, docs/game.md "NES Tetris: the competition format"): its figures are
 * playGame's NES games', its options make the format, shards merge into the unsharded run, bad options are usage
 * errors.
 */
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { playGame } from '../../src/tetris-ai/play.js';
import { buildRankTable, type RankTable } from '../../src/rank/table.js';
import { nesFormat } from '../../src/rules/nes-game.js';
import { runCli } from '../helpers/cli.js';

let file: string;
let table: RankTable;
beforeAll(async () => {
  file = join(await mkdtemp(join(tmpdir(), 'stackrank-cli-nes-')), 't.srk');
  table = await buildRankTable({ width: 9, iterations: 3 });
  await table.save(file);
}, 120_000);

const base = () => [
  'bench',
  'nes',
  '--table',
  file,
  '--games',
  '2',
  '--max-pieces',
  '80',
  '--seed',
  '4',
  '--threads',
  '1',
];

describe('stackrank bench nes', () => {
  it('prints the figures of playGame NES games of its format (--json: one object)', async () => {
    const run = await runCli([...base(), '--start-level', '19', '--timeline', 'X..', '--max-level', '21', '--json']);
    expect(run.code).toBe(0);
    const lines = run.out.split('\n');
    expect(lines).toHaveLength(1);
    const r = JSON.parse(lines[0]);
    const format = nesFormat({ startLevel: 19, timeline: 'X..', maxLevel: 21 });
    const direct = await playGame({
      rules: format.rules,
      maxLevel: 21,
      games: 2,
      maxPieces: 80,
      seed: 4,
      table,
      threads: 1,
    });
    expect(r).toMatchObject({
      games: 2,
      startLevel: 19,
      timeline: 'X..',
      reaction: 18,
      doubleKillscreen: 39,
      maxLevel: 21,
      randomizer: 'nes',
      playOuts: true,
      averageScore: direct.nes!.averageScore,
      meanLines: direct.nes!.meanLines,
      medianLines: direct.nes!.medianLines,
      p1Lines: direct.nes!.p1Lines,
      tetrisRate: direct.tetrisRate,
      clears: direct.clears,
      endLevels: direct.nes!.endLevels,
      pieces: direct.pieces,
    });
    expect(r.tetrisRateByBand['19–28']).toEqual(expect.any(Number));
    expect(r.tetrisRateByBand).toEqual({
      '≤18': null,
      '19–28': direct.nes!.bands[1].tetrisRate,
      '29–38': null,
      '39+': null,
    });
    // start 19 capped at 21: every point is scored at 19–28
    expect(r.scoreByBand).toEqual({ '≤18': 0, '19–28': r.averageScore, '29–38': 0, '39+': 0 });
    expect(r.piecesPerSecond).toBeGreaterThan(0);
  }, 300_000);

  it('--no-play-outs plays and records the games without play-outs', async () => {
    const run = await runCli([...base(), '--max-level', '19', '--no-play-outs', '--json']);
    expect(run.code).toBe(0);
    const r = JSON.parse(run.out);
    const direct = await playGame({
      rules: 'nes',
      maxLevel: 19,
      games: 2,
      maxPieces: 80,
      seed: 4,
      table,
      threads: 1,
      playOuts: false,
    });
    expect(direct.playOuts).toBe(false);
    expect(r).toMatchObject({ playOuts: false, averageScore: direct.nes!.averageScore, pieces: direct.pieces });
    const printed = await runCli([...base(), '--max-level', '19', '--no-play-outs']);
    expect(printed.out).toMatch(/^NES games: .*lookahead 1, no play-outs, seed 4\n/);
  }, 300_000);

  it('prints a table; --double-killscreen 0 and --max-level 0 mean none', async () => {
    const run = await runCli([...base(), '--double-killscreen', '0', '--max-level', '0']);
    expect(run.code).toBe(0);
    expect(run.out).toMatch(
      /^NES games: start level 18, timeline X\., reaction 18 frames, double killscreen none, level cap none/,
    );
    expect(run.out).toMatch(/average score +95 % interval/);
    expect(run.out).toMatch(/Tetris rate by level band: ≤18/);
    expect(run.out).toMatch(/\nclears: [\d,]+ singles, [\d,]+ doubles, [\d,]+ triples, [\d,]+ Tetrises\n/);
    expect(run.out).toMatch(
      /average score by level band: ≤18 [\d,]+, 19–28 0, 29–38 0, 39\+ 0 \(before 19 [\d,]+, before 29/,
    );
    expect(run.out).toMatch(/games ended at level: 18: 2/);
    // the games' own format, as the run file records it: one row a frame from 29 on, no cap
    const out = join(await mkdtemp(join(tmpdir(), 'stackrank-cli-nes-none-')), 'run.json');
    const json = await runCli([...base(), '--double-killscreen', '0', '--max-level', '0', '--json', '--out', out]);
    expect(JSON.parse(json.out)).toMatchObject({ doubleKillscreen: null, maxLevel: null });
    const format = JSON.parse(await readFile(out, 'utf8')).parts[0].meta.format;
    expect(format.maxLevel).toBeNull();
    expect(format.timing.gravity.at(-1)).toEqual({ frames: 1, rows: 1 });
    expect(format.timing).toEqual(JSON.parse(JSON.stringify(nesFormat({ doubleKillscreen: null }).rules.timing)));
  }, 300_000);

  it('shards merge into the unsharded run', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'stackrank-cli-nes-shards-'));
    const args = [...base(), '--max-level', '19', '--json'];
    const whole = JSON.parse((await runCli(args)).out);
    for (const shard of ['0/2', '1/2'])
      expect((await runCli([...args, '--shard', shard, '--out', join(dir, `${shard[0]}.json`)])).code).toBe(0);
    const merged = await runCli(['merge', '--json', join(dir, '1.json'), join(dir, '0.json')]);
    expect(merged.code).toBe(0);
    const m = JSON.parse(merged.out);
    for (const k of [
      'games',
      'averageScore',
      'meanLines',
      'medianLines',
      'p1Lines',
      'tetrisRate',
      'endLevels',
      'scoreByBand',
      'pieces',
    ])
      expect([k, m[k]]).toEqual([k, whole[k]]);
    // a shard whose points by band do not add up to a game's score is refused, not merged
    const shard = JSON.parse(await readFile(join(dir, '0.json'), 'utf8'));
    const game = shard.parts[0].records[0];
    game.nes.bandScore[0] += 40;
    await writeFile(join(dir, 'bad.json'), JSON.stringify(shard));
    const bad = await runCli(['merge', '--json', join(dir, '1.json'), join(dir, 'bad.json')]);
    expect(bad.code).not.toBe(0);
    expect(bad.err).toMatch(/nes\.bandScore does not add up to the game's score/);
    // both shards describing another format than their params (so they agree with each other) are refused too:
    // the format is derived from the params as the run derives it
    type Meta = { format: { reaction: number; timing: { gravity: { rows: number }[] } } };
    for (const [edit, message] of [
      [(m: Meta) => (m.format.reaction = 0), /meta\.format\.reaction is 0, the run's params say 18\) \[BAD_HEADER\]/],
      [(m: Meta) => (m.format.timing.gravity[39].rows = 1), /meta\.format\.timing\.gravity is .*\[BAD_HEADER\]/],
    ] as const) {
      const files = [];
      for (const i of [0, 1]) {
        const s = JSON.parse(await readFile(join(dir, `${i}.json`), 'utf8'));
        edit(s.parts[0].meta);
        files.push(join(dir, `edited${i}.json`));
        await writeFile(files[i], JSON.stringify(s));
      }
      const refused = await runCli(['merge', ...files]);
      expect(refused.code).toBe(1);
      expect(refused.err).toMatch(message);
    }
    // params that make no NES format describe no run
    const noFormat = JSON.parse(await readFile(join(dir, '0.json'), 'utf8'));
    noFormat.params.timeline = 'Q.';
    await writeFile(join(dir, 'no-format.json'), JSON.stringify(noFormat));
    const refused = await runCli(['merge', join(dir, 'no-format.json')]);
    expect(refused.err).toMatch(/its params describe no run: rules\.timeline must be .*\[BAD_HEADER\]/);
  }, 300_000);

  it.each([
    [['--timeline', 'XX.'], /--timeline must be X and \. starting with X/],
    [['--timeline', 'fast'], /--timeline must be/],
    [['--max-level', '18'], /--max-level must be above --start-level \(18\), or 0 for none/],
    [['--start-level', '32'], /--start-level/],
    [['--reaction', '-1'], /--reaction/],
    [['--lookahead', '2'], /--lookahead/],
  ])('rejects %j with exit code 2', async (extra, message) => {
    const run = await runCli([...base(), ...extra]);
    expect(run.code).toBe(2);
    expect(run.err).toMatch(message);
  });
});
