/**
 * Runs beyond one process (docs/distributed.md): `--shard I/N` + `stackrank merge` print exactly what the unsharded
 * run prints (times aside), `--checkpoint` resumes a run killed with SIGKILL to the uninterrupted result, bad merges
 * and foreign checkpoints are refused, and the shipped scripts (GNU parallel / background jobs, Slurm array) and
 * Kubernetes manifests work or parse. Child processes run src/cli.ts under the tsx loader (no build needed).
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { buildRankTable } from '../../src/rank/table.js';
import { runCli, runInFreshFolder } from '../helpers/cli.js';

const ROOT = resolve(__dirname, '../..');
// The usage errors below name relative files (x.json): looked up in a folder of this file's own.
runInFreshFolder('stackrank-shards-cwd-');
const TSX = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
/** How the scripts run stackrank here: the sources under tsx. */
const STACKRANK = `${process.execPath} --import ${TSX} ${join(ROOT, 'src/cli.ts')}`;

let dir: string;
let small: string; // 6x3 table: survival runs
let wide: string; // 9-column table: real games
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'stackrank-shards-'));
  small = join(dir, 'small.srk');
  wide = join(dir, 'wide.srk');
  await (await buildRankTable({ width: 6, maxStep: 3, iterations: 2, threads: 1 })).save(small);
  await (await buildRankTable({ width: 9, maxStep: 3, iterations: 2 })).save(wide);
}, 120_000);

/** A fresh directory for one test's files. */
const sub = () => mkdtempSync(join(dir, 'run-'));

/** The four commands, small runs (bench game twice: a survival run with its baselines and a versus run). */
const RUNS = {
  'bench survival': () => [
    'bench',
    'survival',
    '--table',
    small,
    '--lookahead',
    '0,1',
    '--games',
    '10',
    '--max-pieces',
    '3000',
    '--seed',
    '5',
    '--threads',
    '1',
  ],
  'bench game': () => [
    'bench',
    'game',
    '--table',
    wide,
    '--rules',
    'classic',
    '--randomizer',
    'tgm1',
    '--games',
    '5',
    '--max-pieces',
    '30',
    '--seed',
    '3',
    '--baselines',
  ],
  // Goal versus plays no rank table: its run files record none.
  'bench game versus': () => [
    'bench',
    'game',
    '--goal',
    'versus',
    '--games',
    '4',
    '--max-pieces',
    '30',
    '--seed',
    '3',
    '--threads',
    '1',
  ],
  // From level 0 to a level-1 cap (10 lines) or 40 pieces: short games, ending at the cap or at the piece limit.
  'bench nes': () => [
    'bench',
    'nes',
    '--table',
    wide,
    '--start-level',
    '0',
    '--max-level',
    '1',
    '--games',
    '6',
    '--max-pieces',
    '40',
    '--seed',
    '4',
    '--threads',
    '1',
  ],
  'full play': () => [
    'full',
    'play',
    '--weights',
    'dellacherie',
    '--games',
    '9',
    '--max-pieces',
    '3000',
    '--height',
    '12',
    '--seed',
    '7',
  ],
} as const;
type Command = keyof typeof RUNS;

/** JSON output without the clock: seconds and speeds are measurements, not results. */
function withoutTimes(out: string): unknown[] {
  return out
    .split('\n')
    .map((line) =>
      JSON.parse(line, (key, value) =>
        ['seconds', 'piecesPerSecond', 'cpuSeconds', 'piecesPerCpuSecond'].includes(key) ? undefined : value,
      ),
    );
}

/** Text output with the speed and time columns blanked. */
function textWithoutTimes(command: Command, out: string): string {
  return out
    .split('\n')
    .map((line) => {
      if (command === 'bench survival' && /^\s+\d+\s{2}/.test(line)) {
        const cols = line.trim().split(/\s{2,}/);
        cols[4] = '#';
        return cols.join('  ');
      }
      if (command.startsWith('bench game') && /^(TetrisAI|stacking only|full-board)/.test(line))
        return line.replace(/\s*\S+$/, ' #');
      // bench nes: the figures' row ends in pieces/s
      if (command === 'bench nes' && /^\s+\d+\s{2}/.test(line)) return line.replace(/\s*\S+$/, ' #');
      return line
        .replace(/\s*\S+ p\/s/, ' # p/s')
        .replace(/pieces in \S+ s \(\S+ pieces\/s\)/, 'pieces in # s (# pieces/s)');
    })
    .join('\n');
}

/** Runs the command as `n` shard runs; returns their files, last shard first (merge takes any order). */
async function shardFiles(command: Command, n: number): Promise<string[]> {
  const d = sub();
  const files = [];
  for (let i = 0; i < n; i++) {
    const file = join(d, `shard-${i}.json`);
    const run = await runCli([...RUNS[command](), '--shard', `${i}/${n}`, '--out', file]);
    expect(run.code, run.err).toBe(0);
    files.push(file);
  }
  return files.reverse();
}

describe('N = 4 shards merged equal one unsharded run', { timeout: 300_000 }, () => {
  it.each(Object.keys(RUNS) as Command[])('%s: the same JSON and the same table', async (command) => {
    const files = await shardFiles(command, 4);
    const whole = await runCli([...RUNS[command](), '--json']);
    expect(whole.code, whole.err).toBe(0);
    const merged = await runCli(['merge', ...files, '--json']);
    expect(merged.code, merged.err).toBe(0);
    expect(withoutTimes(merged.out)).toEqual(withoutTimes(whole.out));
    const text = await runCli(RUNS[command]());
    const mergedText = await runCli(['merge', ...files]);
    expect(mergedText.code, mergedText.err).toBe(0);
    expect(textWithoutTimes(command, mergedText.out)).toBe(textWithoutTimes(command, text.out));
    expect(mergedText.out).not.toBe('');
  });

  it('the merged result file merges again to the same output (hierarchical merges)', async () => {
    const d = sub();
    const files = [];
    for (let i = 0; i < 2; i++) {
      files.push(join(d, `s${i}.json`));
      expect((await runCli([...RUNS['full play'](), '--shard', `${i}/2`, '--out', files[i], '--json'])).code).toBe(0);
    }
    const first = await runCli(['merge', ...files, '--json', '--out', join(d, 'all.json')]);
    const again = await runCli(['merge', join(d, 'all.json'), '--json']);
    expect(again.code, again.err).toBe(0);
    expect(again.out).toBe(first.out);
  });
});

function spawnCli(args: string[], opts: { cwd?: string; env?: Record<string, string> } = {}) {
  return spawn(process.execPath, ['--import', TSX, join(ROOT, 'src/cli.ts'), ...args], {
    cwd: opts.cwd ?? ROOT,
    env: { ...process.env, ...opts.env },
  });
}

function runScript(script: string, args: string[], env: Record<string, string>, cwd = ROOT) {
  return new Promise<{ code: number | null; out: string; err: string }>((done) => {
    const child = spawn('bash', [script, ...args], { cwd, env: { ...process.env, STACKRANK, ...env } });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('exit', (code) => done({ code, out: out.trimEnd(), err }));
  });
}

/** Records in a checkpoint file (0 when it is not there yet). */
function recorded(file: string): number {
  if (!existsSync(file)) return 0;
  const run = JSON.parse(readFileSync(file, 'utf8'));
  return run.parts.reduce((a: number, p: { records: unknown[] }) => a + p.records.length, 0);
}

/**
 * Starts the command with a checkpoint, SIGKILLs it once at least `after` game records are on disk, and returns
 * how many were. Fails if the run finished first (then the run is too short for this machine).
 */
async function killMidRun(args: string[], checkpoint: string, after: number, total: number): Promise<number> {
  const child = spawnCli([...args, '--checkpoint', checkpoint, '--checkpoint-every', '0.02']);
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) =>
    child.on('exit', (code, signal) => done({ code, signal })),
  );
  let finished = false;
  void exited.then(() => (finished = true));
  const unreadable: string[] = [];
  for (;;) {
    await new Promise((r) => setTimeout(r, 20));
    if (finished) break;
    let n = 0;
    try {
      n = recorded(checkpoint);
    } catch (error) {
      // The writer renames complete files: a checkpoint that does not parse is half a file, a defect.
      unreadable.push(String(error));
      continue;
    }
    if (n >= after) {
      child.kill('SIGKILL');
      break;
    }
  }
  const exit = await exited;
  expect(exit.signal, `the run ended before it could be killed (${stderr})`).toBe('SIGKILL');
  expect(unreadable, 'checkpoints read while the run saved them').toEqual([]);
  const n = recorded(checkpoint);
  expect(n).toBeGreaterThanOrEqual(after);
  expect(n).toBeLessThan(total);
  return n;
}

describe('--checkpoint: a run killed with SIGKILL resumes to the uninterrupted result', { timeout: 300_000 }, () => {
  it.each([
    [
      'bench survival',
      [
        'bench',
        'survival',
        '--table',
        '',
        '--lookahead',
        '1',
        '--games',
        '40',
        '--max-pieces',
        '30000',
        '--seed',
        '2',
        '--threads',
        '1',
      ],
      40,
    ],
    ['full play', ['full', 'play', '--weights', 'bcts', '--games', '24', '--max-pieces', '60000', '--seed', '11'], 24],
  ] as const)('%s', async (command, template, total) => {
    const args = template.map((a, i) => (template[i - 1] === '--table' ? small : a));
    const checkpoint = join(sub(), 'ck.json');
    const done = await killMidRun([...args, '--json'], checkpoint, 3, total);
    const resumed = await runCli([...args, '--json', '--checkpoint', checkpoint]);
    expect(resumed.code, resumed.err).toBe(0);
    // bench survival records streams of games, full play games.
    const record = command === 'bench survival' ? 'stream' : 'game';
    expect(resumed.err).toContain(`resuming from ${checkpoint} (${done} finished ${record} record(s))`);
    const uninterrupted = await runCli([...args, '--json']);
    expect(withoutTimes(resumed.out)).toEqual(withoutTimes(uninterrupted.out));
    // The finished checkpoint is a complete result file: merge accepts it and prints the same.
    const merged = await runCli(['merge', checkpoint, '--json']);
    expect(withoutTimes(merged.out)).toEqual(withoutTimes(uninterrupted.out));
    // A killed writer's temporary files are cleaned by the next save.
    expect(readdirSync(join(checkpoint, '..')).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('full play: Ctrl-C saves every finished game before exiting 130, and the rerun resumes to the same result', async () => {
    const args = [...RUNS['full play'](), '--games', '40'];
    const checkpoint = join(sub(), 'ck.json');
    const controller = new AbortController();
    const out: string[] = [];
    const { main } = await import('../../src/cli.js');
    // A save every 1000 s: what the checkpoint holds after Ctrl-C was saved by the interrupt itself.
    const code = await main([...args, '--checkpoint', checkpoint, '--checkpoint-every', '1000'], {
      out: (l) => {
        out.push(l);
        if (/^game\s+5 /.test(l)) controller.abort();
      },
      err: () => {},
      status: () => {},
      isTTY: false,
      env: {},
      signal: controller.signal,
    });
    expect(code).toBe(130);
    const kept = recorded(checkpoint);
    expect(kept).toBeGreaterThanOrEqual(5);
    expect(kept).toBeLessThan(40);
    const resumed = await runCli([...args, '--json', '--checkpoint', checkpoint]);
    expect(resumed.code, resumed.err).toBe(0);
    expect(resumed.err).toContain(`(${kept} finished game record(s))`);
    expect(withoutTimes(resumed.out)).toEqual(withoutTimes((await runCli([...args, '--json'])).out));
  });
});

describe('bench game resumes from a checkpoint with gaps', { timeout: 300_000 }, () => {
  it('plays only the stretches of games the checkpoint lacks, and the result equals the uninterrupted run', async () => {
    const args = [...RUNS['bench game'](), '--json'];
    const d = sub();
    const full = join(d, 'full.json');
    const uninterrupted = await runCli([...args, '--checkpoint', full]);
    expect(uninterrupted.code, uninterrupted.err).toBe(0);
    const saved = JSON.parse(readFileSync(full, 'utf8'));
    // As a kill would leave it: player both lacks games 1 and 3, stackOnly everything, fullBoardOnly is complete
    // but unfinished (no meta), so one of its games is played again to describe the run.
    saved.parts[0].records = saved.parts[0].records.filter((t: { game: number }) => t.game !== 1 && t.game !== 3);
    saved.parts[0].meta = null;
    saved.parts[1].records = [];
    saved.parts[1].meta = null;
    saved.parts[2].meta = null;
    const gappy = join(d, 'gappy.json');
    writeFileSync(gappy, JSON.stringify(saved));
    const resumed = await runCli([...args, '--checkpoint', gappy]);
    expect(resumed.code, resumed.err).toBe(0);
    expect(resumed.err).toContain('(8 finished game record(s))');
    expect(withoutTimes(resumed.out)).toEqual(withoutTimes(uninterrupted.out));
    const merged = await runCli(['merge', gappy, '--json']);
    expect(merged.code, merged.err).toBe(0);
    expect(withoutTimes(merged.out)).toEqual(withoutTimes(uninterrupted.out));
  });
});

describe('bench survival records the leaf only for preview (docs/cli.md, "Leaves")', { timeout: 300_000 }, () => {
  const survival = (...extra: string[]) => [...RUNS['bench survival'](), ...extra];
  const params = (file: string) => JSON.parse(readFileSync(file, 'utf8')).params;

  it.each([
    ['rank', []],
    ['expectimax with the default leaf', ['--strategy', 'expectimax']],
  ])('%s: no leaf in the params', async (_what, extra) => {
    const file = join(sub(), 'run.json');
    const run = await runCli([...survival(...extra), '--out', file]);
    expect(run.code, run.err).toBe(0);
    expect(params(file)).not.toHaveProperty('leaf');
  });

  it('a file without leaf and one that records "piece-max" (as bench survival once wrote) are one run', async () => {
    const d = sub();
    const shards = [join(d, 's0.json'), join(d, 's1.json')];
    for (const [i, file] of shards.entries()) {
      const run = await runCli([...survival(), '--shard', `${i}/2`, '--out', file]);
      expect(run.code, run.err).toBe(0);
    }
    const written = JSON.parse(readFileSync(shards[1], 'utf8'));
    written.params.leaf = 'piece-max';
    const old = join(d, 'old-s1.json');
    writeFileSync(old, JSON.stringify(written));
    const merged = await runCli(['merge', shards[0], old, '--json']);
    expect(merged.code, merged.err).toBe(0);
    const whole = await runCli([...survival(), '--json']);
    expect(withoutTimes(merged.out)).toEqual(withoutTimes(whole.out));
    // Resumed as a checkpoint: every stream comes from the file, nothing is refused.
    const resumed = await runCli([...survival(), '--shard', '1/2', '--checkpoint', old, '--json']);
    expect(resumed.code, resumed.err).toBe(0);
    expect(resumed.err).toContain(`resuming from ${old} (10 finished stream record(s))`);
    expect(params(old)).not.toHaveProperty('leaf');
  });
});

describe('rerunning with a finished checkpoint prints what the first run printed', { timeout: 300_000 }, () => {
  // Every game comes from the checkpoint: bench game once printed the raw record (exit 70) instead of the pooled row.
  const noBaselines = () => RUNS['bench game']().filter((a) => a !== '--baselines');
  it.each([
    ['bench game --baselines', RUNS['bench game'], []],
    ['bench game --baselines --json', RUNS['bench game'], ['--json']],
    ['bench game', noBaselines, []],
    ['bench game --json', noBaselines, ['--json']],
    ['bench survival --json', RUNS['bench survival'], ['--json']],
    ['full play', RUNS['full play'], []],
  ] as const)('%s', async (_name, base, extra) => {
    const command = base().slice(0, 2).join(' ') as Command;
    const d = sub();
    const args = [...base(), ...extra, '--checkpoint', join(d, 'ck.json')];
    const first = await runCli([...args, '--out', join(d, 'first.json')]);
    expect(first.code, first.err).toBe(0);
    const again = await runCli([...args, '--out', join(d, 'again.json')]);
    expect(again.code, again.err).toBe(0);
    expect(again.err).toMatch(/resuming from .*ck\.json/);
    const same = extra.length ? withoutTimes : (out: string) => textWithoutTimes(command, out);
    expect(same(again.out)).toEqual(same(first.out));
    const file = (name: string) => withoutTimes(readFileSync(join(d, name), 'utf8').trimEnd());
    expect(file('again.json')).toEqual(file('first.json'));
  });
});

/** Changes a finished part's run description (`meta`) in place; `key` is the part's. */
type MetaDamage = (meta: Record<string, unknown>, key: string) => void;

/** A copy of the run file at `path`, in a fresh directory, with each part's `meta` damaged. */
function withDamagedMeta(path: string, damage: MetaDamage): string {
  const file = JSON.parse(readFileSync(path, 'utf8'));
  for (const part of file.parts) damage(part.meta, part.key);
  const copy = join(sub(), 'damaged.json');
  writeFileSync(copy, JSON.stringify(file));
  return copy;
}

describe('a finished checkpoint whose run description was damaged', { timeout: 300_000 }, () => {
  let d: string;
  let args: string[];
  beforeAll(async () => {
    d = sub();
    args = [...RUNS['bench game'](), '--json', '--shard', '0/2'];
    const first = await runCli([...args, '--out', join(d, 'first.json')]);
    expect(first.code, first.err).toBe(0);
    writeFileSync(join(d, 'first.out'), first.out);
    const other = await runCli([...RUNS['bench game'](), '--shard', '1/2', '--out', join(d, 'other.json')]);
    expect(other.code, other.err).toBe(0);
  });
  const damaged = (damage: MetaDamage) => withDamagedMeta(join(d, 'first.json'), damage);

  it("another seed, against the run's own: refused as a damaged file by resume and by merge", async () => {
    const ck = damaged((meta) => {
      meta.seed = (meta.seed as number) + 1;
    });
    const message = /meta\.seed is 4, the run's params say 3\) \[BAD_HEADER\]$/;
    const again = await runCli([...args, '--checkpoint', ck]);
    expect(again.code).toBe(1);
    expect(again.err).toMatch(message);
    const merged = await runCli(['merge', ck, join(d, 'other.json')]);
    expect(merged.code).toBe(1);
    expect(merged.err).toMatch(message);
  });

  it('another well side: the rerun describes the run itself, prints and records the first run, and merges', async () => {
    // The description comes from a game played again, never from the file: the damaged one used to be copied into
    // the checkpoint, which then no longer merged with the run's other shard.
    // The run's options do not hold the well side it played: only playing a game again tells.
    const ck = damaged((meta) => {
      meta.well = meta.well === 'left' ? 'right' : 'left';
    });
    const again = await runCli([...args, '--checkpoint', ck]);
    expect(again.code, again.err).toBe(0);
    expect(withoutTimes(again.out)).toEqual(withoutTimes(readFileSync(join(d, 'first.out'), 'utf8')));
    const text = (path: string) => withoutTimes(readFileSync(path, 'utf8').trimEnd());
    expect(text(ck)).toEqual(text(join(d, 'first.json')));
    const merged = await runCli(['merge', ck, join(d, 'other.json')]);
    expect(merged.code, merged.err).toBe(0);
  });

  it('an NES format on a classic run: refused as a damaged file, the file left as it was', async () => {
    const ck = damaged((meta) => {
      meta.format = { game: 0 };
    });
    const before = readFileSync(ck, 'utf8');
    const again = await runCli([...args, '--checkpoint', ck]);
    expect(again.code).toBe(1);
    expect(again.err).toMatch(/format must be null for the classic rule set.*\[BAD_HEADER\]$/);
    expect(readFileSync(ck, 'utf8')).toBe(before);
  });
});

describe("a shard whose run description contradicts the run's options", { timeout: 300_000 }, () => {
  const files: Partial<Record<Command, string[]>> = {};
  beforeAll(async () => {
    files['bench survival'] = await shardFiles('bench survival', 2);
    files['full play'] = await shardFiles('full play', 2);
  });
  /** A copy of shard 0/2 of the command with its parts' meta damaged, and the intact shard 1/2. */
  const damaged = (command: Command, damage: MetaDamage) => {
    const [other, first] = files[command] as string[];
    return [withDamagedMeta(first, damage), other];
  };
  const cases: [Command, string, MetaDamage, RegExp][] = [
    [
      'bench survival',
      "a part's lookahead is not its key's",
      (meta, key) => {
        if (key === 'lookahead 1') meta.lookahead = 0;
      },
      /part 2 \(lookahead 1\): meta\.lookahead is 0, the run's params say 1\) \[BAD_HEADER\]$/,
    ],
    [
      'bench survival',
      'another board height',
      (meta) => {
        (meta.stacking as Record<string, unknown>).boardHeight = 12;
      },
      /meta\.stacking\.boardHeight is 12, the run's params say 20\) \[BAD_HEADER\]$/,
    ],
    [
      'full play',
      'other weights',
      (meta) => {
        (meta.weights as { weights: number[] }).weights[0] += 1;
      },
      /meta\.weights\.weights is \[.*, the run's params say \[.*\) \[BAD_HEADER\]$/,
    ],
    [
      'full play',
      'a line cap the run did not have',
      (meta) => {
        meta.maxLines = 5;
      },
      /meta\.maxLines is 5, the run's params say null\) \[BAD_HEADER\]$/,
    ],
  ];
  it.each(cases)('%s, %s: merge refuses it as a damaged file', async (command, _what, damage, message) => {
    const [copy, other] = damaged(command, damage);
    const merged = await runCli(['merge', copy, other]);
    expect(merged.code).toBe(1);
    expect(merged.err).toMatch(message);
  });

  it('bench survival: resuming from such a checkpoint is refused and leaves the file as it was', async () => {
    const [copy] = damaged('bench survival', (meta) => {
      meta.seed = 6;
    });
    const before = readFileSync(copy, 'utf8');
    const again = await runCli([...RUNS['bench survival'](), '--shard', '0/2', '--checkpoint', copy]);
    expect(again.code).toBe(1);
    expect(again.err).toMatch(/meta\.seed is 6, the run's params say 5\) \[BAD_HEADER\]$/);
    expect(readFileSync(copy, 'utf8')).toBe(before);
  });
});

describe('a checkpoint that lost a part', { timeout: 300_000 }, () => {
  it('gets it back in its place: the resumed shard merges with the other', async () => {
    const d = sub();
    const [ck, other] = [join(d, 'ck.json'), join(d, 'other.json')];
    expect((await runCli([...RUNS['bench survival'](), '--shard', '0/2', '--out', ck])).code).toBe(0);
    expect((await runCli([...RUNS['bench survival'](), '--shard', '1/2', '--out', other])).code).toBe(0);
    const keys = (path: string) => JSON.parse(readFileSync(path, 'utf8')).parts.map((p: { key: string }) => p.key);
    expect(keys(ck)).toEqual(['lookahead 0', 'lookahead 1']);
    const file = JSON.parse(readFileSync(ck, 'utf8'));
    file.parts.shift();
    writeFileSync(ck, JSON.stringify(file));
    const resumed = await runCli([...RUNS['bench survival'](), '--shard', '0/2', '--checkpoint', ck]);
    expect(resumed.code, resumed.err).toBe(0);
    expect(keys(ck)).toEqual(['lookahead 0', 'lookahead 1']);
    const merged = await runCli(['merge', ck, other]);
    expect(merged.code, merged.err).toBe(0);
  });
});

describe('run file format', () => {
  it('a full play shard file matches the golden file (times set to 0)', async () => {
    const file = join(sub(), 'shard.json');
    const run = await runCli([
      'full',
      'play',
      '--weights',
      'dellacherie',
      '--games',
      '3',
      '--max-pieces',
      '40',
      '--height',
      '8',
      '--seed',
      '2',
      '--shard',
      '1/2',
      '--out',
      file,
    ]);
    expect(run.code, run.err).toBe(0);
    const text = `${JSON.stringify(
      JSON.parse(readFileSync(file, 'utf8'), (key, value) => (key === 'seconds' ? 0 : value)),
      null,
      2,
    )}\n`;
    const golden = join(ROOT, 'test/golden/run-full-play.json');
    if (process.env.UPDATE_GOLDEN) writeFileSync(golden, text);
    expect(text).toBe(readFileSync(golden, 'utf8'));
  });
});

describe('refusals', { timeout: 300_000 }, () => {
  let shards: string[];
  let d: string;
  beforeAll(async () => {
    d = sub();
    shards = [];
    for (let i = 0; i < 3; i++) {
      shards.push(join(d, `s${i}.json`));
      const run = await runCli([...RUNS['full play'](), '--shard', `${i}/3`, '--out', shards[i]]);
      expect(run.code, run.err).toBe(0);
    }
  });

  it.each([
    [
      'a missing shard',
      () => [shards[0], shards[2]],
      /^stackrank merge: shard 1 of 3 is missing \(1 of 3 shards missing\) \[RUN_MISMATCH\]$/,
    ],
    [
      'a shard given twice',
      () => [shards[0], shards[1], shards[1], shards[2]],
      /are both shard 1\/3 .*\[RUN_MISMATCH\]$/,
    ],
    [
      'shards of another split',
      () => [shards[0], shards[1], shards[2], 'OTHER_SPLIT'],
      /a shard of 3 and .* a shard of 2.*\[RUN_MISMATCH\]$/,
    ],
    [
      'a shard of another run',
      () => [shards[0], shards[1], 'OTHER_SEED'],
      /come from different runs: seed is 7 in one and 8 in the other \[RUN_MISMATCH\]$/,
    ],
    [
      'another command',
      () => [shards[0], 'SURVIVAL'],
      /is a full play run and .* a bench survival run.*\[RUN_MISMATCH\]$/,
    ],
    [
      'an unfinished shard',
      () => [shards[0], shards[1], 'UNFINISHED'],
      /shard 2\/3 did not finish \(games: 2 of 3 games\); run it again with --checkpoint .*\[RUN_MISMATCH\]$/,
    ],
    [
      'shards that all lost their parts (merge once read a part of none)',
      () => ['NOPARTS0', 'NOPARTS1', 'NOPARTS2'],
      /shard 0\/3 did not finish; run it again with --checkpoint .*\[RUN_MISMATCH\]$/,
    ],
    [
      'a file that is not a run file',
      () => [shards[0], small],
      /is not a stackrank run file \(not JSON\) \[BAD_HEADER\]$/,
    ],
    [
      'a run file of a later version',
      () => [shards[0], 'V2'],
      /version 2; this stackrank reads version 1 \[BAD_VERSION\]$/,
    ],
    [
      'a file that does not exist',
      () => [shards[0], join(d, 'nope.json')],
      /could not read .*nope\.json: no such file \[IO\]$/,
    ],
  ])('merge refuses %s (exit 1)', async (_what, files, message) => {
    const make = async (name: string) => {
      const file = join(d, `${name}.json`);
      if (existsSync(file)) return file;
      if (name === 'OTHER_SPLIT') await runCli([...RUNS['full play'](), '--shard', '1/2', '--out', file]);
      else if (name === 'OTHER_SEED')
        await runCli([...RUNS['full play']().map((a) => (a === '7' ? '8' : a)), '--shard', '2/3', '--out', file]);
      else if (name === 'SURVIVAL') await runCli([...RUNS['bench survival'](), '--shard', '1/2', '--out', file]);
      else if (name.startsWith('NOPARTS')) {
        const run = JSON.parse(readFileSync(shards[Number(name.slice(-1))], 'utf8'));
        run.parts = [];
        writeFileSync(file, JSON.stringify(run));
      } else {
        const run = JSON.parse(readFileSync(shards[2], 'utf8'));
        if (name === 'UNFINISHED') run.parts[0].records.pop();
        if (name === 'V2') run.version = 2;
        writeFileSync(file, JSON.stringify(run));
      }
      return file;
    };
    const args = await Promise.all(files().map((f) => (/^[A-Z0-9_]+$/.test(f) ? make(f) : f)));
    const run = await runCli(['merge', ...args]);
    expect(run.err).toMatch(message);
    expect(run.code).toBe(1);
    expect(run.out).toBe('');
  });

  it('merge refuses shards played with different tables of the same shape (the table fingerprint)', async () => {
    const other = join(sub(), 'f32.srk');
    await (await buildRankTable({ width: 6, maxStep: 3, iterations: 2, threads: 1, encoding: 'f32' })).save(other);
    const files = [join(d, 'table-a.json'), join(d, 'table-b.json')];
    const withTable = (t: string) => RUNS['bench survival']().map((a) => (a === small ? t : a));
    expect((await runCli([...withTable(small), '--shard', '0/2', '--out', files[0]])).code).toBe(0);
    expect((await runCli([...withTable(other), '--shard', '1/2', '--out', files[1]])).code).toBe(0);
    const run = await runCli(['merge', ...files]);
    expect(run.err).toMatch(
      /come from different runs: rankTable is \{.*"fingerprint":"[0-9a-f]{8}".*\} in one and .* \[RUN_MISMATCH\]$/,
    );
    expect(run.code).toBe(1);
    // The same table built again elsewhere (another machine's cache) is the same table: the shards merge.
    const again = join(sub(), 'again.srk');
    await (await buildRankTable({ width: 6, maxStep: 3, iterations: 2, threads: 2 })).save(again);
    expect((await runCli([...withTable(again), '--shard', '1/2', '--out', files[1]])).code).toBe(0);
    const merged = await runCli(['merge', ...files]);
    expect(merged.code, merged.err).toBe(0);
  });

  it('a checkpoint of another run is refused, not overwritten', async () => {
    const checkpoint = join(sub(), 'ck.json');
    expect((await runCli([...RUNS['full play'](), '--checkpoint', checkpoint])).code).toBe(0);
    const before = readFileSync(checkpoint, 'utf8');
    const other = await runCli([
      ...RUNS['full play']().map((a) => (a === 'dellacherie' ? 'bcts' : a)),
      '--checkpoint',
      checkpoint,
    ]);
    expect(other.code).toBe(1);
    expect(other.err).toMatch(
      /^stackrank full play: the checkpoint .*ck\.json belongs to another run: weightVector is .* \[RUN_MISMATCH\]$/,
    );
    const shard = await runCli([...RUNS['full play'](), '--shard', '0/2', '--checkpoint', checkpoint]);
    expect(shard.code).toBe(1);
    expect(shard.err).toBe(
      `stackrank full play: the checkpoint ${checkpoint} belongs to another run: it is shard 0/1, this run is shard 0/2 [RUN_MISMATCH]`,
    );
    expect(readFileSync(checkpoint, 'utf8')).toBe(before);
  });

  it.each([
    [['--shard', '4/4'], /--shard must be I\/N with 0 <= I < N/],
    [['--shard', 'one/two'], /--shard must be I\/N/],
    [['--shard', '0/10'], /--shard 0\/10: the run has 9 game\(s\), so at most 9 shards/],
    [['--shard', '0/2'], /--shard needs --out FILE/],
    [['--checkpoint-every', '5'], /--checkpoint-every needs --checkpoint FILE/],
    [['--checkpoint-every', '0', '--checkpoint', 'x.json'], /--checkpoint-every must be/],
    [['--out', 'same.json', '--checkpoint', 'same.json'], /must be different files/],
  ])('full play %j is a usage error (exit 2)', async (extra, message) => {
    const run = await runCli([...RUNS['full play'](), ...extra]);
    expect(run.err).toMatch(message);
    expect(run.code).toBe(2);
  });

  it('merge without files is a usage error (exit 2)', async () => {
    const run = await runCli(['merge']);
    expect(run.code).toBe(2);
    expect(run.err).toMatch(/missing required argument 'files'/);
  });
});

describe('the shipped scripts and manifests', { timeout: 300_000 }, () => {
  it.each(Object.keys(RUNS) as Command[])(
    'deploy/parallel/run.sh: %s as 4 local shard processes prints the unsharded run',
    async (command) => {
      const out = sub();
      const run = await runScript('deploy/parallel/run.sh', ['4', out, ...RUNS[command](), '--json'], {});
      expect(run.code, run.err).toBe(0);
      const whole = await runCli([...RUNS[command](), '--json']);
      expect(withoutTimes(run.out)).toEqual(withoutTimes(whole.out));
      expect(readdirSync(out).filter((f) => /^shard-\d\.json$/.test(f))).toHaveLength(4);
      expect(existsSync(join(out, 'merged.json'))).toBe(true);
    },
  );

  it.each(['bench survival', 'full play'] as const)(
    'deploy/slurm: %s as two array tasks and the merge job print the unsharded run',
    async (command) => {
      const out = sub();
      const tasks = await Promise.all(
        [0, 1].map((i) =>
          runScript('deploy/slurm/survival.sbatch', RUNS[command](), {
            SLURM_ARRAY_TASK_ID: String(i),
            SLURM_ARRAY_TASK_COUNT: '2',
            SLURM_CPUS_PER_TASK: '1',
            OUT: out,
          }),
        ),
      );
      for (const t of tasks) expect(t.code, t.err).toBe(0);
      const merged = await runScript('deploy/slurm/merge.sbatch', [], { OUT: out });
      expect(merged.code, merged.err).toBe(0);
      const whole = await runCli(RUNS[command]());
      expect(textWithoutTimes(command, merged.out)).toBe(textWithoutTimes(command, whole.out));
    },
  );

  it('deploy/k8s: the Indexed Job picks its shard from JOB_COMPLETION_INDEX and the manifests parse', () => {
    const docs = parseAllDocuments(readFileSync(join(ROOT, 'deploy/k8s/indexed-job.yaml'), 'utf8'));
    for (const doc of docs) expect(doc.errors).toEqual([]);
    const job = docs.map((d) => d.toJS()).find((d) => d.kind === 'Job');
    expect(job.spec.completionMode).toBe('Indexed');
    const container = job.spec.template.spec.containers[0];
    const shards = container.env.find((e: { name: string }) => e.name === 'SHARDS').value;
    expect(job.spec.completions).toBe(Number(shards));
    expect(job.spec.parallelism).toBe(Number(shards));
    expect(container.args.join(' ')).toContain('--shard "$JOB_COMPLETION_INDEX/$SHARDS"');
    const claim = job.spec.template.spec.volumes[0].persistentVolumeClaim.claimName;
    expect(docs.map((d) => d.toJS()).find((d) => d.kind === 'PersistentVolumeClaim').metadata.name).toBe(claim);
    const merge = parseAllDocuments(readFileSync(join(ROOT, 'deploy/k8s/merge-job.yaml'), 'utf8'));
    for (const doc of merge) expect(doc.errors).toEqual([]);
    expect(merge[0].toJS().spec.template.spec.containers[0].args.join(' ')).toMatch(/stackrank merge/);
  });
});
