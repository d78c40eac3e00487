// Versus-search kernel, the full placement search by board (docs/game.md, "The versus policy"): the reachable kernel's
// search of a piece depends on nothing but the piece and the board's rows (the rule set's tables and parameters stay
// the same from search to search), and the same board comes up again and again — in other lines of a ply, and in the
// next move's search one ply further down. So each list is kept in a direct-mapped table with its piece and its rows,
// compared word for word before use: a list read from the table is the one the search would make. No allocation:
// TypeScript lays the table out (C_REACH_CACHE) and empties it when the tables change.
import { reach } from '../reachable';
import { listDrops } from './drops';
import {
  MAX_BOARD_ROWS, OUT_LANDED, OUT_WORDS, O_BOARD, O_OUT, O_OUT_SPIN, O_WIDTH, PARAM_WORDS, SPIN_LEVEL_MASK, TABLE_BYTES,
} from '../reachable/layout';
import {
  C_PARAMS, C_REACH, C_REACH_CACHE, C_TABLES, MOVE_SPIN_SHIFT, N_ROWS, N_TOP, RC_BYTES, RC_COUNT, RC_KEY, RC_LIST,
  RC_MOVES, RC_PIECE, RC_ROWS, RC_TOP, REACH_CACHE_BITS,
} from './layout';

/** RC_PIECE of a quick list: the piece plus this (a full search's is the piece). */
const QUICK_KIND = 8;

@inline function rowAt(node: usize, y: i32): u32 {
  return load<u32>(node + N_ROWS + ((<usize>y) << 2));
}

/** The reachable kernel's placements of piece `pid` on the node's board, into its output; returns their count. */
function search(ctx: usize, node: usize, pid: i32): i32 {
  const r = <usize>load<i32>(ctx + C_REACH);
  memory.copy(r + O_WIDTH, <usize>load<i32>(ctx + C_PARAMS) + ((<usize>(pid * PARAM_WORDS)) << 2), PARAM_WORDS << 2);
  const top = load<i32>(node + N_TOP);
  memory.copy(r + O_BOARD, node + N_ROWS, (<usize>top) << 2);
  memory.fill(r + O_BOARD + ((<usize>top) << 2), 0, (<usize>(MAX_BOARD_ROWS - top)) << 2);
  return reach(r, <usize>load<i32>(ctx + C_TABLES) + <usize>pid * TABLE_BYTES);
}

/** Whether the entry holds the list of `kind` on the node's board (its `top` rows). */
function holds(entry: usize, key: u64, node: usize, kind: i32, top: i32): bool {
  if (load<u64>(entry + RC_KEY) != key || load<i32>(entry + RC_PIECE) != kind || load<i32>(entry + RC_TOP) != top)
    return false;
  for (let y = 0; y < top; y++) if (load<u32>(entry + RC_ROWS + ((<usize>y) << 2)) != rowAt(node, y)) return false;
  return true;
}

/** Where cachedPlacements left its list: per placement, the landed state | its spin level << MOVE_SPIN_SHIFT. */
export let listAt: usize = 0;

/**
 * The placements of piece `pid` on the node's board, from the table when it holds them: the quick list (drops.ts)
 * with `quick`, else the full search's. Returns their count (the quick list's -1, a board too high for it, is kept
 * too) and leaves the list at listAt.
 */
export function cachedPlacements(ctx: usize, node: usize, pid: i32, quick: bool): i32 {
  const top = load<i32>(node + N_TOP);
  const kind = quick ? pid + QUICK_KIND : pid;
  // FNV-1a over 64 bits: the kind, the rows, the top
  let key: u64 = (0xcbf29ce484222325 ^ <u64>kind) * 0x100000001b3;
  for (let y = 0; y < top; y++) key = (key ^ <u64>rowAt(node, y)) * 0x100000001b3;
  key = (key ^ <u64>top) * 0x100000001b3;
  const slot = (<u32>(key >> 32) ^ <u32>key) & ((<u32>1 << REACH_CACHE_BITS) - 1);
  const entry = <usize>load<i32>(ctx + C_REACH_CACHE) + <usize>slot * RC_BYTES;
  if (holds(entry, key, node, kind, top)) {
    listAt = entry + RC_LIST;
    return load<i32>(entry + RC_COUNT);
  }
  const n = quick ? listDrops(ctx, node, pid) : search(ctx, node, pid);
  // the list packed: into the entry, or where the kernel wrote it when too long for one (word k from words 2k, 2k+1)
  const out = <usize>load<i32>(ctx + C_REACH);
  const kept = n <= RC_MOVES;
  listAt = kept ? entry + RC_LIST : out + O_OUT;
  for (let k = 0; k < n; k++) {
    const landed = load<i32>(out + O_OUT + ((<usize>(k * OUT_WORDS + OUT_LANDED)) << 2));
    const spin = load<i32>(out + O_OUT_SPIN + ((<usize>k) << 2)) & SPIN_LEVEL_MASK;
    store<i32>(listAt + ((<usize>k) << 2), landed | (spin << MOVE_SPIN_SHIFT));
  }
  if (!kept) return n;
  store<u64>(entry + RC_KEY, key);
  store<i32>(entry + RC_PIECE, kind);
  store<i32>(entry + RC_TOP, top);
  store<i32>(entry + RC_COUNT, n);
  for (let y = 0; y < top; y++) store<u32>(entry + RC_ROWS + ((<usize>y) << 2), rowAt(node, y));
  return n;
}
