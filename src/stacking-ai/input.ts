/** Checks and normalises what callers pass to the stacking API: surfaces (heights, steps, digits) and queues. */
import { StackRankError, describe, isLiveArray, requireDenseArray } from '../errors.js';
import { PIECES, pieceId } from '../pieces.js';
import { type Surface, checkSurface, parseSurface, surfaceFromSteps, surfaceHeights } from '../surface.js';

export const MAX_LOOKAHEAD = 6;

/**
 * Column heights from a surface given as heights (length W), steps (length W-1), a digit string or a Surface;
 * steps and digits put the lowest column at height 0.
 */
export function toHeights(surface: unknown, width: number, maxStep: number, boardHeight: number): number[] {
  let heights: number[];
  if (typeof surface === 'string') {
    const s = parseSurface(surface, { maxStep });
    if (s.width !== width)
      throw new StackRankError(
        'BAD_SURFACE',
        `${JSON.stringify(surface)} has ${surface.length} digits; this table needs ${width - 1}`,
      );
    heights = surfaceHeights(s);
  } else if (isLiveArray<number>(surface)) {
    requireDenseArray('BAD_SURFACE', 'the surface', surface);
    if (surface.length === width) {
      for (let i = 0; i < width; i++) {
        const h: unknown = surface[i];
        if (typeof h !== 'number' || !Number.isInteger(h) || h < 0) {
          throw new StackRankError(
            'BAD_SURFACE',
            `height of column ${i} must be a non-negative integer; got ${describe(h)}`,
          );
        }
      }
      heights = surface.slice();
    } else if (surface.length === width - 1) {
      heights = surfaceHeights(surfaceFromSteps(surface, { maxStep }));
    } else {
      throw new StackRankError(
        'BAD_SURFACE',
        `give ${width} column heights (or ${width - 1} steps); got ${surface.length} numbers`,
      );
    }
  } else if (surface !== null && typeof surface === 'object') {
    // Read once (docs/errors.md): a getter or Proxy that throws is BAD_ARGUMENT, an object that is no Surface BAD_SURFACE.
    const s = checkSurface(surface as Surface, 'the surface');
    if (s.width !== width)
      throw new StackRankError('BAD_SURFACE', `this table is for ${width} columns; the surface has ${s.width}`);
    heights = surfaceHeights(s);
  } else {
    throw new StackRankError(
      'BAD_SURFACE',
      `a surface is ${width} column heights, ${width - 1} steps, a digit string or a Surface; got ${describe(surface)}`,
    );
  }
  const top = Math.max(...heights);
  if (top > boardHeight)
    throw new StackRankError('BAD_SURFACE', `column height ${top} is above the board (${boardHeight} rows)`);
  return heights;
}

/** Piece ids of a queue given as "TSZ" or ['T', 'S', 'Z']. */
export function toQueue(queue: unknown): number[] {
  const letters = typeof queue === 'string' ? [...queue] : Array.isArray(queue) ? queue : null;
  if (!letters)
    throw new StackRankError(
      'BAD_PIECE',
      `a queue is a string like "TSZ" or an array of letters; got ${describe(queue)}`,
    );
  if (letters.length === 0) throw new StackRankError('BAD_PIECE', 'the queue is empty; queue[0] is the current piece');
  requireDenseArray('BAD_PIECE', 'the queue', letters);
  const ids: number[] = [];
  for (const l of letters) {
    if (typeof l !== 'string')
      throw new StackRankError('BAD_PIECE', `queue entries are letters ${PIECES.join(' ')}; got ${describe(l)}`);
    ids.push(pieceId(l));
  }
  return ids;
}

export function checkLookahead(lookahead: unknown, queueLength: number): number {
  if (typeof lookahead !== 'number' || !Number.isInteger(lookahead) || lookahead < 0 || lookahead > MAX_LOOKAHEAD) {
    throw new StackRankError(
      'BAD_ARGUMENT',
      `lookahead must be an integer from 0 to ${MAX_LOOKAHEAD}; got ${describe(lookahead)}`,
    );
  }
  if (lookahead > queueLength - 1) {
    throw new StackRankError(
      'BAD_ARGUMENT',
      `lookahead ${lookahead} needs ${lookahead + 1} known pieces; the queue has ${queueLength}`,
    );
  }
  return lookahead;
}
