/**
 * Analyze mode: a position editor (click cells, arrow keys and Space, a fumen, or the play position) and the game
 * AI's ranking of every placement of the current piece (`rankPlacements`), the best few drawn on the board
 * (docs/demo.md, "Analyze").
 */
import {
  Board,
  PIECES,
  RULE_SETS,
  StackRankError,
  boardFromFumen,
  formatFrameInputs,
  fumenFromBoard,
  type Cell,
  type FrameInput,
  type Piece,
  type PlacementRanking,
  type TetrisAI,
} from 'stackrank';
import { cellAt, drawBoard, VISIBLE_ROWS, type Overlay, type Paint } from './draw.js';
import { isTimedRules, type Settings } from './params.js';

const WIDTH = 10;
/** Placements listed (the same default as `stackrank analyze --limit`). */
export const LISTED = 10;
/** Placements drawn on the board. */
const DRAWN = 3;

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;

export interface AnalyzerDeps {
  settings: Settings;
  gameAI(): Promise<TetrisAI>;
  updateUrl(extra: Record<string, string | null>): void;
  /** The link's position (fumen, queue, hold) was replaced: what was wrong with it no longer applies. */
  positionReplaced(): void;
  playPosition(): { board: Board; current: Piece; queue: Piece[]; hold: Piece | null } | null;
}

export class Analyzer {
  /** Bit rows, bottom first (bit x = column x); at least VISIBLE_ROWS rows (more when a fumen fills rows 20..22). */
  private rows: number[] = new Array(VISIBLE_ROWS).fill(0);
  private current: Piece = 'T';
  private queue: Piece[] = [];
  private hold: Piece | null = null;
  private ranking: PlacementRanking | null = null;
  private selected = 0;
  private cursor: Cell = [0, 0];
  private showCursor = false;
  private generation = 0;

  constructor(private readonly deps: AnalyzerDeps) {
    const s = deps.settings;
    if (s.position) this.setBoard(s.position.board);
    const letters = s.queue ?? (s.position?.current ? [s.position.current, ...(s.position.queue ?? [])] : null);
    if (letters?.length) {
      this.current = letters[0];
      this.queue = letters.slice(1);
    }
    this.hold = s.hold ?? s.position?.hold ?? null;
    if (s.fumen) $<HTMLInputElement>('an-fumen').value = s.fumen;

    const cur = $<HTMLSelectElement>('an-current');
    const hold = $<HTMLSelectElement>('an-hold');
    hold.add(new Option('none', ''));
    for (const p of PIECES) {
      cur.add(new Option(p, p));
      hold.add(new Option(p, p));
    }
    cur.onchange = () => {
      this.current = cur.value as Piece;
      void this.update();
    };
    hold.onchange = () => {
      this.hold = (hold.value || null) as Piece | null;
      void this.update();
    };
    const q = $<HTMLInputElement>('an-queue');
    q.oninput = () => {
      const letters = q.value.toUpperCase().replace(/[^IOTSZJL]/g, '');
      this.queue = [...letters] as Piece[];
      void this.update();
    };
    $('an-load').onclick = () => this.loadFumen($<HTMLInputElement>('an-fumen').value.trim());
    $<HTMLInputElement>('an-fumen').onkeydown = (e) => {
      if (e.key === 'Enter') this.loadFumen($<HTMLInputElement>('an-fumen').value.trim());
    };
    $('an-clear').onclick = () => {
      this.rows = new Array(VISIBLE_ROWS).fill(0);
      void this.update();
    };
    $('an-take').onclick = () => {
      const p = deps.playPosition();
      if (!p) {
        this.status('No game in play mode yet: play first, then take its position.');
        return;
      }
      this.setBoard(p.board);
      this.current = p.current;
      this.queue = [...p.queue];
      this.hold = p.hold;
      deps.positionReplaced();
      void this.update();
    };
    const canvas = $<HTMLCanvasElement>('board');
    canvas.addEventListener('mousedown', (e) => {
      if (this.deps.settings.mode !== 'analyze') return;
      const c = cellAt(canvas, WIDTH, e.clientX, e.clientY);
      if (!c) return;
      this.cursor = c;
      this.toggle(c);
    });
    canvas.addEventListener('focus', () => (this.showCursor = true));
    canvas.addEventListener('blur', () => (this.showCursor = false));
    canvas.addEventListener('keydown', (e) => {
      if (this.deps.settings.mode !== 'analyze') return;
      const [x, y] = this.cursor;
      const moves: Record<string, Cell> = {
        ArrowLeft: [Math.max(0, x - 1), y],
        ArrowRight: [Math.min(WIDTH - 1, x + 1), y],
        ArrowUp: [x, Math.min(VISIBLE_ROWS - 1, y + 1)],
        ArrowDown: [x, Math.max(0, y - 1)],
      };
      if (moves[e.key]) {
        this.cursor = moves[e.key];
        this.showCursor = true;
      } else if (e.key === ' ' || e.key === 'Enter') {
        this.toggle(this.cursor);
      } else return;
      e.preventDefault();
    });
  }

  async start(): Promise<void> {
    await this.update();
    document.body.dataset.state = 'analyzing';
  }

  private setBoard(board: Board): void {
    this.rows = Array.from({ length: Math.max(VISIBLE_ROWS, board.height) }, (_, y) => board.rows[y] ?? 0);
  }

  private toggle([x, y]: Cell): void {
    this.rows[y] ^= 1 << x;
    void this.update();
  }

  private loadFumen(text: string): void {
    try {
      const pos = boardFromFumen(text);
      this.setBoard(pos.board);
      if (pos.current) {
        this.current = pos.current;
        this.queue = pos.queue ?? [];
      }
      if (pos.hold) this.hold = pos.hold;
      this.deps.positionReplaced();
      void this.update();
    } catch (e) {
      this.status(e instanceof Error ? e.message : String(e));
    }
  }

  private status(text: string): void {
    $('an-status').textContent = text;
  }

  private syncControls(): void {
    $<HTMLSelectElement>('an-current').value = this.current;
    const hold = $<HTMLSelectElement>('an-hold');
    const hasHold = RULE_SETS[this.deps.settings.rules].hold;
    hold.disabled = !hasHold;
    hold.value = hasHold ? (this.hold ?? '') : '';
    const q = $<HTMLInputElement>('an-queue');
    if (q.value.toUpperCase().replace(/[^IOTSZJL]/g, '') !== this.queue.join('')) q.value = this.queue.join('');
  }

  private board(): Board {
    const top = this.rows.reduce((t, r, y) => (r ? y + 1 : t), 0);
    const height = top > VISIBLE_ROWS ? 23 : VISIBLE_ROWS;
    return Board.fromBits(this.rows.slice(0, height), WIDTH, height);
  }

  /** Ranks the position (synchronously: a few milliseconds), lists and draws the best placements. */
  async update(): Promise<void> {
    const generation = ++this.generation;
    this.syncControls();
    const ai = await this.deps.gameAI(); // the rule set and lookahead chosen now (made once each)
    if (generation !== this.generation) return;
    const list = $('placement-list');
    const hasHold = RULE_SETS[this.deps.settings.rules].hold;
    const hold = hasHold ? this.hold : null;
    this.ranking = null;
    this.selected = 0;
    let fumen = '';
    try {
      const board = this.board();
      fumen = fumenFromBoard(board);
      this.ranking = ai.rankPlacements(
        { board, current: this.current, queue: this.queue.join(''), hold, canHold: hasHold },
        { limit: LISTED },
      );
      this.status('');
    } catch (e) {
      this.status(
        e instanceof StackRankError ? `This position cannot be analysed: ${e.message}` : `Error: ${String(e)}`,
      );
    }
    this.deps.updateUrl({
      fumen: fumen || null,
      queue: this.current + this.queue.join(''),
      hold: hold ?? null,
    });
    list.replaceChildren();
    const r = this.ranking;
    const timed = isTimedRules(this.deps.settings.rules);
    list.dataset.count = String(r?.placements.length ?? 0);
    list.dataset.state = r ? 'ranked' : 'error';
    list.dataset.fumen = fumen;
    if (!r) {
      $('an-unit').textContent = '';
      $('an-after').textContent = '';
      return;
    }
    const { level, timeline } = this.deps.settings;
    $('an-unit').textContent =
      (r.placements.length === 0
        ? 'No reachable placement: the game is lost here.'
        : r.unit === 'expectedPieces'
          ? `Stack mode: values are expected pieces of perfect-stack survival; loss against the AI's move.`
          : `Recover mode: values are the evaluator's score (higher is better); loss against the AI's move.`) +
      (timed ? ` Only placements the frames allow at level ${level} with ${timeline}; each press with its frame.` : '');
    r.placements.forEach((p, i) => {
      const li = document.createElement('li');
      li.tabIndex = 0;
      li.dataset.piece = p.piece;
      li.dataset.rotation = p.rotation;
      li.dataset.x = String(p.x);
      li.dataset.y = String(p.y);
      li.dataset.hold = String(p.hold);
      li.dataset.value = String(p.value);
      li.dataset.loss = String(p.loss);
      li.dataset.topsOut = String(p.topsOut);
      li.dataset.inputs = p.inputs.join(' ');
      // A line that tops out is valued by the top-out's cost, not in the unit's scale: no number to read.
      const worth = p.topsOut ? 'tops out' : `${p.value.toFixed(2)} (loss ${p.loss.toFixed(2)})`;
      li.textContent = `${p.hold ? 'hold, ' : ''}${p.piece} ${p.rotation} x=${p.x} y=${p.y}: ${worth}${p.linesCleared ? `, clears ${p.linesCleared}` : ''} — ${timed ? formatFrameInputs(p.inputs as readonly FrameInput[]) : p.inputs.join(' ')}`;
      const select = () => {
        this.selected = i;
        for (const other of list.children) other.classList.toggle('selected', other === li);
      };
      li.onmouseenter = select;
      li.onfocus = select;
      li.onclick = select;
      if (i === 0) li.classList.add('selected');
      list.append(li);
    });
    $('an-after').textContent = r.afterNextPiece
      ? `After #1, if the next piece were: ${r.afterNextPiece.map((a) => `${a.piece} ${a.value.toFixed(1)}`).join(', ')}`
      : '';
  }

  draw(): void {
    const paint: Paint[][] = this.rows.map((bits) =>
      Array.from({ length: WIDTH }, (_, x) => ((bits >> x) & 1 ? 'X' : null)),
    );
    const marks: Overlay[] = (this.ranking?.placements ?? [])
      .slice(0, DRAWN)
      .map((p) => ({ piece: p.piece, cells: p.cells }));
    const sel = this.ranking?.placements[this.selected];
    if (sel && this.selected >= DRAWN)
      marks.push({ piece: sel.piece, cells: sel.cells, label: String(this.selected + 1) });
    drawBoard($<HTMLCanvasElement>('board'), {
      columns: WIDTH,
      cells: paint,
      marks,
      selected: this.selected >= DRAWN ? marks.length - 1 : this.selected,
      cursor: this.showCursor ? this.cursor : null,
      holes: true,
    });
  }
}
