import { TickertapeError } from '@tickertape/errors';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, resolve } from 'node:path';
import { exports as resolveExports } from 'resolve.exports';

/** How a service runs: its built `dist/main.js`, or its source through the tsx loader. */
export type EntryMode = 'dist' | 'source';

/** What starts one service: `node <args…>` in `dir`. */
export interface ServiceEntry {
  /** The service's package directory: its working directory, where `--import tsx` resolves. */
  dir: string;
  /** The entry point's absolute path. */
  file: string;
  /** Node's arguments before the service's own: the loader for source, then `file`. */
  args: string[];
}

/**
 * A service's entry point as its package's exports map names it (`"./main"`: the `source`
 * condition for src/main.ts, `default` for dist/main.js), resolved from `from` (the caller's
 * `import.meta.url`, whose package must depend on `service`) — never a path into the service's
 * folder. The mode picks the condition, not the caller's own: a harness built to dist/ may still
 * run the services from source where nothing else is built.
 */
export function serviceEntry(service: string, mode: EntryMode, from: string | URL): ServiceEntry {
  const manifestPath = createRequire(from).resolve(`${service}/package.json`);
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Record<string, unknown>;
  let target: string | undefined;
  try {
    // `unsafe`: exactly the conditions given, not node's `import`/`node`, so `source` wins only
    // when asked for and `default` otherwise.
    [target] =
      resolveExports(manifest, './main', {
        unsafe: true,
        conditions: mode === 'source' ? ['source', 'default'] : ['default'],
      }) ?? [];
  } catch {
    target = undefined;
  }
  if (target === undefined)
    throw new TickertapeError(
      'SERVICE_ENTRY_MISSING',
      `${service} exports no "./main" entry point (${manifestPath})`,
      { retriable: false },
    );
  const dir = dirname(manifestPath);
  // Not require.resolve: an entry not built yet still has its path (the caller says so).
  const file = resolve(dir, target);
  return {
    dir,
    file,
    args: mode === 'source' ? ['--import', 'tsx', '--conditions=source', file] : [file],
  };
}
