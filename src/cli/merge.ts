/** `stackrank merge`: pools the shard files of one run and prints what one run over all the games prints. */
import { fullPlayCommand, fullPlayMeta, printMergedFullPlay } from './full.js';
import { benchGameCommand, gameMeta, printMergedGames } from './game.js';
import { benchNesCommand, nesMeta, printMergedNes } from './nes.js';
import { startWriting, type CliIO } from './io.js';
import {
  checkMetaAgrees,
  checkRunParams,
  checkShardSet,
  joinedRunFile,
  readRunFile,
  writeRunFile,
  type RunCommand,
  type RunFile,
} from './run-files.js';
import { defineCommand } from './spec.js';
import { benchSurvivalCommand, printMergedSurvival, survivalMeta } from './survival.js';

const PRINTERS: Record<RunCommand, (io: CliIO, json: boolean, shards: readonly { run: RunFile }[]) => void> = {
  'bench survival': printMergedSurvival,
  'bench game': printMergedGames,
  'bench nes': printMergedNes,
  'full play': printMergedFullPlay,
};

/**
 * What a run's parameters are checked against, by command: the options whose values it records, the parameters
 * its printer cannot do without (the printers describe the merged run from them; a bench game run under goal versus
 * plays no rank table and records none), and what each finished part's `meta` must say (the command's own).
 */
const PARAMS = {
  'bench survival': () => ({
    options: benchSurvivalCommand.options,
    required: ['rankTable', 'maxPieces'],
    expectedMeta: survivalMeta,
  }),
  'bench game': (params: Record<string, unknown>) => ({
    options: benchGameCommand.options,
    required: params.goal === 'versus' ? ['maxPieces'] : ['rankTable', 'maxPieces'],
    expectedMeta: gameMeta,
  }),
  'bench nes': () => ({
    options: benchNesCommand.options,
    required: ['rankTable', 'maxPieces'],
    expectedMeta: nesMeta,
  }),
  'full play': () => ({ options: fullPlayCommand.options, required: ['weightVector'], expectedMeta: fullPlayMeta }),
} satisfies Record<RunCommand, unknown>;

export const mergeCommand = defineCommand({
  path: 'merge',
  summary: 'pool the shard files of one bench survival, bench game, bench nes or full play run',
  description: `Reads the result files that the shards of one run wrote (--shard I/N --out FILE), checks that they
are all the shards of one run (same command and parameters, the same table, every shard 0..N-1 once, each
finished) and prints exactly what the run without --shard prints, from the same games: the same rows, the same
JSON (time and speed are the shards' total). Files of different runs, overlapping or missing shards are refused.
--out writes the whole run's result file. docs/distributed.md.`,
  args: [{ name: 'files', help: 'the shard result files (any order)', variadic: true }],
  options: {
    out: { type: 'outFile', help: "write the merged run's result file (JSON)" },
  },
  async run({ values, args }, io) {
    const files = [];
    for (const path of args) {
      const run = await readRunFile(path, io.signal);
      const { options, required, expectedMeta } = PARAMS[run.command](run.params);
      checkRunParams(run.params, options, required, path);
      checkMetaAgrees(run, path, expectedMeta);
      files.push({ path, run });
    }
    const shards = checkShardSet(files);
    PRINTERS[shards[0].run.command](io, values.json, shards);
    if (values.out !== undefined) {
      startWriting(io);
      await writeRunFile(values.out, joinedRunFile(shards));
      io.err(`wrote ${values.out}`);
    }
    return 0;
  },
});
