/**
 * Fuzz suite over the run files `stackrank merge` pools and `--checkpoint` resumes (docs/file-formats.md, "Run
 * files"): real files of the three commands, damaged at random (a value anywhere replaced by a hostile one or by one
 * of another type, a key dropped or added, a record removed, doubled or swapped, deep nesting, the text cut or a
 * character changed; the node damaged is picked depth first, so a part or a record is as likely as a leaf).
 * Properties: the command exits 0 or 1 (never 70, a stack trace), an exit 1 names its error code, and a resume that
 * exits 0 leaves a checkpoint that merges with the run's other shard.
 *
 * Budget: FUZZ_RUNS (default 1,000) scaled down per property; FUZZ_SEED replays a run (docs/errors.md).
 */
import fc from 'fast-check';
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildRankTable } from '../../src/rank/table.js';
import { runCli } from '../helpers/cli.js';
import { pickByDepth, retyped } from '../helpers/damage.js';

const RUNS = Number(process.env.FUZZ_RUNS ?? 1000);
const SEED = process.env.FUZZ_SEED === undefined ? undefined : Number(process.env.FUZZ_SEED);
// No shrinking: each case runs a command, so the first failing case is reported as found (FUZZ_SEED replays it).
const params = (runs: number) => ({
  numRuns: Math.max(1, Math.round(runs)),
  endOnFailure: true,
  ...(SEED === undefined ? {} : { seed: SEED }),
});
/** FUZZ_TRACE=1 prints each case before it runs (to find one that hangs). */
const trace = (line: string) => process.env.FUZZ_TRACE && process.stderr.write(`${line}\n`);
const counts = new Map<string, number>();
afterAll(() => {
  for (const [name, n] of counts) console.log(`run-files fuzz: ${name}: ${n} cases`);
});

const dir = mkdtempSync(join(tmpdir(), 'stackrank-fuzz-runs-'));
type Command = 'bench game' | 'bench survival' | 'full play';
const ARGS: Record<Command, () => string[]> = {
  'bench game': () => ['bench', 'game', '--table', join(dir, 't9.srk'), '--games', '4', '--max-pieces', '30'],
  'bench survival': () => [
    'bench',
    'survival',
    '--table',
    join(dir, 't6.srk'),
    '--games',
    '4',
    '--max-pieces',
    '200',
    '--lookahead',
    '0,1',
    '--threads',
    '1',
  ],
  'full play': () => ['full', 'play', '--games', '4', '--max-pieces', '50'],
};
const COMMANDS = Object.keys(ARGS) as Command[];
/** The shard files of each command: [shard 0 of 2, shard 1 of 2]. */
const shards = new Map<Command, [string, string]>();
/** Their text. */
const texts = new Map<string, string>();

beforeAll(async () => {
  await (await buildRankTable({ width: 9, maxStep: 3, iterations: 1, threads: 1 })).save(join(dir, 't9.srk'));
  await (await buildRankTable({ width: 6, maxStep: 3, iterations: 2, threads: 1 })).save(join(dir, 't6.srk'));
  for (const command of COMMANDS) {
    const files: string[] = [];
    for (const shard of ['0/2', '1/2']) {
      const file = join(dir, `${command.replace(' ', '-')}-${shard[0]}.json`);
      const run = await runCli([...ARGS[command](), '--shard', shard, '--out', file]);
      expect(run.code, run.err).toBe(0);
      files.push(file);
      texts.set(file, readFileSync(file, 'utf8'));
    }
    shards.set(command, files as [string, string]);
    expect((await runCli(['merge', ...files])).code).toBe(0);
  }
}, 120_000);

/** Values a damaged or hostile file may hold anywhere. */
const junk = fc.oneof(
  fc.constantFrom<unknown>(null, 'x', '', -1, 0, 1, 1.5, 1e308, -0, true, false, [], {}, [null], { game: 0 }, 'nope'),
  fc.integer({ min: -5, max: 2 ** 40 }),
  fc.string({ maxLength: 8 }),
  fc.jsonValue({ maxDepth: 3 }),
);

/** Every path into a JSON value (object keys and array indices), the root excluded. */
function paths(value: unknown, at: (string | number)[] = [], out: (string | number)[][] = []): (string | number)[][] {
  if (value !== null && typeof value === 'object')
    for (const [k, v] of Object.entries(value)) {
      const p = [...at, Array.isArray(value) ? Number(k) : k];
      out.push(p);
      paths(v, p, out);
    }
  return out;
}

type Mutation =
  | { kind: 'set'; pick: number; value: unknown }
  | { kind: 'retype'; pick: number }
  | { kind: 'drop'; pick: number }
  | { kind: 'add'; pick: number; key: string; value: unknown }
  | { kind: 'double' | 'swap'; pick: number }
  | { kind: 'deep'; pick: number; depth: number }
  | { kind: 'cut'; at: number }
  | { kind: 'char'; at: number; char: string };

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant('set' as const), pick: fc.nat(), value: junk }),
  fc.record({ kind: fc.constant('retype' as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant('drop' as const), pick: fc.nat() }),
  fc.record({
    kind: fc.constant('add' as const),
    pick: fc.nat(),
    key: fc.constantFrom('x', 'meta', 'records', 'game', '__proto__', 'policy'),
    value: junk,
  }),
  fc.record({ kind: fc.constantFrom('double' as const, 'swap' as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant('deep' as const), pick: fc.nat(), depth: fc.constantFrom(40, 2000, 10_000) }),
  fc.record({ kind: fc.constant('cut' as const), at: fc.nat() }),
  fc.record({
    kind: fc.constant('char' as const),
    at: fc.nat(),
    char: fc.constantFrom('{', ']', '"', '0', '9', ',', ' '),
  }),
);

/** The text of `text` damaged by `m` (at the node `at` if given, else at the one `m` picks). */
function damage(text: string, m: Mutation, at?: (string | number)[]): string {
  if (m.kind === 'cut') return text.slice(0, m.at % text.length);
  if (m.kind === 'char') {
    const at = m.at % text.length;
    return text.slice(0, at) + m.char + text.slice(at + 1);
  }
  const json = JSON.parse(text);
  const path = at ?? pickByDepth(paths(json), m.pick);
  const parent = path.slice(0, -1).reduce((o: Record<string | number, unknown>, k) => o[k] as never, json);
  const key = path.at(-1)!;
  const value = parent[key];
  switch (m.kind) {
    case 'set':
      parent[key] = m.value;
      break;
    case 'retype':
      parent[key] = retyped(value);
      break;
    case 'drop':
      if (Array.isArray(parent)) parent.splice(key as number, 1);
      else delete parent[key];
      break;
    case 'add':
      if (value !== null && typeof value === 'object' && !Array.isArray(value))
        Object.defineProperty(value, m.key, { value: m.value, enumerable: true, writable: true, configurable: true });
      else if (Array.isArray(value)) value.push(m.value);
      else parent[key] = m.value;
      break;
    case 'double':
    case 'swap':
      if (Array.isArray(parent)) {
        const i = key as number;
        if (m.kind === 'double') parent.splice(i, 0, structuredClone(value));
        else if (i + 1 < parent.length) [parent[i], parent[i + 1]] = [parent[i + 1], parent[i]];
      }
      break;
    case 'deep': {
      let nested: unknown = value;
      for (let d = 0; d < m.depth; d++) nested = [nested];
      parent[key] = nested;
      // JSON.stringify would overflow its own stack on the deepest: write the brackets around the value's text.
      if (m.depth > 1000) {
        parent[key] = '\u0000DEEP\u0000';
        return JSON.stringify(json).replace(
          '"\\u0000DEEP\\u0000"',
          `${'['.repeat(m.depth)}${JSON.stringify(value)}${']'.repeat(m.depth)}`,
        );
      }
      break;
    }
  }
  return JSON.stringify(json);
}

/** Exit 0, or 1 with one line ending in its [CODE]: never 70 (a stack trace). */
function expectHandled(run: { code: number; err: string }, what: string): void {
  expect([0, 1], `${what}: exit ${run.code}: ${run.err}`).toContain(run.code);
  if (run.code === 1) expect(run.err.split('\n').at(-1), what).toMatch(/ \[[A-Z_]+\]$/);
}

describe('damaged run files', () => {
  it('merge: exit 0 or 1 with a code, never a stack trace', async () => {
    let n = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...COMMANDS),
        fc.constantFrom('first', 'second', 'both'),
        fc.array(mutation, { minLength: 1, maxLength: 3 }),
        async (command, which, ms) => {
          n++;
          // One shard damaged, or both the same way: only then do damaged parameters (equal in every shard) reach
          // the printers.
          const files = shards.get(command)!.map((file, i) => {
            if (which !== 'both' && which !== (i === 0 ? 'first' : 'second')) return file;
            let text = texts.get(file)!;
            for (const m of ms) {
              try {
                text = damage(text, m);
              } catch {
                break; // the text no longer parses: damage stops here
              }
            }
            const damaged = join(dir, `damaged-${i}.json`);
            writeFileSync(damaged, text);
            return damaged;
          });
          trace(`merge ${command} ${which}: ${JSON.stringify(ms).slice(0, 200)}`);
          const run = await runCli(['merge', ...files]);
          expectHandled(run, `merge (${which}) with ${JSON.stringify(ms).slice(0, 300)}`);
        },
      ),
      params(RUNS / 10),
    );
    counts.set('merge', n);
  }, 600_000);

  // The damage above picks one node of a file at random: a given node (a file's parts, a part, a record's clears)
  // comes up once in hundreds of cases. Here every node of a shard file is damaged in turn, once each way (a few
  // hundred merges a command, a second or two), whatever FUZZ_RUNS says.
  it('merge: each node of a shard file dropped, made null or retyped: exit 0 or 1 with a code', async () => {
    let n = 0;
    const damaged = join(dir, 'damaged-node.json');
    for (const command of COMMANDS) {
      const [a, b] = shards.get(command)!;
      for (const path of paths(JSON.parse(texts.get(a)!))) {
        for (const m of [
          { kind: 'drop', pick: 0 },
          { kind: 'set', pick: 0, value: null },
          { kind: 'retype', pick: 0 },
        ] as const) {
          n++;
          writeFileSync(damaged, damage(texts.get(a)!, m, path));
          expectHandled(await runCli(['merge', damaged, b]), `merge ${command}: ${path.join('.')} ${m.kind}`);
        }
      }
    }
    counts.set('merge, each node', n);
  }, 600_000);

  it('resume: exit 0 or 1 with a code, and a checkpoint resumed to the end merges', async () => {
    let n = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...COMMANDS),
        fc.array(mutation, { minLength: 1, maxLength: 2 }),
        async (command, ms) => {
          n++;
          const [a, b] = shards.get(command)!;
          const checkpoint = join(dir, 'checkpoint.json');
          let text = texts.get(a)!;
          for (const m of ms) {
            try {
              text = damage(text, m);
            } catch {
              break;
            }
          }
          writeFileSync(checkpoint, text);
          trace(`resume ${command}: ${JSON.stringify(ms).slice(0, 200)}`);
          const run = await runCli([...ARGS[command](), '--shard', '0/2', '--checkpoint', checkpoint]);
          expectHandled(run, `resume with ${JSON.stringify(ms).slice(0, 300)}`);
          if (run.code === 0) {
            const merged = await runCli(['merge', checkpoint, b]);
            expect(merged.code, `the resumed checkpoint does not merge: ${merged.err}`).toBe(0);
          }
          copyFileSync(a, join(dir, 'last-original.json'));
        },
      ),
      params(RUNS / 100),
    );
    counts.set('resume', n);
  }, 600_000);
});
