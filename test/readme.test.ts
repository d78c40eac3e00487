/**
 * Every code block of README.md (```js, also ```mjs, ```ts) is checked as the reader saves it, a plain `.mjs` file:
 * `node --check` must accept it, so a TypeScript-only token (`x!`, `: Type`) fails. Then each block runs as a test,
 * as plain JavaScript against the library's source (`from 'stackrank'` is src/index.ts), so the README cannot drift
 * from what the calls really do, and every block type-checks as TypeScript. New blocks are picked up automatically.
 * The docs/ pages' blocks that import stackrank get the same `node --check`.
 *
 * Conventions a README block follows:
 * - `// → EXPECTED` states what the code before it returns, and is checked. It goes at the end of a code line, or
 *   on a comment line of its own right after the code line it describes. The value checked is the declared name
 *   for `const NAME = …;` / `let NAME = …;` lines, otherwise the value of the line's expression (awaited).
 *   EXPECTED is a JavaScript literal: objects and arrays match partially (only the fields shown are compared,
 *   like toMatchObject), and a number written with a trailing `…` (e.g. `0.5726…`) matches any value that starts
 *   with those digits. Prose may follow after ` — ` (space, em dash, space).
 * - Comments without `→` are prose and are not checked.
 * - A block that cannot run in Node (a browser page) is preceded by the line
 *   `<!-- readme-test: not run, REASON -->`; the README then says in its text what the block needs.
 * Blocks run in a temporary directory (files they save land there), one after another, in README order.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as game from '../src/index.js';
import * as research from '../src/research.js';

/** What each package entry point is, for the blocks' imports. */
const library: Record<string, object> = { stackrank: game, 'stackrank/research': research };

const README = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
/** The fences of a JavaScript or TypeScript example (what a reader may save as a file). */
const CODE_FENCE = /^```(?:js|mjs|ts|javascript|typescript)\s*$/;
const SKIP_MARKER = /<!--\s*readme-test:\s*not run,\s*(.+?)\s*-->\s*$/;
const EXPECTATION = /\/\/\s*→\s*(.+?)(?:\s+—\s+.*)?$/;

interface Block {
  line: number;
  code: string;
  skipReason?: string;
}

function readmeBlocks(markdown: string): Block[] {
  const lines = markdown.split('\n');
  const blocks: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (!CODE_FENCE.test(lines[i])) continue;
    const start = i;
    const body: string[] = [];
    for (i++; i < lines.length && !/^```\s*$/.test(lines[i]); i++) body.push(lines[i]);
    let before = start - 1;
    while (before >= 0 && lines[before].trim() === '') before--;
    const skip = before >= 0 ? SKIP_MARKER.exec(lines[before]) : null;
    blocks.push({ line: start + 1, code: body.join('\n'), skipReason: skip?.[1] });
  }
  return blocks;
}

/** A number with a trailing `…` as a matcher: the actual value starts with the digits shown. */
function startsWithDigits(shown: string) {
  const decimals = shown.split('.')[1]?.length ?? 0;
  const scale = 10 ** decimals;
  return {
    asymmetricMatch: (actual: unknown) =>
      typeof actual === 'number' && Math.trunc(actual * scale) === Math.trunc(Number(shown) * scale),
    toString: () => `a number starting ${shown}`,
    toAsymmetricMatcher: () => `${shown}…`,
  };
}

function check(actual: unknown, expected: unknown, where: string): void {
  if (expected !== null && typeof expected === 'object') expect(actual, where).toMatchObject(expected as object);
  else expect(actual, where).toEqual(expected);
}

/** The block as the body of an async function of (lib, check, approx): imports become destructuring. */
function instrument(block: Block): string {
  const out: string[] = [];
  let lastCode: { text: string; index: number } | undefined;
  const lines = block.code.split('\n');
  lines.forEach((raw, i) => {
    const where = `README.md line ${block.line + 1 + i}`;
    const imports = /^\s*import\s*\{([^}]*)\}\s*from\s*'(stackrank(?:\/research)?)';?\s*$/.exec(raw);
    if (imports) {
      out.push(`const {${imports[1]}} = lib[${JSON.stringify(imports[2])}];`);
      return;
    }
    const found = EXPECTATION.exec(raw);
    const code = found ? raw.slice(0, raw.indexOf('//')).trimEnd() : raw;
    if (code.trim() !== '') lastCode = { text: code, index: out.length };
    out.push(code);
    if (!found) return;
    if (!lastCode) throw new Error(`${where}: "// →" with no code before it`);
    const expected = found[1].replace(
      /(-?\d+(?:\.\d+)?)…/g,
      (_, digits: string) => `approx(${JSON.stringify(digits)})`,
    );
    const declared = /^\s*(?:const|let)\s+([A-Za-z_$][\w$]*)\s*(?::[^=]+)?=/.exec(lastCode.text);
    if (declared) {
      out.push(`check(${declared[1]}, (${expected}), ${JSON.stringify(where)});`);
    } else {
      const expression = lastCode.text.trim().replace(/;$/, '');
      out[lastCode.index] = `check(await (${expression}), (${expected}), ${JSON.stringify(where)});`;
    }
    lastCode = undefined;
  });
  return out.join('\n');
}

/**
 * The blocks of a markdown text that import stackrank, as a reader saves them: each written verbatim to its own `.mjs`
 * file in `dir`, then `node --check`ed. Returns "FILE line N: message" for each block Node refuses.
 */
function mjsSyntaxErrors(markdown: string, file: string, dir: string): string[] {
  const errors: string[] = [];
  for (const m of markdown.matchAll(/```(?:ts|js|mjs|typescript|javascript)\n([\s\S]*?)```/g)) {
    if (!/from 'stackrank(?:\/research)?'/.test(m[1])) continue;
    const line = markdown.slice(0, m.index).split('\n').length;
    const path = join(dir, `${file.replace(/\W/g, '-')}-${line}.mjs`);
    writeFileSync(path, m[1]);
    try {
      execFileSync(process.execPath, ['--check', path], { stdio: 'pipe' });
    } catch (e) {
      const stderr = String((e as { stderr?: Buffer }).stderr ?? e);
      errors.push(`${file} line ${line}: ${stderr.split('\n').find((l) => /Error/.test(l)) ?? stderr}`);
    }
  }
  return errors;
}

/** The markdown files whose examples a reader may save: the README and the docs/ pages. */
const DOCS = new URL('../docs/', import.meta.url);
const PAGES: [string, string][] = [
  ['README.md', README],
  ...readdirSync(DOCS)
    .filter((f) => f.endsWith('.md'))
    .map((f): [string, string] => [`docs/${f}`, readFileSync(new URL(f, DOCS), 'utf8')]),
];

/**
 * Type errors in the blocks, each block a module of its own (strict, DOM and Node types), with `stackrank` resolving
 * to the source: "README.md line N: message".
 */
function typeErrors(list: readonly Block[]): string[] {
  const root = new URL('..', import.meta.url).pathname;
  const files = new Map(list.map((b) => [join(root, `readme-block-${b.line}.ts`), b]));
  const options: ts.CompilerOptions = {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
    types: ['node'],
    skipLibCheck: true,
    paths: { stackrank: [join(root, 'src/index.ts')], 'stackrank/research': [join(root, 'src/research.ts')] },
  };
  const host = ts.createCompilerHost(options);
  const source = (file: string) => {
    const block = files.get(file);
    return block && `${block.code}\nexport {};\n`;
  };
  const { getSourceFile, fileExists, readFile } = host;
  host.fileExists = (f) => files.has(f) || fileExists.call(host, f);
  host.readFile = (f) => source(f) ?? readFile.call(host, f);
  host.getSourceFile = (f, v, ...rest) => {
    const text = source(f);
    return text !== undefined ? ts.createSourceFile(f, text, v) : getSourceFile.call(host, f, v, ...rest);
  };
  const program = ts.createProgram([...files.keys()], options, host);
  return ts.getPreEmitDiagnostics(program).flatMap((d) => {
    const block = d.file && files.get(d.file.fileName);
    if (!block || d.start === undefined) return [];
    const { line } = d.file!.getLineAndCharacterOfPosition(d.start);
    return [`README.md line ${block.line + 1 + line}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`];
  });
}

const AsyncFunction = Object.getPrototypeOf(async () => {}).constructor as new (
  ...args: string[]
) => (...values: unknown[]) => Promise<void>;
const blocks = readmeBlocks(README);

describe('README.md examples', () => {
  const home = process.cwd();
  let dir = '';
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'stackrank-readme-'));
    process.chdir(dir);
  });
  afterAll(() => {
    process.chdir(home);
    rmSync(dir, { recursive: true, force: true });
  });

  it('has code blocks, and states values the test checks', () => {
    expect(blocks.length).toBeGreaterThan(3);
    expect(blocks.some((b) => EXPECTATION.test(b.code))).toBe(true);
  });

  it('the instrumentation checks what a line returns, and fails on a wrong value', async () => {
    const run = async (code: string) =>
      new AsyncFunction('lib', 'check', 'approx', instrument({ line: 1, code }))(library, check, startsWithDigits);
    await run(
      "import { surfaceFromHeights } from 'stackrank';\nconst s = surfaceFromHeights([0, 1, 2, 3, 4, 5, 6, 7, 8]); // → { width: 9 } — nine columns",
    );
    await run('const n = Math.max(1, 8); // → 8');
    await run('const x = { a: 1, b: [2, 3] };\n// → { a: 1 }\nMath.PI; // → 3.1415…');
    await expect(run('Math.PI; // → 3.15…')).rejects.toThrow();
    await expect(run("const y = { a: 'L' }; // → { a: 'T' }")).rejects.toThrow();
    // Blocks run as plain JavaScript: a TypeScript-only token is a syntax error, not stripped.
    await expect(run('const q = [1];\nq.shift()!; // → 1')).rejects.toThrow(SyntaxError);
  });

  it('every block that imports stackrank is a valid .mjs file as saved, in the README and in docs/', () => {
    const saved = mkdtempSync(join(tmpdir(), 'stackrank-mjs-'));
    try {
      expect(PAGES.flatMap(([file, text]) => mjsSyntaxErrors(text, file, saved))).toEqual([]);
    } finally {
      rmSync(saved, { recursive: true, force: true });
    }
  });

  it('the .mjs check catches TypeScript a reader cannot run', () => {
    const saved = mkdtempSync(join(tmpdir(), 'stackrank-mjs-'));
    try {
      const page = "```js\nimport { Board } from 'stackrank';\nconst q = [Board];\nq.shift()!;\n```\n";
      expect(mjsSyntaxErrors(page, 'page.md', saved)).toEqual([expect.stringMatching(/^page\.md line 1: SyntaxError/)]);
      const typed = "```ts\nimport { Board } from 'stackrank';\nconst b: number = 1;\n```\n";
      expect(mjsSyntaxErrors(typed, 'page.md', saved)).toHaveLength(1);
      expect(mjsSyntaxErrors('```ts\nconst b: number = 1;\n```\n', 'page.md', saved)).toEqual([]); // no stackrank import
    } finally {
      rmSync(saved, { recursive: true, force: true });
    }
  });

  it('every block type-checks under strict, as a TypeScript user pastes it (browser blocks too)', {
    timeout: 60_000,
  }, () => {
    expect(typeErrors(blocks)).toEqual([]);
  });

  it('the type check catches an error in a block', { timeout: 60_000 }, () => {
    const wrong = { line: 1, code: "import { Board } from 'stackrank';\nconst b: number = Board.empty(10, 20);" };
    expect(typeErrors([wrong])).toEqual([expect.stringContaining("README.md line 3: Type 'Board' is not assignable")]);
  });

  for (const block of blocks) {
    const title = `block at line ${block.line}`;
    if (block.skipReason) {
      it.skip(`${title} (not run: ${block.skipReason})`, () => {});
      continue;
    }
    it(title, async () => {
      const js = instrument(block);
      const quiet = console.log;
      console.log = () => {};
      try {
        await new AsyncFunction('lib', 'check', 'approx', js)(library, check, startsWithDigits);
      } finally {
        console.log = quiet;
      }
    });
  }
});
