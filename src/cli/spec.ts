/**
 * The CLI's commands declared as data. Each command is one `defineCommand({...})` entry: its path ("table build"),
 * one-line summary, description, positional arguments and an option table. From that table come the parser
 * (commander), the value checks (ranges and choices, with the library's own limits), the defaults, the output-path
 * checks made before any work starts, and `--help`. docs/architecture.md ("CLI") says how to add a command.
 */
import { Command, Option, type CommanderError, type Help } from 'commander';
import { UsageError, choiceOption, intOption, listOption, numberOption, numberRange } from './args.js';
import { checkOutputDir, checkOutputFile, refuseOutputOverInput } from './files.js';
import type { CliIO } from './io.js';

interface OptionBase {
  /** One line (or a few) for --help. */
  help: string;
  /** The value's placeholder in --help, e.g. N, FILE; default from the option type. */
  arg?: string;
  /** Shown as "(default: ...)" when the default depends on the machine or on other options. */
  defaultHelp?: string;
}
export interface IntSpec extends OptionBase {
  type: 'int';
  min: number;
  max: number;
  default?: number;
}
export interface IntListSpec extends OptionBase {
  type: 'intList';
  min: number;
  max: number;
  default?: readonly number[];
}
/** A finite real number: at least `min`, or strictly above `above` (one of the two); at most `max` if given. */
export type NumberSpec = OptionBase & {
  type: 'number';
  default?: number;
  max?: number;
} & ({ min: number; above?: undefined } | { above: number; min?: undefined });
export interface ChoiceSpec<C extends string = string> extends OptionBase {
  type: 'choice';
  choices: readonly C[];
  default?: C;
}
/** Free text that must not be empty: a name, a preset or a file to read. */
export interface TextSpec extends OptionBase {
  type: 'text';
  default?: string;
}
/** A file the command writes: its directory must exist and be writable before the work starts. */
export interface OutFileSpec extends OptionBase {
  type: 'outFile';
  /**
   * The key of a flag under which the command first reads this file (`full train --resume` its --checkpoint): then
   * the file is one to read, and one that cannot be read is the read's runtime error (exit 1, IO; docs/cli.md,
   * "Files to read"), so the output check is left to the command, after the read.
   */
  readWith?: string;
}
/** A directory the command fills (created if missing): its nearest existing ancestor must be writable. */
export interface OutDirSpec extends OptionBase {
  type: 'outDir';
}
export interface FlagSpec extends OptionBase {
  type: 'flag';
  /** Help of a `--no-NAME` that sets the value false: the value is then undefined when neither is given (the
   * command's own default), true or false. */
  negation?: string;
}
export type OptionSpec =
  | IntSpec
  | IntListSpec
  | NumberSpec
  | ChoiceSpec
  | TextSpec
  | OutFileSpec
  | OutDirSpec
  | FlagSpec;
export type OptionTable = Record<string, OptionSpec>;

type ValueOf<S> = S extends IntSpec | NumberSpec
  ? number
  : S extends IntListSpec
    ? number[]
    : S extends ChoiceSpec<infer C>
      ? C
      : S extends FlagSpec
        ? boolean
        : string;

/** Parsed values, keyed like the table (camelCase; the flag is its kebab-case form). */
export type OptionValues<O extends OptionTable> = {
  [K in keyof O]: O[K] extends FlagSpec
    ? O[K] extends { negation: string }
      ? boolean | undefined
      : boolean
    : O[K] extends { default: unknown }
      ? ValueOf<O[K]>
      : ValueOf<O[K]> | undefined;
} & { json: boolean };

export interface ArgumentSpec {
  name: string;
  help: string;
  optional?: boolean;
  variadic?: boolean;
}

export interface CommandInput<O extends OptionTable> {
  values: OptionValues<O>;
  /** Positional arguments in order (a variadic one spread out). */
  args: string[];
  /** Whether the user gave the option (rather than its default applying). */
  given(name: keyof O & string): boolean;
}

export interface CommandSpec<O extends OptionTable = OptionTable> {
  /** Words after `stackrank`, e.g. "table build". Words before the last name a group (see GROUPS). */
  path: string;
  summary: string;
  /** Paragraphs shown in --help after the usage line; default: the summary. */
  description?: string;
  args?: readonly ArgumentSpec[];
  options: O;
  run(input: CommandInput<O>, io: CliIO): Promise<number>;
}

export function defineCommand<const O extends OptionTable>(spec: CommandSpec<O>): CommandSpec<O> {
  return spec;
}

/** An option table declared apart from its command (when a helper function needs its value types). */
export function defineOptions<const O extends OptionTable>(options: O): O {
  return options;
}

/** A spec whose default is always there: its value is never undefined. */
export type Defaulted<S extends OptionSpec, V> = S & { default: V };

/** Every command prints JSON Lines with --json (docs/cli.md). */
const JSON_OPTION: FlagSpec = {
  type: 'flag',
  help: 'machine-readable output: JSON, one object per line (docs/cli.md)',
};

/** `maxPieces` -> `max-pieces`. */
export function flagName(key: string): string {
  return key.replace(/[A-Z]/g, (c) => '-' + c.toLowerCase());
}

const PLACEHOLDER: Record<OptionSpec['type'], string> = {
  int: 'N',
  intList: 'LIST',
  number: 'X',
  choice: 'NAME',
  text: 'VALUE',
  outFile: 'FILE',
  outDir: 'DIR',
  flag: '',
};

/** The value check of one option: turns the text after the flag into its value or throws UsageError. */
function valueParser(name: string, spec: OptionSpec): ((text: string) => unknown) | null {
  switch (spec.type) {
    case 'int':
      return (t) => intOption(name, t, 0, spec.min, spec.max);
    case 'intList':
      return (t) => listOption(name, t, spec.min, spec.max);
    case 'number':
      return (t) =>
        numberOption(name, t, spec.min === undefined ? { above: spec.above } : { min: spec.min, max: spec.max });
    case 'choice':
      return (t) => choiceOption(name, t, spec.choices);
    case 'text':
    case 'outFile':
    case 'outDir':
      return (t) => {
        if (t.trim() === '')
          throw new UsageError(
            `--${name} needs a non-empty ${spec.type === 'outDir' ? 'directory' : spec.type === 'outFile' ? 'file name' : 'value'}`,
          );
        return t;
      };
    case 'flag':
      return null;
  }
}

function describeRange(spec: OptionSpec): string {
  if (spec.type === 'int' || spec.type === 'intList')
    return spec.max === Number.MAX_SAFE_INTEGER ? `≥ ${spec.min}` : `${spec.min}..${spec.max}`;
  if (spec.type === 'number') return numberRange(spec.min === undefined ? { above: spec.above } : spec);
  return '';
}

function toOption(key: string, spec: OptionSpec, path: string): Option {
  const name = flagName(key);
  const placeholder = spec.arg ?? (spec.type === 'choice' ? spec.choices.join('|') : PLACEHOLDER[spec.type]);
  const range = describeRange(spec);
  let help = spec.help + (range ? ` [${range}]` : '');
  if (spec.defaultHelp) help += ` (default: ${spec.defaultHelp})`;
  const option = new Option(spec.type === 'flag' ? `--${name}` : `--${name} <${placeholder}>`, help);
  const parse = valueParser(name, spec);
  if (parse) {
    option.argParser((text: string) => {
      try {
        return parse(text);
      } catch (e) {
        if (e instanceof UsageError) throw new CommandUsageError(path, e.message);
        throw e;
      }
    });
  }
  if ('default' in spec && spec.default !== undefined && !spec.defaultHelp) {
    option.default(
      spec.default,
      Array.isArray(spec.default)
        ? spec.default.join(',')
        : typeof spec.default === 'string'
          ? spec.default
          : undefined,
    );
  }
  return option;
}

/** A usage error that knows which command it belongs to (for the "stackrank table build: ..." prefix). */
export class CommandUsageError extends UsageError {
  constructor(
    readonly path: string,
    message: string,
  ) {
    super(message);
  }
}

/** --help was asked for and printed: exit 0. */
export class HelpShown extends Error {}

/** Group commands ("table", "bench", "full") and their one-line summaries. */
export type Groups = Record<string, string>;

/** Source text wraps lines anywhere; --help rewraps paragraphs (blank-line separated) to the terminal width. */
function paragraphs(text: string): string {
  return text
    .trim()
    .split(/\n\s*\n/)
    .map((p) => p.replace(/\s*\n\s*/g, ' '))
    .join('\n\n');
}

function commanderMessage(err: CommanderError): string {
  // "error: unknown option '--x'\n(Did you mean --y?)" -> one line without the prefix.
  return err.message
    .replace(/^error: /, '')
    .replace(/\s*\n\s*/g, ' ')
    .trim();
}

/** What is allowed, after an unknown command or option that has no close match (one line, docs/cli.md). */
function allowedAfter(err: CommanderError, cmd: Command): string {
  if (/Did you mean/.test(err.message)) return '';
  if (err.code === 'commander.unknownCommand') return `; commands are ${cmd.commands.map((c) => c.name()).join(', ')}`;
  if (err.code === 'commander.unknownOption')
    return `; options are ${[...cmd.options.map((o) => o.long ?? o.flags), '--help'].join(', ')}`;
  return '';
}

function configure(cmd: Command, io: CliIO, path: string): Command {
  return cmd
    .exitOverride((err) => {
      if (err.code === 'commander.helpDisplayed' || err.code === 'commander.version') throw new HelpShown();
      // help() asked for (exit code 0) rather than printed because a group was called without its subcommand.
      if (err.code === 'commander.help' && err.exitCode === 0) throw new HelpShown();
      // A group called without its subcommand prints its help to stderr: a usage error.
      if (err.code === 'commander.help')
        throw new CommandUsageError(path, `a ${path ? 'sub' : ''}command is needed (see the list above)`);
      throw new CommandUsageError(path, commanderMessage(err) + allowedAfter(err, cmd));
    })
    .configureOutput({
      writeOut: (s) => io.out(s.replace(/\n$/, '')),
      writeErr: (s) => io.err(s.replace(/\n$/, '')),
      outputError: () => {}, // printed once by the entry point, with the command's name
      getOutHelpWidth: () => 110,
      getErrHelpWidth: () => 110,
    })
    .configureHelp({
      subcommandTerm: (c: Command) =>
        [
          c.name(),
          ...c.registeredArguments.map((a) =>
            a.required ? `<${a.name()}${a.variadic ? '...' : ''}>` : `[${a.name()}${a.variadic ? '...' : ''}]`,
          ),
        ].join(' '),
      sortSubcommands: false,
      sortOptions: false,
    } as Partial<Help>)
    .showSuggestionAfterError(true)
    .allowExcessArguments(false)
    .helpOption('-h, --help', 'show this help');
}

/**
 * `stackrank [GROUP...] help [NAME...]` as `stackrank [GROUP...] [NAME...] --help`, so the help of the command the
 * names lead to is printed (commander's own help command looks at one name only, and reports the help it prints as
 * a group called without its subcommand). A name that is not a command is left for commander to report (unknown
 * command, exit 2); words after a command that has no subcommands (`help queue nes`) are ignored. `--help` or `-h`
 * among the words is the same ask, for the command the leading names lead to. Any other argv is returned unchanged.
 */
function helpAsOption(program: Command, argv: string[]): string[] {
  const find = (parent: Command, name: string) => parent.commands.find((c) => c.name() === name);
  const path: string[] = [];
  let cmd = program;
  // --help anywhere (before a `--`) asks for the help of the command the names before it lead to, whatever the other
  // options say: a value out of range beside it would otherwise be reported instead of the help.
  const end = argv.includes('--') ? argv.indexOf('--') : argv.length;
  if (argv.slice(0, end).some((a) => a === '--help' || a === '-h')) {
    for (const word of argv) {
      const sub = cmd.commands.length > 0 ? find(cmd, word) : undefined;
      if (!sub) break;
      path.push(word);
      cmd = sub;
    }
    return [...path, '--help'];
  }
  for (let i = 0; i < argv.length && cmd.commands.length > 0; i++) {
    if (argv[i] === 'help' && !find(cmd, 'help')) {
      for (const name of argv.slice(i + 1)) {
        if (cmd.commands.length === 0) break;
        const sub = find(cmd, name);
        if (!sub) return [...path, name];
        path.push(name);
        cmd = sub;
      }
      return [...path, '--help'];
    }
    const sub = find(cmd, argv[i]);
    if (!sub) break;
    path.push(argv[i]);
    cmd = sub;
  }
  return argv;
}

/**
 * The commander program for `commands`. The returned `run` parses argv, checks output paths, runs the matching
 * command and resolves to its exit code; it throws CommandUsageError for usage errors and HelpShown after --help.
 */
export function buildProgram(
  commands: readonly CommandSpec[],
  groups: Groups,
  io: CliIO,
  description: string,
  version: string,
) {
  const program = configure(new Command('stackrank'), io, '')
    .usage('<command> [options]')
    .description(paragraphs(description))
    .version(version, '--version', "print stackrank's version");
  program.helpCommand('help [command...]', 'show the help of a command, e.g. help table build');
  let exitCode = 0;
  let running = '';
  const parentOf = (words: string[]): Command => {
    let parent = program;
    for (const [i, word] of words.entries()) {
      const found = parent.commands.find((c) => c.name() === word);
      if (found) parent = found;
      else {
        const summary = groups[word];
        if (!summary) throw new Error(`CLI table: no summary for the command group ${JSON.stringify(word)}`);
        parent = configure(parent.command(word), io, words.slice(0, i + 1).join(' '))
          .summary(summary)
          .description(summary);
      }
    }
    return parent;
  };
  for (const spec of commands) {
    const words = spec.path.split(' ');
    const cmd = configure(parentOf(words.slice(0, -1)).command(words[words.length - 1]), io, spec.path)
      .summary(spec.summary)
      .description(paragraphs(spec.description ?? spec.summary));
    for (const a of spec.args ?? []) {
      const term = `${a.name}${a.variadic ? '...' : ''}`;
      cmd.argument(a.optional ? `[${term}]` : `<${term}>`, a.help);
    }
    const table: OptionTable = { ...spec.options, json: JSON_OPTION };
    for (const [key, option] of Object.entries(table)) {
      cmd.addOption(toOption(key, option, spec.path));
      // Defined after the positive flag, so commander leaves the value undefined when neither is given.
      if (option.type === 'flag' && option.negation)
        cmd.addOption(new Option(`--no-${flagName(key)}`, option.negation));
    }
    cmd.action(async () => {
      const values = cmd.opts() as Record<string, unknown>;
      const given = (key: string) => cmd.getOptionValueSource(key) === 'cli';
      const args = (cmd.processedArgs as (string | string[] | undefined)[]).flatMap((a) => (a === undefined ? [] : a));
      // The files the command reads: the ones its text options and arguments name, none of them an output.
      const inputs = [
        ...Object.entries(table)
          .filter(([key, option]) => option.type === 'text' && given(key) && typeof values[key] === 'string')
          .map(([key]) => ({ what: `--${flagName(key)}`, path: values[key] as string })),
        ...args.map((path) => ({ what: spec.path, path })),
      ];
      for (const [key, option] of Object.entries(table)) {
        if (!given(key)) continue;
        try {
          if (option.type === 'outFile') refuseOutputOverInput(flagName(key), values[key] as string, inputs);
          if (option.type === 'outFile' && option.readWith !== undefined && values[option.readWith] === true) continue;
          if (option.type === 'outFile') checkOutputFile(flagName(key), values[key] as string);
          if (option.type === 'outDir') checkOutputDir(flagName(key), values[key] as string);
        } catch (e) {
          if (e instanceof UsageError) throw new CommandUsageError(spec.path, e.message);
          throw e;
        }
      }
      values.json = values.json === true;
      running = spec.path;
      try {
        exitCode = await spec.run({ values: values as OptionValues<OptionTable>, args, given }, io);
      } catch (e) {
        if (e instanceof UsageError && !(e instanceof CommandUsageError))
          throw new CommandUsageError(spec.path, e.message);
        throw e;
      }
    });
  }
  return {
    program,
    /** The path of the command whose run() was called last ('' before any). */
    running: () => running,
    async run(argv: string[]): Promise<number> {
      await program.parseAsync(helpAsOption(program, argv), { from: 'user' });
      return exitCode;
    },
  };
}
