/**
 * Play mode's page: keys (remappable, kept in localStorage), delayed auto shift, the grade after each placement,
 * the hint, and the end-of-game summary with the worst moves (docs/demo.md, "Play").
 */
import {
  formatFrameInputs,
  fumenFromBoard,
  type Board,
  type FrameInput,
  type Piece,
  type RandomizerName,
  type RuleSet,
  type RuleSetName,
  type TetrisAI,
} from 'stackrank';
import { drawBoard, drawPieces } from './draw.js';
import { GRADES, accuracy, lossText, worstMoves } from './grade.js';
import { rulesQuery, type Settings } from './params.js';
import { count } from './words.js';
import { PlaySession, type Action, type GradedMove } from './play.js';

export type KeyAction = Action | 'hint' | 'end';
export const DEFAULT_KEYS: Record<KeyAction, string[]> = {
  left: ['ArrowLeft'],
  right: ['ArrowRight'],
  softDrop: ['ArrowDown'],
  hardDrop: [' '],
  cw: ['ArrowUp', 'x'],
  ccw: ['z'],
  hold: ['c', 'Shift'],
  hint: ['h'],
  end: ['Escape'],
};
const ACTION_NAMES: Record<KeyAction, string> = {
  left: 'move left',
  right: 'move right',
  softDrop: 'soft drop',
  hardDrop: 'hard drop',
  cw: 'rotate clockwise',
  ccw: 'rotate counter-clockwise',
  hold: 'hold',
  hint: 'hint',
  end: 'end game',
};
const STORAGE_KEY = 'stackrank-demo-keys';
const WORST_SHOWN = 3;

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const keyName = (k: string) => (k === ' ' ? 'Space' : k.length === 1 ? k.toUpperCase() : k);
const norm = (k: string) => (k.length === 1 ? k.toLowerCase() : k);

export interface PlayPageDeps {
  settings: Settings;
  gameAI(): Promise<TetrisAI>;
  /** The rule set played: a preset name, or under nes the timed rule set at the chosen level and timeline. */
  rules(): RuleSetName | RuleSet;
  randomizer(): RandomizerName;
  active(): boolean;
}

export class PlayPage {
  session: PlaySession | null = null;
  private starting: Promise<void> | null = null;
  private keys: Record<KeyAction, string[]>;
  private remapping: KeyAction | null = null;
  private showHint = false;
  private hintsUsed = 0;
  private held: HeldKeys = new Map();
  private seed: number;

  constructor(private readonly deps: PlayPageDeps) {
    this.keys = loadKeys();
    this.seed = deps.settings.seed;
    for (const [id, key] of [
      ['das', 'das'],
      ['arr', 'arr'],
      ['sdr', 'sdr'],
    ] as const) {
      const input = $<HTMLInputElement>(id);
      input.value = String(deps.settings[key]);
      input.onchange = () => {
        const n = Number(input.value);
        const max = Number(input.max);
        if (Number.isInteger(n) && n >= 0 && n <= max) deps.settings[key] = n;
        else input.value = String(deps.settings[key]);
      };
    }
    $('hint').onclick = () => this.toggleHint();
    // Touch controls: one press per tap; the soft-drop button drops to rest.
    for (const b of document.querySelectorAll<HTMLButtonElement>('.pad button')) {
      b.onclick = () => {
        const s = this.session;
        if (!s || s.over) return;
        const action = b.dataset.act as Action;
        if (action === 'softDrop') s.dropToRest();
        else {
          this.apply(action);
          s.release(action); // a tap: under DAS one shift
        }
      };
    }
    $('end-game').onclick = () => this.endGame();
    $('play-restart').onclick = () => void this.newGame();
    $('keys-reset').onclick = () => {
      this.keys = structuredClone(DEFAULT_KEYS);
      saveKeys(this.keys);
      this.renderKeymap();
    };
    document.addEventListener('keydown', (e) => this.keydown(e), true);
    document.addEventListener('keyup', (e) => this.keyup(e), true);
    window.addEventListener('blur', () => this.held.clear());
    this.renderKeymap();
  }

  /** Starts a game the first time play mode is shown (or after the rule set changed). */
  start(): Promise<void> {
    if (this.session) {
      document.body.dataset.state = 'playing';
      return Promise.resolve();
    }
    this.starting ??= this.newGame().finally(() => (this.starting = null));
    return this.starting;
  }

  rulesChanged(): void {
    this.session = null;
  }

  async newGame(): Promise<void> {
    const ai = await this.deps.gameAI();
    this.session = new PlaySession(ai, this.deps.rules(), this.deps.randomizer(), this.seed++);
    this.showHint = false;
    this.hintsUsed = 0;
    this.held.clear();
    $('summary').hidden = true;
    $('banner').hidden = true;
    this.renderGrades(null);
    this.renderHint();
    document.body.dataset.state = 'playing';
  }

  /** The position of the turn in play, for analyze mode. */
  position(): { board: Board; current: Piece; queue: Piece[]; hold: Piece | null } | null {
    const s = this.session;
    if (!s) return null;
    return { board: s.turn.board, current: s.turn.current, queue: s.turn.queue, hold: s.turn.hold };
  }

  private actionOf(key: string): KeyAction | null {
    return actionOf(this.keys, key);
  }

  private keydown(e: KeyboardEvent): void {
    if (this.remapping) {
      e.preventDefault();
      e.stopPropagation();
      if (e.key !== 'Tab') {
        this.keys[this.remapping] = [e.key];
        saveKeys(this.keys);
      }
      this.remapping = null;
      this.renderKeymap();
      return;
    }
    if (!this.deps.active()) return;
    const t = e.target as HTMLElement | null;
    if (t && (t.tagName === 'INPUT' || t.tagName === 'SELECT' || t.tagName === 'TEXTAREA')) return;
    const action = this.actionOf(e.key);
    if (!action) return;
    e.preventDefault(); // no page scrolling, no button pressed by Space
    if (e.repeat) return; // the page repeats moves itself (DAS/ARR), not the keyboard's auto-repeat
    if (action === 'hint' || action === 'end') {
      if (action === 'hint') this.toggleHint();
      else this.endGame();
      return;
    }
    const s = this.session;
    if (!s || s.over) return;
    if (holdPressed(this.held, action, s, this.deps.settings.sdr, performance.now())) return;
    this.apply(action);
  }

  private keyup(e: KeyboardEvent): void {
    const action = this.actionOf(e.key);
    if (action === 'left' || action === 'right') {
      // the key repeated (after DAS): the shifts it queued for the timeline's frames go with it
      const h = this.held.get(action);
      this.session?.release(action, h !== undefined && h.last !== h.since);
    }
    if (action === 'left' || action === 'right' || action === 'softDrop') this.held.delete(action);
  }

  private apply(action: Action): void {
    const s = this.session;
    if (!s) return;
    const graded = s.act(action);
    if (action === 'hold') this.renderHint();
    if (graded) this.locked(graded);
  }

  /** After a lock (by a key, or by gravity under a timed rule set): the grade, the next turn's hint, the summary. */
  private locked(graded: GradedMove): void {
    const s = this.session!;
    this.showHint = false; // a hint is for one turn
    this.renderHint();
    this.held.delete('softDrop');
    this.renderGrades(graded);
    if (s.over) this.finish();
  }

  /** Gravity under a timed rule set, and auto shift and soft drop while keys are held. */
  frame(now: number): void {
    const s = this.session;
    if (s && !s.over) {
      const graded = s.tick(now);
      if (graded) this.locked(graded);
    }
    if (s && !s.over) repeatHeld(this.held, s, this.deps.settings, now);
    this.draw();
  }

  draw(): void {
    const s = this.session;
    const canvas = $<HTMLCanvasElement>('board');
    if (!s) {
      drawBoard(canvas, { columns: 10, cells: [] });
      return;
    }
    const hint = this.showHint && !s.over ? s.hint() : null;
    drawBoard(canvas, {
      columns: 10,
      cells: s.paint,
      lastCells: s.lastCells,
      holes: true,
      active: s.over ? null : { piece: s.piece, cells: s.cells() },
      ghost: s.over ? null : { piece: s.piece, cells: s.ghostCells() },
      hint: hint ? { piece: hint.piece, cells: hint.cells } : null,
    });
    canvas.dataset.resting = String(!s.over && s.resting());
    // For tests and the curious: the falling piece's leftmost and lowest cells.
    const cells = s.cells();
    canvas.dataset.pieceX = String(Math.min(...cells.map(([x]) => x)));
    canvas.dataset.pieceY = String(Math.min(...cells.map(([, y]) => y)));
    const slots: { piece: Piece | null; label: string; dim?: boolean }[] = [];
    if (s.rules.hold) slots.push({ piece: s.hold, label: 'hold', dim: s.held });
    for (const [i, p] of s.preview.entries()) slots.push({ piece: p, label: `+${i + 1}` });
    drawPieces($<HTMLCanvasElement>('play-queue'), slots);
  }

  private toggleHint(): void {
    const s = this.session;
    if (!s || s.over) return;
    this.showHint = !this.showHint;
    if (this.showHint) this.hintsUsed++;
    this.renderHint();
  }

  private renderHint(): void {
    const el = $('hint');
    const text = $('hint-text');
    const s = this.session;
    const h = this.showHint && s && !s.over ? s.hint() : null;
    el.setAttribute('aria-pressed', String(this.showHint));
    if (!h || !s) {
      text.textContent = this.showHint && s && !s.over ? 'The AI has no placement here.' : '';
      delete el.dataset.inputs;
      delete el.dataset.turn;
      return;
    }
    // After a hold press the keys start from the piece now in play.
    const inputs = s.held ? h.inputs.filter((k) => k !== 'hold') : h.inputs;
    el.dataset.inputs = inputs.join(' ');
    el.dataset.turn = String(s.turn.index);
    const how = s.timed ? `frames: ${formatFrameInputs(inputs as readonly FrameInput[])}` : `keys: ${inputs.join(' ')}`;
    text.textContent = `AI: ${h.hold && !s.held ? 'hold, then ' : ''}${h.piece} ${h.rotation} at x=${h.x} (${h.mode}) — ${how}`;
  }

  private renderGrades(last: GradedMove | null): void {
    const s = this.session;
    const grades = s ? s.graded.map((g) => g.grade) : [];
    const el = $('grade');
    el.dataset.count = String(grades.length);
    el.dataset.grade = last?.grade ?? '';
    el.textContent = last ? last.grade : '–';
    el.className = last ? `grade-${last.grade}` : '';
    for (const g of GRADES) $(`n-${g}`).textContent = String(grades.filter((x) => x === g).length);
    $('play-lines').textContent = String(s?.lines ?? 0);
    $('grade-detail').textContent = last ? describeLoss(last) : '';
  }

  private endGame(): void {
    const s = this.session;
    if (!s || s.over) return;
    s.end('ended');
    this.finish();
  }

  /** The summary: accuracy, counts, and the worst moves with the position and the AI's move. */
  private finish(): void {
    const s = this.session!;
    this.showHint = false;
    this.renderHint();
    const grades = s.graded.map((g) => g.grade);
    const counts = GRADES.map((g) => {
      const n = grades.filter((x) => x === g).length;
      return g === 'best' || g === 'good' ? `${n} ${g}` : count(n, g, g === 'inaccuracy' ? 'inaccuracies' : undefined);
    }).join(', ');
    const acc = $('accuracy');
    acc.dataset.value = accuracy(grades).toFixed(1);
    acc.textContent =
      grades.length === 0
        ? 'No placement played.'
        : `Accuracy ${accuracy(grades).toFixed(0)} % (best or good): ${counts}; ${count(s.lines, 'line')}, ${count(s.tetrises, 'Tetris', 'Tetrises')}, ${count(this.hintsUsed, 'hint')}.`;
    const worst = $('worst');
    worst.replaceChildren();
    for (const g of worstMoves(s.graded, WORST_SHOWN)) worst.append(worstItem(g, rulesQuery(this.deps.settings)));
    $('summary').hidden = false;
    const banner = $('banner');
    banner.hidden = false;
    banner.textContent =
      s.overReason === 'top-out' ? `Topped out after ${count(s.graded.length, 'piece')}` : 'Game ended';
  }

  private renderKeymap(): void {
    const box = $('keymap');
    box.replaceChildren();
    for (const a of Object.keys(DEFAULT_KEYS) as KeyAction[]) {
      const row = document.createElement('div');
      const name = document.createElement('span');
      name.textContent = ACTION_NAMES[a];
      const b = document.createElement('button');
      b.type = 'button';
      b.dataset.action = a;
      b.textContent = this.remapping === a ? 'press a key…' : this.keys[a].map(keyName).join(' / ');
      b.title = `change the key for ${ACTION_NAMES[a]}`;
      b.onclick = () => {
        this.remapping = a;
        this.renderKeymap();
      };
      row.append(name, b);
      box.append(row);
    }
  }
}

/** The action a key is bound to, or null. */
export function actionOf(keys: Record<KeyAction, string[]>, key: string): KeyAction | null {
  const k = norm(key);
  for (const [a, ks] of Object.entries(keys) as [KeyAction, string[]][]) if (ks.map(norm).includes(k)) return a;
  return null;
}

/** Keys held down: when pressed, and when the action last repeated. */
export type HeldKeys = Map<Action, { since: number; last: number }>;

/**
 * Holds a shift or soft-drop key pressed at `now` for repeatHeld (the last direction pressed wins). With a soft drop
 * repeat of 0 the piece drops to rest at once; returns whether it did (the press needs nothing more).
 */
export function holdPressed(held: HeldKeys, action: Action, s: PlaySession, sdr: number, now: number): boolean {
  if (action === 'left' || action === 'right') {
    held.delete(action === 'left' ? 'right' : 'left');
    held.set(action, { since: now, last: now });
  }
  if (action !== 'softDrop') return false;
  held.set(action, { since: now, last: now });
  if (sdr !== 0) return false;
  s.dropToRest();
  return true;
}

/** Delayed auto shift, auto repeat and soft drop of the keys held down, up to `now` (play and versus modes). */
export function repeatHeld(
  held: HeldKeys,
  s: PlaySession,
  timing: { das: number; arr: number; sdr: number },
  now: number,
): void {
  const { das, arr, sdr } = timing;
  for (const [action, h] of held) {
    if (action === 'softDrop') {
      if (sdr > 0) {
        while (now - h.last >= sdr) {
          h.last += sdr;
          s.act('softDrop');
        }
      } else s.dropToRest();
    } else if (now - h.since >= das) {
      if (arr === 0) {
        h.last = now; // repeated (a timed game's keyup reads it)
        for (let i = 0; i < 10; i++) s.act(action);
      } else {
        if (h.last < h.since + das) h.last = h.since + das - arr;
        while (now - h.last >= arr) {
          h.last += arr;
          s.act(action);
        }
      }
    }
  }
}

/** What a move that is not the AI's cost, as "lost …" or "tops out": the grade detail's and the summary's words. */
function lossPhrase(g: GradedMove): string {
  if (g.topsOut) return 'tops out (the game ends with it or within the pieces shown; the AI’s move does not)';
  if (g.grade === 'best') return 'lost nothing';
  const lost = lossText(g.unit, g.grade, g.loss);
  return `lost ${g.unit === 'expectedPieces' ? `${lost} of the best move's expected pieces` : lost}`;
}

function describeLoss(g: GradedMove): string {
  if (g.grade === 'best') return `The AI's move (${g.best.mode} mode).`;
  const phrase = lossPhrase(g);
  return `${g.entry ? '' : 'Not in the AI’s list; '}${phrase[0].toUpperCase()}${phrase.slice(1)}. The AI: ${g.best.hold ? 'hold, ' : ''}${g.best.piece} ${g.best.rotation} at x=${g.best.x}.`;
}

/** `rules`: the rule set's query parameters (rulesQuery). */
function worstItem(g: GradedMove, rules: string): HTMLLIElement {
  const li = document.createElement('li');
  const canvas = document.createElement('canvas');
  canvas.width = 250;
  canvas.height = 550;
  canvas.className = 'mini';
  drawBoard(canvas, {
    columns: 10,
    cells: g.turn.paint,
    active: { piece: g.played.piece, cells: g.played.cells },
    hint: { piece: g.best.piece, cells: g.best.cells },
  });
  const text = document.createElement('div');
  const fumen = fumenFromBoard(g.turn.board);
  const queue = g.turn.current + g.turn.queue.join('');
  const link = document.createElement('a');
  link.href = `?mode=analyze&${rules}&fumen=${fumen}&queue=${queue}${g.turn.hold ? `&hold=${g.turn.hold}` : ''}`;
  link.textContent = 'analyse this position';
  text.append(
    `Piece ${g.turn.index + 1}, ${g.grade}: you played ${g.played.hold ? 'hold, ' : ''}${g.played.piece} (solid), which ${lossPhrase(g)}; the AI plays ${g.best.hold ? 'hold, ' : ''}${g.best.piece} ${g.best.rotation} at x=${g.best.x} (dashed). `,
    link,
  );
  li.append(canvas, text);
  return li;
}

/** The keys as the player mapped them (play mode's key list), else the defaults. */
export function loadKeys(): Record<KeyAction, string[]> {
  const keys = structuredClone(DEFAULT_KEYS);
  try {
    const saved = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? '{}');
    for (const a of Object.keys(keys) as KeyAction[]) {
      if (Array.isArray(saved[a]) && saved[a].every((k: unknown) => typeof k === 'string')) keys[a] = saved[a];
    }
  } catch {
    // unreadable: the defaults
  }
  return keys;
}

function saveKeys(keys: Record<KeyAction, string[]>): void {
  try {
    localStorage.setItem(STORAGE_KEY, JSON.stringify(keys));
  } catch {
    // storage refused (private mode): the keys last for this page
  }
}
