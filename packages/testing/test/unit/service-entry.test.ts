import { describe, expect, it } from '@jest/globals';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { serviceEntry } from '../../src/index.js';

/** A caller's package depending on `@example/svc` (and on `@example/lib`, which has no main). */
function workspace(): { caller: URL; svc: string; cleanup: () => void } {
  const root = mkdtempSync(join(tmpdir(), 'service-entry-'));
  const svc = join(root, 'node_modules/@example/svc');
  mkdirSync(svc, { recursive: true });
  writeFileSync(
    join(svc, 'package.json'),
    JSON.stringify({
      name: '@example/svc',
      exports: {
        './package.json': './package.json',
        './main': { source: './src/main.ts', default: './dist/main.js' },
      },
    }),
  );
  const lib = join(root, 'node_modules/@example/lib');
  mkdirSync(lib, { recursive: true });
  writeFileSync(
    join(lib, 'package.json'),
    JSON.stringify({ name: '@example/lib', exports: { './package.json': './package.json' } }),
  );
  return {
    caller: pathToFileURL(join(root, 'src/caller.js')),
    svc,
    cleanup: () => rmSync(root, { recursive: true, force: true }),
  };
}

describe('serviceEntry', () => {
  it("runs the exports map's source entry through tsx, in the service's directory", () => {
    const { caller, svc, cleanup } = workspace();
    try {
      expect(serviceEntry('@example/svc', 'source', caller)).toEqual({
        dir: svc,
        file: join(svc, 'src/main.ts'),
        args: ['--import', 'tsx', '--conditions=source', join(svc, 'src/main.ts')],
      });
    } finally {
      cleanup();
    }
  });

  it('runs the default entry (dist/) with node alone, built or not yet', () => {
    const { caller, svc, cleanup } = workspace();
    try {
      expect(serviceEntry('@example/svc', 'dist', caller)).toEqual({
        dir: svc,
        file: join(svc, 'dist/main.js'),
        args: [join(svc, 'dist/main.js')],
      });
    } finally {
      cleanup();
    }
  });

  it('refuses a package without a "./main" entry, and one the caller cannot resolve', () => {
    const { caller, cleanup } = workspace();
    try {
      expect(() => serviceEntry('@example/lib', 'dist', caller)).toThrow(
        expect.objectContaining({ code: 'SERVICE_ENTRY_MISSING', retriable: false }),
      );
      expect(() => serviceEntry('@example/absent', 'dist', caller)).toThrow(/@example\/absent/);
    } finally {
      cleanup();
    }
  });
});
