import { createRequire } from 'node:module';
import { z } from 'zod';

/**
 * The CLI's version, from its package.json: read at run time, because the build's rootDir is
 * `src` and a JSON import would pull the manifest into it. `../package.json` holds from `src/`
 * (tsx, tests) and from `dist/` (the built binary) alike.
 */
export function cliVersion(): string {
  const manifest: unknown = createRequire(import.meta.url)('../package.json');
  return z.object({ version: z.string() }).parse(manifest).version;
}
