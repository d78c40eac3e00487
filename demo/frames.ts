/**
 * Play mode's falling piece under a timed rule set (`nes`; docs/rules.md, "Time: NES Tetris as it is played";
 * docs/demo.md, "Play"). The piece lives frame by frame, as the game runs it: on each frame the shift, then the turn,
 * then gravity, which moves it down `rows` rows on every `frames`-th frame of the level and locks it on the frame
 * that step is blocked. A person's presses wait for a frame the rule set's timeline allows: under a tap timeline an
 * `X` frame takes one shift and one turn; under DAS a held direction shifts as the game's DAS counter does (at once,
 * then after 16 frames and every 6; one hold per piece; a blocked shift shifts on the first frame it is free), and
 * a turn comes on any frame but not the same button on two frames in a row. Each frame's token (`.`, `L`, `RA`, …)
 * is kept, so the frames a person played are inputs of the kind `reachablePlacements` gives, and the placement is
 * one it lists.
 */
import type { FrameInput, GravityStep, PieceMover, PieceState, RuleSet } from 'stackrank';
import { gravityAt } from 'stackrank/research';

/** A button: shift left or right, turn clockwise (A) or counter-clockwise (B). */
export type Press = 'L' | 'R' | 'A' | 'B';
type Shift = '' | 'L' | 'R';
type Turn = '' | 'A' | 'B';

/** Presses waiting for a frame that takes them; more are dropped (a person who mashes does not queue a second). */
const MAX_QUEUED = 4;

/** Milliseconds per frame of a timed rule set (NES: 60.0988 frames a second). */
export function frameMs(rules: RuleSet): number {
  return 1000 / rules.timing!.framesPerSecond;
}

export class FramePiece {
  /** Frames since the piece appeared (its first frame is 0). */
  frame = 0;
  state: PieceState;
  locked = false;
  /** One token per frame played, from the first. */
  readonly tokens: FrameInput[] = [];
  private fall = 0;
  private readonly gravity: GravityStep;
  private readonly timeline: string;
  private readonly das: boolean;
  private readonly dasDelay: number;
  private readonly dasRepeat: number;
  private queued: Press[] = [];
  /** DAS: the direction the person holds, whether they let go (after at least one frame held), the direction the
   * game holds, its counter, whether this piece's one hold is used, the turn pressed on the frame before. */
  private wanted: Shift = '';
  private letGo = false;
  private held: Shift = '';
  private counter = 0;
  private holdUsed = false;
  private lastTurn: Turn = '';

  constructor(
    private readonly mover: PieceMover,
    rules: RuleSet,
    /** DAS: a direction held as the piece appears (held through the entry delay: charged under `dasCharged`). */
    heldAtStart: Shift = '',
  ) {
    this.state = mover.spawn;
    this.gravity = gravityAt(rules.timing!, rules.level!);
    this.timeline = rules.timeline!;
    this.das = this.timeline === 'das' || this.timeline === 'dasCharged';
    this.dasDelay = rules.timing!.dasDelay;
    this.dasRepeat = rules.timing!.dasRepeat;
    if (this.das) this.wanted = heldAtStart;
  }

  /** A button pressed: taken on the next frame that allows it. Under DAS a shift holds its direction until release. */
  press(p: Press): void {
    if (this.das && (p === 'L' || p === 'R')) {
      if (this.wanted !== p) {
        this.wanted = p;
        this.letGo = false;
      }
      return;
    }
    if (this.queued.length < MAX_QUEUED) this.queued.push(p);
  }

  /**
   * A direction let go. Under DAS the hold stops after the frame it is first taken on. Under a tap timeline the
   * presses still waiting are kept (a tap between two input frames counts), unless `dropWaiting`: the page's own
   * auto-repeat made them while the key was held, and a person who lets go means the piece to stop.
   */
  release(p: Press, dropWaiting = false): void {
    if (this.das) {
      if (this.wanted === p) this.letGo = true;
    } else if (dropWaiting) this.queued = this.queued.filter((q) => q !== p);
  }

  /** The direction this piece's player holds (DAS), for the next piece to start with. */
  get holding(): Shift {
    return this.letGo ? '' : this.wanted;
  }

  /** One frame: the shift, the turn, gravity. True when the piece locked on it. */
  step(): boolean {
    if (this.locked) return true;
    const f = this.frame;
    const shift = this.das ? this.dasShift(f) : this.tapShift(f);
    const turn = this.takeTurn(f);
    this.tokens.push((shift + turn || '.') as FrameInput);
    this.frame++;
    if (++this.fall >= this.gravity.frames) {
      this.fall = 0;
      for (let r = 0; r < this.gravity.rows; r++) {
        const s = this.state;
        if (this.mover.collides(s.rotation, s.x, s.y - 1)) {
          this.locked = true;
          break;
        }
        this.state = { ...s, y: s.y - 1 };
      }
    }
    return this.locked;
  }

  /** Frames with no more input until the piece locks (a hard drop: the piece falls straight down, as it would). */
  dropToLock(): void {
    this.queued = [];
    if (this.wanted !== '') this.letGo = true;
    while (!this.step());
  }

  private inputFrame(f: number): boolean {
    return this.timeline[f % this.timeline.length] === 'X';
  }

  /** Moves the piece one column; false when it is blocked. */
  private shiftBy(dir: 'L' | 'R'): boolean {
    const next = this.mover.apply(this.state, dir === 'L' ? 'left' : 'right');
    if (!next) return false;
    this.state = next;
    return true;
  }

  private tapShift(f: number): Shift {
    const i = this.queued.findIndex((p) => p === 'L' || p === 'R');
    // a frame takes the presses at the front of the queue: a shift behind a turn waits for that turn's frame
    if (!this.inputFrame(f) || i < 0 || i > 1 || (i === 1 && (this.queued[0] === 'L' || this.queued[0] === 'R')))
      return '';
    const [dir] = this.queued.splice(i, 1) as ['L' | 'R'];
    return this.shiftBy(dir) ? dir : '';
  }

  /** The game's DAS counter (docs/rules.md, "Time"). */
  private dasShift(f: number): Shift {
    if (this.held !== '' && (this.wanted !== this.held || this.letGo)) {
      this.held = '';
      this.holdUsed = true;
      if (this.letGo) {
        this.wanted = '';
        this.letGo = false;
      }
      return '';
    }
    if (this.held === '') {
      if (this.wanted === '' || this.holdUsed) return '';
      this.held = this.wanted;
      this.holdUsed = true;
      // held through the entry delay: the counter is full, so the first frame counts past it and shifts
      this.counter = this.timeline === 'dasCharged' && f === 0 ? this.dasDelay - this.dasRepeat : 0;
      return this.shiftBy(this.held) ? this.held : ((this.counter = this.dasDelay), '');
    }
    if (++this.counter < this.dasDelay) return '';
    this.counter = this.dasDelay - this.dasRepeat;
    if (this.shiftBy(this.held)) return this.held;
    this.counter = this.dasDelay;
    return '';
  }

  private takeTurn(f: number): Turn {
    const i = this.queued.findIndex((p) => p === 'A' || p === 'B');
    const ok = this.das ? i === 0 && this.queued[0] !== this.lastTurn : this.inputFrame(f) && i === 0;
    if (!ok) {
      this.lastTurn = '';
      return '';
    }
    const [t] = this.queued.splice(0, 1) as ['A' | 'B'];
    this.lastTurn = t;
    const next = this.mover.apply(this.state, t === 'A' ? 'cw' : 'ccw');
    if (!next) return '';
    this.state = next;
    return t;
  }
}
