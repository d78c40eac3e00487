/**
 * Architecture counts of one tree of the repository: the figures the kernel-layer round is judged by
 * (bench/notes/architecture-round.md).
 *
 *   npx tsx bench/architecture-counts.ts                # this checkout
 *   npx tsx bench/architecture-counts.ts 9910efd        # a commit (src/, assembly/, docs/ taken with git archive)
 *   npx tsx bench/architecture-counts.ts /tmp/some-tree # another checkout
 *
 * Figures:
 *  - layout readers, two ways: the files of src/ that import a layout module (assembly/<kernel>/layout.ts, or a
 *    src/ file made only of re-exports of one, as the older src/<ai>/layout.ts files were), and the files that use
 *    any name the type checker traces back to a layout, through whatever module re-exports it (move codes, leaf-row
 *    slots and the like that src/kernels/ modules pass on). Those outside src/kernels/ are counted apart.
 *  - exported move/board/rule types: the types (interfaces, type aliases, classes, enums) the package's entry points
 *    export (package.json "exports", each dist/X.js read as src/X.ts), whose name says move or placement, board or
 *    surface, or rule. Option bags, results of whole games and errors are left out by name (see CONCEPTS).
 *  - import cycles in src/: the strongly connected sets of its relative-import graph, type-only and dynamic imports
 *    included (the logic of test/import-graph.test.ts).
 *  - the 10 largest .ts files of src/ and assembly/ by lines (src/generated/ left out), and the lines and bytes of
 *    each docs/ page (.md; images and plots are counted as files).
 *
 * Prints tables and writes bench/results/architecture-counts-<label>.json (label: the commit's short hash, or
 * the folder's name).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { importCycles, importGraph } from '../test/helpers/import-graph.js';
import { printTable, scriptUsage, writeResults } from './common.js';

const argv = process.argv.slice(2);
if (argv.includes('--help') || argv.includes('-h')) {
  console.log(scriptUsage(import.meta.url));
  process.exit(0);
}
if (argv.length > 1 || argv[0]?.startsWith('-')) {
  console.error(`one commit or folder at most, no options; got ${argv.join(' ')}\n\n${scriptUsage(import.meta.url)}`);
  process.exit(2);
}
const HERE = dirname(fileURLToPath(import.meta.url));
const REPO = resolve(HERE, '..');

/** The tree to count and its label: a folder as given, or a commit extracted into a temporary folder. */
function tree(arg: string | undefined): { root: string; label: string; commit?: string; cleanup: () => void } {
  if (arg === undefined) return { root: REPO, label: basename(REPO), cleanup: () => {} };
  if (existsSync(arg) && statSync(arg).isDirectory()) {
    return { root: resolve(arg), label: basename(resolve(arg)), cleanup: () => {} };
  }
  const found = spawnSync('git', ['rev-parse', '--verify', '--quiet', '--short', `${arg}^{commit}`], {
    cwd: REPO,
    encoding: 'utf8',
  });
  if (found.status !== 0) {
    console.error(`${arg} is neither a folder nor a commit of this repository`);
    process.exit(2);
  }
  const commit = found.stdout.trim();
  const root = mkdtempSync(join(os.tmpdir(), 'architecture-counts-'));
  const archive = execFileSync('git', ['archive', commit, 'src', 'assembly', 'docs', 'package.json', 'tsconfig.json'], {
    cwd: REPO,
    maxBuffer: 1 << 30,
  });
  execFileSync('tar', ['-x', '-C', root], { input: archive });
  return { root, label: commit, commit, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}

/** Every file under `dir` (relative to root) whose name ends with one of `ends`, src/generated/ left out. */
function files(root: string, dir: string, ends: readonly string[]): string[] {
  if (!existsSync(join(root, dir))) return [];
  const out: string[] = [];
  for (const e of readdirSync(join(root, dir), { withFileTypes: true })) {
    const path = `${dir}/${e.name}`;
    if (e.isDirectory()) {
      if (path !== 'src/generated') out.push(...files(root, path, ends));
    } else if (ends.some((end) => e.name.endsWith(end))) out.push(path);
  }
  return out.sort();
}

const lineCount = (root: string, file: string): number => {
  const text = readFileSync(join(root, file), 'utf8');
  return text.length === 0 ? 0 : text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
};

const LAYOUT = /^assembly\/.*layout\.ts$/;

/** The package's entry points: each "exports" target dist/X.js read as src/X.ts, where that file exists. */
function entryPoints(root: string): string[] {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const targets: string[] = [];
  const walk = (v: unknown): void => {
    if (typeof v === 'string') targets.push(v);
    else if (v && typeof v === 'object') for (const x of Object.values(v)) walk(x);
  };
  walk(pkg.exports);
  const entries = new Set<string>();
  for (const t of targets) {
    const m = /^\.\/dist\/(.+)\.(?:js|cjs)$/.exec(t);
    if (m && existsSync(join(root, 'src', `${m[1]}.ts`))) entries.add(`src/${m[1]}.ts`);
  }
  return [...entries].sort();
}

/** The concept a type name belongs to, or none: option bags, whole-game results and errors are not move shapes. */
const CONCEPTS: [concept: string, pattern: RegExp][] = [
  ['move', /Move|Placement|PlanStep|Landing/],
  ['board', /Board|Surface|Grid/],
  ['rule', /Rule/],
];
const NOT_A_SHAPE =
  /(Options|Option|Init|Config|Error|Code|Stats|Progress|Player|Trainer|Session|Game|Worker|Events?)$/;

function conceptOf(name: string): string | undefined {
  if (NOT_A_SHAPE.test(name)) return undefined;
  return CONCEPTS.find(([, pattern]) => pattern.test(name))?.[0];
}

function main(): void {
  const t = tree(argv[0]);
  try {
    const { root } = t;
    const sources = files(root, 'src', ['.ts']);
    const asm = files(root, 'assembly', ['.ts']);
    const options = ts.parseJsonConfigFileContent(
      ts.readConfigFile(join(root, 'tsconfig.json'), ts.sys.readFile).config,
      ts.sys,
      root,
    ).options;
    const program = ts.createProgram(
      sources.map((f) => join(root, f)),
      { ...options, noEmit: true, types: [] },
    );
    const checker = program.getTypeChecker();
    const rel = (fileName: string) => relative(root, fileName);

    // Layout readers. A layout module is assembly/<kernel>/layout.ts, or a file of src/ made only of re-exports
    // of one (the older src/<ai>/layout.ts files).
    const fileOf = (spec: ts.Expression): string => {
      const moduleSymbol = checker.getSymbolAtLocation(spec);
      return moduleSymbol?.valueDeclaration ? rel(moduleSymbol.valueDeclaration.getSourceFile().fileName) : '';
    };
    const shims = new Set<string>();
    for (const file of sources) {
      const sf = program.getSourceFile(join(root, file));
      if (
        sf &&
        sf.statements.length > 0 &&
        sf.statements.every(
          (st) =>
            ts.isExportDeclaration(st) && st.moduleSpecifier !== undefined && LAYOUT.test(fileOf(st.moduleSpecifier)),
        )
      )
        shims.add(file);
    }
    const isLayoutModule = (file: string) => LAYOUT.test(file) || shims.has(file);
    const readers = new Map<string, { direct: boolean; layouts: Set<string>; names: Set<string> }>();
    for (const file of sources) {
      const sf = program.getSourceFile(join(root, file));
      if (!sf || shims.has(file)) continue;
      const reader = { direct: false, layouts: new Set<string>(), names: new Set<string>() };
      const note = (symbol: ts.Symbol | undefined) => {
        if (!symbol) return;
        const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
        for (const d of target.declarations ?? []) {
          const from = rel(d.getSourceFile().fileName);
          if (LAYOUT.test(from)) {
            reader.layouts.add(from);
            reader.names.add(target.name);
          }
        }
      };
      for (const statement of sf.statements) {
        const spec =
          ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement)
            ? statement.moduleSpecifier
            : undefined;
        if (!spec || !ts.isStringLiteral(spec)) continue;
        if (isLayoutModule(fileOf(spec))) reader.direct = true;
        const moduleSymbol = checker.getSymbolAtLocation(spec);
        if (ts.isImportDeclaration(statement)) {
          const clause = statement.importClause;
          if (clause?.name) note(checker.getSymbolAtLocation(clause.name));
          const bindings = clause?.namedBindings;
          if (bindings && ts.isNamedImports(bindings)) {
            for (const el of bindings.elements) note(checker.getSymbolAtLocation(el.name));
          } else if (bindings && ts.isNamespaceImport(bindings) && moduleSymbol) {
            for (const s of checker.getExportsOfModule(moduleSymbol)) note(s);
          }
        } else if (
          ts.isExportDeclaration(statement) &&
          statement.exportClause &&
          ts.isNamedExports(statement.exportClause)
        ) {
          for (const el of statement.exportClause.elements) note(checker.getExportSpecifierLocalTargetSymbol(el));
        } else if (moduleSymbol) {
          for (const s of checker.getExportsOfModule(moduleSymbol)) note(s);
        }
      }
      if (reader.direct || reader.layouts.size > 0) readers.set(file, reader);
    }
    const direct = [...readers].filter(([, r]) => r.direct).map(([f]) => f);
    const directOutside = direct.filter((f) => !f.startsWith('src/kernels/'));
    const outside = [...readers.keys()].filter((f) => !f.startsWith('src/kernels/'));

    // Exported move/board/rule types.
    const entries = entryPoints(root);
    const exported = new Map<string, { concept: string; kind: string; entries: string[]; declaredIn: string }>();
    for (const entry of entries) {
      const sf = program.getSourceFile(join(root, entry));
      const moduleSymbol = sf && checker.getSymbolAtLocation(sf);
      if (!moduleSymbol) continue;
      for (const s of checker.getExportsOfModule(moduleSymbol)) {
        const target = s.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(s) : s;
        const kind =
          target.flags & ts.SymbolFlags.Class
            ? 'class'
            : target.flags & ts.SymbolFlags.Interface
              ? 'interface'
              : target.flags & ts.SymbolFlags.TypeAlias
                ? 'type'
                : target.flags & ts.SymbolFlags.Enum
                  ? 'enum'
                  : undefined;
        const concept = conceptOf(s.name);
        if (!kind || !concept) continue;
        const seen = exported.get(s.name);
        if (seen) seen.entries.push(entry);
        else {
          const declaredIn = target.declarations?.[0] ? rel(target.declarations[0].getSourceFile().fileName) : '?';
          exported.set(s.name, { concept, kind, entries: [entry], declaredIn });
        }
      }
    }
    const byConcept = (c: string) =>
      [...exported]
        .filter(([, v]) => v.concept === c)
        .map(([name]) => name)
        .sort();

    // Cycles, sizes, docs.
    const cycles = importCycles(importGraph(root, sources));
    const largest = [...sources, ...asm]
      .map((file) => ({ file, lines: lineCount(root, file) }))
      .sort((a, b) => b.lines - a.lines || a.file.localeCompare(b.file))
      .slice(0, 10);
    const docs = files(root, 'docs', ['.md']).map((file) => ({
      file,
      lines: lineCount(root, file),
      bytes: statSync(join(root, file)).size,
    }));
    const docsOther = files(root, 'docs', ['']).filter((f) => !f.endsWith('.md'));
    const docsTotal = docs.reduce((s, d) => s + d.lines, 0);
    const docsBytes = docs.reduce((s, d) => s + d.bytes, 0);
    const srcLines = sources.reduce((s, f) => s + lineCount(root, f), 0);
    const asmLines = asm.reduce((s, f) => s + lineCount(root, f), 0);

    const summary = {
      'src/ files (.ts)': sources.length,
      'src/ lines': srcLines,
      'assembly/ files (.ts)': asm.length,
      'assembly/ lines': asmLines,
      'layout re-export modules (src/*/layout.ts)': shims.size,
      'files importing a layout module': direct.length,
      '… of them outside src/kernels/': directOutside.length,
      'files using a name defined in a layout': readers.size,
      '… of them outside src/kernels/ ': outside.length,
      'entry points': entries.length,
      'exported move types': byConcept('move').length,
      'exported board types': byConcept('board').length,
      'exported rule types': byConcept('rule').length,
      'import cycles in src/': cycles.length,
      'files in import cycles': cycles.reduce((s, c) => s + c.length, 0),
      'docs/ pages (.md)': docs.length,
      'docs/ lines (.md)': docsTotal,
      'docs/ bytes (.md)': docsBytes,
      'docs/ other files (images, plots)': docsOther.length,
    };
    console.log(`Architecture counts of ${t.label}${t.commit ? ` (commit ${t.commit})` : ` (${root})`}\n`);
    printTable(Object.entries(summary).map(([figure, value]) => ({ figure, value })));
    console.log(`\nEntry points: ${entries.join(', ')}`);
    for (const c of ['move', 'board', 'rule']) console.log(`Exported ${c} types: ${byConcept(c).join(', ') || '-'}`);
    console.log(`\nLayout re-export modules: ${[...shims].join(', ') || '-'}`);
    console.log('\nFiles using a kernel layout (imports: a layout module itself, or names traced to one):');
    printTable(
      [...readers].map(([file, r]) => ({
        file,
        imports: r.direct ? 'layout' : 'names',
        layouts: [...r.layouts].map((l) => l.replace(/^assembly\/|\/layout\.ts$/g, '')).join(', '),
        names: r.names.size <= 3 ? [...r.names].sort().join(' ') : `${r.names.size} names`,
      })),
    );
    console.log('\nImport cycles:');
    if (cycles.length === 0) console.log('none');
    for (const c of cycles) console.log(`- ${c.join(' ↔ ')}`);
    console.log('\nLargest files (src/, assembly/):');
    printTable(largest.map((l) => ({ file: l.file, lines: l.lines })));
    console.log('\ndocs/ pages:');
    printTable([...docs, { file: 'total', lines: docsTotal, bytes: docsBytes }]);

    const path = writeResults(`architecture-counts-${t.label}`, {
      label: t.label,
      commit: t.commit,
      summary,
      entryPoints: entries,
      exportedTypes: Object.fromEntries([...exported].sort(([a], [b]) => a.localeCompare(b))),
      layoutModules: [...shims],
      layoutReaders: Object.fromEntries(
        [...readers].map(([f, r]) => [
          f,
          { importsLayoutModule: r.direct, layouts: [...r.layouts], names: [...r.names].sort() },
        ]),
      ),
      importCycles: cycles,
      largestFiles: largest,
      docs,
      docsOther,
    });
    console.log(`\nwrote ${relative(process.cwd(), path)}`);
  } finally {
    t.cleanup();
  }
}

main();
