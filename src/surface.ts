/**
 * Stack surfaces (docs/rules.md, "Surfaces"): a stack of W columns is described by its W-1 steps d[i] = h[i+1] - h[i]. A ranked
 * surface has every step in [-S, S]; its index is the base-(2S+1) number whose digits are d[i] + S, first step
 * most significant. Game surfaces may carry steeper steps; they are ranked with those steps truncated to ±S.
 */
import {
  StackRankError,
  describe,
  isArrayOrRevoked,
  fieldsOnce,
  optionNames,
  optionsObject,
  refuseUnknownOptions,
  requireDenseArray,
  requireInt,
} from './errors.js';

export const DEFAULT_WIDTH = 9;
export const DEFAULT_MAX_STEP = 4;
export const MIN_WIDTH = 4;
export const MAX_WIDTH = 9;
export const MIN_MAX_STEP = 1;
export const MAX_MAX_STEP = 4;
/**
 * Largest height or |step| a game surface may carry (far above any board): keeps every height difference an exact
 * small integer, so no surface input overflows into Infinity or loses precision.
 */
export const MAX_GAME_STEP = 1 << 20;

export interface Surface {
  /** Number of stacking columns W (the well is not counted). */
  readonly width: number;
  /** Largest step the rank table covers, S. */
  readonly maxStep: number;
  /** The W-1 steps between neighbouring columns; may exceed ±S for game surfaces. */
  readonly steps: readonly number[];
}

export interface Geometry {
  width?: number;
  maxStep?: number;
}

const GEOMETRY_OPTIONS = optionNames<Geometry>({ width: true, maxStep: true });

export function checkGeometry(geometry: Geometry = {}, what = 'checkGeometry'): { width: number; maxStep: number } {
  // `what` names the caller in messages: anything but a string (a Symbol, an object whose toString throws) would
  // make the message itself throw.
  if (typeof what !== 'string')
    throw new StackRankError(
      'BAD_ARGUMENT',
      `checkGeometry: what must be a string naming the caller; got ${describe(what)}`,
    );
  if (geometry === null || typeof geometry !== 'object' || isArrayOrRevoked(geometry))
    throw new StackRankError('BAD_ARGUMENT', `${what}: options must be an object; got ${describe(geometry)}`);
  // A plain options object is checked for misspelt keys; an object of a class (a RankTable or PreviewTable given as
  // the geometry of its surfaces) is read for its width and maxStep alone. Either is read once (fieldsOnce).
  let plain: boolean;
  try {
    const proto = Object.getPrototypeOf(geometry);
    plain = proto === Object.prototype || proto === null;
  } catch {
    plain = true; // a Proxy whose trap throws: fieldsOnce reports it
  }
  const g = fieldsOnce(what, geometry, GEOMETRY_OPTIONS) as Geometry;
  if (plain) refuseUnknownOptions(what, g, GEOMETRY_OPTIONS);
  const width = requireInt('width', g.width ?? DEFAULT_WIDTH, MIN_WIDTH, MAX_WIDTH);
  const maxStep = requireInt('maxStep', g.maxStep ?? DEFAULT_MAX_STEP, MIN_MAX_STEP, MAX_MAX_STEP);
  return { width, maxStep };
}

/** Base of the index digits, 2S+1. */
export function surfaceBase(maxStep: number): number {
  if (!Number.isInteger(maxStep) || maxStep < MIN_MAX_STEP || maxStep > MAX_MAX_STEP)
    requireInt('maxStep', maxStep, MIN_MAX_STEP, MAX_MAX_STEP);
  return 2 * maxStep + 1;
}

/** Number of ranked surfaces, (2S+1)^(W-1). */
export function surfaceCount(width: number, maxStep: number): number {
  if (!Number.isInteger(width) || width < MIN_WIDTH || width > MAX_WIDTH)
    requireInt('width', width, MIN_WIDTH, MAX_WIDTH);
  return surfaceBase(maxStep) ** (width - 1);
}

function makeSurface(width: number, maxStep: number, steps: number[]): Surface {
  const surface = Object.freeze({ width, maxStep, steps: Object.freeze(steps) });
  OURS.add(surface);
  return surface;
}

/** The surfaces this module made (frozen, steps checked): read as they are, without a copy (hot paths rank them). */
const OURS = new WeakSet<Surface>();

/** The options of surfaceFromSteps, surfaceFromHeights and parseSurface. */
const MAX_STEP_OPTIONS = optionNames<{ maxStep?: number }>({ maxStep: true });

/** Surface from its steps. W is steps.length + 1; steps steeper than ±S are kept (they are truncated when ranked). */
export function surfaceFromSteps(steps: readonly number[], options: { maxStep?: number } = {}): Surface {
  const opts = optionsObject('surfaceFromSteps', options, MAX_STEP_OPTIONS);
  if (!Array.isArray(steps))
    throw new StackRankError('BAD_SURFACE', `steps must be an array of integers; got ${describe(steps)}`);
  const { width, maxStep } = checkSurfaceWidth(steps.length + 1, opts.maxStep, 'steps', steps.length);
  requireDenseArray('BAD_SURFACE', 'steps', steps);
  for (let i = 0; i < steps.length; i++) {
    const d = steps[i];
    if (typeof d !== 'number' || !Number.isInteger(d) || Math.abs(d) > MAX_GAME_STEP) {
      throw new StackRankError(
        'BAD_SURFACE',
        `step ${i} must be an integer from -${MAX_GAME_STEP} to ${MAX_GAME_STEP}; got ${describe(d)}`,
      );
    }
  }
  return makeSurface(width, maxStep, steps.slice());
}

/** Surface of a stack given its W column heights (non-negative integers). */
export function surfaceFromHeights(heights: readonly number[], options: { maxStep?: number } = {}): Surface {
  const opts = optionsObject('surfaceFromHeights', options, MAX_STEP_OPTIONS);
  if (!Array.isArray(heights))
    throw new StackRankError('BAD_SURFACE', `heights must be an array of integers; got ${describe(heights)}`);
  const { width, maxStep } = checkSurfaceWidth(heights.length, opts.maxStep, 'heights', heights.length);
  requireDenseArray('BAD_SURFACE', 'heights', heights);
  for (let i = 0; i < heights.length; i++) {
    const h = heights[i];
    if (typeof h !== 'number' || !Number.isInteger(h) || h < 0 || h > MAX_GAME_STEP) {
      throw new StackRankError(
        'BAD_SURFACE',
        `height of column ${i} must be an integer from 0 to ${MAX_GAME_STEP}; got ${describe(h)}`,
      );
    }
  }
  const steps: number[] = [];
  for (let i = 0; i + 1 < width; i++) steps.push(heights[i + 1] - heights[i]);
  return makeSurface(width, maxStep, steps);
}

/** Surface from its digit string, e.g. "45244345" (W-1 digits, each d[i] + S in 0..2S). */
export function parseSurface(digits: string, options: { maxStep?: number } = {}): Surface {
  const opts = optionsObject('parseSurface', options, MAX_STEP_OPTIONS);
  if (typeof digits !== 'string')
    throw new StackRankError('BAD_SURFACE', `a surface string must be a string of digits; got ${describe(digits)}`);
  const { width, maxStep } = checkSurfaceWidth(digits.length + 1, opts.maxStep, 'digits', digits.length);
  const base = surfaceBase(maxStep);
  const steps = [...digits].map((c, i) => {
    const v = c >= '0' && c <= '9' ? c.charCodeAt(0) - 48 : -1;
    if (v < 0 || v >= base) {
      throw new StackRankError(
        'BAD_SURFACE',
        `digit ${i} of ${JSON.stringify(digits)} is ${JSON.stringify(c)}; with max step ${maxStep} digits are 0..${base - 1}`,
      );
    }
    return v - maxStep;
  });
  return makeSurface(width, maxStep, steps);
}

/** Inverse of surfaceIndex. */
export function surfaceFromIndex(index: number, g: Geometry = {}): Surface {
  const { width, maxStep } = checkGeometry(g, 'surfaceFromIndex');
  const base = surfaceBase(maxStep);
  requireInt('surface index', index, 0, surfaceCount(width, maxStep) - 1);
  const steps = new Array<number>(width - 1);
  for (let i = width - 2; i >= 0; i--) {
    steps[i] = (index % base) - maxStep;
    index = Math.floor(index / base);
  }
  return makeSurface(width, maxStep, steps);
}

const SURFACE_INDEX_OPTIONS = optionNames<{ truncate?: boolean }>({ truncate: true });

/**
 * Table index of a surface. Steps outside ±S are an error unless `truncate` is set, in which case they are
 * clamped to ±S (the stacking article's rule for ranking steep game surfaces).
 */
export function surfaceIndex(surface: Surface, options: { truncate?: boolean } = {}): number {
  const opts = optionsObject('surfaceIndex', options, SURFACE_INDEX_OPTIONS);
  if (opts.truncate !== undefined && typeof opts.truncate !== 'boolean')
    throw new StackRankError('BAD_ARGUMENT', `truncate must be true or false; got ${describe(opts.truncate)}`);
  const { maxStep, steps } = checkSurface(surface, 'surfaceIndex');
  const base = surfaceBase(maxStep);
  let index = 0;
  for (let i = 0; i < steps.length; i++) {
    let d = steps[i];
    if (d < -maxStep || d > maxStep) {
      if (!opts.truncate) {
        throw new StackRankError(
          'BAD_SURFACE',
          `step ${i} is ${d}, outside ±${maxStep}; pass { truncate: true } to clamp it`,
        );
      }
      d = d < 0 ? -maxStep : maxStep;
    }
    index = index * base + d + maxStep;
  }
  return index;
}

/**
 * surfaceIndex(surfaceFromHeights(heights), { truncate: true }) without the checks, for the library's own heights
 * (in-range integers it made): the stack search ranks many of them a turn, and checks belong at the public edge.
 */
export function truncatedHeightsIndex(heights: readonly number[], maxStep: number): number {
  const base = surfaceBase(maxStep);
  let index = 0;
  for (let i = 0; i + 1 < heights.length; i++) {
    const d = heights[i + 1] - heights[i];
    index = index * base + (d < -maxStep ? 0 : d > maxStep ? 2 * maxStep : d + maxStep);
  }
  return index;
}

/** Digit string of a surface (steps must be within ±S). */
export function surfaceDigits(surface: Surface): string {
  const { maxStep, steps } = checkSurface(surface, 'surfaceDigits');
  return steps
    .map((d, i) => {
      if (Math.abs(d) > maxStep) throw new StackRankError('BAD_SURFACE', `step ${i} is ${d}, outside ±${maxStep}`);
      return String(d + maxStep);
    })
    .join('');
}

/** Left-right mirror image: the steps reversed and negated. */
export function mirrorSurface(surface: Surface): Surface {
  const { width, maxStep, steps } = checkSurface(surface, 'mirrorSurface');
  return makeSurface(width, maxStep, steps.map((d) => 0 - d).reverse());
}

/** Column heights of a surface with its lowest column at height 0. */
export function surfaceHeights(surface: Surface): number[] {
  const { steps } = checkSurface(surface, 'surfaceHeights');
  const h = [0];
  for (const d of steps) h.push(h[h.length - 1] + d);
  const low = Math.min(...h);
  return h.map((x) => x - low);
}

/** Index of the mirror image, computed on the digits (used by table folding and tests). */
export function mirrorIndex(index: number, width: number, maxStep: number): number {
  const base = surfaceBase(maxStep);
  requireInt('surface index', index, 0, surfaceCount(width, maxStep) - 1);
  let out = 0;
  for (let i = 0; i < width - 1; i++) {
    out = out * base + (base - 1 - (index % base));
    index = Math.floor(index / base);
  }
  return out;
}

function checkSurfaceWidth(width: number, maxStepOpt: number | undefined, what: string, got: number) {
  if (width < MIN_WIDTH || width > MAX_WIDTH) {
    throw new StackRankError(
      'BAD_SURFACE',
      `a surface of ${MIN_WIDTH}..${MAX_WIDTH} columns has ${MIN_WIDTH - (what === 'heights' ? 0 : 1)}..${MAX_WIDTH - (what === 'heights' ? 0 : 1)} ${what}; got ${got}`,
    );
  }
  const maxStep = requireInt('maxStep', maxStepOpt ?? DEFAULT_MAX_STEP, MIN_MAX_STEP, MAX_MAX_STEP);
  return { width, maxStep };
}

/**
 * A Surface given to a table (RankTable.rank, PreviewTable.row), read once into a checked surface whose width and
 * max step the table compares with its own (TABLE_MISMATCH when they differ) and whose index it then looks up, so a
 * caller's object is never read twice. Anything that is not a surface at all (null, a string, an object without an
 * integer width and max step) is BAD_ARGUMENT: `what` names the method; a surface with bad steps is BAD_SURFACE.
 */
export function tableSurface(surface: unknown, what: string): Surface {
  if (OURS.has(surface as Surface)) return surface as Surface;
  const notASurface = () =>
    new StackRankError(
      'BAD_ARGUMENT',
      `${what} takes a Surface (from parseSurface, surfaceFromSteps, surfaceFromHeights or surfaceFromIndex); got ${describe(surface)}`,
    );
  if (surface === null || typeof surface !== 'object' || isArrayOrRevoked(surface)) throw notASurface();
  const read = fieldsOnce(what, surface, ['width', 'maxStep', 'steps']);
  if (!Number.isInteger(read.width) || !Number.isInteger(read.maxStep)) throw notASurface();
  return checkSurface(read as unknown as Surface, what);
}

/**
 * A surface a caller gave, checked: one this module made as it is, anything else read once (docs/errors.md) into a
 * copy (a library surface, so later calls take it as it is), so a getter or Proxy that throws is BAD_ARGUMENT naming
 * `what`, and one that answers differently on a second read cannot pass an unchecked step.
 */
export function checkSurface(surface: Surface, what: string): Surface {
  if (OURS.has(surface)) return surface;
  const notOne = () =>
    new StackRankError(
      'BAD_SURFACE',
      'not a surface: build one with parseSurface, surfaceFromSteps, surfaceFromHeights or surfaceFromIndex',
    );
  if (!surface || typeof surface !== 'object') throw notOne();
  const f = fieldsOnce(what, surface, ['width', 'maxStep', 'steps']);
  let steps: unknown[];
  try {
    if (!Array.isArray(f.steps)) throw notOne();
    steps = Array.from(f.steps as unknown[]);
  } catch (e) {
    if (e instanceof StackRankError) throw e;
    throw new StackRankError('BAD_ARGUMENT', `${what}: the surface's steps could not be read`, { cause: e });
  }
  const { width, maxStep } = f;
  const ok =
    typeof width === 'number' &&
    Number.isInteger(width) &&
    width >= MIN_WIDTH &&
    width <= MAX_WIDTH &&
    steps.length === width - 1 &&
    typeof maxStep === 'number' &&
    Number.isInteger(maxStep) &&
    maxStep >= MIN_MAX_STEP &&
    maxStep <= MAX_MAX_STEP &&
    steps.every((d) => typeof d === 'number' && Number.isInteger(d) && Math.abs(d) <= MAX_GAME_STEP);
  if (!ok) throw notOne();
  return makeSurface(width, maxStep, steps as number[]);
}
