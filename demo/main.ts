/**
 * stackrank browser demo: three modes over the library's public API (docs/demo.md).
 * - watch: an AI plays (the game AI on a real board, the article's surface game, or the full-board player);
 * - play: a person plays with the keyboard and the game AI grades every placement (play.ts, grade.ts);
 * - analyze: draw a position, get every placement ranked (analyze.ts);
 * - versus: a person or the AI against the AI, garbage sent by the rules layer (versus.ts, versus-page.ts).
 * The URL keeps the mode, the rule set and the analysed position, so a link shares them (params.ts).
 */
import {
  PRESET_NAMES,
  RANDOMIZER_NAMES,
  RULE_SETS,
  RULE_SET_NAMES,
  StackingAI,
  TetrisAI,
  defaultGameRandomizer,
  type Piece,
  type PresetName,
  type RandomizerName,
  type RankTable,
  type RuleSet,
  type RuleSetName,
  type SteepRule,
  type WellSide,
} from 'stackrank';
import { Analyzer } from './analyze.js';
import { drawBoard, drawPieces, line, type Paint } from './draw.js';
import { FullGame } from './full.js';
import { DROUGHT_BINS, ROWS, StackGame, type BaseGame } from './game.js';
import {
  MAX_DEMO_LEVEL,
  TIMELINES,
  isTimedRules,
  parseSettings,
  rulesOf,
  type LinkProblem,
  type Mode,
  type Player,
} from './params.js';
import { PlayPage } from './play-page.js';
import { obtainTable } from './table.js';
import { TetrisGame } from './tetris-game.js';
import { VERSUS_RULES } from './versus.js';
import { VersusPage } from './versus-page.js';
import { count } from './words.js';

const TABLE = { width: 9, maxStep: 4 };

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const { settings, problems } = parseSettings(location.search, Math.floor(Math.random() * 2 ** 31));

// ---------- messages ----------
/** What is wrong with the link, shown until it no longer applies. */
let linkProblems: LinkProblem[] = [...problems];
if (!RULE_SETS[settings.rules].hold && settings.hold)
  linkProblems.push({ param: 'hold', text: `the ${settings.rules} rule set has no hold; hold= is ignored` });
function showProblems(): void {
  const box = $('message');
  box.hidden = linkProblems.length === 0;
  box.textContent = linkProblems.length ? `Check the link: ${linkProblems.map((p) => p.text).join('; ')}.` : '';
}
/** Analyze mode replaced the link's position: what was wrong with its fumen, queue or hold no longer applies. */
const POSITION_PARAMS = ['fumen', 'queue', 'hold'];
function positionReplaced(): void {
  linkProblems = linkProblems.filter((p) => !POSITION_PARAMS.includes(p.param));
  showProblems();
}
function showError(e: unknown): void {
  const box = $('error');
  box.hidden = false;
  box.textContent = `Something went wrong: ${e instanceof Error ? e.message : String(e)}`;
  console.error(e);
}
window.addEventListener('error', (ev) => showError(ev.error ?? ev.message));
window.addEventListener('unhandledrejection', (ev) => showError(ev.reason));

/**
 * The URL keeps the mode, the rule set, watch mode's player and (in analyze mode) the position, and each setting as
 * it is changed: a link shares what is on screen.
 */
function updateUrl(extra: Record<string, string | null> = {}): void {
  const params = new URLSearchParams(location.search);
  params.set('mode', settings.mode);
  params.set('rules', settings.rules);
  // a timed rule set's level and timeline (docs/demo.md): kept in the link only where they apply
  for (const k of ['level', 'timeline']) params.delete(k);
  if (isTimedRules(settings.rules) && settings.mode !== 'versus') {
    params.set('level', String(settings.level));
    params.set('timeline', settings.timeline);
  }
  if (settings.mode === 'watch') params.set('player', settings.player);
  if (settings.mode === 'versus') params.set('versus', settings.versus);
  for (const k of ['fumen', 'queue', 'hold']) if (settings.mode !== 'analyze') params.delete(k);
  for (const [k, v] of Object.entries(extra)) {
    if (v === null || v === '') params.delete(k);
    else params.set(k, v);
  }
  history.replaceState(null, '', `${location.pathname}?${params.toString().replace(/%40/g, '@')}`);
}

// ---------- the rank table and the AIs (made once, when a mode first needs them) ----------
let tablePromise: Promise<RankTable> | null = null;
function rankTable(): Promise<RankTable> {
  if (!tablePromise) {
    tablePromise = (async () => {
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
      return table;
    })();
  }
  return tablePromise;
}

let stackAI: Promise<StackingAI> | null = null;
function stackingAI(): Promise<StackingAI> {
  stackAI ??= rankTable().then((table) =>
    StackingAI.create({ table, stacking: { boardHeight: ROWS, tetrisThreshold: 8, steep: settings.steep } }),
  );
  return stackAI;
}

const gameAIs = new Map<string, Promise<TetrisAI>>();
/** The game AI for a rule set (a preset, or a timed one at a level and timeline) and lookahead (the table is shared). */
function gameAI(rules: RuleSetName | RuleSet, lookahead: number): Promise<TetrisAI> {
  const key = `${typeof rules === 'string' ? rules : `${rules.name}@${rules.level}/${rules.timeline}`}/${lookahead}`;
  let ai = gameAIs.get(key);
  if (!ai) {
    ai = rankTable().then((table) => TetrisAI.create({ table, rules, lookahead }));
    gameAIs.set(key, ai);
  }
  return ai;
}

/**
 * Versus mode's AI, by side: the game AI with the versus goal (attack, garbage; docs/game.md, "The versus policy").
 * The same AI on the same pieces would play the same moves and cancel every attack, so the left side searches a
 * narrower beam (16 lines a ply against 32) and plays a little differently.
 */
const versusAIs = new Map<WellSide, Promise<TetrisAI>>();
function versusAI(side: WellSide): Promise<TetrisAI> {
  let ai = versusAIs.get(side);
  if (!ai) {
    ai = rankTable().then((table) =>
      TetrisAI.create({
        table,
        rules: VERSUS_RULES,
        goal: 'versus',
        lookahead: settings.lookahead,
        versus: { beam: side === 'left' ? 16 : 32 },
      }),
    );
    versusAIs.set(side, ai);
  }
  return ai;
}

const randomizerFor = (rules: RuleSetName): RandomizerName => settings.randomizer ?? defaultGameRandomizer(rules);

// ---------- watch ----------
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

function showPlayerControls(): void {
  const p = settings.player;
  $('preset-label').hidden = p !== 'full';
  $('steep-label').hidden = p !== 'surface';
  $('garbage-label').hidden = p !== 'tetris';
  for (const q of ['tetris', 'surface', 'full']) $(`about-${q}`).hidden = p !== q;
  if (p === 'full' && !tablePromise) {
    $('table-status').textContent = 'Full-board player: no rank table needed.';
    $('table-panel').classList.add('done');
  }
}

async function newGame(): Promise<void> {
  const generation = ++gameGeneration;
  const options = {
    randomizer: settings.randomizer ?? (settings.player === 'tetris' ? randomizerFor(settings.rules) : 'tgm1'),
    seed: gameSeed++,
  };
  let next: BaseGame;
  if (settings.player === 'full') {
    next = new FullGame(options, settings.preset);
  } else {
    game = null; // nothing to show until the table is there
    if (settings.player === 'surface') {
      const ai = await stackingAI();
      if (generation !== gameGeneration) return; // another game was asked for meanwhile
      next = new StackGame(ai, options);
    } else {
      const ai = await gameAI(rulesOf(settings), settings.lookahead);
      if (generation !== gameGeneration) return;
      next = new TetrisGame(ai, settings.rules, options, settings.garbage);
    }
  }
  game = next;
  restartAt = 0;
  carry = 0;
  $('banner').hidden = true;
  updateCounters(performance.now()); // the counters and the banner change together
  for (const id of ['pause', 'restart']) $<HTMLButtonElement>(id).disabled = false;
  document.body.dataset.state = 'playing';
  document.body.dataset.player = settings.player;
}

async function playFor(now: number, elapsedMs: number): Promise<void> {
  const g = game;
  if (!g || paused || settings.mode !== 'watch') return;
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
    const before = g.pieces;
    let ok = g.step(settings.lookahead);
    if (ok instanceof Promise) ok = await ok;
    // A step can place its piece and still end the game (a garbage row then tops it out): count what it placed.
    totalPieces += g.pieces - before;
    if (g.pieces > before && g.lastTetrisAt === g.pieces) totalTetrises++;
    if (!ok) {
      gameOver(g, now);
      break;
    }
  }
  carry = Number.isFinite(due) ? Math.min(due, 1) : 0;
}

function gameOver(g: BaseGame, now: number): void {
  gamesOver++;
  bestGame = Math.max(bestGame, g.pieces);
  for (let i = 0; i < allDroughts.length; i++) allDroughts[i] += g.droughts[i];
  const banner = $('banner');
  banner.hidden = false;
  banner.textContent = `Game over after ${count(g.pieces, 'piece')}`;
  restartAt = now + (Number.isFinite(settings.speed) && settings.speed < 100 ? 1500 : 300);
}

function drawWatch(): void {
  const canvas = $<HTMLCanvasElement>('board');
  const g = game;
  const columns = g?.columns ?? 10;
  const since = g ? g.pieces - g.lastTetrisAt : 99;
  drawBoard(canvas, {
    columns,
    cells: g?.cells ?? [],
    well: g?.well ? { threshold: 8, flash: g.lastTetrisAt >= 0 && since < 4 ? 0.6 - since * 0.15 : 0 } : null,
    lastCells: g?.lastCells,
    holes: g instanceof TetrisGame,
  });
  // hold box and queue
  const q = $<HTMLCanvasElement>('queue');
  if (!g) {
    drawPieces(q, []);
    return;
  }
  const known = g.well
    ? settings.lookahead + 1
    : g instanceof TetrisGame
      ? settings.lookahead + 1
      : Math.min(settings.lookahead, 1) + 1;
  const slots: { piece: Piece | null; label: string; highlight?: boolean }[] = [];
  if (g.hold !== undefined) slots.push({ piece: g.hold, label: 'hold' });
  for (let i = 0; i < 6 && i < g.queue.length; i++)
    slots.push({ piece: g.queue[i] as Piece, label: i === 0 ? 'now' : `+${i}`, highlight: i < known });
  drawPieces(q, slots);
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
  const g = game;
  set('pieces', String(totalPieces));
  set('tetrises', String(totalTetrises));
  set('game-pieces', String(g?.pieces ?? 0));
  set('game-tetrises', String(g?.tetrises ?? 0));
  set('lines', String(g?.lines ?? 0));
  set('speed', measuredSpeed >= 100 ? measuredSpeed.toFixed(0) : measuredSpeed.toFixed(1));
  set('rank', g && Number.isFinite(g.rank) ? g.rank.toFixed(4) : '–');
  set('games', String(gamesOver));
  set('best', bestGame ? String(bestGame) : '–');
  set('ai-mode', g?.aiMode ?? '–');
  $('ai-mode').dataset.aiMode = g?.aiMode ?? '';
  set('tetris-rate', g && g.lines > 0 ? `${Math.round((400 * g.tetrises) / g.lines)} %` : '–');
  set('holes', String(g?.holes ?? 0));
  set('recover-moves', String(g?.recoverMoves ?? 0));
}

function setupWatchControls(): void {
  const psel = $<HTMLSelectElement>('player');
  psel.value = settings.player;
  psel.onchange = () => {
    settings.player = psel.value as Player;
    showPlayerControls();
    updateUrl({ player: settings.player });
    void newGame();
  };
  const rsel = $<HTMLSelectElement>('randomizer');
  rsel.add(new Option("the rule set's own", ''));
  for (const name of RANDOMIZER_NAMES) rsel.add(new Option(name, name));
  rsel.value = settings.randomizer ?? '';
  rsel.onchange = () => {
    settings.randomizer = (rsel.value || null) as RandomizerName | null;
    updateUrl({ randomizer: settings.randomizer });
    void newGame();
  };
  const wsel = $<HTMLSelectElement>('preset');
  for (const name of PRESET_NAMES) wsel.add(new Option(name, name));
  wsel.value = settings.preset;
  wsel.onchange = () => {
    settings.preset = wsel.value as PresetName;
    updateUrl({ preset: settings.preset });
    void newGame();
  };
  const gsel = $<HTMLSelectElement>('garbage');
  if (![...gsel.options].some((o) => o.value === String(settings.garbage)))
    gsel.add(new Option(`a row every ${count(settings.garbage, 'piece')}`, String(settings.garbage)));
  gsel.value = String(settings.garbage);
  gsel.onchange = () => {
    settings.garbage = Number(gsel.value);
    updateUrl({ garbage: String(settings.garbage) });
    void newGame();
  };
  const lsel = $<HTMLSelectElement>('lookahead');
  lsel.value = String(settings.lookahead);
  lsel.onchange = () => {
    settings.lookahead = Number(lsel.value);
    updateUrl({ lookahead: String(settings.lookahead) });
    if (settings.player === 'tetris') void newGame(); // the game AI is made for one lookahead
  };
  const ssel = $<HTMLSelectElement>('speed-select');
  if (Number.isFinite(settings.speed) && ![...ssel.options].some((o) => o.value === String(settings.speed))) {
    ssel.add(new Option(`${settings.speed} pieces/s`, String(settings.speed)));
  }
  ssel.value = Number.isFinite(settings.speed) ? String(settings.speed) : 'max';
  ssel.onchange = () => {
    settings.speed = ssel.value === 'max' ? Infinity : Number(ssel.value);
    updateUrl({ speed: ssel.value });
  };
  const steep = $<HTMLSelectElement>('steep');
  steep.value = settings.steep;
  steep.onchange = async () => {
    settings.steep = steep.value as SteepRule;
    updateUrl({ steep: settings.steep });
    stackAI = null;
    void newGame();
  };
  const pause = $<HTMLButtonElement>('pause');
  pause.onclick = () => {
    paused = !paused;
    pause.textContent = paused ? 'Resume' : 'Pause';
  };
  $<HTMLButtonElement>('restart').onclick = () => void newGame();
  showPlayerControls();
}

// ---------- modes ----------
const playPage = new PlayPage({
  settings,
  gameAI: () => gameAI(rulesOf(settings), settings.lookahead),
  rules: () => rulesOf(settings),
  randomizer: () => randomizerFor(settings.rules),
  active: () => settings.mode === 'play',
});
const analyzer = new Analyzer({
  settings,
  gameAI: () => gameAI(rulesOf(settings), settings.lookahead),
  updateUrl,
  positionReplaced,
  playPosition: () => playPage.position(),
});

const versusPage = new VersusPage({
  settings,
  versusAI,
  active: () => settings.mode === 'versus',
  updateUrl,
});

function showMode(focusBoard = false): void {
  const mode = settings.mode;
  $('main-board').hidden = mode === 'versus';
  $('rules-label').hidden = mode === 'versus'; // versus is played under the guideline
  showTimeControls();
  $('banner').hidden = true; // a finished game's banner belongs to its mode
  for (const el of document.querySelectorAll<HTMLElement>('[data-for]')) el.hidden = el.dataset.for !== mode;
  $<HTMLSelectElement>('mode').value = mode;
  document.body.dataset.mode = mode;
  $('board').setAttribute(
    'aria-label',
    mode === 'analyze'
      ? 'the board: click a cell, or use the arrow keys and Space, to fill or empty it'
      : mode === 'play'
        ? 'the board: play with the keys listed under Keys'
        : 'the board',
  );
  // Keyboard use: after choosing play or analyze with the mode list, the keys go to the board, not to the list.
  if (focusBoard && (mode === 'play' || mode === 'analyze')) $('board').focus();
  if (mode === 'watch') {
    showPlayerControls();
    if (!game) newGame().catch(showError);
    else document.body.dataset.state = 'playing';
  } else if (mode === 'play') {
    playPage.start().catch(showError);
  } else if (mode === 'versus') {
    versusPage.refreshKeys();
    versusPage.start().catch(showError);
  } else {
    analyzer.start().catch(showError);
  }
  updateUrl();
}

function setupTopbar(): void {
  const msel = $<HTMLSelectElement>('mode');
  msel.value = settings.mode;
  msel.onchange = () => {
    settings.mode = msel.value as Mode;
    showMode(true);
  };
  const rsel = $<HTMLSelectElement>('rules');
  for (const name of RULE_SET_NAMES) rsel.add(new Option(name, name));
  rsel.value = settings.rules;
  const rulesChanged = () => {
    updateUrl();
    showTimeControls();
    if (settings.mode === 'watch' && settings.player === 'tetris') void newGame();
    playPage.rulesChanged();
    if (settings.mode === 'play') playPage.start().catch(showError);
    if (settings.mode === 'analyze') analyzer.start().catch(showError);
  };
  rsel.onchange = () => {
    settings.rules = rsel.value as RuleSetName;
    rulesChanged();
  };
  // A timed rule set's level and timeline: the frames the AI's placements and play mode's piece follow.
  const level = $<HTMLInputElement>('level');
  level.max = String(MAX_DEMO_LEVEL);
  level.value = String(settings.level);
  level.onchange = () => {
    const n = Number(level.value);
    if (level.value.trim() === '' || !Number.isInteger(n) || n < 0 || n > MAX_DEMO_LEVEL) {
      level.value = String(settings.level);
      return;
    }
    settings.level = n;
    rulesChanged();
  };
  const tsel = $<HTMLSelectElement>('timeline');
  for (const t of TIMELINES) tsel.add(new Option(TIMELINE_NAMES[t], t));
  tsel.value = settings.timeline;
  tsel.onchange = () => {
    settings.timeline = tsel.value;
    rulesChanged();
  };
}

/** How the timeline list names each timeline. */
const TIMELINE_NAMES: Record<(typeof TIMELINES)[number], string> = {
  'X.': 'X. (tapping at 30 Hz)',
  'X..': 'X.. (20 Hz)',
  'X...': 'X... (15 Hz)',
  'X....': 'X.... (12 Hz)',
  'X.....': 'X..... (10 Hz)',
  das: 'DAS (16, then every 6 frames)',
  dasCharged: 'DAS, charged',
};

/** The level and timeline controls: shown under a timed rule set (nes), outside versus mode. */
function showTimeControls(): void {
  $('time-controls').hidden = !isTimedRules(settings.rules) || settings.mode === 'versus';
}

// ---------- frames ----------
let lastFrame = 0;
let lastChart = 0;
let stopped = false;
function frame(now: number): void {
  if (stopped) return;
  const elapsed = lastFrame ? Math.min(now - lastFrame, 250) : 0;
  lastFrame = now;
  try {
    if (settings.mode === 'watch') {
      if (!busy) {
        busy = true;
        playFor(now, elapsed)
          .catch((e) => {
            stopped = true; // the state is not trustworthy any more
            showError(e);
          })
          .finally(() => (busy = false));
      }
      drawWatch();
      if (now - lastChart > 250) {
        drawChart();
        lastChart = now;
      }
      updateCounters(now);
    } else if (settings.mode === 'play') {
      playPage.frame(now);
    } else if (settings.mode === 'versus') {
      versusPage.frame(now);
    } else {
      analyzer.draw();
    }
  } catch (e) {
    stopped = true;
    showError(e);
    return;
  }
  requestAnimationFrame(frame);
}

// ---------- start ----------
showProblems();
setupTopbar();
setupWatchControls();
drawBoard($<HTMLCanvasElement>('board'), { columns: 10, cells: [] as Paint[][] });
drawChart();
showMode();
requestAnimationFrame(frame);
