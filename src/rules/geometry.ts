/**
 * A piece's states under a rotation system in the form both searches read (the TypeScript one in reachable.ts and
 * the kernel's tables in kernel.ts): cells, turns, kicks and ARS's centre-column flags; and the move order.
 */
import type { RotationSystem } from './rotation-systems.js';
import type { Cell, Input } from './types.js';

/** The moves the search tries, in tie-break order; `hardDrop` ends every sequence. */
export const SEARCH_MOVES = Object.freeze([
  'cw',
  'ccw',
  'left',
  'right',
  'dasLeft',
  'dasRight',
  'softDrop',
] as const satisfies readonly Input[]);

/** A piece's states under a rotation system, in the form the search reads: cells, turns, kicks, spawn. */
export interface PieceGeometry {
  readonly system: RotationSystem;
  readonly pieceId: number;
  readonly names: readonly string[];
  readonly cells: readonly (readonly Cell[])[];
  readonly cw: readonly number[];
  readonly ccw: readonly number[];
  /** kicks[s][0] for cw, kicks[s][1] for ccw: the offsets tried in order. */
  readonly kicks: readonly (readonly (readonly Cell[])[])[];
  /** centre[s][dir]: whether ARS's centre-column rule applies to that turn. */
  readonly centre: readonly (readonly boolean[])[];
}

const geometryCache = new Map<string, PieceGeometry>();

export function pieceGeometry(system: RotationSystem, pieceId: number): PieceGeometry {
  const key = `${system.name}:${pieceId}`;
  let g = geometryCache.get(key);
  if (!g) {
    const st = system.pieces[pieceId];
    const n = st.cells.length;
    const kicks: Cell[][][] = [];
    const centre: boolean[][] = [];
    for (let s = 0; s < n; s++) {
      kicks.push([st.cw[s], st.ccw[s]].map((t) => [...system.kicks(pieceId, s, t)]));
      centre.push([st.cw[s], st.ccw[s]].map((t) => system.centreColumnRule(pieceId, s, t)));
    }
    g = { system, pieceId, names: st.names, cells: st.cells, cw: st.cw, ccw: st.ccw, kicks, centre };
    geometryCache.set(key, g);
  }
  return g;
}
