/**
 * The game-facing vocabulary shared by the rules layer (src/rules/) and every AI that plays real games.
 * docs/rules.md ("Real games") defines each term; this file only fixes the shapes.
 *
 * Coordinates everywhere: `x` is the column counted from the left (0), `y` the row counted from the bottom (0).
 */
import type { Piece } from '../pieces.js';

/** Rule-set presets (docs/rules.md, "Rule sets"). */
export type RuleSetName = 'classic' | 'nes' | 'nesUntimed' | 'guideline' | 'tgm' | 'tgm20g';

/**
 * Keys a player presses. `dasLeft`/`dasRight` shift until blocked; `softDrop` drops until resting without locking;
 * `hardDrop` drops and locks (always last); `hold` (first, when used) swaps the current piece with the hold box.
 */
export type Input = 'left' | 'right' | 'dasLeft' | 'dasRight' | 'cw' | 'ccw' | 'softDrop' | 'hardDrop' | 'hold';

/**
 * One frame's input under a timed rule set (docs/rules.md, "Time"): `.` nothing, `L` / `R` a shift, `A` a clockwise
 * and `B` a counter-clockwise turn, or a shift with a turn on the same frame (the game shifts first).
 */
export type FrameInput = '.' | 'L' | 'R' | 'A' | 'B' | 'LA' | 'LB' | 'RA' | 'RB';

/** One board cell as `[x, y]`. */
export type Cell = readonly [x: number, y: number];

/**
 * Where a piece comes to rest: the move shape every AI of the library answers with (TetrisAI, StackingAI,
 * the full-board player; docs/api.md, "Moves"). `rotation` is the rule set's own state name (SRS: '0' 'R' '2' 'L';
 * classic: the orientation index, '0'…'3'); `x`, `y` locate the piece as docs/rules.md defines per rotation system
 * (classic: its leftmost column and lowest row); `cells` are its four cells, sorted by row, then column.
 */
export interface PieceMove {
  readonly piece: Piece;
  readonly rotation: string;
  readonly x: number;
  readonly y: number;
  readonly cells: readonly Cell[];
}

/**
 * Whether a placement is a spin (docs/rules.md, "Versus"): under the guideline's T-spin rule a T that locks right
 * after a turn with three of the four corners around its centre filled is a `full` T-spin when both corners on the
 * side it points to are filled (or the turn took SRS's fifth kick test), else a `mini`.
 */
export type Spin = 'none' | 'mini' | 'full';

/**
 * A resting placement the piece can reach from spawn; `inputs` is a shortest key sequence from spawn that ends in
 * `hardDrop`, or under a timed rule set one FrameInput per frame from the piece's first frame to the frame it
 * locks. `spin` is the best spin the piece can lock there with under the rule set (`'none'` where the rule set has
 * no spins); when it is not `'none'`, `inputs` is a shortest sequence that makes that spin (it ends with the turn,
 * then `hardDrop`), which may be longer than the fewest presses to the same cells.
 */
export interface GamePlacement extends PieceMove {
  readonly inputs: readonly Input[] | readonly FrameInput[];
  readonly spin: Spin;
}

/**
 * A board as a caller may give it: rows of strings, top row first (`.` empty, any other character filled), or
 * bit rows bottom row first (bit x set = cell x filled) with an explicit width and, optionally, the board's height
 * (default: the number of bit rows). A Board has this second shape.
 */
export type BoardLike =
  | readonly string[]
  | { readonly width: number; readonly height?: number; readonly rows: ArrayLike<number> };
