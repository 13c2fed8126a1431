/**
 * README's first command as a newcomer meets it: scripts/first-run.sh runs scripts/demo.sh in a
 * fresh clone of HEAD with an empty HOME (cold corepack, npm, pnpm and Maven caches), its own
 * stack on free ports, and fails on a non-zero exit, a ground-truth difference or any
 * error-level line the demo prints or its processes log.
 */
import { describe, expect, it } from '@jest/globals';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../../..', import.meta.url));

describe('first run on a fresh machine', () => {
  it('scripts/demo.sh passes first time with empty caches and HOME, and prints no error line', async () => {
    const child = spawn('bash', ['scripts/first-run.sh'], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect({ code, output }).toEqual({
      code: 0,
      output: expect.stringContaining('[first-run] passed'),
    });
  }, 1_200_000);
});
