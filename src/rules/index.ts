/**
 * The rules layer: boards, rotation systems, rule-set presets and reachable placements with key sequences
 * (docs/rules.md, "Real games"). Nothing here knows about any AI.
 */
export type { RuleSetName, Input, FrameInput, Cell, PieceMove, GamePlacement, BoardLike, Spin } from './types.js';
export { Board, BOARD_MIN_WIDTH, BOARD_MAX_WIDTH, BOARD_MIN_HEIGHT, BOARD_MAX_HEIGHT } from './board.js';
export {
  ROTATION_SYSTEMS,
  ROTATION_SYSTEM_NAMES,
  SRS,
  ARS,
  NRS,
  CLASSIC,
  type RotationSystem,
  type RotationSystemName,
  type PieceStates,
} from './rotation-systems.js';
export {
  RULE_SETS,
  RULE_SET_NAMES,
  GUIDELINE_MATRIX_ROWS,
  GUIDELINE_SPAWN_ROW,
  isRuleSetName,
  isTimed,
  resolveRules,
  fieldOf,
  type RuleSet,
  type Gravity,
  type SpawnRule,
  type Field,
} from './rule-sets.js';
export {
  reachablePlacements,
  countReachablePlacements,
  PieceMover,
  type ReachableOptions,
  type PieceState,
} from './reachable.js';
export { SEARCH_MOVES } from './geometry.js';
export {
  nesTiming,
  gravityAt,
  formatFrameInputs,
  NES_DOUBLE_KILLSCREEN,
  TAP_TIMELINES,
  DAS_MODES,
  MAX_LEVEL,
  type GameTiming,
  type GravityStep,
  type Timeline,
} from './timing.js';
export {
  NesGame,
  nesFormat,
  nesLevel,
  nesLinesToLevelUp,
  nesClearPoints,
  firstLevelUpLines,
  linesToLevel,
  rulesAtLevel,
  NES_LINE_POINTS,
  NES_COMPETITION_MAX_LEVEL,
  MAX_START_LEVEL,
  type NesFormat,
  type NesFormatOptions,
  type NesGameEnd,
} from './nes-game.js';
export {
  boardFromFumen,
  fumenFromBoard,
  FUMEN_WIDTH,
  FUMEN_HEIGHT,
  type FumenPosition,
  type FumenExportOptions,
} from './fumen.js';
export { SPIN_RULES, type SpinRule } from './spins.js';
export {
  ATTACK_TABLES,
  ATTACK_TABLE_NAMES,
  CLEAR_KINDS,
  lockOutcome,
  type AttackTable,
  type AttackTableName,
  type ClearKind,
  type LockOutcome,
  type LockResult,
  type VersusState,
} from './attack.js';
export {
  DEFAULT_MESSINESS,
  GarbageQueue,
  garbageAfterLock,
  garbageHoles,
  insertGarbage,
  insertGarbageRows,
  type GarbageEntry,
  type GarbageQueueOptions,
  type GarbageStep,
  type Messiness,
} from './garbage.js';
