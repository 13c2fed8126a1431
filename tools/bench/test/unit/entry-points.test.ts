import { describe, expect, it } from '@jest/globals';
import { serviceEntry } from '@tickertape/testing';
import { existsSync } from 'node:fs';
import { relative } from 'node:path';

// The harness runs the workers from dist/ (bash scripts/bench.sh) or from source (the smoke test,
// where nothing is built), and the API from dist/: both through the packages' "./main".
describe('the services the benchmark starts', () => {
  it.each(['@tickertape/rollup-worker', '@tickertape/api'])(
    '%s exports its entry point from source and from dist/',
    (service) => {
      const source = serviceEntry(service, 'source', import.meta.url);
      expect(existsSync(source.file)).toBe(true);
      expect(relative(source.dir, source.file)).toBe('src/main.ts');
      const built = serviceEntry(service, 'dist', import.meta.url);
      expect(relative(built.dir, built.file)).toBe('dist/main.js');
      expect(built.args).toEqual([built.file]);
    },
  );
});
