/**
 * Rules of the source tree (issue 25, docs/architecture.md) that no compiler checks: no module
 * imports itself back through others, type-only imports included (a cycle of types is still two
 * files that cannot be understood apart); only the store's MongoDB folder (the segment store's
 * MongoDB implementation included) and the bench's baseline designs import the driver and open
 * collections (issue 35); no test reaches into another package's source (issue 35): it tests
 * what that package exports, through its exports map, or it lives in that package; and the level
 * names are spelt out in at most two source files (issue 35): everything else takes them from
 * the table of levels.
 */
import { describe, expect, it } from '@jest/globals';
import { LEVELS } from '@tickertape/buckets';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const root = fileURLToPath(new URL('../../..', import.meta.url));

/** Every workspace package's directory (infra's tests included), with a trailing slash. */
function packageDirs(): string[] {
  const dirs = [join(root, 'infra/')];
  for (const group of ['packages', 'services', 'tools'])
    for (const name of readdirSync(join(root, group))) dirs.push(join(root, group, name, '/'));
  return dirs;
}

function tsFilesUnder(dir: string): string[] {
  const files: string[] = [];
  const walk = (at: string) => {
    let entries;
    try {
      entries = readdirSync(at, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const path = join(at, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== 'node_modules') walk(path);
      } else if (entry.name.endsWith('.ts')) files.push(path);
    }
  };
  walk(dir);
  return files;
}

/**
 * The only source that may speak the MongoDB driver's language: folders end with a slash, the
 * rest are files. Everything else asks `@tickertape/store` in our words.
 */
const DRIVER_OWNERS = [
  'packages/store/src/mongo/',
  // The bench's naive baselines (designs C–E and the raw-upsert probe) store ticks their own way,
  // outside our store, on purpose: they are what our store is measured against.
  'tools/bench/src/designs.ts',
  'tools/bench/src/design-databases.ts',
  'tools/bench/src/per-tick-api-main.ts',
  'tools/bench/src/read-load/per-tick-window.ts',
  'tools/bench/src/probe.ts',
];

const ownsDriver = (file: string): boolean =>
  DRIVER_OWNERS.some((owner) => (owner.endsWith('/') ? file.startsWith(owner) : file === owner));

/** Whether `text` imports the driver (statically, as a type, re-exported or dynamically). */
const importsDriver = (text: string): boolean =>
  [...text.matchAll(IMPORT_SPECIFIER)].some((match) => match[1] === 'mongodb');

function sourceFiles(): string[] {
  return packageDirs()
    .filter((dir) => dir !== join(root, 'infra/'))
    .flatMap((dir) => tsFilesUnder(join(dir, 'src')));
}

/** Every test file (and test helper) of every package, by the package it belongs to. */
function testFiles(): { dir: string; file: string }[] {
  return packageDirs().flatMap((dir) => [
    ...tsFilesUnder(join(dir, 'test')).map((file) => ({ dir, file })),
    ...tsFilesUnder(join(dir, 'src'))
      .filter((file) => file.endsWith('.test.ts'))
      .map((file) => ({ dir, file })),
  ]);
}

/** Static imports and re-exports, side-effect imports and dynamic `import()`s. */
const IMPORT_SPECIFIER =
  /(?:(?:import|export)\s[^;'"]*?from\s+|\bimport\s*\(\s*|^import\s+)['"]([^'"]+)['"]/gm;

/**
 * The imports of `file` (a test of the package in `dir`) that reach into another package's
 * source: a relative path out of `dir`, or `@tickertape/<name>/src…`.
 */
function foreignImports(dir: string, file: string, text: string): string[] {
  return [...text.matchAll(IMPORT_SPECIFIER)]
    .map((match) => match[1]!)
    .filter((specifier) =>
      specifier.startsWith('.')
        ? !normalize(join(dirname(file), specifier)).startsWith(dir)
        : /^@tickertape\/[^/]+\/src(\/|$)/.test(specifier),
    );
}

const RELATIVE_IMPORT = /(?:import|export)\s[^;'"]*?from\s+['"](\.{1,2}\/[^'"]+)['"]/g;

function importsOf(file: string): string[] {
  const targets: string[] = [];
  for (const match of readFileSync(file, 'utf8').matchAll(RELATIVE_IMPORT)) {
    const target = normalize(join(dirname(file), match[1]!));
    targets.push(target.endsWith('.js') ? `${target.slice(0, -3)}.ts` : target);
  }
  return targets;
}

/**
 * The level names a file spells out as string literals (`'minute'`, `"hour"`, `` `day` ``, in
 * values and in types alike); comments, prose inside longer strings and identifiers do not count.
 * Read through the compiler's parser, so a quote inside a comment or a regex fools nothing.
 */
function levelLiterals(file: string, text: string): string[] {
  const names: readonly string[] = LEVELS;
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (
      (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) &&
      names.includes(node.text)
    )
      found.push(node.text);
    ts.forEachChild(node, visit);
  };
  visit(ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS));
  return found;
}

/**
 * The source files allowed to spell out level names, and why: the table itself, and the fault
 * suite's schedules, which are data (which worker to scale or replay, when), not restated
 * structure. Partition spans ('day' in `PartitionSpan`) live in the table too.
 */
const LEVEL_NAME_OWNERS = ['packages/buckets/src/levels.ts', 'tools/faults/src/schedule.ts'];

/** Every cycle found by a depth-first walk, each as the files around it. */
function cycles(graph: Map<string, string[]>): string[][] {
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const found: string[][] = [];
  const visit = (file: string) => {
    state.set(file, 'open');
    path.push(file);
    for (const next of graph.get(file) ?? []) {
      if (state.get(next) === 'open') found.push([...path.slice(path.indexOf(next)), next]);
      else if (!state.has(next)) visit(next);
    }
    path.pop();
    state.set(file, 'done');
  };
  for (const file of graph.keys()) if (!state.has(file)) visit(file);
  return found;
}

describe('the source tree', () => {
  const files = sourceFiles();

  it('has no import cycle', () => {
    expect(files.length).toBeGreaterThan(100);
    const graph = new Map(files.map((file) => [file, importsOf(file)]));
    expect(cycles(graph).map((cycle) => cycle.map((f) => relative(root, f)).join(' -> '))).toEqual(
      [],
    );
  });

  it("imports the driver and opens collections only in the store's MongoDB folder and the bench's designs", () => {
    const speaking = files
      .map((file) => relative(root, file))
      .filter((file) => !ownsDriver(file))
      .filter((file) => {
        const text = readFileSync(join(root, file), 'utf8');
        return importsDriver(text) || /\.collection\s*[<(]/.test(text);
      });
    expect(speaking).toEqual([]);
    // Every owner listed is still there: a file moved away must leave the list too.
    for (const owner of DRIVER_OWNERS)
      expect(files.some((file) => relative(root, file).startsWith(owner))).toBe(true);
  });

  it("has no test importing another package's source", () => {
    const tests = testFiles();
    expect(tests.length).toBeGreaterThan(100);
    const reaching = tests.flatMap(({ dir, file }) =>
      foreignImports(dir, file, readFileSync(file, 'utf8')).map(
        (specifier) => `${relative(root, file)}: ${specifier}`,
      ),
    );
    expect(reaching).toEqual([]);
  });

  it('spells out the level names in at most two source files', () => {
    const spelling = files
      .map((file) => relative(root, file))
      .filter((file) => levelLiterals(file, readFileSync(join(root, file), 'utf8')).length > 0);
    expect(LEVEL_NAME_OWNERS.length).toBeLessThanOrEqual(2);
    expect(spelling.filter((file) => !LEVEL_NAME_OWNERS.includes(file))).toEqual([]);
  });

  it('finds a cycle and an opened collection when there is one (the checks can fail)', () => {
    expect(
      cycles(
        new Map([
          ['a', ['b']],
          ['b', ['a']],
          ['c', []],
        ]),
      ),
    ).toEqual([['a', 'b', 'a']]);
    // Built at run time, so this file's own text spells no level name.
    const [finest, next, coarsest] = LEVELS;
    expect(
      levelLiterals(
        'sample.ts',
        [
          `const a = '${finest}';`,
          `type B = Exclude<Level, "${next}">;`,
          `const c = \`${coarsest}\`;`,
          `// the ${finest} level, '${next}' in a comment`,
          `const d = 'the ${finest}s of ${next} buckets'; const ${finest}Ms = 1;`,
        ].join('\n'),
      ),
    ).toEqual([finest, next, coarsest]);
    expect(/\.collection\s*[<(]/.test("db.collection<Bucket>('x')")).toBe(true);
    const driver = "'mongodb'";
    expect(importsDriver(`import type { Db } from ${driver};`)).toBe(true);
    expect(importsDriver(`const { MongoClient } = await import(${driver});`)).toBe(true);
    expect(importsDriver(`import { x } from '@tickertape/store';`)).toBe(false);
    expect(ownsDriver('packages/store/src/mongo/client.ts')).toBe(true);
    expect(ownsDriver('packages/store/src/layout/update.ts')).toBe(false);
    expect(ownsDriver('tools/bench/src/storage.ts')).toBe(false);
    // Quoted at run time, so this file's own text holds no such import.
    const q = (specifier: string) => `'${specifier}'`;
    const cli = join(root, 'services/cli/');
    const test = join(cli, 'test/unit/backfill.test.ts');
    expect(
      foreignImports(
        cli,
        test,
        [
          `import { parseSchedulerEnv } from ${q('../../../scheduler/src/env.js')};`,
          `import type { Db } from ${q('@tickertape/store/src/db.js')};`,
          `const { run } = await import(${q('../../../rollup-worker/src/main.js')});`,
          `import ${q('../../../api/src/side-effect.js')};`,
          `import { retentionArgument } from ${q('../../src/store-arguments.js')};`,
          `import { waitFor } from ${q('@tickertape/testing')};`,
        ].join('\n'),
      ),
    ).toEqual([
      '../../../scheduler/src/env.js',
      '@tickertape/store/src/db.js',
      '../../../rollup-worker/src/main.js',
      '../../../api/src/side-effect.js',
    ]);
  });
});
