/**
 * What every `stackrank` command shares (docs/cli.md): --help from the option table, JSON Lines under --json, exit
 * codes (2 usage, 1 runtime, 130 interrupted), output paths checked before the work, results kept when a late
 * write fails, and the same range for the same option everywhere. In-process, with captured output.
 */
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { COMMANDS, GROUPS } from '../../src/cli/commands.js';
import { flagName, type OptionSpec } from '../../src/cli/spec.js';
import { MAX_THREADS } from '../../src/threads.js';
import { RANDOMIZER_NAMES } from '../../src/randomizers/index.js';
import { MAX_SEED } from '../../src/random.js';
import { MAX_DENOMINATOR, MIN_DENOMINATOR } from '../../src/randomizers/decay.js';
import { buildPreviewTable } from '../../src/rank/preview.js';
import { buildRankTable } from '../../src/rank/table.js';
import { runCli, runInFreshFolder } from '../helpers/cli.js';

const tmp = () => mkdtempSync(join(tmpdir(), 'stackrank-cli-conv-'));
// Relative names (a misspelt preset, a missing weights file) are looked up in a folder of this file's own.
runInFreshFolder('stackrank-cli-conv-cwd-');

let table4: string; // a 4-column table: surfaces have 3 digits
beforeAll(async () => {
  table4 = join(tmp(), 'w4.srk');
  await (await buildRankTable({ width: 4, maxStep: 2, iterations: 2, threads: 1 })).save(table4);
});

/** A command's --help, one string per option: its lines joined, the wrapping undone. */
function helpEntries(help: string): string[] {
  const lines = help.split('\n');
  const entries: string[] = [];
  for (const line of lines.slice(lines.indexOf('Options:') + 1)) {
    if (/^ {2}(-\w, )?--/.test(line)) entries.push(line.trim().replace(/^-\w, /, ''));
    else if (/^ {3,}\S/.test(line) && entries.length) entries[entries.length - 1] += ` ${line.trim()}`;
    else if (line.trim() !== '') break;
  }
  return entries.map((e) => e.replace(/\s+/g, ' '));
}

/** The range an option's help must give (docs/cli.md: "Each command's --help gives the range"), spelt out here. */
function expectedRange(option: OptionSpec): string | undefined {
  if (option.type === 'int' || option.type === 'intList')
    return option.max === Number.MAX_SAFE_INTEGER ? `≥ ${option.min}` : `${option.min}..${option.max}`;
  if (option.type !== 'number') return undefined;
  if (option.min === undefined) return `> ${option.above}`;
  return option.max === undefined ? `≥ ${option.min}` : `${option.min}..${option.max}`;
}

/** How the help shows a default given in the option table (a list comma-separated); undefined: none. */
function defaultShown(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  return Array.isArray(value) ? value.join(',') : String(value);
}

describe('--help comes from the option table', () => {
  it.each(COMMANDS.map((c) => [c.path, c] as const))(
    'stackrank %s --help lists every option with its range and default',
    async (path, spec) => {
      const run = await runCli([...path.split(' '), '--help']);
      expect(run.code).toBe(0);
      expect(run.err).toBe('');
      expect(run.out.startsWith(`Usage: stackrank ${path} [options]`)).toBe(true);
      const entries = helpEntries(run.out);
      for (const [key, option] of Object.entries(spec.options as Record<string, OptionSpec>)) {
        const flag = `--${flagName(key)}`;
        const entry = entries.find((e) => e === flag || e.startsWith(`${flag} `));
        expect(entry, `${flag} in the help of ${path}`).toBeDefined();
        const range = expectedRange(option);
        if (range) expect(entry, `${flag}'s range in the help of ${path}`).toContain(`[${range}]`);
        const shown = option.defaultHelp ?? ('default' in option ? defaultShown(option.default) : undefined);
        if (shown !== undefined)
          expect(entry, `${flag}'s default in the help of ${path}`).toContain(`(default: ${shown})`);
      }
      expect(run.out).toMatch(/^\s+--json\s/m);
      expect(run.out).toMatch(/^\s+-h, --help\s/m);
    },
  );

  it('stackrank --help lists every command and group; a group lists its subcommands', async () => {
    const root = await runCli(['--help']);
    expect(root.code).toBe(0);
    const tops = new Set(COMMANDS.map((c) => c.path.split(' ')[0]));
    for (const top of tops) expect(root.out).toMatch(new RegExp(`^  ${top}\\b`, 'm'));
    for (const [group, summary] of Object.entries(GROUPS)) {
      expect(root.out).toContain(summary);
      const help = await runCli([group, '--help']);
      expect(help.code).toBe(0);
      for (const c of COMMANDS.filter((c) => c.path.startsWith(group + ' ')))
        expect(help.out).toMatch(new RegExp(`^  ${c.path.split(' ')[1]}\\b`, 'm'));
    }
    const helpCommand = await runCli(['help', 'queue']);
    expect(helpCommand.out).toMatch(/^Usage: stackrank queue \[options\] <name>/);
  });

  it('the help command prints the help of the command it names and exits 0', async () => {
    // It used to add "a command is needed" and exit 2, and to read only the first name (help table build: table's).
    for (const [argv, usage] of [
      [['help'], 'Usage: stackrank <command> [options]'],
      [['help', 'queue'], 'Usage: stackrank queue [options] <name>'],
      [['help', 'table'], 'Usage: stackrank table [options] [command]'],
      [['help', 'table', 'build'], 'Usage: stackrank table build [options]'],
      [['table', 'help', 'build'], 'Usage: stackrank table build [options]'],
      [['table', 'help'], 'Usage: stackrank table [options] [command]'],
      [['help', 'full', 'train'], 'Usage: stackrank full train [options]'],
      [['bench', 'help', 'survival'], 'Usage: stackrank bench survival [options]'],
    ] as const) {
      const run = await runCli([...argv]);
      expect(run.code, argv.join(' ')).toBe(0);
      expect(run.err, argv.join(' ')).toBe('');
      expect(run.out.split('\n')[0], argv.join(' ')).toBe(usage);
      // the same text as --help
      const flag = await runCli([...argv.filter((w) => w !== 'help'), '--help']);
      expect(run.out, argv.join(' ')).toBe(flag.out);
    }
  });

  it('--help or -h wins over the other options, a bad value among them included', async () => {
    for (const argv of [
      ['table', 'build', '--help', '--width', '99'],
      ['table', 'build', '--width', '99', '-h'],
      ['bench', 'survival', '--lookahead', '1,1', '--help'],
    ]) {
      const run = await runCli(argv);
      expect([run.code, run.err], argv.join(' ')).toEqual([0, '']);
      expect(run.out, argv.join(' ')).toBe((await runCli([...argv.slice(0, 2), '--help'])).out);
    }
  });

  it('the help command names an unknown command as a usage error (2)', async () => {
    const unknown = await runCli(['help', 'tabel']);
    expect(unknown.code).toBe(2);
    expect(unknown.err).toBe("stackrank: unknown command 'tabel' (Did you mean table?)");
    const sub = await runCli(['help', 'table', 'nosuch']);
    expect(sub.code).toBe(2);
    expect(sub.err).toBe("stackrank table: unknown command 'nosuch'; commands are build, info, rank");
    expect(sub.out).toBe('');
  });

  it('no command, or a group without its subcommand, is a usage error (2) with the help on stderr', async () => {
    for (const argv of [[], ['table'], ['bench'], ['full']]) {
      const run = await runCli(argv);
      expect(run.code).toBe(2);
      expect(run.out).toBe('');
      expect(run.err).toMatch(/^Usage: stackrank/);
      expect(run.err.split('\n').at(-1)).toMatch(/: a (sub)?command is needed/);
    }
  });
});

describe('--version', () => {
  it("prints package.json's version and exits 0", async () => {
    const { version } = JSON.parse(readFileSync(join(__dirname, '../../package.json'), 'utf8'));
    expect(version).toMatch(/^\d+\.\d+\.\d+/);
    const run = await runCli(['--version']);
    expect([run.code, run.out, run.err]).toEqual([0, version, '']);
  });
});

describe('usage errors exit 2 with one line', () => {
  it.each([
    // An unknown name with no close match says what is allowed; a close match is suggested instead.
    [
      ['bogus'],
      "stackrank: unknown command 'bogus'; commands are table, bench, play, analyze, full, merge, randomizers, queue, demo, tbp",
    ],
    [['table', 'bogus'], "stackrank table: unknown command 'bogus'; commands are build, info, rank"],
    [['-x'], "stackrank: unknown option '-x'; options are --version, --help"],
    [['bench', '-x'], "stackrank bench: unknown option '-x'; options are --help"],
    [
      ['queue', 'tgm1', '--bogus'],
      "stackrank queue: unknown option '--bogus'; options are --seed, --count, --denominator, --json, --help",
    ],
    [
      ['table', 'build', '--iteration', '3'],
      "stackrank table build: unknown option '--iteration' (Did you mean --iterations?)",
    ],
    // A negative number is a value (then out of range), not an "ambiguous argument".
    [['table', 'build', '--width', '-1'], 'stackrank table build: --width must be an integer from 4 to 9; got "-1"'],
    [
      ['bench', 'survival', '--seed', '-5'],
      `stackrank bench survival: --seed must be an integer from 0 to ${MAX_SEED}; got "-5"`,
    ],
    [['table', 'build', '--out', ''], 'stackrank table build: --out needs a non-empty file name'],
    [['full', 'train', '--out', ' '], 'stackrank full train: --out needs a non-empty file name'],
    [['full', 'play', '--weights', ''], 'stackrank full play: --weights needs a non-empty value'],
    [
      ['full', 'train', '--population', '5', '--tournament', '6'],
      'stackrank full train: --tournament (6) must not exceed --population (5)',
    ],
    [
      ['bench', 'survival', '--threads', String(MAX_THREADS + 1)],
      `stackrank bench survival: --threads must be an integer from 1 to ${MAX_THREADS}; got "${MAX_THREADS + 1}"`,
    ],
    [
      ['play', '--table', 'x.srk', '--iterations', '3'],
      'stackrank play: --iterations picks the cached table; it does not go with --table FILE',
    ],
    // a value that is not one of the choices is refused with the choices
    [
      ['bench', 'survival', '--strategy', 'expectimax2'],
      'stackrank bench survival: --strategy must be one of rank, expectimax, best; got "expectimax2"',
    ],
    [
      ['bench', 'survival', '--unknown-pieces', '2'],
      'stackrank bench survival: --unknown-pieces needs --strategy expectimax (best sets its own)',
    ],
    [
      ['bench', 'survival', '--lookahead', '1,0,1'],
      'stackrank bench survival: --lookahead lists each value once; got 1 twice in "1,0,1"',
    ],
    [
      ['bench', 'survival', '--strategy', 'expectimax', '--unknown-pieces', '3'],
      'stackrank bench survival: --unknown-pieces must be an integer from 1 to 2; got "3"',
    ],
    [
      ['full', 'play', '--weights', 'seedGA'],
      'stackrank full play: --weights must be a preset (cs3243, cs3243Prose, dellacherie, bcts) or a JSON file; "seedGA" is neither',
    ],
    [
      ['full', 'train', '--features', 'seedCode'],
      'stackrank full train: --features must be one of cs3243, cs3243Prose, dellacherie, bcts; got "seedCode"',
    ],
    // the decay generator's own lower bound (it used to be advertised as > 0, and 0.5 failed in the library)
    [
      ['queue', 'decay', '--denominator', '0.5'],
      'stackrank queue: --denominator must be a number from 1 to 1e+300; got "0.5"',
    ],
    [
      ['randomizers', '--denominator', '0.999'],
      'stackrank randomizers: --denominator must be a number from 1 to 1e+300; got "0.999"',
    ],
    [
      ['table', 'build', '--variant', 'preview', '--randomizer', 'decay', '--denominator', '0'],
      'stackrank table build: --denominator must be a number from 1 to 1e+300; got "0"',
    ],
    // a bare word that is not a preset nor a file: a misspelt preset
    [
      ['full', 'play', '--weights', 'cs3234'],
      'stackrank full play: --weights must be a preset (cs3243, cs3243Prose, dellacherie, bcts) or a JSON file; "cs3234" is neither',
    ],
  ])('%j', async (argv, message) => {
    const cache = tmp();
    const run = await runCli(argv, { XDG_CACHE_HOME: cache });
    expect(run.code).toBe(2);
    expect(run.err).toBe(message);
    expect(run.out).toBe('');
    expect(readdirSync(cache)).toEqual([]); // --out '' used to fall back to the cache and build there
  });

  it('a malformed surface is bad input (2) whether too short or too long', async () => {
    const short = await runCli(['table', 'rank', table4, '22']);
    const long = await runCli(['table', 'rank', table4, '22222']);
    const bad = await runCli(['table', 'rank', table4, '2x2']);
    expect([short.code, long.code, bad.code]).toEqual([2, 2, 2]);
    expect(short.err).toMatch(/^stackrank table rank: "22" is not a surface of this table: /);
    expect(long.err).toBe('stackrank table rank: "22222" has 5 digits; this table needs 3');
    const good = await runCli(['table', 'rank', table4, '222', '--json']);
    expect(good.code).toBe(0);
    expect(JSON.parse(good.out)).toMatchObject({ digits: '222' });
  });
});

describe('full train --tournament', () => {
  it('a population below the default tournament size trains (the tournament is capped at the population)', async () => {
    const run = await runCli([
      'full',
      'train',
      '--population',
      '5',
      '--generations',
      '1',
      '--games-per-eval',
      '1',
      '--board-height',
      '6',
      '--max-pieces',
      '200',
      '--json',
    ]);
    expect(run.err).toBe('');
    expect(run.code).toBe(0);
    expect(JSON.parse(run.out).options).toMatchObject({ population: 5, tournament: 5 });
    const chosen = await runCli([
      'full',
      'train',
      '--population',
      '6',
      '--tournament',
      '3',
      '--generations',
      '1',
      '--games-per-eval',
      '1',
      '--board-height',
      '6',
      '--max-pieces',
      '200',
      '--json',
    ]);
    expect(JSON.parse(chosen.out).options).toMatchObject({ population: 6, tournament: 3 });
  });
});

describe('output paths are checked before the work starts', () => {
  // A folder that does not exist: inside a fresh folder of this test's own (a fixed path such as /nonexistent-dir
  // may exist on the machine, and the commands would then write into it).
  const missing = join(tmp(), 'missing-dir');
  it.each([
    [
      'table build --out',
      ['table', 'build', '--width', '4', '--out', join(missing, 't.srk')],
      `stackrank table build: --out: directory ${missing} does not exist`,
    ],
    [
      'full train --checkpoint',
      ['full', 'train', '--checkpoint', join(missing, 'ck.json')],
      `stackrank full train: --checkpoint: directory ${missing} does not exist`,
    ],
    [
      'full train --out',
      ['full', 'train', '--out', join(missing, 'w.json')],
      `stackrank full train: --out: directory ${missing} does not exist`,
    ],
  ])('%s in a missing folder', async (_name, argv, message) => {
    const run = await runCli(argv);
    expect(run.code).toBe(2);
    expect(run.err).toBe(message);
    expect(run.out).toBe(''); // no generation row, no table: nothing ran
    expect(run.statuses).toEqual([]);
  });

  it('--plots under a file, and --out naming a directory, are refused up front', async () => {
    const dir = tmp();
    const file = join(dir, 'file');
    writeFileSync(file, 'x');
    const plots = await runCli(['randomizers', '--pieces', '1000', '--plots', join(file, 'plots')]);
    expect(plots.code).toBe(2);
    expect(plots.err).toBe(`stackrank randomizers: --plots: ${file} is not a directory`);
    expect(plots.out).toBe('');
    const out = await runCli(['table', 'build', '--width', '4', '--out', dir]);
    expect(out.code).toBe(2);
    expect(out.err).toBe(`stackrank table build: --out: ${dir} is a directory; give a file name`);
  });
});

describe('a file to write is never a file the command reads', () => {
  it('--out over --table (another spelling, a link) or over a merge input is refused and leaves the file', async () => {
    const dir = tmp();
    const table = join(dir, 't4.srk');
    await (await buildRankTable({ width: 4, maxStep: 4, iterations: 2, threads: 1 })).save(table);
    const bytes = readFileSync(table);
    symlinkSync(table, join(dir, 'link.srk'));
    const survival = ['bench', 'survival', '--lookahead', '0', '--games', '2', '--max-pieces', '300', '--threads', '1'];
    for (const [given, out] of [
      [table, `${dir}/./t4.srk`],
      [join(dir, 'link.srk'), table],
    ]) {
      const run = await runCli([...survival, '--table', given, '--out', out]);
      expect(run.code).toBe(2);
      expect(run.err).toBe(`stackrank bench survival: --out: ${out} is the file --table reads; give another file name`);
      expect(run.out).toBe('');
      expect(readFileSync(table)).toEqual(bytes);
    }
    const shard = join(dir, 's0.json');
    expect((await runCli([...survival, '--table', table, '--out', shard])).code).toBe(0);
    const merged = await runCli(['merge', shard, '--out', shard]);
    expect(merged.code).toBe(2);
    expect(merged.err).toBe(`stackrank merge: --out: ${shard} is the file merge reads; give another file name`);
  });
});

describe('--plots DIR is made like mkdir -p', () => {
  it('every missing directory above it is created (docs/cli.md, "Output files")', async () => {
    const dir = tmp();
    const plots = join(dir, 'a', 'b', 'c');
    const run = await runCli(['randomizers', '--pieces', '1000', '--plots', plots]);
    expect(run.code).toBe(0);
    expect(readdirSync(plots).filter((f) => f.endsWith('.svg')).length).toBeGreaterThan(0);
    const docs = readFileSync(join(__dirname, '../../docs/cli.md'), 'utf8').replace(/\s+/g, ' ');
    expect(docs).toContain('A `--plots` directory is created with every missing directory above it (like `mkdir -p`');
    expect(docs).not.toContain('created if missing under a writable parent');
  });
});

describe('files to read', () => {
  it('full play --weights: a path that cannot be read is IO (1); a bare word that is no preset nor file is usage (2)', async () => {
    const dir = tmp();
    const missing = join(dir, 'missing.json');
    const file = await runCli(['full', 'play', '--weights', missing]);
    expect(file.code).toBe(1);
    expect(file.err).toMatch(
      new RegExp(`^stackrank full play: --weights: could not read weights file ${missing}: no such file \\[IO\\]$`),
    );
    const relative = await runCli(['full', 'play', '--weights', 'missing-weights.json']);
    expect(relative.code).toBe(1);
    expect(relative.err).toMatch(
      /^stackrank full play: --weights: could not read weights file missing-weights\.json: .*\[IO\]$/,
    );
    const directory = await runCli(['full', 'play', '--weights', dir]);
    expect(directory.code).toBe(1);
    expect(directory.err).toMatch(/^stackrank full play: --weights: could not read .*: not a regular file .*\[IO\]$/);
    const word = await runCli(['full', 'play', '--weights', 'nosuchpreset']);
    expect(word.code).toBe(2);
    expect(word.err).toMatch(/--weights must be a preset \(.*\) or a JSON file; "nosuchpreset" is neither$/);
    for (const run of [file, relative, directory, word]) expect(run.out).toBe('');
  });

  it('--table with a preview table file says what the CLI takes instead, not which library function loads it', async () => {
    const file = join(tmp(), 'preview.srk');
    const preview = await buildPreviewTable({
      width: 4,
      maxStep: 2,
      iterations: 2,
      randomizer: 'memoryless',
      samples: 1000,
      threads: 1,
    });
    await preview.save(file);
    const survival = await runCli(['bench', 'survival', '--table', file, '--games', '1']);
    expect(survival.code).toBe(1);
    expect(survival.err).not.toMatch(/loadPreviewTable/);
    expect(survival.err).toBe(
      `stackrank bench survival: --table ${file} is a preview table (8 values per surface), not a rank table: give a rank table file (stackrank table build --variant article, weighted or 20g --out FILE), or leave --table out to use the cached rank table; preview tables are the search's leaves with --leaf preview, which uses the cached one (built there on first use) [TABLE_MISMATCH]`,
    );
    // play has no --leaf: the message does not offer it
    const play = await runCli(['play', '--table', file]);
    expect(play.code).toBe(1);
    expect(play.err).toMatch(/is a preview table .* to use the cached rank table \[TABLE_MISMATCH\]$/);
    expect(play.err).not.toMatch(/--leaf|loadPreviewTable/);
  });
});

describe('docs/cli.md says what the code does', () => {
  const docs = () => readFileSync(join(__dirname, '../../docs/cli.md'), 'utf8');

  it('the JSON paragraph names every command, and analyze among the commands that print rows', () => {
    const text = docs().replace(/\s+/g, ' ');
    const paragraph = text.slice(text.indexOf('**JSON.**'), text.indexOf('```', text.indexOf('**JSON.**')));
    const [rows, single] = paragraph.split('Every other command prints exactly one object');
    expect(single).toBeDefined();
    for (const c of COMMANDS)
      expect(`${rows} ${single}`, `${c.path} in the JSON paragraph`).toMatch(new RegExp(`\`${c.path}\``));
    expect(rows).toContain('`analyze` (one per placement');
    expect(single).not.toContain('`analyze`');
  });

  it('the Ctrl-C paragraph gives the startup with measured figures', () => {
    const text = docs().replace(/\s+/g, ' ');
    const paragraph = text.slice(text.indexOf('**Ctrl-C.**'), text.indexOf('**Long runs on many machines.**'));
    expect(paragraph).toContain('Startup is interrupted as promptly');
    expect(paragraph).toContain('the copy runs in slices and stops at the next one');
    expect(paragraph).toMatch(/\| 0\.15 s \| \d+–\d+ ms \| \d+–\d+ ms \|/);
  });

  it('the help command and the --weights rule are described', () => {
    const text = docs().replace(/\s+/g, ' ');
    expect(text).toContain('npx stackrank help table build');
    expect(text).toContain('| 0 | done (also after `--help` and `help [COMMAND...]`) |');
    expect(text).toContain('`full play --weights` also takes a preset name');
  });
});

describe('a write that fails after the work keeps the result and says where', () => {
  it('full train --out: the directory vanishes during training', async () => {
    const dir = tmp();
    const out: string[] = [];
    const err: string[] = [];
    const { main } = await import('../../src/cli.js');
    const code = await main(
      [
        'full',
        'train',
        '--population',
        '4',
        '--generations',
        '2',
        '--games-per-eval',
        '1',
        '--board-height',
        '6',
        '--max-pieces',
        '200',
        '--out',
        join(dir, 'w.json'),
      ],
      {
        out: (l) => {
          out.push(l);
          if (/^\s+1\s/.test(l)) rmSync(dir, { recursive: true }); // after generation 1
        },
        err: (l) => err.push(l),
        status: () => {},
        isTTY: false,
        env: {},
      },
    );
    expect(code).toBe(1);
    const kept = /it was kept in (\S+) \[IO\]$/.exec(err.join('\n'))?.[1];
    expect(err.join('\n')).toMatch(
      /^stackrank full train: could not write the trained weights to .*w\.json \(.*ENOENT.*\); it was kept in \S+ \[IO\]$/,
    );
    expect(kept).toBeDefined();
    const saved = JSON.parse(readFileSync(kept!, 'utf8'));
    expect(saved.best.weights).toHaveLength(8);
    expect(saved.history).toHaveLength(2);
  });

  it('full train --checkpoint: when the directory vanishes, checkpoints go to a temp file, training goes on, and the end is exit 1 naming it', async () => {
    const dir = tmp();
    const err: string[] = [];
    const { main } = await import('../../src/cli.js');
    const code = await main(
      [
        'full',
        'train',
        '--population',
        '4',
        '--generations',
        '3',
        '--games-per-eval',
        '1',
        '--board-height',
        '6',
        '--max-pieces',
        '200',
        '--checkpoint',
        join(dir, 'ck.json'),
      ],
      {
        out: (l) => {
          if (/^\s+1\s/.test(l)) rmSync(dir, { recursive: true });
        },
        err: (l) => err.push(l),
        status: () => {},
        isTTY: false,
        env: {},
      },
    );
    // Without --out the checkpoint is the run's only result file: not where asked is exit 1, as for --out.
    expect(code).toBe(1);
    expect(err).toHaveLength(2);
    const kept =
      /^stackrank full train: could not write the checkpoint to .*ck\.json \(.*ENOENT.*\); writing it to (\S+) instead$/.exec(
        err[0],
      )?.[1];
    expect(kept, err[0]).toBeDefined();
    expect(err[1]).toBe(
      `stackrank full train: could not write the checkpoint to ${join(dir, 'ck.json')} (ENOENT: directory ${dir} does not exist (any more)); it was kept in ${kept} [IO]`,
    );
    const checkpoint = JSON.parse(readFileSync(kept!, 'utf8'));
    expect(checkpoint.format).toBe('stackrank-ga');
    expect(checkpoint.generation).toBe(3);
  });

  it('a shard whose only result file is its checkpoint: the folder vanishes mid-run, exit 1 names the kept file, which merges', async () => {
    const dir = tmp();
    mkdirSync(join(dir, 'sub'));
    const checkpoint = join(dir, 'sub', 's0.json');
    const args = ['bench', 'survival', '--table', table4, '--lookahead', '0,1', '--games', '4'];
    const run = [...args, '--max-pieces', '400', '--threads', '1', '--json'];
    const err: string[] = [];
    const { main } = await import('../../src/cli.js');
    const code = await main([...run, '--shard', '0/2', '--checkpoint', checkpoint], {
      out: () => {
        // After the first lookahead's row: the second one is saved to a temporary file.
        if (existsSync(join(dir, 'sub'))) {
          rmSync(join(dir, 'sub'), { recursive: true });
          writeFileSync(join(dir, 'sub'), 'not a directory');
        }
      },
      err: (l) => err.push(l),
      status: () => {},
      isTTY: false,
      env: {},
    });
    expect(code).toBe(1);
    const last = err.at(-1)!;
    const kept =
      /^stackrank bench survival: could not write the checkpoint to .*s0\.json \(.*\); it was kept in (\S+) \[IO\]$/.exec(
        last,
      )?.[1];
    expect(kept, err.join('\n')).toBeDefined();
    const other = join(dir, 's1.json');
    expect((await runCli([...run, '--shard', '1/2', '--out', other])).code).toBe(0);
    const merged = await runCli(['merge', kept!, other, '--json']);
    expect(merged.code, merged.err).toBe(0);
    expect(merged.out.split('\n')).toHaveLength(2);
  });

  it('table build --out: the directory is replaced by a file during the build', async () => {
    const dir = tmp();
    const { main } = await import('../../src/cli.js');
    const err: string[] = [];
    mkdirSync(join(dir, 'sub'));
    const code = await main(
      [
        'table',
        'build',
        '--width',
        '4',
        '--max-step',
        '2',
        '--iterations',
        '2',
        '--threads',
        '1',
        '--out',
        join(dir, 'sub', 't.srk'),
      ],
      {
        out: () => {},
        err: (l) => err.push(l),
        status: (l) => {
          if (/iteration 1\//.test(l) && existsSync(join(dir, 'sub'))) {
            rmSync(join(dir, 'sub'), { recursive: true });
            writeFileSync(join(dir, 'sub'), 'not a directory');
          }
        },
        isTTY: false,
        env: {},
      },
    );
    expect(code).toBe(1);
    const kept = /it was kept in (\S+) \[IO\]$/.exec(err.join('\n'))?.[1];
    expect(kept, err.join('\n')).toBeDefined();
    const info = await runCli(['table', 'info', kept!, '--json']);
    expect(JSON.parse(info.out)).toMatchObject({ width: 4, maxStep: 2, iterations: 2 });
  });
});

describe('JSON Lines: one object per line, rows one per line', () => {
  it.each([
    [['table', 'rank', 'TABLE', '222', '111', '--json'], 2],
    [['randomizers', '--pieces', '1000', '--json'], RANDOMIZER_NAMES.length],
    [['queue', 'bag7', '--count', '14', '--json'], 1],
    [['table', 'info', 'TABLE', '--json'], 1],
    [['full', 'play', '--games', '2', '--max-lines', '20', '--json'], 1],
  ])('%j prints %i object lines', async (argv, lines) => {
    const run = await runCli(argv.map((a) => (a === 'TABLE' ? table4 : a)) as string[]);
    expect(run.code).toBe(0);
    const parsed = run.out.split('\n').map((l) => JSON.parse(l));
    expect(parsed).toHaveLength(lines as number);
    for (const p of parsed) expect(p !== null && typeof p === 'object' && !Array.isArray(p)).toBe(true);
  });
});

describe('interrupts exit 130 and leave nothing half-written', () => {
  it('randomizers stops mid-analysis and writes no plot', async () => {
    const dir = tmp();
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const started = performance.now();
    const run = await runCli(
      ['randomizers', '--pieces', '100000000', '--plots', join(dir, 'plots')],
      {},
      controller.signal,
    );
    expect(run.code).toBe(130);
    expect(run.err).toBe('stackrank randomizers: interrupted');
    expect(performance.now() - started).toBeLessThan(5000); // the whole analysis would take minutes
    expect(readdirSync(dir)).toEqual([]);
  });

  it('full play stops mid-game', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const run = await runCli(['full', 'play', '--games', '1000', '--json'], {}, controller.signal);
    expect(run.code).toBe(130);
    expect(run.err).toBe('stackrank full play: interrupted');
    expect(run.out).toBe('');
  });
});

describe('Ctrl-C as the results are written: no file and 130, or every file and 0, never both', () => {
  /** Runs the command in-process; `abortWhen` sees each status line and aborts the signal when it returns true. */
  async function runAborting(argv: string[], env: Record<string, string>, abortWhen: (status: string) => boolean) {
    const controller = new AbortController();
    const err: string[] = [];
    const { main } = await import('../../src/cli.js');
    const code = await main(argv, {
      out: () => {},
      err: (l) => err.push(l),
      status: (l) => {
        if (!controller.signal.aborted && abortWhen(l)) controller.abort();
      },
      isTTY: false,
      env,
      signal: controller.signal,
    });
    expect(controller.signal.aborted, 'the hook aborted the signal').toBe(true);
    return { code, err: err.join('\n') };
  }

  const TABLE = ['table', 'build', '--width', '4', '--max-step', '2', '--iterations', '2', '--threads', '1'];
  const PREVIEW = [...TABLE, '--variant', 'preview', '--samples', '1000'];
  // The last iteration's progress comes as the build ends, before the table is written; the status is cleared ('')
  // once it is written.
  const lastIteration = (l: string) => /iteration 2\/2/.test(l);
  const written = (l: string) => l === '';

  it.each([
    ['table build --out', TABLE, true],
    ['table build --variant preview --out', PREVIEW, true],
    ['table build (the cache)', TABLE, false],
    ['table build --variant preview (the cache)', PREVIEW, false],
  ] as const)('%s', async (_name, argv, toOut) => {
    for (const [when, expected] of [
      [lastIteration, 130],
      [written, 0],
    ] as const) {
      const dir = tmp();
      const env = { XDG_CACHE_HOME: join(dir, 'cache') };
      const run = await runAborting(toOut ? [...argv, '--out', join(dir, 't.srk')] : [...argv], env, when);
      const files = (toOut ? readdirSync(dir).filter((f) => f !== 'cache') : readdirSync(dir, { recursive: true }))
        .map(String)
        .filter((f) => f.endsWith('.srk') || f.endsWith('.tmp'));
      expect(run.code, run.err).toBe(expected);
      if (expected === 130) {
        expect(run.err).toBe('stackrank table build: interrupted');
        expect(files).toEqual([]);
      } else {
        expect(run.err).toBe('');
        expect(files).toHaveLength(1);
        expect(files[0]).toMatch(/\.srk$/);
      }
    }
  });

  it('full play --out: an interrupt as the last game ends writes no result file (the checkpoint keeps the games)', async () => {
    const dir = tmp();
    const controller = new AbortController();
    const err: string[] = [];
    const { main } = await import('../../src/cli.js');
    const argv = ['full', 'play', '--games', '3', '--max-pieces', '50', '--height', '8'];
    const code = await main([...argv, '--out', join(dir, 'r.json'), '--checkpoint', join(dir, 'ck.json')], {
      out: (l) => {
        if (/^game\s+3 /.test(l)) controller.abort();
      },
      err: (l) => err.push(l),
      status: () => {},
      isTTY: false,
      env: {},
      signal: controller.signal,
    });
    expect(code, err.join('\n')).toBe(130);
    expect(readdirSync(dir)).toEqual(['ck.json']);
    // The rerun finds every game in the checkpoint and writes the result file.
    const again = await runCli([...argv, '--out', join(dir, 'r.json'), '--checkpoint', join(dir, 'ck.json')]);
    expect(again.code, again.err).toBe(0);
    expect(readdirSync(dir).sort()).toEqual(['ck.json', 'r.json']);
  });

  it('randomizers --plots: before the plots, none and 130; once they are being written, all of them and 0', async () => {
    const before = tmp();
    const interrupted = await runAborting(
      ['randomizers', '--pieces', '1000', '--plots', join(before, 'p', 'a')],
      {},
      (l) => l === 'drawing plots',
    );
    expect(interrupted.code).toBe(130);
    expect(interrupted.err).toBe('stackrank randomizers: interrupted');
    expect(readdirSync(before)).toEqual([]);
    const after = tmp();
    let drawing = false;
    const finished = await runAborting(
      ['randomizers', '--pieces', '1000', '--plots', join(after, 'p', 'a')],
      {},
      (l) => (drawing ||= l === 'drawing plots') && l === '',
    );
    expect(finished.code, finished.err).toBe(0);
    expect(readdirSync(join(after, 'p', 'a')).filter((f) => f.endsWith('.svg')).length).toBeGreaterThan(0);
    expect(readdirSync(join(after, 'p', 'a')).filter((f) => !f.endsWith('.svg'))).toEqual([]);
  });
});

describe('the same option has the same range in every command', () => {
  // Options whose name is shared by different things: the stacking surface (4..9 columns) and the full board
  // (4..10); stacking lookahead (0..6) and the full-board player's one preview piece (0..1); the stacking game's
  // board (4..63 rows) and the full-board trainer's proxy board (4..24).
  const DIFFERENT_THINGS = new Set(['width', 'lookahead', 'boardHeight']);

  it('choice options offer the same choices', () => {
    // --steep of table build is the iteration's rule (forbid|collapse: --table-steep elsewhere); of bench survival
    // and play, the game's rule.
    const choices = new Map<string, Map<string, string>>();
    for (const c of COMMANDS) {
      for (const [key, o] of Object.entries(c.options as Record<string, OptionSpec>)) {
        if (o.type !== 'choice' || (key === 'steep' && c.path === 'table build')) continue;
        if (!choices.has(key)) choices.set(key, new Map());
        choices.get(key)!.set(c.path, o.choices.join('|'));
      }
    }
    for (const [key, byCommand] of choices)
      expect(new Set(byCommand.values()), `--${flagName(key)}: ${JSON.stringify([...byCommand])}`).toHaveLength(1);
    expect(choices.get('randomizer')!.size).toBeGreaterThanOrEqual(4);
  });

  it('int options agree on min and max', () => {
    const ranges = new Map<string, Map<string, string>>();
    for (const c of COMMANDS) {
      for (const [key, o] of Object.entries(c.options as Record<string, OptionSpec>)) {
        if (o.type !== 'int' || DIFFERENT_THINGS.has(key)) continue;
        if (!ranges.has(key)) ranges.set(key, new Map());
        ranges.get(key)!.set(c.path, `${o.min}..${o.max}`);
      }
    }
    for (const [key, byCommand] of ranges)
      expect(new Set(byCommand.values()), `--${flagName(key)}: ${JSON.stringify([...byCommand])}`).toHaveLength(1);
    expect([...ranges.get('seed')!.values()][0]).toBe(`0..${MAX_SEED}`);
    expect([...ranges.get('threads')!.values()][0]).toBe(`1..${MAX_THREADS}`);
  });

  it("number options agree on their bound; --denominator's is the decay generator's own", async () => {
    const bounds = new Map<string, Map<string, string>>();
    for (const c of COMMANDS) {
      for (const [key, o] of Object.entries(c.options as Record<string, OptionSpec>)) {
        if (o.type !== 'number') continue;
        if (!bounds.has(key)) bounds.set(key, new Map());
        bounds.get(key)!.set(c.path, o.min === undefined ? `> ${o.above}` : `${o.min}..${o.max}`);
      }
    }
    for (const [key, byCommand] of bounds)
      expect(new Set(byCommand.values()), `--${flagName(key)}: ${JSON.stringify([...byCommand])}`).toHaveLength(1);
    const denominator = bounds.get('denominator')!;
    expect([...denominator.keys()].sort()).toEqual(['queue', 'randomizers', 'table build']);
    expect([...denominator.values()][0]).toBe(`${MIN_DENOMINATOR}..${MAX_DENOMINATOR}`);
    for (const path of denominator.keys()) {
      const help = await runCli([...path.split(' '), '--help']);
      expect(help.out.replace(/\s+/g, ' ')).toContain(
        `the decay generator's denominator [${MIN_DENOMINATOR}..${MAX_DENOMINATOR}]`,
      );
    }
    // the bound itself is allowed, and the library takes it
    const least = await runCli(['queue', 'decay', '--denominator', String(MIN_DENOMINATOR), '--count', '7', '--json']);
    expect(least.err).toBe('');
    expect(least.code).toBe(0);
  });
});

describe("the README's Command line section", () => {
  it('names only commands and options that exist', () => {
    const readme = readFileSync(join(__dirname, '../../README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('## Command line'));
    const block = section.slice(section.indexOf('```sh') + 5, section.indexOf('```', section.indexOf('```sh') + 5));
    let current: (typeof COMMANDS)[number] | undefined;
    let checked = 0;
    for (const line of block.split('\n')) {
      if (!line.trim()) continue;
      const words = /^npx stackrank ((?:[a-z]+ ?)+)/.exec(line)?.[1].trim().split(' ');
      if (words) current = COMMANDS.find((c) => words.join(' ').startsWith(c.path));
      expect(current, line).toBeDefined();
      for (const flag of line.replace(/#.*$/, '').match(/--[a-z-]+/g) ?? []) {
        const names = Object.entries(current!.options).flatMap(([key, option]) =>
          'negation' in option && option.negation ? [flagName(key), `no-${flagName(key)}`] : [flagName(key)],
        );
        const keys = [...names, 'json', 'help'];
        expect(keys, `${flag} in README line: ${line}`).toContain(flag.slice(2));
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(20);
  });
});
