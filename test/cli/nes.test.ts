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
import { MAX_REACTION } from '../../src/rules/timing.js';
import { runCli } from '../helpers/cli.js';

let file: string;
let table: RankTable;
// A 7-column table (8-wide boards) for the runs whose games are not the point: a run on it starts in a fraction of
// the 9-column table's setup.
let narrowFile: string;
let narrow: RankTable;
beforeAll(async () => {
  const dir = await mkdtemp(join(tmpdir(), 'stackrank-cli-nes-'));
  file = join(dir, 't.srk');
  table = await buildRankTable({ width: 9, iterations: 3 });
  await table.save(file);
  narrowFile = join(dir, 't7.srk');
  narrow = await buildRankTable({ width: 7, iterations: 3, threads: 1 });
  await narrow.save(narrowFile);
}, 120_000);

/** base() on the 7-column table. */
const narrowBase = () => base().map((a) => (a === file ? narrowFile : a));

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

  it('--reaction sets the frames before the next piece is known: the games of nesFormat({ reaction })', async () => {
    const args = [...narrowBase(), '--max-level', '19', '--no-play-outs'];
    const run = await runCli([...args, '--reaction', '6', '--json']);
    expect(run.code, run.err).toBe(0);
    const r = JSON.parse(run.out);
    const direct = (reaction?: number) => {
      const format = nesFormat({ maxLevel: 19, ...(reaction === undefined ? {} : { reaction }) });
      return playGame({
        rules: format.rules,
        maxLevel: 19,
        games: 2,
        maxPieces: 80,
        seed: 4,
        table: narrow,
        threads: 1,
        playOuts: false,
      });
    };
    const six = await direct(6);
    expect(six.format!.reaction).toBe(6);
    expect(r).toMatchObject({
      reaction: 6,
      averageScore: six.nes!.averageScore,
      meanLines: six.nes!.meanLines,
      clears: six.clears,
      lines: six.lines,
      pieces: six.pieces,
      endLevels: six.nes!.endLevels,
    });
    // The default 18 frames play other games here, or the test would not see --reaction passed.
    const byDefault = await direct();
    expect(byDefault.format!.reaction).toBe(18);
    expect([byDefault.nes!.averageScore, byDefault.clears]).not.toEqual([six.nes!.averageScore, six.clears]);
    const text = await runCli([...args, '--reaction', '6']);
    expect(text.out.split('\n')[0]).toMatch(/^NES games: start level 18, timeline X\., reaction 6 frames, /);
  }, 120_000);

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
    const args = [...narrowBase(), '--max-level', '19', '--json'];
    const whole = JSON.parse((await runCli(args)).out);
    expect(whole.games).toBe(2);
    for (const shard of ['0/2', '1/2'])
      expect((await runCli([...args, '--shard', shard, '--out', join(dir, `${shard[0]}.json`)])).code).toBe(0);
    const merged = await runCli(['merge', '--json', join(dir, '1.json'), join(dir, '0.json')]);
    expect(merged.code).toBe(0);
    // everything but the clock: seconds and speeds are measurements, not results
    const withoutTimes = (json: string) =>
      JSON.parse(json, (key, value) => (key === 'seconds' || key === 'piecesPerSecond' ? undefined : value));
    expect(withoutTimes(merged.out)).toEqual(withoutTimes(JSON.stringify(whole)));
    expect(Object.keys(JSON.parse(merged.out))).toEqual(Object.keys(whole));
    // and the same table, the pieces/s column aside
    const textWithoutTimes = (text: string) => text.replace(/^(\s*\d+ .*\S)\s+[\d,]+$/m, '$1 #');
    const wholeText = await runCli(args.filter((a) => a !== '--json'));
    const mergedText = await runCli(['merge', join(dir, '0.json'), join(dir, '1.json')]);
    expect(mergedText.code, mergedText.err).toBe(0);
    expect(textWithoutTimes(mergedText.out)).toBe(textWithoutTimes(wholeText.out));
    expect(textWithoutTimes(wholeText.out)).toMatch(/^\s+2\s.* #$/m);
    // a shard whose points by band do not add up to a game's score is refused, not merged
    const shard = JSON.parse(await readFile(join(dir, '0.json'), 'utf8'));
    const game = shard.parts[0].records[0];
    game.nes.bandScore[0] += 40;
    await writeFile(join(dir, 'bad.json'), JSON.stringify(shard));
    const bad = await runCli(['merge', '--json', join(dir, '1.json'), join(dir, 'bad.json')]);
    expect(bad.code).toBe(1);
    expect(bad.err).toBe(
      `stackrank merge: ${join(dir, 'bad.json')} is not a stackrank run file (part 1 (games): record 1: nes.bandScore does not add up to the game's score) [BAD_HEADER]`,
    );
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
    expect(refused.code).toBe(1);
    expect(refused.err).toBe(
      `stackrank merge: ${join(dir, 'no-format.json')} is not a stackrank run file (its params describe no run: rules.timeline must be a tap timeline of X and . starting with X, at most 32 frames, never two X in a row (X. X.. X... X.... X.....), or das or dasCharged; got "Q.") [BAD_HEADER]`,
    );
  }, 300_000);

  it.each([
    [
      ['--timeline', 'XX.'],
      '--timeline must be a tap timeline of X and . starting with X, at most 32 frames, never two X in a row (X. X.. X... X.... X.....), or das or dasCharged; got "XX."',
    ],
    [
      ['--timeline', `X${'.'.repeat(32)}`],
      `--timeline must be a tap timeline of X and . starting with X, at most 32 frames, never two X in a row (X. X.. X... X.... X.....), or das or dasCharged; got "X${'.'.repeat(32)}"`,
    ],
    [
      ['--timeline', 'fast'],
      '--timeline must be a tap timeline of X and . starting with X, at most 32 frames, never two X in a row (X. X.. X... X.... X.....), or das or dasCharged; got "fast"',
    ],
    [['--max-level', '18'], '--max-level must be above --start-level (18), or 0 for none; got 18'],
    [['--start-level', '32'], '--start-level must be an integer from 0 to 31; got "32"'],
    [['--reaction', '-1'], `--reaction must be an integer from 0 to ${MAX_REACTION}; got "-1"`],
    [['--lookahead', '2'], '--lookahead must be an integer from 0 to 1; got "2"'],
  ])('rejects %j with exit code 2 and a one-line reason', async (extra, message) => {
    const run = await runCli([...base(), ...extra]);
    expect(run.code).toBe(2);
    expect(run.err).toBe(`stackrank bench nes: ${message}`);
  });
});
