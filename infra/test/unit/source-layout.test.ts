/**
 * Rules of the source tree (issue 25, docs/architecture.md) that no compiler checks: no module
 * imports itself back through others, type-only imports included (a cycle of types is still two
 * files that cannot be understood apart), and only the store (the segment store's MongoDB
 * implementation included) and the bench's baseline designs open collections.
 */
import { describe, expect, it } from '@jest/globals';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../..', import.meta.url));

function sourceFiles(): string[] {
  const files: string[] = [];
  for (const group of ['packages', 'services'])
    for (const name of readdirSync(join(root, group))) {
      const walk = (dir: string) => {
        let entries;
        try {
          entries = readdirSync(dir, { withFileTypes: true });
        } catch {
          return;
        }
        for (const entry of entries) {
          const path = join(dir, entry.name);
          if (entry.isDirectory()) walk(path);
          else if (entry.name.endsWith('.ts')) files.push(path);
        }
      };
      walk(join(root, group, name, 'src'));
    }
  return files;
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

  it('opens collections only in the store and the bench', () => {
    const owners = ['packages/store/src/', 'services/bench/src/'];
    const opening = files
      .map((file) => relative(root, file))
      .filter((file) => !owners.some((owner) => file.startsWith(owner)))
      .filter((file) => /\.collection\s*[<(]/.test(readFileSync(join(root, file), 'utf8')));
    expect(opening).toEqual([]);
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
    expect(/\.collection\s*[<(]/.test("db.collection<Bucket>('x')")).toBe(true);
  });
});
