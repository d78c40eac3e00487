/**
 * stackrank browser demo. Two modes: the perfect-stack AI (StackingAI over the rank table, which the page loads or
 * builds first) and the full-board player (bestMove with feature weights, no table). Query parameters (all
 * optional): mode (stack | full), iterations (rank iterations of the table, default 15), lookahead (0..4, default 1),
 * randomizer (default tgm1), speed (pieces/s or "max", default 60), steep (excessFirst | truncate), preset (full-board
 * weights), seed. See docs/demo.md.
 */
import {
  PRESET_NAMES,
  RANDOMIZER_NAMES,
  StackingAI,
  isRandomizerName,
  type Piece,
  type PresetName,
  type RandomizerName,
  type SteepRule,
} from 'stackrank';
import { FullGame } from './full.js';
import { DROUGHT_BINS, ROWS, StackGame, type BaseGame } from './game.js';
import { obtainTable } from './table.js';

const COLORS: Record<Piece, string> = {
  I: '#20c8e0',
  O: '#e8c820',
  T: '#a050e0',
  S: '#40c060',
  Z: '#e04848',
  L: '#f08c28',
  J: '#3c6cf0',
};
const CELL = 25;
const TABLE = { width: 9, maxStep: 4 };
type Mode = 'stack' | 'full';

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const params = new URLSearchParams(location.search);

function intParam(name: string, fallback: number, min: number, max: number): number {
  const v = params.get(name);
  const n = v === null ? NaN : Number(v);
  return Number.isInteger(n) && n >= min && n <= max ? n : fallback;
}

const settings = {
  mode: (params.get('mode') === 'full' ? 'full' : 'stack') as Mode,
  iterations: intParam('iterations', 15, 1, 100),
  lookahead: intParam('lookahead', 1, 0, 4),
  randomizer: (isRandomizerName(params.get('randomizer') ?? '') ? params.get('randomizer') : 'tgm1') as RandomizerName,
  speed: params.get('speed') === 'max' ? Infinity : intParam('speed', 60, 1, 100000),
  steep: (params.get('steep') === 'truncate' ? 'truncate' : 'excessFirst') as SteepRule,
  preset: ((PRESET_NAMES as string[]).includes(params.get('preset') ?? '')
    ? params.get('preset')
    : 'bcts') as PresetName,
  seed: intParam('seed', Math.floor(Math.random() * 2 ** 31), 0, Number.MAX_SAFE_INTEGER),
};

// ---------- state ----------
let stackAI: Promise<StackingAI> | null = null;
let game: BaseGame | null = null;
let gameGeneration = 0;
let paused = false;
let busy = false;
let totalPieces = 0;
let totalTetrises = 0;
let gamesOver = 0;
let bestGame = 0;
let gameSeed = settings.seed;
const allDroughts = new Array<number>(DROUGHT_BINS + 1).fill(0);
let restartAt = 0;
let carry = 0;
const speedSamples: [number, number][] = [];
let measuredSpeed = 0;

// ---------- errors ----------
function showError(e: unknown): void {
  const box = $('error');
  box.hidden = false;
  box.textContent = `Something went wrong: ${e instanceof Error ? e.message : String(e)}`;
  console.error(e);
}
window.addEventListener('error', (ev) => showError(ev.error ?? ev.message));
window.addEventListener('unhandledrejection', (ev) => showError(ev.reason));

// ---------- the rank table and the stacking AI (made once, when the stack mode first needs them) ----------
function stackingAI(): Promise<StackingAI> {
  if (!stackAI) {
    stackAI = (async () => {
      const status = $('table-status');
      const progress = $<HTMLProgressElement>('table-progress');
      const reports: string[] = [];
      $('table-panel').classList.remove('done');
      const got = await obtainTable({
        ...TABLE,
        iterations: settings.iterations,
        onStatus: (t) => (status.textContent = t),
        onProgress: (f) => {
          progress.value = f;
          reports.push(f.toFixed(3)); // for tests and the curious: every progress report of the build
          document.body.dataset.progress = reports.join(' ');
        },
      });
      const table = got.table;
      progress.value = 1;
      status.textContent = `Rank table ${table.width}x${table.maxStep}, ${table.iterations} iteration${table.iterations === 1 ? '' : 's'}: ${got.detail}.`;
      $('table-panel').classList.add('done');
      document.body.dataset.tableSource = got.source;
      return StackingAI.create({
        table,
        stackingRules: { boardHeight: ROWS, tetrisThreshold: 8, steep: settings.steep },
      });
    })();
  }
  return stackAI;
}

// ---------- controls ----------
function showModeControls(): void {
  const full = settings.mode === 'full';
  $('preset-label').hidden = !full;
  $('steep-label').hidden = full;
  $('about-full').hidden = !full;
  $('about-stack').hidden = full;
  if (full && !stackAI) {
    $('table-status').textContent = 'Full-board mode: no rank table needed.';
    $('table-panel').classList.add('done');
  }
}

function setupControls(): void {
  const mode = $<HTMLSelectElement>('mode');
  mode.value = settings.mode;
  mode.onchange = () => {
    settings.mode = mode.value as Mode;
    showModeControls();
    void newGame();
  };
  const rsel = $<HTMLSelectElement>('randomizer');
  for (const name of RANDOMIZER_NAMES) rsel.add(new Option(name, name));
  rsel.value = settings.randomizer;
  rsel.onchange = () => {
    settings.randomizer = rsel.value as RandomizerName;
    void newGame();
  };
  const psel = $<HTMLSelectElement>('preset');
  for (const name of PRESET_NAMES) psel.add(new Option(name, name));
  psel.value = settings.preset;
  psel.onchange = () => {
    settings.preset = psel.value as PresetName;
    void newGame();
  };
  const lsel = $<HTMLSelectElement>('lookahead');
  lsel.value = String(settings.lookahead);
  lsel.onchange = () => (settings.lookahead = Number(lsel.value)); // applies from the next move on
  const ssel = $<HTMLSelectElement>('speed-select');
  if (Number.isFinite(settings.speed) && ![...ssel.options].some((o) => o.value === String(settings.speed))) {
    ssel.add(new Option(`${settings.speed} pieces/s`, String(settings.speed)));
  }
  ssel.value = Number.isFinite(settings.speed) ? String(settings.speed) : 'max';
  ssel.onchange = () => (settings.speed = ssel.value === 'max' ? Infinity : Number(ssel.value));
  const steep = $<HTMLSelectElement>('steep');
  steep.value = settings.steep;
  steep.onchange = async () => {
    settings.steep = steep.value as SteepRule;
    if (stackAI) {
      const table = (await stackAI).table;
      stackAI = StackingAI.create({
        table,
        stackingRules: { boardHeight: ROWS, tetrisThreshold: 8, steep: settings.steep },
      });
    }
    void newGame();
  };
  const pause = $<HTMLButtonElement>('pause');
  pause.onclick = () => {
    paused = !paused;
    pause.textContent = paused ? 'Resume' : 'Pause';
  };
  $<HTMLButtonElement>('restart').onclick = () => void newGame();
  showModeControls();
}

async function newGame(): Promise<void> {
  const generation = ++gameGeneration;
  const options = { randomizer: settings.randomizer, seed: gameSeed++ };
  let next: BaseGame;
  if (settings.mode === 'full') {
    next = new FullGame(options, settings.preset);
  } else {
    if (!(game instanceof StackGame)) game = null; // from the other mode: nothing to show until the table is there
    const ai = await stackingAI();
    if (generation !== gameGeneration) return; // another game was asked for meanwhile
    next = new StackGame(ai, options);
  }
  game = next;
  restartAt = 0;
  carry = 0;
  $('banner').hidden = true;
  updateCounters(performance.now()); // the counters and the banner change together
  for (const id of ['pause', 'restart']) $<HTMLButtonElement>(id).disabled = false;
  document.body.dataset.state = 'playing';
  document.body.dataset.mode = settings.mode;
}

// ---------- play ----------
async function playFor(now: number, elapsedMs: number): Promise<void> {
  const g = game;
  if (!g || paused) return;
  if (g.over) {
    if (restartAt && now >= restartAt) {
      restartAt = 0;
      await newGame();
    }
    return;
  }
  const deadline = performance.now() + 12; // leave the rest of the frame for drawing
  let due = Number.isFinite(settings.speed) ? settings.speed * (elapsedMs / 1000) + carry : Infinity;
  while (due >= 1 && performance.now() < deadline && g === game) {
    due--;
    let ok = g.step(settings.lookahead);
    if (ok instanceof Promise) ok = await ok;
    if (!ok) {
      gameOver(g, now);
      break;
    }
    totalPieces++;
    if (g.lastTetrisAt === g.pieces) totalTetrises++;
  }
  carry = Number.isFinite(due) ? Math.min(due, 1) : 0;
}

function gameOver(g: BaseGame, now: number): void {
  gamesOver++;
  bestGame = Math.max(bestGame, g.pieces);
  for (let i = 0; i < allDroughts.length; i++) allDroughts[i] += g.droughts[i];
  const banner = $('banner');
  banner.hidden = false;
  banner.textContent = `Game over after ${g.pieces} pieces: no ${g.well ? 'hole-free ' : ''}place for ${g.queue[0]}`;
  restartAt = now + (Number.isFinite(settings.speed) && settings.speed < 100 ? 1500 : 300);
}

// ---------- drawing ----------
function drawBoard(): void {
  const canvas = $<HTMLCanvasElement>('board');
  const g = canvas.getContext('2d')!;
  const columns = game?.columns ?? 10;
  const well = game ? game.well : settings.mode === 'stack';
  g.fillStyle = '#0b0c10';
  g.fillRect(0, 0, canvas.width, canvas.height);
  if (well) {
    g.fillStyle = '#161922';
    g.fillRect((columns - 1) * CELL, 0, CELL, ROWS * CELL);
  }
  g.strokeStyle = '#1c1f2a';
  for (let c = 1; c < columns; c++) line(g, c * CELL, 0, c * CELL, ROWS * CELL);
  for (let r = 1; r < ROWS; r++) line(g, 0, r * CELL, columns * CELL, r * CELL);
  if (!game) return;
  for (let r = 0; r < ROWS; r++) {
    for (let c = 0; c < columns; c++) {
      const p = game.cells[r][c];
      if (!p) continue;
      g.fillStyle = COLORS[p];
      g.fillRect(c * CELL + 1, (ROWS - 1 - r) * CELL + 1, CELL - 2, CELL - 2);
    }
  }
  g.strokeStyle = '#ffffff';
  g.lineWidth = 2;
  for (const [c, r] of game.lastCells) g.strokeRect(c * CELL + 2, (ROWS - 1 - r) * CELL + 2, CELL - 4, CELL - 4);
  g.lineWidth = 1;
  if (well) {
    // a Tetris: flash the well for a few pieces
    const since = game.pieces - game.lastTetrisAt;
    if (game.lastTetrisAt >= 0 && since < 4) {
      g.fillStyle = `rgba(32, 200, 224, ${0.6 - since * 0.15})`;
      g.fillRect((columns - 1) * CELL, (ROWS - 4) * CELL, CELL, 4 * CELL);
    }
    // the Tetris threshold
    g.strokeStyle = 'rgba(255,255,255,0.25)';
    g.setLineDash([4, 4]);
    line(g, 0, (ROWS - 8) * CELL, (columns - 1) * CELL, (ROWS - 8) * CELL);
    g.setLineDash([]);
  }
}

function line(g: CanvasRenderingContext2D, x0: number, y0: number, x1: number, y1: number): void {
  g.beginPath();
  g.moveTo(x0 + 0.5, y0 + 0.5);
  g.lineTo(x1 + 0.5, y1 + 0.5);
  g.stroke();
}

function drawQueue(): void {
  const canvas = $<HTMLCanvasElement>('queue');
  const g = canvas.getContext('2d')!;
  g.clearRect(0, 0, canvas.width, canvas.height);
  if (!game) return;
  const shown = 6;
  const slot = canvas.width / shown;
  const known = game.well ? settings.lookahead + 1 : Math.min(settings.lookahead, 1) + 1;
  for (let i = 0; i < shown && i < game.queue.length; i++) {
    const p = game.queue[i] as Piece;
    if (i < known) {
      g.fillStyle = '#2c3346';
      g.fillRect(i * slot + 2, 2, slot - 4, canvas.height - 4);
    }
    g.fillStyle = COLORS[p];
    g.font = 'bold 26px system-ui, sans-serif';
    g.textAlign = 'center';
    g.textBaseline = 'middle';
    g.fillText(p, i * slot + slot / 2, canvas.height / 2 - 6);
    g.fillStyle = '#9aa0b4';
    g.font = '10px system-ui, sans-serif';
    g.fillText(i === 0 ? 'now' : `+${i}`, i * slot + slot / 2, canvas.height - 10);
  }
}

function drawChart(): void {
  const canvas = $<HTMLCanvasElement>('chart');
  const g = canvas.getContext('2d')!;
  const w = canvas.width;
  const h = canvas.height;
  g.clearRect(0, 0, w, h);
  // A finished game's droughts are already in allDroughts (until the next game starts).
  const mine = game?.droughts ?? allDroughts.map(() => 0);
  const all = game && !game.over ? allDroughts.map((v, i) => v + mine[i]) : allDroughts;
  const bins = all.length;
  const left = 24;
  const bottom = h - 16;
  const barW = (w - left - 4) / bins;
  const max = Math.max(1, ...all);
  const sumMine = mine.reduce((a, b) => a + b, 0);
  const sumAll = all.reduce((a, b) => a + b, 0);
  g.fillStyle = '#9aa0b4';
  g.font = '10px system-ui, sans-serif';
  g.textAlign = 'center';
  for (let i = 0; i < bins - 1; i += 5) g.fillText(String(i), left + (i + 0.5) * barW, h - 4);
  g.fillText(`${bins - 1}+`, left + (bins - 0.5) * barW, h - 4);
  g.textAlign = 'left';
  g.fillText(`${sumAll} I's, ${sumMine} this game`, left + 4, 10);
  for (let i = 0; i < bins; i++) {
    const ha = ((bottom - 14) * all[i]) / max;
    g.fillStyle = '#4a5068';
    g.fillRect(left + i * barW + 1, bottom - ha, barW - 2, ha);
    const hm = ((bottom - 14) * mine[i]) / max;
    g.fillStyle = '#00c8e0';
    g.fillRect(left + i * barW + 2, bottom - hm, barW - 4, hm);
  }
  g.strokeStyle = '#2c3040';
  line(g, left, bottom, w, bottom);
}

function updateCounters(now: number): void {
  speedSamples.push([now, totalPieces]);
  while (speedSamples.length > 2 && now - speedSamples[0][0] > 1000) speedSamples.shift();
  const [t0, n0] = speedSamples[0];
  if (now - t0 > 200) measuredSpeed = ((totalPieces - n0) * 1000) / (now - t0);
  const set = (id: string, v: string) => {
    const el = $(id);
    if (el.textContent !== v) el.textContent = v;
  };
  set('pieces', String(totalPieces));
  set('tetrises', String(totalTetrises));
  set('game-pieces', String(game?.pieces ?? 0));
  set('game-tetrises', String(game?.tetrises ?? 0));
  set('lines', String(game?.lines ?? 0));
  set('speed', measuredSpeed >= 100 ? measuredSpeed.toFixed(0) : measuredSpeed.toFixed(1));
  set('rank', game && Number.isFinite(game.rank) ? game.rank.toFixed(4) : '–');
  set('games', String(gamesOver));
  set('best', bestGame ? String(bestGame) : '–');
}

let lastFrame = 0;
let lastChart = 0;
let stopped = false;
function frame(now: number): void {
  if (stopped) return;
  const elapsed = lastFrame ? Math.min(now - lastFrame, 250) : 0;
  lastFrame = now;
  if (!busy) {
    busy = true;
    playFor(now, elapsed)
      .catch((e) => {
        stopped = true; // the state is not trustworthy any more
        showError(e);
      })
      .finally(() => (busy = false));
  }
  try {
    drawBoard();
    drawQueue();
    if (now - lastChart > 250) {
      drawChart();
      lastChart = now;
    }
    updateCounters(now);
  } catch (e) {
    stopped = true;
    showError(e);
    return;
  }
  requestAnimationFrame(frame);
}

// ---------- start ----------
setupControls();
drawBoard();
drawChart();
requestAnimationFrame(frame);
newGame().catch(showError);
