/**
 * Versus mode's page (docs/demo.md, "Versus"): two boards side by side, a person (play mode's keys) or the game AI on
 * the left, the game AI on the right; a garbage meter per side, the readout of each side's last clear, and the
 * winner when a side tops out. The AI plays a few pieces per frame within a time budget, as watch mode does, so the
 * page never waits on it.
 */
import type { Piece, TetrisAI, WellSide } from 'stackrank';
import { drawBoard, drawPieces } from './draw.js';
import type { Settings, Versus } from './params.js';
import { actionOf, holdPressed, loadKeys, repeatHeld, type HeldKeys } from './play-page.js';
import type { Action } from './play.js';
import { VERSUS_ROWS, VersusAI, VersusField, VersusPerson, type LockReport, type SideIndex } from './versus.js';
import { count } from './words.js';

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
/** Drawn size of a meter: one cell per incoming line, up to the board's height. */
const METER_ROWS = VERSUS_ROWS;

export interface VersusPageDeps {
  settings: Settings;
  /** The game AI for versus with its well on this side (each made once). */
  versusAI(well: WellSide): Promise<TetrisAI>;
  active(): boolean;
  updateUrl(extra: Record<string, string | null>): void;
}

/** The page's game, for tests and the curious: every lock's report, in the order they happened. */
declare global {
  interface Window {
    versusLog?: LockReport[];
  }
}

export class VersusPage {
  private fields: [VersusField, VersusField] | null = null;
  private person: VersusPerson | null = null;
  private ais: (VersusAI | null)[] = [null, null];
  private winner: SideIndex | null = null;
  private log: LockReport[] = [];
  private turn: SideIndex = 0;
  private carry = 0;
  private lastFrame = 0;
  private paused = false;
  private seed: number;
  private starting: Promise<void> | null = null;
  private generation = 0;
  private keys = loadKeys();
  private held: HeldKeys = new Map();

  constructor(private readonly deps: VersusPageDeps) {
    this.seed = deps.settings.seed;
    const who = $<HTMLSelectElement>('vs-left');
    who.value = deps.settings.versus;
    who.onchange = () => {
      deps.settings.versus = who.value as Versus;
      deps.updateUrl({ versus: deps.settings.versus });
      void this.newGame();
    };
    const speed = $<HTMLSelectElement>('vs-speed');
    const given = Number.isFinite(deps.settings.versusSpeed) ? String(deps.settings.versusSpeed) : 'max';
    if (![...speed.options].some((o) => o.value === given)) speed.add(new Option(`${given} pieces/s`, given));
    speed.value = given;
    speed.onchange = () => {
      deps.settings.versusSpeed = speed.value === 'max' ? Infinity : Number(speed.value);
      deps.updateUrl({ speed: speed.value });
    };
    const pause = $<HTMLButtonElement>('vs-pause');
    pause.onclick = () => {
      this.paused = !this.paused;
      pause.textContent = this.paused ? 'Resume' : 'Pause';
      document.body.dataset.versusPaused = String(this.paused);
    };
    $('vs-restart').onclick = () => void this.newGame();
    document.addEventListener('keydown', (e) => this.keydown(e), true);
    document.addEventListener('keyup', (e) => this.keyup(e), true);
    window.addEventListener('blur', () => this.held.clear());
  }

  /** Starts a game the first time versus mode is shown. */
  start(): Promise<void> {
    if (this.fields) {
      document.body.dataset.state = this.winner === null ? 'playing' : 'over';
      return Promise.resolve();
    }
    this.starting ??= this.newGame().finally(() => (this.starting = null));
    return this.starting;
  }

  async newGame(): Promise<void> {
    const generation = ++this.generation;
    // AI against AI: the same AI with the same pieces would play the same moves, and each attack would be cancelled
    // by the same attack opposite; the left AI keeps its well on the left, so the two boards differ.
    const ai = await this.deps.versusAI('right');
    const leftAI = this.deps.settings.versus === 'ai' ? await this.deps.versusAI('left') : ai;
    if (generation !== this.generation) return; // another game was asked for meanwhile
    const seed = this.seed++;
    const fields: [VersusField, VersusField] = [new VersusField(0, seed), new VersusField(1, seed)];
    this.fields = fields;
    this.person = null;
    if (this.deps.settings.versus === 'person') {
      const person = new VersusPerson(fields[0], ai, seed);
      person.opponent = fields[1];
      person.onLock = (report) => this.locked(0, report);
      this.person = person;
      this.ais = [null, new VersusAI(fields[1], ai, seed)];
    } else {
      this.ais = [new VersusAI(fields[0], leftAI, seed), new VersusAI(fields[1], ai, seed)];
    }
    this.winner = null;
    this.log = [];
    window.versusLog = this.log;
    this.turn = 0;
    this.carry = 0;
    this.held.clear();
    $('vs-result').textContent = '';
    $('vs-name-0').textContent = this.person ? 'You' : 'AI (left)';
    $('vs-name-1').textContent = 'AI (right)';
    for (const side of [0, 1] as const) this.render(side);
    document.body.dataset.state = 'playing';
    document.body.dataset.versus = this.deps.settings.versus;
  }

  /** A lock of one side: log it, show it, and end the game when that side topped out. */
  private locked(side: SideIndex, report: LockReport | null): void {
    if (report) this.log.push(report);
    this.render(side);
    this.render(side === 0 ? 1 : 0);
    const lost = report === null || report.toppedOut || (side === 0 && this.person?.over);
    if (lost && this.winner === null) this.finish(side === 0 ? 1 : 0);
  }

  private finish(winner: SideIndex): void {
    this.winner = winner;
    const names = this.person ? ['You', 'The AI'] : ['The left AI', 'The right AI'];
    const loser = winner === 0 ? 1 : 0;
    const text = `${names[winner]} won: ${names[loser].replace(/^[TY]/, (c) => c.toLowerCase())} topped out after ${count(this.fields![loser].pieces, 'piece')}`;
    $('vs-result').textContent = `${text}.`;
    document.body.dataset.state = 'over';
    document.body.dataset.winner = String(winner);
  }

  /** The AI sides' pieces due by now, a few per frame (12 ms at most), then the drawing. */
  frame(now: number): void {
    const elapsed = this.lastFrame ? Math.min(now - this.lastFrame, 250) : 0;
    this.lastFrame = now;
    const person = this.person;
    if (person && !person.over && this.winner === null) repeatHeld(this.held, person, this.deps.settings, now);
    if (this.fields && this.winner === null && !this.paused) this.playFor(elapsed);
    this.draw();
  }

  private playFor(elapsedMs: number): void {
    const fields = this.fields!;
    const speed = this.deps.settings.versusSpeed;
    const sides = this.person ? 1 : 2;
    let due = Number.isFinite(speed) ? sides * speed * (elapsedMs / 1000) + this.carry : Infinity;
    const deadline = performance.now() + 12;
    while (due >= 1 && this.winner === null && performance.now() < deadline) {
      due--;
      // AI against AI: the sides take turns, one piece each; against a person the AI plays on its own clock.
      const side: SideIndex = this.person ? 1 : this.turn;
      this.turn = this.turn === 0 ? 1 : 0;
      const ai = this.ais[side]!;
      this.locked(side, ai.step(fields[side === 0 ? 1 : 0]));
    }
    this.carry = Number.isFinite(due) ? Math.min(due, 1) : 0;
  }

  private render(side: SideIndex): void {
    const f = this.fields?.[side];
    const lines = f?.garbage.lines ?? 0;
    const meter = $(`vs-meter-${side}`);
    meter.dataset.lines = String(lines);
    meter.setAttribute('aria-label', `incoming garbage: ${count(lines, 'line')}`);
    ($(`vs-meter-fill-${side}`) as HTMLElement).style.height = `${(100 * Math.min(lines, METER_ROWS)) / METER_ROWS}%`;
    $(`vs-meter-text-${side}`).textContent = String(lines);
    const last = $(`vs-last-${side}`);
    const r = f?.last ?? null;
    last.textContent = r ? r.text : '–';
    last.dataset.kind = r?.kind ?? '';
    last.dataset.attack = r ? String(r.attack) : '';
    last.dataset.piece = r ? String(r.piece) : '';
    $(`vs-pieces-${side}`).textContent = String(f?.pieces ?? 0);
    $(`vs-lines-${side}`).textContent = String(f?.lines ?? 0);
    $(`vs-sent-${side}`).textContent = String(f?.attack ?? 0);
    $(`vs-app-${side}`).textContent = f?.pieces ? (f.attack / f.pieces).toFixed(2) : '–';
    $(`vs-chain-${side}`).textContent = f ? `${f.state.backToBack} / ${f.state.combo}` : '0 / 0';
  }

  private draw(): void {
    for (const side of [0, 1] as const) {
      const f = this.fields?.[side];
      const canvas = $<HTMLCanvasElement>(`vs-board-${side}`);
      const person = side === 0 ? this.person : null;
      const playing = person && !person.over && this.winner === null;
      drawBoard(canvas, {
        columns: 10,
        cells: f?.paint ?? [],
        lastCells: f?.lastCells,
        holes: true,
        active: playing ? { piece: person.piece, cells: person.cells() } : null,
        ghost: playing ? { piece: person.piece, cells: person.ghostCells() } : null,
      });
      const slots: { piece: Piece | null; label: string; dim?: boolean }[] = [];
      if (person) {
        slots.push({ piece: person.hold, label: 'hold', dim: person.held });
        for (const [i, p] of person.preview.entries()) slots.push({ piece: p, label: `+${i + 1}` });
      } else {
        const ai = this.ais[side];
        if (ai) {
          slots.push({ piece: ai.hold, label: 'hold' });
          for (let i = 0; i < 6 && i < ai.queue.length; i++)
            slots.push({ piece: ai.queue[i] as Piece, label: i === 0 ? 'now' : `+${i}` });
        }
      }
      drawPieces($<HTMLCanvasElement>(`vs-queue-${side}`), slots);
    }
  }

  private keydown(e: KeyboardEvent): void {
    if (!this.deps.active()) return;
    const t = e.target as HTMLElement | null;
    if (t && (t.tagName === 'INPUT' || t.tagName === 'SELECT' || t.tagName === 'TEXTAREA')) return;
    const action = actionOf(this.keys, e.key);
    if (!action || action === 'hint' || action === 'end') return;
    e.preventDefault(); // no page scrolling, no button pressed by Space
    if (e.repeat) return; // the page repeats moves itself (DAS/ARR)
    const s = this.person;
    if (!s || s.over || this.winner !== null || this.paused) return;
    if (holdPressed(this.held, action as Action, s, this.deps.settings.sdr, performance.now())) return;
    s.act(action as Action);
    if (action === 'hardDrop') this.held.delete('softDrop');
  }

  private keyup(e: KeyboardEvent): void {
    const action = actionOf(this.keys, e.key);
    if (action === 'left' || action === 'right' || action === 'softDrop') this.held.delete(action);
  }

  /** The keys may have been remapped in play mode meanwhile. */
  refreshKeys(): void {
    this.keys = loadKeys();
  }
}
