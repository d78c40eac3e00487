/**
 * Fuzz suite over the public API (everything the entries, src/index.ts, src/research.ts and src/worker.ts, export
 * that can be called or constructed, and the public methods of what they make): hostile inputs (wrong types, objects
 * without a prototype, sparse arrays, BigInts, huge and non-finite numbers, fields that throw when read) and valid
 * ones. Properties: a call returns or throws a StackRankError with a code docs/errors.md lists, and nothing else;
 * valid inputs keep their invariants; no call hangs (async ones race a deadline); no promise rejection goes
 * unhandled; no worker thread outlives a call.
 *
 * Budget: FUZZ_RUNS cases per function (default 1,000 for cheap functions, scaled down for the ones that build
 * tables or play games), seed FUZZ_SEED (default: fast-check's random seed, printed on failure). `npm run fuzz`
 * runs 10,000 per function; `FUZZ_SEED=123 npm run fuzz` replays a run.
 */
import fc from 'fast-check';
import { mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as api from '../helpers/api.js';
import { nodePaths, pickByDepth, retyped } from '../helpers/damage.js';
import { liveWorkerCount } from '../../src/kernels/pool.js';

const RUNS = Number(process.env.FUZZ_RUNS ?? 1000);
const SEED = process.env.FUZZ_SEED === undefined ? undefined : Number(process.env.FUZZ_SEED);
/** Cases per function actually run (reported at the end, for the issue's closing note). */
const counts = new Map<string, number>();

function params(runs: number) {
  return { numRuns: Math.max(1, Math.round(runs)), ...(SEED === undefined ? {} : { seed: SEED }) };
}

const unhandled: unknown[] = [];
const onUnhandled = (e: unknown) => unhandled.push(e);

beforeAll(() => {
  process.on('unhandledRejection', onUnhandled);
});
afterAll(() => {
  process.off('unhandledRejection', onUnhandled);
  const total = [...counts.values()].reduce((a, b) => a + b, 0);
  console.log(
    `fuzz: ${counts.size} functions, ${total} cases (FUZZ_RUNS=${RUNS}${SEED === undefined ? '' : `, FUZZ_SEED=${SEED}`})`,
  );
  for (const [name, n] of counts) console.log(`  ${name}: ${n}`);
});

/** Values a careless or hostile caller might pass anywhere. */
const special = fc.constantFrom<unknown>(
  undefined,
  null,
  Number.NaN,
  Infinity,
  -Infinity,
  -0,
  2 ** 53,
  -1,
  1e308,
  '',
  'T',
  '44444444',
  [],
  {},
  Object.create(null),
  new Array(3),
  [0, , 0], // eslint-disable-line no-sparse-arrays
  1n,
  Symbol('s'),
  () => 1,
  new Uint8Array(4),
  new Float64Array(7),
  { length: 2 ** 32 - 1 },
  { length: 7 },
);
const hostile: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 1, arbitrary: special },
  {
    weight: 3,
    arbitrary: fc.anything({
      maxDepth: 2,
      maxKeys: 4,
      withBigInt: true,
      withBoxedValues: true,
      withNullPrototype: true,
      withSparseArray: true,
      withTypedArray: true,
      withMap: true,
      withSet: true,
      withDate: true,
    }),
  },
);
const smallInt = fc.integer({ min: -3, max: 12 });
const maybe = <T>(a: fc.Arbitrary<T>) => fc.oneof(a, hostile);
/** Mostly left out (undefined, three cases in four), else `a`. */
const rarely = <T>(a: fc.Arbitrary<T>) =>
  fc.oneof({ weight: 3, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: a });
/**
 * A valid object (or argument list), the same with one field (or argument) hostile or left out, or a hostile value:
 * half the cases reach the work behind the checks, the others meet one check at a time (`maybe` on every field
 * makes nearly every case a refusal).
 */
const oneDamaged = <T extends object>(valid: fc.Arbitrary<T>): fc.Arbitrary<unknown> =>
  fc.oneof(
    { weight: 3, arbitrary: valid },
    {
      weight: 2,
      arbitrary: fc.tuple(valid, fc.nat(), hostile, fc.boolean()).map(([v, i, bad, drop]) => {
        const copy = (Array.isArray(v) ? [...v] : { ...v }) as Record<string, unknown>;
        const keys = Object.keys(copy);
        if (keys.length === 0) return copy;
        const key = keys[i % keys.length];
        if (drop && !Array.isArray(v)) delete copy[key];
        else copy[key] = bad;
        return copy;
      }),
    },
    { weight: 1, arbitrary: hostile },
  );

/** The codes docs/errors.md lists (its "Codes" table): the only codes a caller is told to branch on. */
const DOCUMENTED_CODES = new Set(
  [
    ...readFileSync(fileURLToPath(new URL('../../docs/errors.md', import.meta.url)), 'utf8').matchAll(
      /^\| `([A-Z_]+)` \|/gm,
    ),
  ].map((m) => m[1]),
);
/**
 * Codes no fuzz case may end with: every worker here can start and WebAssembly compiles, so WORKER_FAILED or
 * WASM_FAILED means a thread crashed, which is how an exception other than a StackRankError thrown on a worker
 * thread (a TypeError in a game's move) reaches the caller (docs/errors.md, WORKER_FAILED).
 */
const CRASH_CODES = new Set(['WORKER_FAILED', 'WASM_FAILED']);

/** Throws unless `e` is a StackRankError with a documented code (not a crash's) and a message. */
function typedOnly(e: unknown): void {
  if (!(e instanceof api.StackRankError) || e.name !== 'StackRankError' || typeof e.code !== 'string' || !e.message) {
    throw new Error(`not a StackRankError: ${e instanceof Error ? `${e.name}: ${e.message}\n${e.stack}` : String(e)}`);
  }
  if (!DOCUMENTED_CODES.has(e.code) || CRASH_CODES.has(e.code))
    throw new Error(`a StackRankError with code ${e.code}, not a documented refusal: ${e.message}\n${e.stack}`);
}

function callSync(f: () => unknown): unknown {
  try {
    return f();
  } catch (e) {
    typedOnly(e);
    return e;
  }
}

/** Awaits `p` within `ms` (a hang fails the property), accepting only StackRankError rejections. */
async function callAsync(f: () => Promise<unknown>, ms = 20_000): Promise<unknown> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise(
    (_, reject) => (timer = setTimeout(() => reject(new Error(`hang: no answer within ${ms} ms`)), ms)),
  );
  try {
    return await Promise.race([
      (async () => f())().then(
        (v) => v,
        (e) => {
          typedOnly(e);
          return e;
        },
      ),
      deadline,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

function fuzzSync<T extends unknown[]>(
  name: string,
  args: fc.Arbitrary<T>,
  f: (...a: T) => unknown,
  runs = RUNS,
): void {
  it(name, () => {
    let n = 0;
    fc.assert(
      fc.property(args, (a) => {
        n++;
        callSync(() => f(...a));
      }),
      params(runs),
    );
    counts.set(name, n);
  });
}

function fuzzAsync<T extends unknown[]>(
  name: string,
  args: fc.Arbitrary<T>,
  f: (...a: T) => Promise<unknown>,
  runs: number,
  ms?: number,
): void {
  it(name, async () => {
    let n = 0;
    await fc.assert(
      fc.asyncProperty(args, async (a) => {
        n++;
        await callAsync(() => f(...a), ms);
      }),
      params(runs),
    );
    counts.set(name, n);
    for (let i = 0; i < 100 && liveWorkerCount() > 0; i++) await new Promise((r) => setTimeout(r, 20));
    expect(liveWorkerCount()).toBe(0);
    await new Promise((r) => setTimeout(r, 20));
    expect(unhandled).toEqual([]);
  });
}

let table: api.RankTable;
let tableBytes: Uint8Array;
let ai: api.StackingAI;
let preview: api.PreviewTable;
const cacheHome = mkdtempSync(join(tmpdir(), 'stackrank-fuzz-'));
beforeAll(async () => {
  table = await api.buildRankTable({ width: 4, maxStep: 1, iterations: 2, threads: 1 });
  tableBytes = table.toBytes();
  ai = await api.StackingAI.create({ table });
  preview = await api.buildPreviewTable({
    width: 4,
    maxStep: 1,
    iterations: 1,
    threads: 1,
    samples: 1000,
    randomizer: 'tgm1',
  });
});

const surfaceArb = fc.oneof(
  fc.array(fc.integer({ min: 0, max: 25 }), { minLength: 4, maxLength: 4 }),
  fc.array(fc.integer({ min: -6, max: 6 }), { minLength: 3, maxLength: 3 }),
  fc.stringMatching(/^[0-2]{3}$/),
);
const queueArb = fc.oneof(
  fc.stringMatching(/^[IOTSZLJ]{1,4}$/),
  fc.array(fc.constantFrom('I', 'O', 'T', 'S', 'Z', 'L', 'J'), { minLength: 1, maxLength: 4 }),
);

describe('surfaces and pieces', () => {
  fuzzSync(
    'parseSurface',
    fc.tuple(maybe(fc.stringMatching(/^[0-8]{3,8}$/)), maybe(fc.record({ maxStep: maybe(smallInt) }))),
    (d, o) => {
      const s = api.parseSurface(d as string, o as never);
      expect(api.surfaceDigits(s)).toBe(d);
    },
  );
  fuzzSync(
    'surfaceFromSteps',
    fc.tuple(
      maybe(fc.array(maybe(fc.integer({ min: -9, max: 9 })), { maxLength: 10 })),
      maybe(fc.record({ maxStep: maybe(smallInt) })),
    ),
    (st, o) => {
      const s = api.surfaceFromSteps(st as number[], o as never);
      expect(s.steps).toEqual(st);
    },
  );
  fuzzSync(
    'surfaceFromHeights',
    fc.tuple(maybe(fc.array(maybe(fc.integer({ min: 0, max: 30 })), { maxLength: 10 })), hostile),
    (h, o) => {
      const s = api.surfaceFromHeights(h as number[], o as never);
      expect(api.surfaceHeights(s).length).toBe((h as number[]).length);
    },
  );
  fuzzSync(
    'surfaceFromIndex',
    fc.tuple(
      maybe(fc.integer({ min: -10, max: 100_000 })),
      maybe(fc.record({ width: maybe(smallInt), maxStep: maybe(smallInt) })),
    ),
    (i, g) => {
      const s = api.surfaceFromIndex(i as number, g as never);
      expect(api.surfaceIndex(s) === i).toBe(true);
    },
  );
  fuzzSync(
    'surfaceIndex / mirrorSurface / surfaceHeights / surfaceDigits',
    fc.tuple(
      maybe(
        fc.record({
          width: maybe(smallInt),
          maxStep: maybe(smallInt),
          steps: maybe(fc.array(maybe(smallInt), { maxLength: 9 })),
        }),
      ),
      hostile,
    ),
    (s, o) => {
      callSync(() => api.surfaceIndex(s as never, o as never));
      callSync(() => api.mirrorSurface(s as never));
      callSync(() => api.surfaceHeights(s as never));
      callSync(() => api.surfaceDigits(s as never));
    },
  );
  fuzzSync(
    'surfaceBase / surfaceCount / mirrorIndex / checkGeometry',
    fc.tuple(maybe(smallInt), maybe(smallInt), maybe(smallInt)),
    (a, b, c) => {
      callSync(() => api.surfaceBase(a as number));
      callSync(() => api.surfaceCount(a as number, b as number));
      callSync(() => api.mirrorIndex(a as number, b as number, c as number));
      callSync(() => api.checkGeometry(a as never));
    },
  );
  fuzzSync('pieceId / orientationCells', fc.tuple(hostile, hostile), (p, o) => {
    callSync(() => api.pieceId(p as string));
    callSync(() => api.orientationCells(o as never));
  });
});

describe('PRNG and randomizers', () => {
  fuzzSync('checkSeed / Rng', fc.tuple(hostile, hostile), (seed, n) => {
    callSync(() => api.checkSeed(seed));
    const rng = callSync(() => new api.Rng(seed as number));
    if (rng instanceof api.Rng) callSync(() => rng.nextInt(n as number));
  });
  fuzzSync('isRandomizerName / randomizerDefaults', fc.tuple(maybe(fc.constantFrom(...api.RANDOMIZER_NAMES))), (n) => {
    expect(typeof api.isRandomizerName(n)).toBe('boolean');
    callSync(() => api.randomizerDefaults(n as never));
  });
  fuzzSync('defaultGameRandomizer', fc.tuple(maybe(fc.constantFrom(...api.RULE_SET_NAMES))), (rules) => {
    const r = callSync(() => api.defaultGameRandomizer(rules as never));
    if (typeof r === 'string') expect(api.isRandomizerName(r)).toBe(true);
  });
  fuzzSync(
    'createRandomizer and its methods',
    fc.tuple(
      maybe(fc.constantFrom(...api.RANDOMIZER_NAMES)),
      maybe(
        fc.record(
          { seed: maybe(fc.integer()), denominator: maybe(fc.double({ min: 0.5, max: 20 })) },
          { requiredKeys: [] },
        ),
      ),
      hostile,
      hostile,
    ),
    (name, opts, a, b) => {
      const r = api.createRandomizer(name as never, opts as never);
      const dist = r.distribution();
      expect(Math.abs(Array.from(dist).reduce((x, y) => x + y, 0) - 1)).toBeLessThan(1e-9);
      callSync(() => r.take(a as number));
      callSync(() => r.fillIds(a as never, b as never));
      callSync(() => r.distribution(a as never));
      callSync(() => r.nextPairDistribution(a as never));
      callSync(() => r.afterDealing(a as number));
      const again = api.restoreRandomizer(r.state());
      expect(again.take(5)).toBe(r.take(5));
    },
  );
  fuzzSync(
    'restoreRandomizer',
    fc.tuple(
      maybe(
        fc.record(
          {
            name: maybe(fc.constantFrom(...api.RANDOMIZER_NAMES)),
            rng: maybe(fc.array(maybe(fc.nat()), { maxLength: 5 })),
            weights: hostile,
            history: hostile,
            bags: hostile,
            params: hostile,
            mixture: hostile,
            started: hostile,
            pool: hostile,
            droughtOrder: hostile,
            previous: hostile,
          },
          { requiredKeys: [] },
        ),
      ),
      hostile,
    ),
    (s, o) => {
      const r = api.restoreRandomizer(s as never, o as never);
      r.take(3);
    },
  );
  fuzzSync(
    'analyzeRandomizer / frequencySpread',
    fc.tuple(
      maybe(fc.constantFrom(...api.RANDOMIZER_NAMES)),
      maybe(
        fc.record(
          {
            pieces: maybe(fc.integer({ min: 0, max: 3000 })),
            seed: hostile,
            params: hostile,
            frequencyWindow: maybe(fc.integer({ min: 0, max: 200 })),
          },
          { requiredKeys: ['pieces'] },
        ),
      ),
      maybe(
        fc.record(
          {
            trials: maybe(fc.integer({ min: 0, max: 20 })),
            runLength: maybe(fc.integer({ min: 0, max: 50 })),
            seed: hostile,
            params: hostile,
          },
          { requiredKeys: ['trials', 'runLength'] },
        ),
      ),
    ),
    (n, a, s) => {
      // Without a piece count a million pieces are dealt (valid, slow): keep the work small, the types hostile.
      const opts =
        a === undefined || a === null
          ? { pieces: 1000 }
          : typeof a === 'object' && typeof (a as { pieces?: unknown }).pieces !== 'number'
            ? { ...(a as object), pieces: 1000 }
            : a;
      callSync(() => api.analyzeRandomizer(n as never, opts as never));
      const spread = s === undefined || s === null ? { trials: 5, runLength: 20 } : s;
      callSync(() => api.frequencySpread(n as never, spread as never));
    },
    RUNS / 4,
  );
  fuzzAsync(
    'analyzeRandomizerAsync',
    fc.tuple(
      maybe(fc.constantFrom(...api.RANDOMIZER_NAMES)),
      maybe(
        fc.record(
          { pieces: maybe(fc.integer({ min: 0, max: 2000 })), signal: hostile, onProgress: hostile },
          { requiredKeys: ['pieces'] },
        ),
      ),
    ),
    (n, o) => {
      const opts =
        o === undefined || o === null
          ? { pieces: 1000 }
          : typeof o === 'object' && typeof (o as { pieces?: unknown }).pieces !== 'number'
            ? { ...(o as object), pieces: 1000 }
            : o;
      return api.analyzeRandomizerAsync(n as never, opts as never);
    },
    RUNS / 10,
  );
});

describe('rank tables', () => {
  const mutated = fc
    .tuple(fc.nat({ max: 10_000 }), fc.integer({ min: 0, max: 255 }), fc.nat({ max: 200 }))
    .map(([at, v, cut]) => {
      const b = tableBytes.slice(0, Math.max(0, tableBytes.length - (cut > 150 ? cut : 0)));
      if (b.length) b[at % b.length] = v;
      return b;
    });
  fuzzAsync(
    'loadRankTable / loadAnyTable / loadPreviewTable (hostile and damaged bytes)',
    fc.tuple(
      fc.oneof(
        hostile,
        mutated,
        mutated.map((b) => b.buffer),
      ),
    ),
    async (src) => {
      for (const load of [api.loadRankTable, api.loadAnyTable, api.loadPreviewTable]) {
        const t = await callAsync(() => load(src as never));
        if (t instanceof api.RankTable) expect(Number.isFinite(t.get(0))).toBe(true);
      }
    },
    RUNS / 2,
  );
  fuzzSync('RankTable.fromBytes / fromValues, PreviewTable.fromBytes', fc.tuple(hostile, hostile), (a, b) => {
    callSync(() => api.RankTable.fromBytes(a as never));
    callSync(() => api.PreviewTable.fromBytes(a as never));
    callSync(() => api.RankTable.fromValues(a as never, b as never));
  });
  fuzzSync('RankTable.fromFolded, PreviewTable.fromResult', fc.tuple(hostile, hostile, hostile), (a, b, c) => {
    callSync(() => api.RankTable.fromFolded(a as never, b as never, c as never));
    callSync(() => api.PreviewTable.fromResult(a as never));
  });
  // Surfaces of the preview table's shape (4 columns, max step 1) and of other shapes, made by the library.
  const shapedSurface = fc
    .tuple(fc.constantFrom(4, 5, 6), fc.constantFrom(1, 2), fc.nat())
    .map(([width, maxStep, i]) =>
      api.surfaceFromIndex(i % api.surfaceCount(width, maxStep), { width, maxStep } as never),
    );
  fuzzSync(
    'PreviewTable.get / row / transitionRows',
    fc.tuple(
      maybe(fc.integer({ min: -1, max: 28 })),
      maybe(fc.integer({ min: -1, max: 8 })),
      fc.oneof(
        shapedSurface.map((surface) => ({ surface, made: true })),
        hostile.map((surface) => ({ surface, made: false })),
      ),
    ),
    (i, piece, { surface: s, made }) => {
      const value = callSync(() => preview.get(i as number, piece as number));
      // An index of one of its 27 surfaces and a column of its 8 is a value; anything else is BAD_ARGUMENT.
      const inRange = (v: unknown, n: number) => Number.isInteger(v) && (v as number) >= 0 && (v as number) < n;
      if (inRange(i, preview.size) && inRange(piece, api.PREVIEW_SLOTS)) expect(value).toBeGreaterThanOrEqual(0);
      else expect(value).toEqual(expect.objectContaining({ code: 'BAD_ARGUMENT' }));
      const row = callSync(() => preview.row(s as never));
      if (made) {
        const surface = s as api.Surface;
        // Its own shape: the surface's 8 values; another shape is a table mismatch (docs/errors.md).
        if (surface.width === 4 && surface.maxStep === 1) {
          const index = api.surfaceIndex(surface);
          expect(row).toEqual(Array.from({ length: api.PREVIEW_SLOTS }, (_, p) => preview.get(index, p)));
        } else expect(row).toEqual(expect.objectContaining({ code: 'TABLE_MISMATCH' }));
      }
      expect(preview.transitionRows()).toHaveLength(7);
    },
  );
  // A path that is not a file name is BAD_ARGUMENT, a folder where the file goes is IO, a file name (in a new folder)
  // saves a table that loads back the same. No string of `hostile` reaches a save: 'T' would write into the cwd.
  const saveDir = mkdtempSync(join(tmpdir(), 'stackrank-fuzz-save-'));
  fuzzAsync(
    'RankTable.save / PreviewTable.save',
    fc.tuple(
      fc.oneof(
        hostile.filter((v) => typeof v !== 'string'),
        fc.constantFrom('', 'a\0b', saveDir),
        fc.stringMatching(/^[a-z]{1,8}$/).map((name) => join(saveDir, name, `${name}.srk`)),
      ),
      fc.boolean(),
    ),
    async (path, isPreview) => {
      const saved = isPreview ? preview : table;
      const r = await callAsync(() => saved.save(path as never));
      if (typeof path !== 'string' || path === '' || path.includes('\0'))
        expect(r).toEqual(expect.objectContaining({ code: 'BAD_ARGUMENT' }));
      else if (path === saveDir) expect(r).toEqual(expect.objectContaining({ code: 'IO' }));
      else {
        expect(r).toBeUndefined();
        const back = await (isPreview ? api.loadPreviewTable(path) : api.loadRankTable(path));
        expect(back.toBytes()).toEqual(saved.toBytes());
      }
    },
    RUNS / 10,
  );
  fuzzSync('RankTable.get / rank / searchValue', fc.tuple(hostile, maybe(surfaceArb)), (i, s) => {
    callSync(() => table.get(i as number));
    callSync(() => table.rank(s as never));
    callSync(() => table.searchValue(i as number));
  });
  fuzzAsync(
    'RankTable.writeSearchValues',
    fc.tuple(hostile, hostile),
    (target, signal) => table.writeSearchValues(target as never, signal as never),
    RUNS,
  );
  // Missing width / maxStep / threads would default to the 9x4 table on every core: valid but seconds of work per
  // case, so those fields are small and valid, or hostile but present.
  const present = hostile.filter((v) => v !== undefined && v !== null);
  const buildOpts = fc.record(
    {
      width: fc.oneof(fc.constantFrom(4, 5), present),
      maxStep: fc.oneof(fc.constantFrom(1, 2), present),
      iterations: maybe(fc.integer({ min: 0, max: 3 })),
      threads: fc.oneof(fc.constantFrom(1, 2), present),
      signal: hostile,
      onProgress: hostile,
      encoding: maybe(fc.constantFrom('u16', 'f32')),
      steep: hostile,
      simd: hostile,
    },
    { requiredKeys: ['width', 'maxStep', 'iterations', 'threads'] },
  );
  fuzzAsync(
    'buildRankTable',
    fc.tuple(buildOpts),
    async (o) => {
      const t = await api.buildRankTable(o as never);
      expect(t.get(0)).toBeGreaterThanOrEqual(0);
    },
    RUNS / 20,
  );
  fuzzAsync(
    'buildPreviewTable / buildWeightedTable',
    fc.tuple(
      buildOpts,
      maybe(fc.constantFrom(...api.RANDOMIZER_NAMES)),
      fc.oneof(fc.integer({ min: 0, max: 3000 }), present),
    ),
    async (o, randomizer, samples) => {
      const opts = { ...(o as object), randomizer, samples };
      // A preview table has no encoding option (an unknown option is refused before any work).
      const { encoding: _, ...previewOpts } = opts as { encoding?: unknown };
      await callAsync(() => api.buildPreviewTable(previewOpts as never));
      await callAsync(() => api.buildWeightedTable(opts as never));
    },
    RUNS / 40,
  );
  fuzzSync(
    'transitionModel / weightsModel',
    fc.tuple(
      maybe(
        fc.record(
          {
            randomizer: maybe(fc.constantFrom(...api.RANDOMIZER_NAMES)),
            samples: maybe(fc.integer({ min: 0, max: 2000 })),
            seed: hostile,
            randomizerParams: hostile,
          },
          { requiredKeys: ['samples'] },
        ),
      ),
    ),
    (o) => {
      // Without a sample count the model is estimated from 10 million pieces (valid, slow): keep the work small.
      const opts =
        o === undefined || o === null
          ? { samples: 500 }
          : typeof o === 'object' && typeof (o as { samples?: unknown }).samples !== 'number'
            ? { ...(o as object), samples: 500 }
            : o;
      callSync(() => api.transitionModel(opts as never));
      callSync(() => api.weightsModel(opts as never));
    },
    RUNS / 4,
  );
  fuzzAsync(
    'cachedTablePath / cachedPreviewTablePath / cachedWeightedTablePath',
    fc.tuple(hostile, hostile),
    async (o, env) => {
      for (const f of [api.cachedTablePath, api.cachedPreviewTablePath, api.cachedWeightedTablePath]) {
        const p = await callAsync(() => f(o as never, env as never));
        if (typeof p === 'string') expect(p).toMatch(/\.srk$/);
      }
    },
    RUNS / 2,
  );
  fuzzAsync(
    'loadOrBuildCachedTable (a private cache folder)',
    fc.tuple(buildOpts, hostile),
    async (o, force) => {
      const opts = { ...(o as object), force, env: { XDG_CACHE_HOME: cacheHome } };
      const r = await callAsync(() => api.loadOrBuildCachedTable(opts as never));
      if (r && typeof r === 'object' && 'table' in r)
        expect((await api.loadRankTable((r as api.CachedTable).path)).toBytes()).toEqual(
          (r as api.CachedTable).table.toBytes(),
        );
    },
    RUNS / 40,
  );
});

describe('stacking', () => {
  fuzzAsync(
    'StackingAI.create',
    fc.tuple(
      maybe(
        fc.record(
          {
            table: fc.oneof(hostile, fc.constant('TABLE')),
            rules: hostile,
            stacking: hostile,
            strategy: maybe(fc.constantFrom('rank', 'expectimax', 'expectimax2', 'best')),
            unknownPieces: maybe(fc.oneof(fc.constantFrom(0, 1, 2, 3), hostile)),
            previewTable: hostile,
            leafRows: hostile,
          },
          { requiredKeys: ['table'] },
        ),
      ),
    ),
    async (o) => {
      // Without a table the default 9x4 table would be built (seconds): always give one, hostile or real.
      if (!o || typeof o !== 'object') return callAsync(() => api.StackingAI.create(o as never));
      const opts = { ...(o as object) } as Record<string, unknown>;
      if (opts.table === 'TABLE' || opts.table === undefined || opts.table === null) opts.table = table;
      const made = await callAsync(() => api.StackingAI.create(opts as never));
      if (made instanceof api.StackingAI) expect(made.width).toBe(4);
    },
    RUNS / 20,
  );
  fuzzSync(
    'StackingAI.bestPlacement',
    fc.tuple(maybe(surfaceArb), maybe(queueArb), maybe(fc.integer({ min: -1, max: 4 })), hostile),
    (s, q, l, o) => {
      const move = ai.bestPlacement(s as never, q as never, l as number, o as never);
      if (move) {
        expect(move.heights).toHaveLength(4);
        expect(move.plan.length).toBeGreaterThanOrEqual(1);
        expect(move.rank).toBeGreaterThanOrEqual(0);
      }
    },
  );
  fuzzSync(
    "StackingAI.rankPlacements (its first entry is bestPlacement's move)",
    fc.tuple(
      oneDamaged(
        fc.tuple(
          fc.array(fc.integer({ min: 0, max: 12 }), { minLength: 4, maxLength: 4 }),
          queueArb,
          fc.integer({ min: 0, max: 3 }),
          fc.record(
            {
              limit: fc.oneof(
                { weight: 3, arbitrary: fc.integer({ min: 1, max: 40 }) },
                { weight: 1, arbitrary: fc.oneof(fc.constantFrom(0, -1, 1.5, Number.NaN), hostile) },
              ),
            },
            { requiredKeys: [] },
          ),
        ),
      ),
    ),
    (args) => {
      const [s, q, l, o] = Array.isArray(args) ? args : [args];
      const ranking = callSync(() => ai.rankPlacements(s as never, q as never, l as number, o as never));
      const best = callSync(() => ai.bestPlacement(s as never, q as never, l as number));
      if (best instanceof api.StackRankError) {
        // What bestPlacement refuses, rankPlacements refuses too (its own options may be refused first).
        expect(ranking).toBeInstanceOf(api.StackRankError);
        expect([best.code, 'BAD_ARGUMENT']).toContain((ranking as api.StackRankError).code);
        return;
      }
      // Only its own option can still be wrong: a limit that is not a whole number from 1 is refused.
      const limit = o !== null && typeof o === 'object' ? (o as { limit?: unknown }).limit : undefined;
      if (limit !== undefined && !(Number.isInteger(limit) && (limit as number) >= 1))
        expect(ranking).toEqual(expect.objectContaining({ code: 'BAD_ARGUMENT' }));
      if (ranking instanceof api.StackRankError) {
        expect(ranking.code).toBe('BAD_ARGUMENT');
        return;
      }
      const { placements } = ranking as api.SurfacePlacementRanking;
      if (best === null) expect(placements).toEqual([]);
      else {
        expect(placements[0].heights).toEqual((best as api.BestPlacement).heights);
        expect(placements[0].loss).toBe(0);
      }
      if (limit !== undefined) expect(placements.length).toBeLessThanOrEqual(limit as number);
    },
    RUNS / 2,
  );
  fuzzSync(
    'distributionWeights / pairWeights / expectimaxStrategy / streamSeed',
    fc.tuple(hostile, hostile, hostile),
    (a, b, c) => {
      callSync(() => api.distributionWeights(a as never, b as never, c as never));
      callSync(() => api.pairWeights(a as never, b as never, c as never));
      callSync(() => api.expectimaxStrategy(a as number));
      callSync(() => api.streamSeed(a as number, b as number, c as number));
    },
  );
  fuzzAsync(
    'simulateStacking',
    fc.tuple(
      maybe(
        fc.record(
          {
            table: fc.oneof(hostile, fc.constant('TABLE')),
            lookahead: maybe(fc.integer({ min: -1, max: 3 })),
            games: maybe(fc.integer({ min: 0, max: 4 })),
            maxPieces: maybe(fc.integer({ min: 0, max: 300 })),
            threads: maybe(fc.constantFrom(1, 2)),
            strategy: maybe(fc.constantFrom('rank', 'expectimax', 'expectimax2')),
            unknownPieces: maybe(fc.oneof(fc.constantFrom(0, 1, 2, 3), hostile)),
            previewTable: hostile,
            randomizer: maybe(fc.constantFrom(...api.RANDOMIZER_NAMES)),
            seed: hostile,
            rules: hostile,
            stacking: hostile,
            signal: hostile,
            onProgress: hostile,
            leafRows: hostile,
          },
          { requiredKeys: ['table', 'games', 'maxPieces'] },
        ),
      ),
    ),
    async (o) => {
      if (!o || typeof o !== 'object') return callAsync(() => api.simulateStacking(o as never));
      const opts = { ...(o as object) } as Record<string, unknown>;
      if (opts.table === 'TABLE') opts.table = table;
      // Without a piece budget a game lasts until the stack dies: keep it bounded.
      if (typeof opts.maxPieces !== 'number') opts.maxPieces = 100;
      if (typeof opts.games !== 'number') opts.games = 2;
      const r = await callAsync(() => api.simulateStacking(opts as never));
      if (r && typeof r === 'object' && 'pieces' in r)
        expect((r as api.SimulationResult).pieces).toBeLessThanOrEqual(opts.maxPieces as number);
    },
    RUNS / 20,
  );
});

describe('frame inputs', () => {
  const token = fc.constantFrom('.', 'L', 'R', 'A', 'B', 'LA', 'LB', 'RA', 'RB');
  fuzzSync('formatFrameInputs', fc.tuple(hostile, fc.array(token, { minLength: 1, maxLength: 40 })), (junk, inputs) => {
    callSync(() => api.formatFrameInputs(junk as never));
    // A real list always formats, and names its lock frame.
    expect(api.formatFrameInputs(inputs as never)).toContain(`(locks on frame ${inputs.length - 1})`);
  });
});

describe('full board', () => {
  const rowsArb = fc.array(
    fc.stringMatching(/^[#.]{10}$/).filter((r) => r !== '##########'),
    { maxLength: 6 },
  );
  fuzzSync(
    'legalDrops / dropPiece',
    fc.tuple(rowsArb, fc.oneof(hostile, fc.constant('BOARD')), hostile, hostile),
    (rows, b, a, d) => {
      const board = api.Board.fromRows(['..........', ...rows], 20);
      const theBoard = b === 'BOARD' ? board : b;
      callSync(() => api.legalDrops(theBoard as never, a as never));
      callSync(() => api.dropPiece(theBoard as never, d as never));
      for (const m of api.legalDrops(board, 'T')) expect(api.dropPiece(board, m)!.move).toEqual(m);
    },
  );
  fuzzSync('resolveWeights / featureValues / summarizeLines / checkCheckpoint', fc.tuple(hostile, hostile), (a, b) => {
    callSync(() => api.resolveWeights(a));
    callSync(() => api.featureValues(a as never, b as never));
    callSync(() => api.summarizeLines(a as never, b as never));
    callSync(() => api.checkCheckpoint(a));
  });
  const board = api.Board.fromRows(['#...#.....', '##.####.#.'], 20);
  fuzzAsync(
    'bestMove / kernelFeatures',
    fc.tuple(
      fc.oneof(hostile, fc.constant('BOARD')),
      maybe(fc.constantFrom('I', 'T', 0, 6)),
      maybe(
        fc.record(
          { weights: maybe(fc.constantFrom(...api.PRESET_NAMES)), next: hostile },
          { requiredKeys: ['weights'] },
        ),
      ),
      hostile,
    ),
    async (b, p, o, m) => {
      const theBoard = b === 'BOARD' ? board : b;
      const r = await callAsync(() => api.bestMove(theBoard as never, p as never, o as never));
      if (r && typeof r === 'object' && 'board' in r) expect((r as api.BestMoveResult).board).toBeInstanceOf(api.Board);
      await callAsync(() => api.kernelFeatures(theBoard as never, m as never));
    },
    RUNS / 4,
  );
  fuzzAsync(
    'playFullGame',
    fc.tuple(
      maybe(
        fc.record(
          {
            weights: maybe(fc.constantFrom(...api.PRESET_NAMES)),
            maxPieces: maybe(fc.integer({ min: 0, max: 500 })),
            maxLines: hostile,
            seed: hostile,
            lookahead: hostile,
            randomizer: maybe(fc.constantFrom(...api.RANDOMIZER_NAMES)),
            width: hostile,
            height: hostile,
            chunk: hostile,
            onProgress: hostile,
            signal: hostile,
          },
          { requiredKeys: ['weights', 'maxPieces'] },
        ),
      ),
    ),
    async (o) => {
      // No options is valid and plays a game of millions of lines: keep every game short, the other fields hostile.
      const opts =
        o === undefined || o === null
          ? { maxPieces: 200 }
          : typeof o === 'object'
            ? {
                ...(o as object),
                maxPieces:
                  typeof (o as { maxPieces?: unknown }).maxPieces === 'number'
                    ? (o as { maxPieces: number }).maxPieces
                    : 200,
              }
            : o;
      const r = await callAsync(() => api.playFullGame(opts as never));
      if (r && typeof r === 'object' && 'pieces' in r)
        expect((r as api.GameResult).pieces).toBeLessThanOrEqual((opts as { maxPieces: number }).maxPieces);
    },
    RUNS / 10,
  );
  fuzzAsync(
    'trainWeights',
    fc.tuple(
      maybe(
        fc.record(
          {
            generations: maybe(fc.integer({ min: 0, max: 2 })),
            population: maybe(fc.integer({ min: 3, max: 8 })),
            tournament: maybe(fc.integer({ min: 1, max: 4 })),
            maxPieces: maybe(fc.integer({ min: 0, max: 60 })),
            gamesPerEval: maybe(fc.integer({ min: 0, max: 2 })),
            threads: maybe(fc.constantFrom(1, 2)),
            signal: hostile,
            onGeneration: hostile,
            resume: hostile,
            features: hostile,
            seed: hostile,
          },
          { requiredKeys: ['generations', 'population', 'maxPieces', 'gamesPerEval'] },
        ),
      ),
    ),
    async (o) => {
      // Unbounded numbers are valid but slow (a population of 100,000): keep the work small, the types hostile.
      if (o && typeof o === 'object') {
        const x = o as Record<string, unknown>;
        if (typeof x.maxPieces !== 'number') x.maxPieces = 50;
        if (typeof x.population !== 'number') x.population = 4;
        if (typeof x.generations !== 'number') x.generations = 1;
        if (typeof x.gamesPerEval !== 'number') x.gamesPerEval = 1;
        if (typeof x.tournament !== 'number') x.tournament = 2;
      }
      await callAsync(() => api.trainWeights(o as never));
    },
    RUNS / 20,
  );
});

describe('real games', () => {
  let table9: api.RankTable;
  let gameAi: api.TetrisAI;
  beforeAll(async () => {
    // The game AI stacks on 9 columns: a 1-iteration table is enough for the plumbing.
    table9 = await api.buildRankTable({ width: 9, iterations: 1, threads: 1 });
    gameAi = await api.TetrisAI.create({ rules: 'classic', lookahead: 1, table: table9 });
  });
  const ruleName = fc.constantFrom('classic', 'nes', 'guideline', 'tgm', 'tgm20g');
  const rowsArb = fc.array(fc.stringMatching(/^[.#]{10}$/), { maxLength: 22 });
  const boardArb = fc.oneof(
    rowsArb,
    fc.record({
      width: maybe(fc.integer({ min: 0, max: 12 })),
      rows: maybe(fc.array(fc.integer({ min: 0, max: 1023 }), { maxLength: 24 })),
    }),
    hostile,
  );
  const pieceArb = maybe(fc.oneof(fc.constantFrom(...api.PIECES), fc.integer({ min: -1, max: 7 })));
  const inputArb = maybe(
    fc.constantFrom('left', 'right', 'cw', 'ccw', 'softDrop', 'hardDrop', 'dasLeft', 'dasRight', 'hold', 'up'),
  );

  fuzzSync(
    'Board.fromRows / fromBits / from / empty and methods',
    fc.tuple(boardArb, maybe(fc.integer({ min: 0, max: 50 })), maybe(fc.array(fc.tuple(smallInt, smallInt)))),
    (b, h, cells) => {
      const board = callSync(() => api.Board.from(b as never));
      callSync(() => api.Board.fromRows(b as never, h as never));
      callSync(() => api.Board.fromBits(b as never, h as never, h as never));
      callSync(() => api.Board.empty(h as never, h as never));
      if (board instanceof api.Board) {
        expect(api.Board.fromRows(board.toRows()).equals(board)).toBe(true);
        callSync(() => board.withHeight(h as never));
        callSync(() => board.withCells(cells as never));
        callSync(() => board.place(cells as never));
        callSync(() => board.filled(h as never, h as never));
        expect(board.heights().length).toBe(board.width);
      }
    },
  );
  fuzzSync(
    'reachablePlacements / countReachablePlacements',
    fc.tuple(boardArb, pieceArb, maybe(fc.record({ rules: maybe(ruleName) }))),
    (b, p, o) => {
      const list = api.reachablePlacements(b as never, p as never, o as never);
      expect(api.countReachablePlacements(b as never, p as never, o as never)).toBe(list.length);
      for (const m of list) expect(m.cells.length).toBe(4);
    },
    RUNS / 5,
  );
  fuzzSync(
    'boardFromFumen / fumenFromBoard',
    fc.tuple(maybe(fc.oneof(fc.string(), fc.stringMatching(/^v115@[A-Za-z0-9+/?]{0,40}$/))), boardArb, hostile),
    (f, b, o) => {
      callSync(() => api.boardFromFumen(f as never, o as never));
      const board = callSync(() => api.Board.from(b as never));
      if (board instanceof api.Board && board.width === 10 && board.height <= 23) {
        // The fumen field is taller than most boards: the same rows from the bottom, empty above.
        const back = api.boardFromFumen(api.fumenFromBoard(board)).board;
        for (let y = 0; y < Math.max(back.height, board.height); y++)
          expect(back.rows[y] ?? 0).toBe(board.rows[y] ?? 0);
      }
      callSync(() => api.fumenFromBoard(b as never, o as never));
    },
  );
  // The shapes a placement may have: every placement of the piece on an empty field, moved to start at [0, 0].
  const shapeKey = (cells: readonly (readonly [number, number])[]) => {
    const x0 = Math.min(...cells.map(([x]) => x));
    const y0 = Math.min(...cells.map(([, y]) => y));
    return cells
      .map(([x, y]) => `${x - x0},${y - y0}`)
      .sort()
      .join(' ');
  };
  const shapes = new Map(
    api.PIECES.map((p) => [
      p,
      new Set(api.reachablePlacements(api.Board.empty(), p, { rules: 'classic' }).map((m) => shapeKey(m.cells))),
    ]),
  );
  const cellArb = fc.tuple(fc.integer({ min: 0, max: 4 }), fc.integer({ min: 0, max: 4 }));
  fuzzSync(
    "fumenFromBoard placement: drawn when its cells are one of its piece's orientations, else refused",
    fc.tuple(
      fc.oneof(fc.constantFrom(...api.PIECES), fc.constantFrom('Q', 'i', '', 3)),
      fc.oneof(
        // a real placement of a piece (often another piece's, or moved), or four cells at random
        fc.tuple(fc.constantFrom(...api.PIECES), fc.nat(), fc.integer({ min: 0, max: 3 })).map(([p, i, dy]) => {
          const list = api.reachablePlacements(api.Board.empty(), p, { rules: 'classic' });
          return list[i % list.length].cells.map(([x, y]) => [x, y + dy] as [number, number]);
        }),
        fc.array(cellArb, { minLength: 4, maxLength: 4 }),
      ),
    ),
    (piece, cells) => {
      const run = () => api.fumenFromBoard(api.Board.empty(), { placement: { piece: piece as never, cells } });
      if (!(api.PIECES as readonly unknown[]).includes(piece)) {
        expect(run).toThrow(expect.objectContaining({ code: 'BAD_PIECE' }));
      } else if (shapes.get(piece as api.Piece)!.has(shapeKey(cells))) {
        expect(api.boardFromFumen(run()).board.equals(api.Board.empty().withCells(cells))).toBe(true);
      } else {
        expect(run).toThrow(expect.objectContaining({ code: 'BAD_ARGUMENT' }));
      }
    },
  );
  fuzzSync(
    'PieceMover and its moves',
    fc.tuple(boardArb, pieceArb, maybe(ruleName), inputArb, hostile),
    (b, p, r, input, state) => {
      const board = callSync(() => api.Board.from(b as never));
      const rules = typeof r === 'string' ? api.RULE_SETS[r as keyof typeof api.RULE_SETS] : r;
      const mover = new api.PieceMover((board instanceof api.Board ? board : b) as never, p as never, rules as never);
      const moved = mover.apply(mover.spawn, input as never);
      if (moved) expect(mover.cellsOf(moved).length).toBe(4);
      callSync(() => mover.apply(state as never, input as never));
      callSync(() => mover.cellsOf(state as never));
      callSync(() => mover.collides(state as never, state as never, state as never));
    },
  );
  // Piece states on and near the field, beyond the positions a mover takes (8 cells past the walls, floor and
  // ceiling), not objects at all (one case in twelve: `hostile` is seldom null), and hostile. Valid states stay 5 cells
  // inside that margin, most of them where pieces are played.
  const notAState = fc.constantFrom<unknown>(null, undefined, 0, 'spawn');
  const stateArb = fc.oneof(
    { weight: 1, arbitrary: notAState },
    {
      weight: 11,
      arbitrary: oneDamaged(
        fc.record({
          rotation: fc.integer({ min: 0, max: 4 }),
          x: fc.oneof(
            { weight: 9, arbitrary: fc.integer({ min: -3, max: 12 }) },
            { weight: 1, arbitrary: fc.constantFrom(-9, 19, 2 ** 31, 0.5) },
          ),
          y: fc.oneof(
            { weight: 9, arbitrary: fc.integer({ min: -3, max: 30 }) },
            { weight: 1, arbitrary: fc.constantFrom(-9, 49, 2 ** 31, 0.5) },
          ),
        }),
      ),
    },
  );
  fuzzSync(
    'PieceMover.dropY / turn / kickedTurn / spinAfterTurn / settle',
    fc.tuple(
      // an empty field half the time: on random rows most states overlap the stack, and no turn is left to try
      fc.oneof(
        fc.constant(api.Board.empty()),
        fc.array(fc.stringMatching(/^[.#]{10}$/), { minLength: api.BOARD_MIN_HEIGHT, maxLength: 22 }),
      ),
      fc.constantFrom(...api.PIECES),
      ruleName,
      stateArb,
      fc.oneof({ weight: 4, arbitrary: fc.boolean() }, { weight: 1, arbitrary: hostile }),
    ),
    (rows, piece, rules, p, clockwise) => {
      // The board, piece and rules are valid: only the state and the direction can be refused, as BAD_ARGUMENT.
      const mover = callSync(() => new api.PieceMover(rows, piece, rules)) as api.PieceMover;
      expect(mover).toBeInstanceOf(api.PieceMover);
      const refusedArgument = (r: unknown) => {
        if (r instanceof api.StackRankError) expect(r.code).toBe('BAD_ARGUMENT');
        return r instanceof api.StackRankError;
      };
      const { rotation, x, y } = (p !== null && typeof p === 'object' ? p : {}) as Record<string, number>;
      const dropped = callSync(() => mover.dropY(rotation, x, y));
      if (!refusedArgument(dropped)) {
        // At rest: no lower, on something below; a piece clear of the stack where it starts is clear where it rests.
        expect(dropped as number).toBeLessThanOrEqual(y);
        // (one row below may lie past the positions a mover takes: refused, not answered)
        const below = callSync(() => mover.collides(rotation, x, (dropped as number) - 1));
        if (typeof below === 'boolean') expect(below).toBe(true);
        if (!mover.collides(rotation, x, y)) expect(mover.collides(rotation, x, dropped as number)).toBe(false);
      }
      const turned = callSync(() => mover.turn(p as never, clockwise as never));
      const kicked = callSync(() => mover.kickedTurn(p as never, clockwise as never));
      const spin = callSync(() => mover.spinAfterTurn(p as never, clockwise as never));
      // One check for the three: all refused or none.
      expect([refusedArgument(turned), refusedArgument(kicked), refusedArgument(spin)]).toEqual(
        Array(3).fill(turned instanceof api.StackRankError),
      );
      if (!(turned instanceof api.StackRankError)) {
        expect(turned).toEqual((kicked as { state: api.PieceState } | null)?.state ?? null);
        if (turned) {
          const t = turned as api.PieceState;
          expect(mover.collides(t.rotation, t.x, t.y)).toBe(false);
        }
        expect(['none', 'mini', 'full']).toContain(spin);
        if (turned === null) expect(spin).toBe('none');
      }
      const settled = callSync(() => mover.settle(p as never));
      if (!refusedArgument(settled)) {
        const q = settled as api.PieceState;
        // Under 20G a piece is pulled down to rest; otherwise it stays where it is.
        const restY = rules === 'tgm20g' ? mover.dropY(rotation, x, y) : y;
        expect(q).toEqual({ ...(p as object), rotation, x, y: restY });
      }
    },
  );
  fuzzSync('Board.equals / clearLines', fc.tuple(boardArb, boardArb, fc.boolean()), (a, b, asBoard) => {
    const board = callSync(() => api.Board.from(a as never));
    if (!(board instanceof api.Board)) return;
    const other = callSync(() => api.Board.from(b as never));
    // A Board is compared by its size and cells; anything else (rows, bit rows, hostile values) is refused.
    if (asBoard && other instanceof api.Board)
      expect(board.equals(other)).toBe(
        other.width === board.width && other.toRows().join('/') === board.toRows().join('/'),
      );
    else expect(callSync(() => board.equals(b as never))).toEqual(expect.objectContaining({ code: 'BAD_ARGUMENT' }));
    expect(board.equals(board.clone())).toBe(true);
    if (other instanceof api.Board) {
      const full = other.rows.filter((r) => r === (1 << other.width) - 1).length;
      const cleared = other.clone();
      expect(cleared.clearLines()).toBe(full);
      expect(cleared.height).toBe(other.height);
    }
  });
  // Game states of the classic game (no hold), mostly valid: boards as rows or bit rows, without full rows.
  const gameStateArb = oneDamaged(
    fc.record(
      {
        board: fc.oneof(
          fc.array(
            fc.stringMatching(/^[.#]{10}$/).filter((r) => r !== '##########'),
            { maxLength: 12 },
          ),
          fc.array(fc.integer({ min: 0, max: 1022 }), { maxLength: 12 }).map((rows) => ({ width: 10, rows })),
        ),
        current: fc.constantFrom(...api.PIECES),
        queue: fc.stringMatching(/^[IOTSZLJ]{0,4}$/),
        hold: fc.constant(null),
        canHold: fc.constant(false),
      },
      { requiredKeys: ['board', 'current'] },
    ),
  );
  const sessionOptionsArb = oneDamaged(
    fc.record(
      { randomizer: fc.constantFrom(...api.RANDOMIZER_NAMES, 'unknown'), fromStart: fc.boolean() },
      { requiredKeys: [] },
    ),
  );
  fuzzSync(
    'TetrisAI.newGame / GameSession.nextMove / status',
    fc.tuple(
      sessionOptionsArb,
      fc.array(
        fc.tuple(
          fc.oneof(
            { weight: 4, arbitrary: gameStateArb },
            {
              // a `next` the session must refuse
              weight: 1,
              arbitrary: fc.tuple(gameStateArb, hostile).map(([state, next]) => ({ ...(state as object), next })),
            },
          ),
          rarely(maybe(fc.record({ budgetMs: fc.constantFrom<unknown>(-1, Number.NaN, 'x', null, 1e9) }))),
        ),
        { minLength: 1, maxLength: 4 },
      ),
    ),
    (options, turns) => {
      const game = callSync(() => gameAi.newGame(options as never));
      if (game instanceof api.StackRankError) return;
      const session = game as ReturnType<api.TetrisAI['newGame']>;
      let played = 0;
      for (const [state, moveOptions] of turns) {
        const move = callSync(() => session.nextMove(state as never, moveOptions as never));
        // A session infers the next piece's chances itself: a `next` given is refused (docs/game.md, "Sessions"),
        // after the rest of the state is read (a bad board is refused as one).
        const next = state !== null && typeof state === 'object' ? (state as { next?: unknown }).next : undefined;
        if (next !== undefined) expect(move).toBeInstanceOf(api.StackRankError);
        if (move instanceof api.StackRankError) continue;
        played++;
        if (move) {
          expect((move as api.GameMove).cells.length).toBe(4);
          for (const [x, y] of (move as api.GameMove).cells) expect(x >= 0 && x < 10 && y >= 0).toBe(true);
        }
      }
      // A refused turn is not a turn of the game.
      const status = session.status;
      expect(status.turns).toBe(played);
      expect(Math.abs(status.chances.reduce((a, b) => a + b, 0) - 1)).toBeLessThan(1e-9);
    },
    RUNS / 5,
  );
  // The AI in a worker answers as the same AI on this thread does, to the same input as the worker receives it (a
  // structured clone); what cannot be cloned is BAD_ARGUMENT. One worker for every case; it must survive them all.
  it('createWorkerTetrisAI: nextMove / rankPlacements / newGame and WorkerGame.nextMove, as on this thread', async () => {
    // No budget that could cut a search short (its move would then depend on the clock, not on the input).
    const moveOptionsArb = rarely(maybe(fc.record({ budgetMs: fc.constantFrom<unknown>(-1, 'x', 1e9) })));
    // A field no structured clone carries (hostile values hold few): refused before anything reaches the worker.
    const notPlainData = fc
      .tuple(
        fc.constantFrom('board', 'current', 'queue', 'canHold'),
        fc.constantFrom<unknown>(() => 'T', Symbol('T'), new WeakMap(), Promise.resolve('T')),
      )
      .map(([key, value]) => ({ board: [], current: 'T', [key]: value }));
    const callArb = fc.oneof(
      fc.tuple(fc.constant('nextMove' as const), fc.tuple(gameStateArb, moveOptionsArb)),
      fc.tuple(
        fc.constant('rankPlacements' as const),
        fc.tuple(gameStateArb, rarely(maybe(fc.record({ limit: smallInt })))),
      ),
      fc.tuple(fc.constant('newGame' as const), fc.tuple(sessionOptionsArb)),
      fc.tuple(fc.constantFrom('nextMove' as const, 'rankPlacements' as const), fc.tuple(notPlainData)),
    );
    const answer = async (f: () => unknown) => {
      const r = await callAsync(async () => f());
      return r instanceof api.StackRankError ? { code: r.code, message: r.message } : r;
    };
    const remote = (await api.createWorkerTetrisAI({
      rules: 'classic',
      lookahead: 1,
      table: table9,
    })) as api.WorkerTetrisAI;
    let n = 0;
    try {
      await fc.assert(
        fc.asyncProperty(
          callArb,
          fc.array(fc.tuple(gameStateArb, moveOptionsArb), { maxLength: 3 }),
          async ([method, args], turns) => {
            n++;
            let sent: unknown[];
            try {
              sent = structuredClone(args);
            } catch {
              await expect(answer(() => (remote[method] as (...a: unknown[]) => unknown)(...args))).resolves.toEqual(
                expect.objectContaining({ code: 'BAD_ARGUMENT' }),
              );
              return;
            }
            const there = await answer(() => (remote[method] as (...a: unknown[]) => unknown)(...sent));
            const here = await answer(() => (gameAi[method] as (...a: unknown[]) => unknown).apply(gameAi, sent));
            if (method !== 'newGame' || 'code' in (here as object)) {
              expect(there).toEqual(here);
              return;
            }
            // A session in the worker follows a game as one here does, turn by turn.
            expect(there).not.toHaveProperty('code');
            const game = there as api.WorkerGame;
            const local = here as ReturnType<api.TetrisAI['newGame']>;
            for (const turn of turns) {
              let input: unknown[];
              try {
                input = structuredClone(turn);
              } catch {
                continue;
              }
              expect(await answer(() => game.nextMove(...(input as [never])))).toEqual(
                await answer(() => local.nextMove(...(input as [never]))),
              );
            }
            await game.dispose();
          },
        ),
        params(RUNS / 10),
      );
      counts.set('createWorkerTetrisAI: the AI and its games', n);
      // Still alive after every refusal: it answers, then stops.
      expect(await remote.nextMove({ board: [], current: 'T' })).toEqual(gameAi.nextMove({ board: [], current: 'T' }));
    } finally {
      remote.dispose();
    }
    await expect(remote.nextMove({ board: [], current: 'T' })).rejects.toEqual(
      expect.objectContaining({ code: 'BAD_ARGUMENT' }),
    );
    for (let i = 0; i < 100 && liveWorkerCount() > 0; i++) await new Promise((r) => setTimeout(r, 20));
    expect(liveWorkerCount()).toBe(0);
    expect(unhandled).toEqual([]);
  });
  fuzzAsync(
    'loadOrBuildCachedPreviewTable / loadOrBuildCachedWeightedTable (refused before any work)',
    fc.tuple(
      fc.oneof(
        hostile.filter((v) => v !== undefined && (v === null || typeof v !== 'object')),
        // Always one bad field, so no case builds a table.
        fc.record({
          randomizer: fc.constantFrom<unknown>('nope', 7, 'TGM1', {}),
          width: maybe(fc.integer({ min: 3, max: 9 })),
          iterations: maybe(fc.integer({ min: 1, max: 3 })),
          signal: hostile,
        }),
      ),
      fc.boolean(),
    ),
    async (o, weighted) => {
      const opts = o && typeof o === 'object' ? { ...(o as object), env: { XDG_CACHE_HOME: cacheHome } } : o;
      const load = weighted ? api.loadOrBuildCachedWeightedTable : api.loadOrBuildCachedPreviewTable;
      expect(await callAsync(() => load(opts as never))).toBeInstanceOf(api.StackRankError);
    },
    RUNS / 10,
  );
  fuzzAsync(
    'TetrisAI.create',
    fc.tuple(
      maybe(
        fc.record({
          rules: maybe(ruleName),
          lookahead: maybe(smallInt),
          randomizer: maybe(fc.constantFrom('tgm1', 'bag7', 'nes', 'nope')),
          well: maybe(fc.constantFrom('left', 'right', 'auto', 'up')),
          recover: fc.oneof(
            hostile,
            fc.record({
              weights: fc.oneof(
                hostile,
                fc.dictionary(
                  fc.constantFrom(...Object.keys(api.RECOVER_WEIGHTS), 'hole', '__proto__'),
                  fc.oneof(fc.double(), hostile),
                  { maxKeys: 4 },
                ),
              ),
            }),
          ),
          policy: hostile,
          previewTable: hostile,
          stackRoom: maybe(fc.oneof(fc.integer({ min: 0, max: 14 }), hostile)),
          strength: maybe(fc.oneof(fc.integer({ min: -1, max: 12 }), fc.double({ min: 1, max: 10 }))),
          seed: maybe(fc.oneof(fc.integer(), fc.constantFrom(0.5, 2 ** 53, -(2 ** 53)))),
        }),
      ),
    ),
    async (o) => {
      // Without a table, Node loads (or builds) the cached full table: give the small one unless the case is hostile.
      const opts = o && typeof o === 'object' && !Array.isArray(o) ? { table: table9, ...(o as object) } : o;
      await callAsync(() => api.TetrisAI.create(opts as never));
    },
    RUNS / 10,
  );
  fuzzAsync(
    'TetrisAI.create: strength and seed (the other options valid)',
    fc.tuple(
      fc.record({
        strength: maybe(fc.oneof(fc.integer({ min: -1, max: 12 }), fc.double({ min: 1, max: 10 }))),
        seed: maybe(fc.oneof(fc.integer(), fc.constantFrom(0.5, 2 ** 53, -(2 ** 53)))),
      }),
    ),
    async (o) => {
      const ai = await callAsync(() =>
        api.TetrisAI.create({ rules: 'classic', lookahead: 1, table: table9, ...o } as never),
      );
      // A level the AI was made at is the level asked for (a valid one).
      if (ai instanceof api.TetrisAI) {
        expect(o.strength === undefined || (Number.isInteger(o.strength) && ai.strength === o.strength)).toBe(true);
        expect(ai.strength >= 1 && ai.strength <= 10).toBe(true);
      }
    },
    RUNS / 20,
  );
  fuzzAsync(
    'createWorkerTetrisAI',
    fc.tuple(
      fc.oneof(
        hostile,
        fc.record(
          {
            rules: maybe(ruleName),
            lookahead: maybe(smallInt),
            table: hostile,
            onProgress: hostile,
            signal: hostile,
          },
          { requiredKeys: ['rules'] },
        ),
      ),
    ),
    async (o) => {
      // A worker per case (each loads the library: seconds from source), so few cases; every one must settle with a
      // StackRankError or an AI, which is disposed at once. Without a table the worker would load (or build) the
      // cached full table: the small one is given unless the case's own table is hostile.
      const given = o as { table?: unknown } | null;
      const opts =
        given && typeof given === 'object' && !Array.isArray(given) && given.table === undefined
          ? { ...given, table: table9 }
          : given;
      const ai = await callAsync(() => api.createWorkerTetrisAI(opts as never), 60_000);
      if (ai && typeof ai === 'object' && 'dispose' in ai) (ai as { dispose(): void }).dispose();
    },
    RUNS / 200,
    120_000,
  );
  fuzzSync(
    'TetrisAI nextMove / rankPlacements',
    fc.tuple(
      maybe(
        fc.record(
          {
            board: boardArb,
            current: pieceArb,
            queue: maybe(queueArb),
            hold: maybe(pieceArb),
            canHold: maybe(fc.boolean()),
            next: hostile,
          },
          { requiredKeys: ['board', 'current'] },
        ),
      ),
      hostile,
      fc.option(fc.record({ budgetMs: maybe(fc.oneof(fc.double({ min: -5, max: 50 }), fc.constantFrom(0, 1e9))) })),
    ),
    (state, opts, moveOpts) => {
      const move = callSync(() => gameAi.nextMove(state as never, moveOpts as never));
      if (move && !(move instanceof api.StackRankError)) {
        const m = move as api.GameMove;
        expect(m.cells.length).toBe(4);
        for (const [x, y] of m.cells) expect(x >= 0 && x < 10 && y >= 0).toBe(true);
      }
      callSync(() => gameAi.rankPlacements(state as never, opts as never));
    },
    RUNS / 5,
  );
  fuzzAsync(
    'playGame / benchGame',
    fc.tuple(
      maybe(
        fc.record({
          rules: maybe(ruleName),
          lookahead: maybe(fc.integer({ min: -1, max: 2 })),
          games: maybe(fc.integer({ min: 0, max: 2 })),
          maxPieces: maybe(fc.integer({ min: 0, max: 30 })),
          seed: maybe(fc.integer({ min: 0, max: 5 })),
          threads: maybe(fc.constantFrom(1, 2)),
          players: maybe(fc.array(fc.constantFrom('both', 'stackOnly', 'fullBoardOnly', 'x'), { maxLength: 2 })),
          randomizer: maybe(fc.constantFrom('tgm1', 'bag7', 'nope')),
          stackRoom: maybe(fc.oneof(fc.integer({ min: 0, max: 14 }), hostile)),
          onProgress: hostile,
          signal: hostile,
        }),
      ),
      fc.boolean(),
    ),
    async (o, bench) => {
      // Keep valid runs small (few pieces) and on the small table; the types stay hostile. (No options at all is
      // valid for playGame: a default game on the cached full table, too slow here.)
      let opts = o === undefined ? {} : o;
      if (opts && typeof opts === 'object' && !Array.isArray(opts)) {
        const x: Record<string, unknown> = { table: table9, ...(opts as Record<string, unknown>) };
        if (typeof x.maxPieces !== 'number') x.maxPieces = 20;
        if (typeof x.games !== 'number') x.games = 1;
        opts = x;
      }
      // 60 s: a case with the default rules sets up their search the first time (11 s in a fresh process on a
      // 2-core machine at load 23); a hang still fails.
      const r = await callAsync(() => (bench ? api.benchGame(opts as never) : api.playGame(opts as never)), 60_000);
      if (!bench && r && typeof r === 'object' && 'pieces' in r) {
        const x = opts as { maxPieces: number; games: number };
        expect((r as api.PlayGameResult).pieces).toBeLessThanOrEqual(x.maxPieces * x.games);
      }
    },
    RUNS / 20,
  );
  const sideArb = maybe(
    fc.oneof(
      fc.record({ ai: maybe(fc.record({ lookahead: maybe(fc.integer({ min: -1, max: 2 })), well: hostile })) }),
      fc.record({ tbp: fc.oneof(fc.constant(''), fc.constant(7), fc.array(fc.constant(''), { maxLength: 1 })) }),
      hostile,
    ),
  );
  fuzzAsync(
    'playVersus',
    fc.tuple(
      maybe(
        fc.record({
          a: sideArb,
          b: sideArb,
          matches: maybe(fc.integer({ min: -1, max: 2 })),
          firstMatch: maybe(fc.integer({ min: -1, max: 3 })),
          seed: maybe(fc.oneof(fc.integer({ min: -1, max: 5 }), hostile)),
          maxPieces: maybe(fc.integer({ min: -1, max: 20 })),
          garbageDelay: maybe(fc.oneof(smallInt, hostile)),
          messiness: maybe(fc.oneof(fc.record({ withinAttack: maybe(fc.double()) }), hostile)),
          streams: maybe(fc.constantFrom('same', 'independent', 'x')),
          threads: maybe(fc.constantFrom(0, 1, 2)),
          onMatch: hostile,
          signal: hostile,
        }),
      ),
    ),
    async (o) => {
      // Valid runs stay small (few pieces, the small table); the types stay hostile.
      let opts: unknown = o === undefined ? {} : o;
      if (opts && typeof opts === 'object' && !Array.isArray(opts)) {
        const x: Record<string, unknown> = { table: table9, ...(opts as Record<string, unknown>) };
        if (typeof x.maxPieces !== 'number') x.maxPieces = 10;
        if (typeof x.matches !== 'number') x.matches = 1;
        opts = x;
      }
      await callAsync(() => api.playVersus(opts as never), 60_000);
    },
    RUNS / 50,
  );
});

describe('versus: attack and garbage', () => {
  const spinArb = maybe(fc.constantFrom('none', 'mini', 'full'));
  const lockArb = maybe(
    fc.record({ lines: maybe(fc.integer({ min: -1, max: 5 })), spin: spinArb, perfectClear: maybe(fc.boolean()) }),
  );
  const countArb = maybe(fc.integer({ min: -1, max: 40 }));
  const stateArb = maybe(fc.record({ combo: countArb, backToBack: countArb }));
  const entryArb = maybe(fc.record({ lines: maybe(fc.integer({ min: 0, max: 9 })), delay: maybe(smallInt) }));
  const queueArb = maybe(fc.array(entryArb, { maxLength: 5 }));
  const holesArb = maybe(fc.array(maybe(fc.integer({ min: -1, max: 10 })), { maxLength: 6 }));

  fuzzSync(
    'lockOutcome',
    fc.tuple(lockArb, stateArb, maybe(fc.constantFrom('guideline', 'tetrio', 'tetris99'))),
    (lock, state, table) => {
      const o = callSync(() => api.lockOutcome(lock as never, state as never, table as never));
      if (o instanceof api.StackRankError) return;
      const { attack, state: next } = o as api.LockOutcome;
      expect(Number.isInteger(attack) && attack >= 0).toBe(true);
      expect(next.combo >= 0 && next.backToBack >= 0).toBe(true);
    },
  );
  fuzzSync(
    'GarbageQueue and its moves',
    fc.tuple(
      maybe(
        fc.record({
          seed: maybe(fc.integer()),
          width: maybe(smallInt),
          messiness: maybe(fc.record({ withinAttack: maybe(fc.double()) })),
        }),
      ),
      maybe(fc.integer({ min: 0, max: 9 })),
      maybe(smallInt),
      maybe(fc.integer({ min: 0, max: 4 })),
    ),
    (options, lines, attack, cleared) => {
      const q = callSync(() => new api.GarbageQueue(options as never));
      if (!(q instanceof api.GarbageQueue)) return;
      callSync(() => q.receive(lines as never, attack as never));
      const r = callSync(() => q.lock(attack as never, cleared as never));
      if (!(r instanceof api.StackRankError))
        for (const h of (r as { holes: number[] }).holes) expect(h < q.width).toBe(true);
      expect(q.clone().lines).toBe(q.lines);
    },
  );
  fuzzSync(
    'garbageAfterLock / garbageHoles / insertGarbage / insertGarbageRows',
    fc.tuple(
      queueArb,
      maybe(smallInt),
      maybe(fc.integer({ min: 0, max: 5 })),
      holesArb,
      maybe(fc.integer({ min: 0, max: 12 })),
    ),
    (queue, attack, cleared, holes, width) => {
      callSync(() => api.garbageAfterLock(queue as never, attack as never, cleared as never));
      callSync(() => api.garbageHoles(new api.Rng(1), holes as never, width as never, {}, undefined));
      callSync(() => api.garbageHoles(queue as never, [1], 10, holes as never, width as never));
      callSync(() => api.insertGarbage(api.Board.empty(), holes as never));
      callSync(() => api.insertGarbage(queue as never, [0]));
      callSync(() => api.insertGarbageRows(new Uint16Array(6), width as never, cleared as never, holes as never));
      callSync(() => api.insertGarbageRows(holes as never, 10, 4, [0]));
    },
  );
});

describe('research entry: runs, merges, rules', () => {
  fuzzSync(
    'shardRange / resolveRules / isRuleSetName',
    fc.tuple(maybe(smallInt), maybe(smallInt), maybe(fc.integer({ min: 0, max: 40 })), hostile),
    (i, n, games, rules) => {
      const r = callSync(() => api.shardRange(i as never, n as never, games as never));
      if (r && !(r instanceof api.StackRankError)) {
        const { start, end } = r as api.GameRange;
        expect(0 <= start && start <= end && end <= (games as number)).toBe(true);
      }
      callSync(() => api.resolveRules(rules));
      expect(typeof api.isRuleSetName(rules)).toBe('boolean');
    },
  );
  fuzzSync(
    'rotation systems: spawnX / kicks / centreColumnRule',
    fc.tuple(
      fc.constantFrom(api.SRS, api.ARS, api.NRS, api.CLASSIC, ...Object.values(api.ROTATION_SYSTEMS)),
      maybe(fc.integer({ min: -1, max: 7 })),
      maybe(fc.integer({ min: 3, max: 11 })),
      maybe(fc.integer({ min: -1, max: 4 })),
      maybe(fc.integer({ min: -1, max: 4 })),
    ),
    (system, piece, width, from, to) => {
      const x = callSync(() => system.spawnX(piece as never, width as never));
      if (!(x instanceof api.StackRankError)) expect(Number.isInteger(x)).toBe(true);
      const kicks = callSync(() => system.kicks(piece as never, from as never, to as never));
      if (!(kicks instanceof api.StackRankError)) expect((kicks as number[][])[0]).toEqual([0, 0]);
      callSync(() => system.centreColumnRule(piece as never, from as never, to as never));
    },
  );
  fuzzSync(
    'searchPlacements',
    fc.tuple(
      fc.oneof(fc.array(fc.stringMatching(/^[.#]{10}$/), { minLength: 4, maxLength: 20 }), hostile),
      maybe(fc.integer({ min: -1, max: 7 })),
      maybe(fc.constantFrom('classic', 'nes', 'guideline', 'tgm', 'tgm20g')),
    ),
    (b, p, r) => {
      const list = api.searchPlacements(b as never, p as never, r as never);
      expect(list.length).toBe(api.countReachablePlacements(b as never, p as never, { rules: r } as never));
    },
    RUNS / 5,
  );
  fuzzSync(
    'mergeSimulations / mergeGameResults / mergeFullGames',
    fc.tuple(fc.oneof(hostile, fc.array(hostile, { maxLength: 3 }))),
    (parts) => {
      callSync(() => api.mergeSimulations(parts as never));
      callSync(() => api.mergeGameResults(parts as never));
      callSync(() => api.mergeFullGames(parts as never));
    },
  );
  // Two real shards of one small run for each merge, damaged in place: a node of the results (picked depth first, so
  // a record is as likely as a leaf) replaced by a hostile value, dropped, or given another type of the same length (an
  // array of 4 becomes a string of 4). Hostile arrays alone never reach the record checks behind the run checks.
  const MERGES = {
    mergeSimulations: api.mergeSimulations,
    mergeGameResults: api.mergeGameResults,
    mergeFullGames: api.mergeFullGames,
  } as Record<string, (parts: never) => unknown>;
  const shards = new Map<string, unknown[]>();
  beforeAll(async () => {
    const table9 = await api.buildRankTable({ width: 9, maxStep: 1, iterations: 1, threads: 1 });
    const halves = [api.shardRange(0, 2, 4), api.shardRange(1, 2, 4)];
    shards.set(
      'mergeSimulations',
      await Promise.all(
        halves.map((range) =>
          api.simulateStacking({ table, lookahead: 1, games: 4, maxPieces: 30, threads: 1, range }),
        ),
      ),
    );
    shards.set(
      'mergeGameResults',
      await Promise.all(
        halves.map(({ start, end }) =>
          api.playGame({
            rules: 'classic',
            lookahead: 0,
            table: table9,
            firstGame: start,
            games: end - start,
            maxPieces: 15,
            threads: 1,
          }),
        ),
      ),
    );
    shards.set(
      'mergeFullGames',
      await Promise.all(halves.map((range) => api.playFullGames({ games: 4, maxPieces: 20, range }))),
    );
  });
  const damage = fc.record({
    at: fc.nat(),
    how: fc.constantFrom('set', 'drop', 'retype'),
    bad: hostile,
  });
  fuzzSync(
    'mergeSimulations / mergeGameResults / mergeFullGames of real shards, damaged',
    fc.tuple(fc.constantFrom(...Object.keys(MERGES)), fc.array(damage, { maxLength: 2 })),
    (merge, damages) => {
      const parts = structuredClone(shards.get(merge)!) as unknown[];
      for (const { at, how, bad } of damages) {
        const path = pickByDepth(nodePaths(parts), at);
        const parent = path.slice(0, -1).reduce((o: Record<string, unknown>, k) => o[k] as never, parts as never);
        const key = path[path.length - 1];
        if (how === 'drop') delete parent[key];
        else parent[key] = how === 'set' ? bad : retyped(parent[key]);
      }
      const pooled = callSync(() => MERGES[merge](parts as never));
      // Undamaged, the two shards pool into the run's four games.
      if (damages.length === 0) expect(pooled).not.toBeInstanceOf(api.StackRankError);
    },
  );
  fuzzSync(
    'fieldOf / reachTable / recordReached',
    fc.tuple(
      maybe(fc.constantFrom('classic', 'nes', 'guideline', 'tgm', 'tgm20g')),
      maybe(fc.integer({ min: 2, max: 10 })),
      maybe(fc.integer({ min: 0, max: 5 })),
      maybe(fc.integer({ min: 0, max: 44 })),
      fc.oneof(fc.constant([]), fc.array(hostile, { maxLength: 2 }), hostile),
      fc.tuple(
        maybe(fc.integer({ min: -1, max: 6 })),
        maybe(fc.array(fc.integer({ min: 0, max: 8 }), { maxLength: 5 })),
      ),
    ),
    (rules, width, maxStep, height, placements, [record, heights]) => {
      const field = callSync(() => api.fieldOf(rules as never, height as never));
      if (field && !(field instanceof api.StackRankError))
        expect((field as api.Field).lockTop).toBeLessThanOrEqual((field as api.Field).ceiling);
      // Small shapes only: a valid call derives the rule set's reach records (memoized per shape).
      const table = callSync(() =>
        api.reachTable(rules as never, width as never, maxStep as never, height as never, placements as never),
      );
      const usable = table && !(table instanceof api.StackRankError) ? table : placements;
      callSync(() => api.recordReached(usable as never, record as never, heights as never, maxStep as never));
    },
    RUNS / 5,
  );
  fuzzAsync(
    'playFullGames',
    fc.tuple(
      fc.oneof(
        hostile.filter((v) => v !== undefined && (v === null || typeof v !== 'object')),
        fc.record({
          games: maybe(fc.integer({ min: 0, max: 2 })),
          maxPieces: maybe(fc.integer({ min: 0, max: 30 })),
          seed: hostile,
          range: hostile,
          onGame: hostile,
        }),
      ),
    ),
    async (o) => {
      let opts = o;
      if (o && typeof o === 'object' && !Array.isArray(o)) {
        const x: Record<string, unknown> = { ...(o as Record<string, unknown>) };
        if (typeof x.maxPieces !== 'number') x.maxPieces = 20;
        if (typeof x.games !== 'number') x.games = 1;
        opts = x;
      }
      await callAsync(() => api.playFullGames(opts as never));
    },
    RUNS / 20,
  );
});

describe('NES time and game', () => {
  const level = maybe(fc.integer({ min: -2, max: 260 }));
  fuzzSync(
    'nesTiming / gravityAt / isTimed / rulesAtLevel',
    fc.tuple(hostile, level, maybe(fc.constantFrom('X.', 'X..', 'das', 'XX'))),
    (dks, lvl, timeline) => {
      const timing = callSync(() => api.nesTiming(dks as never));
      if (timing instanceof api.StackRankError || !timing) return;
      callSync(() => api.gravityAt(timing as never, lvl as never));
      const rules = callSync(() => api.resolveRules({ ...api.RULE_SETS.nes, timing, timeline }));
      if (rules && !(rules instanceof api.StackRankError)) {
        expect(api.isTimed(rules as never)).toBe(true);
        callSync(() => api.rulesAtLevel(rules as never, lvl as never));
      }
    },
  );
  fuzzSync(
    'firstLevelUpLines / nesLevel / linesToLevel / nesLinesToLevelUp / nesClearPoints',
    fc.tuple(level, maybe(fc.integer({ min: -5, max: 2000 })), level, maybe(fc.integer({ min: -1, max: 5 }))),
    (start, lines, to, cleared) => {
      const first = callSync(() => api.firstLevelUpLines(start as never));
      const now = callSync(() => api.nesLevel(start as never, lines as never));
      if (typeof first === 'number' && typeof now === 'number') expect(now).toBeGreaterThanOrEqual(start as number);
      callSync(() => api.linesToLevel(start as never, to as never));
      const left = callSync(() => api.nesLinesToLevelUp(to as never, lines as never));
      if (typeof left === 'number') expect(left).toBeGreaterThan(0);
      const points = callSync(() => api.nesClearPoints(cleared as never, to as never));
      if (typeof points === 'number') expect(points).toBeGreaterThanOrEqual(0);
    },
  );
  fuzzSync(
    'new NesGame / topOut',
    fc.tuple(
      fc.oneof(
        hostile,
        fc.constant(undefined).map(() => api.nesFormat()),
        // a real format with one field damaged
        fc
          .tuple(fc.constantFrom('rules', 'maxLevel', 'extra'), hostile)
          .map(([key, bad]) => ({ ...api.nesFormat(), [key]: bad })),
      ),
    ),
    (format) => {
      const game = callSync(() => new api.NesGame(format as never));
      if (!(game instanceof api.NesGame)) return;
      // A game starts at its format's level with nothing scored, and ends at a top-out.
      expect([game.lines, game.score, game.end]).toEqual([0, 0, null]);
      expect(game.level).toBe(game.rules.level);
      expect(Number.isInteger(game.level) && game.level >= 0).toBe(true);
      game.topOut();
      expect(game.end).toBe('topOut');
      expect(() => game.clear(1)).toThrow(expect.objectContaining({ code: 'BAD_ARGUMENT' }));
    },
  );
  fuzzSync(
    'nesFormat / NesGame',
    fc.tuple(
      fc.oneof(
        hostile,
        fc.record({
          startLevel: level,
          timeline: maybe(fc.constantFrom('X.', 'X....', 'dasCharged')),
          reaction: hostile,
          doubleKillscreen: maybe(fc.oneof(fc.constant(null), fc.integer({ min: 0, max: 60 }))),
          maxLevel: maybe(fc.oneof(fc.constant(null), fc.integer({ min: 0, max: 60 }))),
        }),
      ),
      fc.array(maybe(fc.integer({ min: -1, max: 5 })), { maxLength: 30 }),
    ),
    (options, clears) => {
      const format = callSync(() => api.nesFormat(options as never));
      if (!format || format instanceof api.StackRankError) return;
      const game = new api.NesGame(format as never);
      for (const c of clears) {
        if (game.end) break;
        callSync(() => game.clear(c as never));
      }
      expect(game.score).toBeGreaterThanOrEqual(0);
      expect(game.level).toBeGreaterThanOrEqual((format as api.NesFormat).rules.level!);
    },
  );
});

/**
 * The newer surface with hostile rule sets, boards of every form, hostile queues and holds, and real fumens damaged
 * (issue 50). A rule set whose field is a getter answers a valid value to its first read only: a call that reads
 * each field once (docs/errors.md) returns what the plain rule set gives; any other is a StackRankError.
 */
describe('newer surface: hostile rule sets, boards, queues, fumens', () => {
  let table9: api.RankTable;
  let gameAi: api.TetrisAI;
  beforeAll(async () => {
    table9 = await api.buildRankTable({ width: 9, iterations: 1, threads: 1 });
    gameAi = await api.TetrisAI.create({ rules: 'classic', lookahead: 1, table: table9 });
  });
  const NAMES = ['classic', 'nes', 'guideline', 'tgm'] as const;
  const FIELDS = Object.keys(api.RULE_SETS.guideline);
  /**
   * A copy of a named rule set with one field damaged, made afresh for each call (`make`): a getter answers its
   * plain value to its first read only.
   */
  const ruleSetArb = fc
    .tuple(
      fc.constantFrom(...NAMES),
      fc.constantFrom(...FIELDS, 'extra'),
      hostile,
      fc.constantFrom('value', 'getter', 'throws', 'drop', 'proxy'),
    )
    .map(([name, field, bad, how]) => {
      const make = () => {
        const plain = { ...api.RULE_SETS[name] } as Record<string, unknown>;
        const damaged = { ...plain };
        if (how === 'value') damaged[field] = bad;
        else if (how === 'drop') delete damaged[field];
        else if (how === 'getter' || how === 'throws') {
          let reads = 0;
          Object.defineProperty(damaged, field, {
            enumerable: true,
            get() {
              if (how === 'throws') throw new Error('a getter that throws');
              return reads++ === 0 ? plain[field] : bad;
            },
          });
        }
        return how === 'proxy' ? new Proxy(damaged, { ownKeys: () => [...FIELDS, field] }) : damaged;
      };
      return { name, field, how, make };
    });
  const placementsOf = (r: unknown) =>
    Array.isArray(r) ? (r as api.GamePlacement[]).map((m) => JSON.stringify(m.cells)).sort() : r;
  const boardArb = fc.oneof(
    fc.array(fc.stringMatching(/^[.#]{10}$/), { maxLength: 22 }),
    fc.array(fc.integer({ min: 0, max: 1023 }), { maxLength: 22 }).map((rows) => ({ width: 10, rows })),
    fc
      .array(fc.integer({ min: 0, max: 1023 }), { minLength: 4, maxLength: 22 })
      .map((rows) => api.Board.fromBits(rows, 10)),
    fc
      .array(fc.integer({ min: 0, max: 1023 }), { maxLength: 22 })
      .map((rows) => ({ width: 10, rows: new Uint16Array(rows) })),
    hostile,
  );
  const pieceArb = maybe(fc.constantFrom(...api.PIECES));

  fuzzSync(
    'reachablePlacements / PieceMover / resolveRules with damaged rule sets',
    fc.tuple(
      ruleSetArb,
      fc.constantFrom(...api.PIECES),
      fc.array(fc.integer({ min: 0, max: 1023 }), { minLength: 4, maxLength: 6 }),
    ),
    ({ name, field, how, make }, piece, rows) => {
      // A field no rule set has is refused (BAD_RULES) whatever it answers.
      const once = how === 'getter' && field !== 'extra';
      const board = api.Board.fromBits(rows, 10);
      const got = callSync(() => api.reachablePlacements(board, piece, { rules: make() as never }));
      if (once) expect(placementsOf(got)).toEqual(placementsOf(api.reachablePlacements(board, piece, { rules: name })));
      if (how === 'throws') expect(got).toEqual(expect.objectContaining({ code: 'BAD_RULES' }));
      const resolved = callSync(() => api.resolveRules(make()));
      if (once) expect(resolved).toEqual(api.resolveRules(name));
      const mover = callSync(() => new api.PieceMover(board, piece, make() as never));
      if (mover instanceof api.PieceMover) {
        for (const input of ['left', 'right', 'cw', 'ccw', 'softDrop'] as const) {
          const moved = mover.apply(mover.spawn, input);
          if (moved) expect(mover.cellsOf(moved).length).toBe(4);
        }
      }
    },
    RUNS / 5,
  );
  fuzzSync(
    'TetrisAI nextMove / rankPlacements: boards as rows, bit rows and Boards; hostile queues and holds',
    fc.tuple(
      boardArb,
      pieceArb,
      maybe(fc.oneof(fc.array(maybe(fc.constantFrom(...api.PIECES)), { maxLength: 12 }), fc.string({ maxLength: 12 }))),
      fc.oneof(pieceArb, fc.constant(null)),
      maybe(fc.boolean()),
      maybe(fc.record({ limit: maybe(fc.integer({ min: -1, max: 50 })) })),
    ),
    (board, current, queue, hold, canHold, opts) => {
      const state = { board, current, queue, hold, canHold };
      const move = callSync(() => gameAi.nextMove(state as never));
      const given = callSync(() => api.Board.from(board as never));
      if (move && !(move instanceof api.StackRankError) && given instanceof api.Board) {
        const m = move as api.GameMove;
        expect(m.cells.length).toBe(4);
        // On the board, off its filled cells (the board as given, before the move's clears).
        for (const [x, y] of m.cells) {
          expect(x >= 0 && x < given.width && y >= 0).toBe(true);
          expect(y < given.height && given.filled(x, y)).toBe(false);
        }
      }
      callSync(() => gameAi.rankPlacements(state as never, opts as never));
    },
    RUNS / 5,
  );
  // A real fumen (fumenFromBoard of a board, a comment and maybe a placement), then damaged: a character changed, cut,
  // its data repeated (more pages), put in a URL, or its prefix changed.
  const fumenCase = fc
    .tuple(
      fc.array(fc.integer({ min: 0, max: 1023 }), { minLength: 4, maxLength: 20 }),
      fc.oneof(fc.constant(undefined), fc.string({ maxLength: 60 }), fc.constant('#Q=[T](S)ZOIJL')),
      fc.constantFrom('none', 'url', 'char', 'cut', 'repeat', 'prefix'),
      fc.nat(),
      fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/?@%.'),
      fc.integer({ min: 0, max: 3 }),
    )
    .map(([rows, comment, how, at, ch, page]) => {
      const board = api.Board.fromBits(rows, 10);
      const fumen = api.fumenFromBoard(board, comment === undefined ? {} : { comment });
      const i = at % fumen.length;
      const text =
        how === 'url'
          ? `https://fumen.zui.jp/?${fumen}`
          : how === 'char'
            ? fumen.slice(0, i) + ch + fumen.slice(i + 1)
            : how === 'cut'
              ? fumen.slice(0, i)
              : how === 'repeat'
                ? fumen + fumen.slice(5).repeat(1 + (at % 400))
                : how === 'prefix'
                  ? `${['v110@', 'v114@', 'V115@', 'd115@', ''][at % 5]}${fumen.slice(5)}`
                  : fumen;
      return { board, comment: comment ?? '', how, text, page };
    });
  fuzzSync(
    'boardFromFumen of real fumens, damaged',
    fc.tuple(fumenCase),
    ({ board, comment, how, text, page }) => {
      const read = callSync(() => api.boardFromFumen(text, { page }));
      if ((how === 'none' || how === 'url') && page === 0) {
        const back = read as api.FumenPosition;
        expect(back.comment).toBe(comment);
        for (let y = 0; y < Math.max(back.board.height, board.height); y++)
          expect(back.board.rows[y] ?? 0).toBe(board.rows[y] ?? 0);
      }
      if (read && !(read instanceof api.StackRankError)) {
        const back = read as api.FumenPosition;
        expect(back.board.width).toBe(10);
        // What was read writes back (a fumen field holds any board it reads).
        if (back.board.height <= 23) callSync(() => api.fumenFromBoard(back.board, { comment: back.comment }));
      }
    },
    RUNS / 2,
  );
});

/**
 * Objects whose fields throw when read: a getter, an inherited getter, a Proxy whose ownKeys, getOwnPropertyDescriptor
 * or has trap throws. docs/errors.md: every object a caller passes is read once, and "a getter or Proxy that throws
 * while it is read is BAD_ARGUMENT (BAD_RULES for a rule set), not its own exception". A function that reads no field
 * of the object (an inherited getter on a field it does not look for) may answer instead.
 */
describe('objects that throw when read', () => {
  let gameAi: api.TetrisAI;
  beforeAll(async () => {
    gameAi = await api.TetrisAI.create({
      rules: 'classic',
      lookahead: 0,
      table: await api.buildRankTable({ width: 9, maxStep: 1, iterations: 1, threads: 1 }),
    });
  });
  const boom = () => {
    throw new Error("the caller's own exception");
  };
  const KINDS: Record<string, (key: string) => object> = {
    getter: (key) => Object.defineProperty({}, key, { enumerable: true, get: boom }),
    inheritedGetter: (key) => Object.create(Object.defineProperty({}, key, { get: boom })),
    ownKeys: () => new Proxy({}, { ownKeys: boom }),
    getOwnPropertyDescriptor: (key) => new Proxy({ [key]: 1 }, { getOwnPropertyDescriptor: boom }),
    has: () => new Proxy({}, { has: boom }),
    getPrototypeOf: () => new Proxy({}, { getPrototypeOf: boom }),
    revoked: () => {
      const { proxy, revoke } = Proxy.revocable({}, {});
      revoke();
      return proxy;
    },
  };
  /** Kinds whose field the function must read (an own key): it cannot answer. */
  const MUST_REFUSE = new Set(['getter', 'ownKeys', 'getOwnPropertyDescriptor', 'revoked']);
  /**
   * Kinds a function that only reads fields sees as an empty object (it may refuse that with its own code): a
   * Proxy whose getPrototypeOf trap throws runs the trap only where the function asks for the prototype
   * (instanceof: Board.from, the table loaders), which the explicit tests below hold to BAD_ARGUMENT.
   */
  const ANY_CODE = new Set(['getPrototypeOf']);
  const snapshot = api.createRandomizer('bag7', { seed: 1 }).state();
  const fumen = api.fumenFromBoard(api.Board.empty());
  const state = { board: [] as string[], current: 'T' as const };
  const mover = new api.PieceMover(api.Board.empty(), 'T', 'classic');
  // [what, a field it reads, the call, the code]
  const CASES: [string, string, (o: object) => unknown, api.StackRankErrorCode][] = [
    ['parseSurface', 'maxStep', (o) => api.parseSurface('012', o as never), 'BAD_ARGUMENT'],
    ['surfaceFromSteps', 'maxStep', (o) => api.surfaceFromSteps([0, 1], o as never), 'BAD_ARGUMENT'],
    ['surfaceFromHeights', 'maxStep', (o) => api.surfaceFromHeights([0, 1, 0], o as never), 'BAD_ARGUMENT'],
    ['surfaceFromIndex', 'width', (o) => api.surfaceFromIndex(0, o as never), 'BAD_ARGUMENT'],
    ['surfaceIndex', 'truncate', (o) => api.surfaceIndex(api.parseSurface('012'), o as never), 'BAD_ARGUMENT'],
    ['createRandomizer', 'seed', (o) => api.createRandomizer('decay', o as never), 'BAD_ARGUMENT'],
    ['restoreRandomizer (snapshot)', 'name', (o) => api.restoreRandomizer(o as never), 'BAD_ARGUMENT'],
    ['restoreRandomizer (options)', 'x', (o) => api.restoreRandomizer(snapshot, o as never), 'BAD_ARGUMENT'],
    ['analyzeRandomizer', 'pieces', (o) => api.analyzeRandomizer('bag7', o as never), 'BAD_ARGUMENT'],
    ['frequencySpread', 'trials', (o) => api.frequencySpread('bag7', o as never), 'BAD_ARGUMENT'],
    ['transitionModel', 'samples', (o) => api.transitionModel(o as never), 'BAD_ARGUMENT'],
    ['weightsModel', 'samples', (o) => api.weightsModel(o as never), 'BAD_ARGUMENT'],
    [
      'reachablePlacements',
      'rules',
      (o) => api.reachablePlacements(api.Board.empty(), 'T', o as never),
      'BAD_ARGUMENT',
    ],
    [
      'countReachablePlacements',
      'rules',
      (o) => api.countReachablePlacements(api.Board.empty(), 'T', o as never),
      'BAD_ARGUMENT',
    ],
    ['boardFromFumen', 'page', (o) => api.boardFromFumen(fumen, o as never), 'BAD_ARGUMENT'],
    ['fumenFromBoard', 'comment', (o) => api.fumenFromBoard(api.Board.empty(), o as never), 'BAD_ARGUMENT'],
    ['nesFormat', 'startLevel', (o) => api.nesFormat(o as never), 'BAD_ARGUMENT'],
    ['new GarbageQueue', 'seed', (o) => new api.GarbageQueue(o as never), 'BAD_ARGUMENT'],
    ['StackingAI.bestPlacement', 'next', (o) => ai.bestPlacement([0, 0, 0, 0], 'T', 1, o as never), 'BAD_ARGUMENT'],
    ['StackingAI.rankPlacements', 'limit', (o) => ai.rankPlacements([0, 0, 0, 0], 'T', 1, o as never), 'BAD_ARGUMENT'],
    ['TetrisAI.nextMove (state)', 'board', (o) => gameAi.nextMove(o as never), 'BAD_ARGUMENT'],
    ['TetrisAI.nextMove (options)', 'budgetMs', (o) => gameAi.nextMove(state, o as never), 'BAD_ARGUMENT'],
    ['TetrisAI.rankPlacements', 'limit', (o) => gameAi.rankPlacements(state, o as never), 'BAD_ARGUMENT'],
    ['TetrisAI.newGame', 'randomizer', (o) => gameAi.newGame(o as never), 'BAD_ARGUMENT'],
    ['GameSession.nextMove (options)', 'budgetMs', (o) => gameAi.newGame().nextMove(state, o as never), 'BAD_ARGUMENT'],
    ['GameSession.nextMove (state)', 'next', (o) => gameAi.newGame().nextMove(o as never), 'BAD_ARGUMENT'],
    ['resolveRules', 'hold', (o) => api.resolveRules(o), 'BAD_RULES'],
    ['fieldOf', 'hold', (o) => api.fieldOf(o as never, 20), 'BAD_RULES'],
    ['StackingAI.bestPlacement (surface)', 'steps', (o) => ai.bestPlacement(o as never, 'T', 1), 'BAD_ARGUMENT'],
    ['surfaceIndex (surface)', 'steps', (o) => api.surfaceIndex(o as never), 'BAD_ARGUMENT'],
    ['mirrorSurface', 'steps', (o) => api.mirrorSurface(o as never), 'BAD_ARGUMENT'],
    ['surfaceHeights', 'width', (o) => api.surfaceHeights(o as never), 'BAD_ARGUMENT'],
    ['surfaceDigits', 'maxStep', (o) => api.surfaceDigits(o as never), 'BAD_ARGUMENT'],
    ['Board.from', 'width', (o) => api.Board.from(o as never), 'BAD_ARGUMENT'],
    ['insertGarbage', 'rows', (o) => api.insertGarbage(o as never, [0]), 'BAD_ARGUMENT'],
    [
      'reachablePlacements (board)',
      'width',
      (o) => api.reachablePlacements(o as never, 'T', { rules: 'classic' }),
      'BAD_ARGUMENT',
    ],
    ['fumenFromBoard (board)', 'rows', (o) => api.fumenFromBoard(o as never), 'BAD_ARGUMENT'],
    ['PieceMover.settle', 'rotation', (o) => mover.settle(o as never), 'BAD_ARGUMENT'],
    ['PieceMover.apply', 'x', (o) => mover.apply(o as never, 'left'), 'BAD_ARGUMENT'],
    ['new NesGame', 'rules', (o) => new api.NesGame(o as never), 'BAD_ARGUMENT'],
    ['garbageAfterLock', 'lines', (o) => api.garbageAfterLock([o as never], 1, 0), 'BAD_ARGUMENT'],
    ['featureValues', 'lines', (o) => api.featureValues(api.Board.empty(), o as never), 'BAD_ARGUMENT'],
    [
      'FEATURE_FUNCTIONS.rowsCleared',
      'lines',
      (o) => api.FEATURE_FUNCTIONS.rowsCleared(api.Board.empty(), o as never),
      'BAD_ARGUMENT',
    ],
    ['resolveWeights', 'features', (o) => api.resolveWeights(o), 'BAD_ARGUMENT'],
    ['checkCheckpoint', 'format', (o) => api.checkCheckpoint(o), 'BAD_ARGUMENT'],
    ['mergeSimulations (a result)', 'range', (o) => api.mergeSimulations([o as never]), 'BAD_ARGUMENT'],
    ['mergeSimulations (the list)', 'length', (o) => api.mergeSimulations(o as never), 'BAD_ARGUMENT'],
    ['mergeGameResults (a result)', 'rules', (o) => api.mergeGameResults([o as never]), 'BAD_ARGUMENT'],
    ['mergeFullGames (a result)', 'records', (o) => api.mergeFullGames([o as never]), 'BAD_ARGUMENT'],
    ['RankTable.fromBytes', 'length', (o) => api.RankTable.fromBytes(o as never), 'BAD_ARGUMENT'],
    ['PreviewTable.fromBytes', 'length', (o) => api.PreviewTable.fromBytes(o as never), 'BAD_ARGUMENT'],
  ];
  fuzzSync(
    'options, states, snapshots and rule sets',
    fc.tuple(fc.constantFrom(...CASES), fc.constantFrom(...Object.keys(KINDS))),
    ([what, key, call, code], kind) => {
      const r = callSync(() => call(KINDS[kind](key)));
      if (ANY_CODE.has(kind)) return;
      if (r instanceof api.StackRankError || MUST_REFUSE.has(kind))
        expect(r, `${what} given a ${kind} that throws`).toEqual(expect.objectContaining({ code }));
    },
    RUNS / 10,
  );

  /** The code a call throws (a StackRankError with a documented code, else the test fails), or 'none'. */
  const codeOf = (f: () => unknown): string => {
    const r = callSync(f);
    return r instanceof api.StackRankError ? r.code : 'none';
  };
  const codeOfAsync = async (f: () => Promise<unknown>): Promise<string> => {
    try {
      await f();
      return 'none';
    } catch (e) {
      typedOnly(e);
      return (e as api.StackRankError).code;
    }
  };
  const getter = (key: string) => Object.defineProperty({}, key, { enumerable: true, get: boom });
  const proto = () => KINDS.getPrototypeOf('');
  const rev = () => KINDS.revoked('');

  it('surfaces, boards, piece states and formats read through a trap or getter that throws', () => {
    // A Proxy with only a get trap has no fields (no own keys, none `in` it): it is read as {}, never through the
    // trap, and {} is not a surface.
    for (const f of [api.surfaceIndex, api.mirrorSurface, api.surfaceHeights, api.surfaceDigits]) {
      expect(
        codeOf(() => f(new Proxy({}, { get: boom }) as never)),
        f.name,
      ).toBe('BAD_SURFACE');
      expect(
        codeOf(() => f(getter('steps') as never)),
        f.name,
      ).toBe('BAD_ARGUMENT');
      expect(
        codeOf(() => f(rev() as never)),
        f.name,
      ).toBe('BAD_ARGUMENT');
    }
    const steps = new Proxy([0, 0, 0], { get: boom });
    expect(codeOf(() => api.surfaceIndex({ width: 4, maxStep: 4, steps } as never))).toBe('BAD_ARGUMENT');
    // A surface made by the library is read as it is, a copy of one as a caller's object: the same answers.
    const s = api.parseSurface('4526');
    expect(api.surfaceIndex({ ...s, steps: [...s.steps] })).toBe(api.surfaceIndex(s));
    expect(api.mirrorSurface({ ...s })).toEqual(api.mirrorSurface(s));
    const boards = [
      new Proxy({}, { has: boom }),
      proto(),
      {
        get width(): number {
          return boom();
        },
        rows: [],
      },
      rev(),
    ];
    for (const board of boards) {
      expect(codeOf(() => api.Board.from(board as never))).toBe('BAD_ARGUMENT');
      expect(codeOf(() => api.insertGarbage(board as never, [0]))).toBe('BAD_ARGUMENT');
      expect(codeOf(() => api.reachablePlacements(board as never, 'T', { rules: 'classic' }))).toBe('BAD_ARGUMENT');
      expect(codeOf(() => api.fumenFromBoard(board as never))).toBe('BAD_ARGUMENT');
    }
    // legalDrops takes a Board only: one that is not is BAD_BOARD, one that cannot be asked (instanceof) BAD_ARGUMENT.
    expect(codeOf(() => api.legalDrops(proto() as never, 'T'))).toBe('BAD_ARGUMENT');
    expect(codeOf(() => api.legalDrops(rev() as never, 'T'))).toBe('BAD_ARGUMENT');
    expect(codeOf(() => api.legalDrops(new Proxy({}, { has: boom }) as never, 'T'))).toBe('BAD_BOARD');
    expect(api.Board.from({ width: 4, rows: [1], height: 4 }).toRows()).toEqual(['....', '....', '....', '#...']);
    const mover = new api.PieceMover(api.Board.empty(), 'T', 'classic');
    expect(codeOf(() => mover.settle(getter('rotation') as never))).toBe('BAD_ARGUMENT');
    expect(codeOf(() => mover.settle(rev() as never))).toBe('BAD_ARGUMENT');
    expect(mover.settle(mover.spawn)).toEqual(mover.spawn);
    expect(codeOf(() => new api.NesGame(getter('rules') as never))).toBe('BAD_ARGUMENT');
    expect(codeOf(() => new api.NesGame(rev() as never))).toBe('BAD_ARGUMENT');
    expect(codeOf(() => api.garbageAfterLock([getter('lines') as never], 1, 0))).toBe('BAD_ARGUMENT');
    expect(codeOf(() => api.garbageAfterLock(rev() as never, 1, 0))).toBe('BAD_ARGUMENT');
    expect(codeOf(() => api.garbageAfterLock([rev() as never], 1, 0))).toBe('BAD_ARGUMENT');
  });

  it("the full-board features refuse figures and boards that are not a drop's or a Board", () => {
    const board = api.Board.empty();
    expect(codeOf(() => api.featureValues(board, getter('lines') as never))).toBe('BAD_ARGUMENT');
    expect(codeOf(() => api.featureValues(board, {} as never))).toBe('BAD_ARGUMENT');
    expect(
      codeOf(() => api.featureValues(board, { lines: 'x', erodedCells: 0, landingRow: 0, pieceHeight: 1 } as never)),
    ).toBe('BAD_ARGUMENT');
    expect(codeOf(() => api.featureValues(board, rev() as never))).toBe('BAD_ARGUMENT');
    expect(codeOf(() => api.FEATURE_FUNCTIONS.holes(null as never, undefined as never))).toBe('BAD_BOARD');
    expect(codeOf(() => api.FEATURES[1].value(null as never))).toBe('BAD_BOARD');
    expect(codeOf(() => api.FEATURE_FUNCTIONS.holes(proto() as never, undefined as never))).toBe('BAD_ARGUMENT');
    expect(codeOf(() => api.FEATURE_FUNCTIONS.rowsCleared(board, undefined as never))).toBe('BAD_ARGUMENT');
    // A board feature takes the board alone; a move feature reads a drop's figures.
    expect(api.FEATURE_FUNCTIONS.holes(board, undefined as never)).toBe(0);
    const drop = api.dropPiece(board, { piece: 'I', rotation: '0', x: 0 });
    expect(api.FEATURE_FUNCTIONS.landingHeight(drop!.board, drop!)).toBe(
      api.featureValues(drop!.board, drop!).landingHeight,
    );
  });

  it('weights, checkpoints, run results and table bytes read through a trap or getter that throws', async () => {
    // A Proxy with only a get trap is read as {} (never through the trap): each refuses {} with its own code.
    const proxy = () => new Proxy({}, { get: boom });
    expect(codeOf(() => api.resolveWeights(proxy()))).toBe('BAD_ARGUMENT');
    expect(codeOf(() => api.resolveWeights(getter('weights')))).toBe('BAD_ARGUMENT');
    expect(codeOf(() => api.checkCheckpoint(proxy()))).toBe('BAD_HEADER');
    expect(codeOf(() => api.checkCheckpoint(getter('format')))).toBe('BAD_ARGUMENT');
    expect(codeOf(() => api.checkCheckpoint(rev()))).toBe('BAD_ARGUMENT');
    expect(codeOf(() => api.mergeSimulations([proxy() as never]))).not.toBe('none');
    expect(codeOf(() => api.mergeSimulations([getter('range') as never]))).toBe('BAD_ARGUMENT');
    expect(codeOf(() => api.mergeSimulations(rev() as never))).toBe('BAD_ARGUMENT');
    expect(codeOf(() => api.mergeGameResults(rev() as never))).toBe('BAD_ARGUMENT');
    expect(codeOf(() => api.mergeFullGames([rev() as never]))).toBe('BAD_ARGUMENT');
    const bytes = [proto(), rev(), new Proxy(new Uint8Array(64), {})];
    for (const b of bytes) {
      expect(codeOf(() => api.RankTable.fromBytes(b as never))).toBe('BAD_ARGUMENT');
      expect(codeOf(() => api.PreviewTable.fromBytes(b as never))).toBe('BAD_ARGUMENT');
      expect(await codeOfAsync(() => api.loadRankTable(b as never))).toBe('BAD_ARGUMENT');
      expect(await codeOfAsync(() => api.loadAnyTable(b as never))).toBe('BAD_ARGUMENT');
      expect(await codeOfAsync(() => api.loadPreviewTable(b as never))).toBe('BAD_ARGUMENT');
    }
    expect(await codeOfAsync(() => api.cachedTablePath({}, getter('HOME') as never))).toBe('BAD_ARGUMENT');
    expect(await codeOfAsync(() => api.cachedTablePath({}, new Proxy({}, { has: boom }) as never))).toBe(
      'BAD_ARGUMENT',
    );
    // No variable in it: the default folder, the trap never run.
    expect(typeof (await api.cachedTablePath({}, proxy() as never))).toBe('string');
    expect(await codeOfAsync(() => api.cachedTablePath({}, rev() as never))).toBe('BAD_ARGUMENT');
    expect(await api.cachedTablePath({}, { XDG_CACHE_HOME: '/c' })).toMatch(/^\/c\/stackrank\//);
  });
});

/**
 * Every public method of the classes the entries declare (dist/*.d.ts) and of the worker's AI and games, that takes an
 * argument, is called by name in a fuzz file (methods without arguments have no input to check; `@internal` ones are
 * not the API). Listed here are the exceptions, each with why.
 */
it('every public method that takes an argument has a fuzz case in test/fuzz', () => {
  const EXEMPT = new Map([
    ['StackingEngine', "the search engine: reached only through TetrisAI.create's internal `attached` argument"],
  ]);
  const INTERFACES = new Set(['WorkerTetrisAI', 'WorkerGame']);
  const dist = fileURLToPath(new URL('../../dist/', import.meta.url));
  const here = fileURLToPath(new URL('.', import.meta.url));
  const fuzzSources = readdirSync(here)
    .filter((f) => f.endsWith('.fuzz.test.ts'))
    .map((f) => readFileSync(join(here, f), 'utf8'))
    .join('\n');
  const methods = new Set<string>();
  for (const file of readdirSync(dist).filter((f) => f.endsWith('.d.ts'))) {
    const source = ts.createSourceFile(file, readFileSync(join(dist, file), 'utf8'), ts.ScriptTarget.Latest, true);
    source.forEachChild((node) => {
      const owner =
        (ts.isClassDeclaration(node) && node.name?.text) ||
        (ts.isInterfaceDeclaration(node) && INTERFACES.has(node.name.text) && node.name.text);
      if (!owner) return;
      for (const member of (node as { members: ts.NodeArray<ts.Node> }).members) {
        const isMethod = ts.isMethodDeclaration(member) || ts.isMethodSignature(member);
        const hidden =
          ts.getCombinedModifierFlags(member as ts.Declaration).valueOf() &
          (ts.ModifierFlags.Private | ts.ModifierFlags.Protected);
        const internal = ts.getJSDocTags(member).some((tag) => tag.tagName.text === 'internal');
        if (isMethod && !hidden && !internal && member.parameters.length > 0 && ts.isIdentifier(member.name))
          methods.add(`${owner}.${member.name.text}`);
      }
    });
  }
  expect(methods.size).toBeGreaterThan(30);
  const exempt = (m: string) => EXEMPT.has(m) || EXEMPT.has(m.split('.')[0]);
  const missing = [...methods].filter((m) => !exempt(m) && !fuzzSources.includes(`.${m.split('.')[1]}(`));
  expect(missing).toEqual([]);
  // An exception for a method that is gone goes too.
  for (const name of EXEMPT.keys()) expect([...methods].some((m) => m === name || m.startsWith(`${name}.`))).toBe(true);
});

it('every exported function and class has a fuzz case here', () => {
  const source = readFileSync(fileURLToPath(import.meta.url), 'utf8');
  const callable = Object.entries(api).filter(([, v]) => typeof v === 'function');
  expect(callable.length).toBeGreaterThan(50);
  expect(callable.map(([k]) => k).filter((k) => !new RegExp(`api\\.${k}\\b`).test(source))).toEqual([]);
});

it('StackRankError itself', () => {
  fc.assert(
    fc.property(
      fc.constantFrom<api.StackRankErrorCode>('BAD_ARGUMENT', 'IO', 'ABORTED'),
      fc.string(),
      (code, message) => {
        const e = new api.StackRankError(code, message);
        expect(e).toBeInstanceOf(Error);
        expect(e.code).toBe(code);
      },
    ),
    params(100),
  );
});
