/**
 * Every `stackrank` command, in the order `stackrank --help` lists them. Adding a command is one entry here (and its
 * `defineCommand` in its own module); a command path with a new first word needs that group's summary in GROUPS.
 */
import { analyzeCommand } from './analyze.js';
import { demoCommand } from './demo.js';
import { benchGameCommand } from './game.js';
import { fullPlayCommand, fullTrainCommand } from './full.js';
import { mergeCommand } from './merge.js';
import { benchNesCommand } from './nes.js';
import { playCommand } from './play.js';
import { queueCommand, randomizersCommand } from './randomizers.js';
import type { CommandSpec, Groups } from './spec.js';
import { benchSurvivalCommand } from './survival.js';
import { tbpCommand } from './tbp.js';
import { benchVersusCommand } from './versus.js';
import { tableBuildCommand, tableInfoCommand, tableRankCommand } from './table.js';

export const GROUPS: Groups = {
  table: 'build, inspect and query rank tables',
  bench: "benchmarks: survival (the article's table), game (real games), nes (scored), versus",
  full: 'full-board player: play games with weight presets, train weights (GA)',
};

export const COMMANDS: readonly CommandSpec[] = [
  tableBuildCommand,
  tableInfoCommand,
  tableRankCommand,
  benchSurvivalCommand,
  benchGameCommand,
  benchNesCommand,
  benchVersusCommand,
  playCommand,
  analyzeCommand,
  fullPlayCommand,
  fullTrainCommand,
  mergeCommand,
  randomizersCommand,
  queueCommand,
  demoCommand,
  tbpCommand,
];
