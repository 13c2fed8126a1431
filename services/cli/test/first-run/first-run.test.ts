/**
 * README's first command as a newcomer meets it: scripts/first-run.sh runs scripts/demo.sh in a
 * fresh clone of HEAD with an empty HOME (cold corepack, npm, pnpm and Maven caches), its own
 * stack on free ports, and fails on a non-zero exit, a ground-truth difference or any
 * error-level line the demo prints or its processes log.
 */
import { describe, expect, it } from '@jest/globals';
import { runProcess } from '@tickertape/testing';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../../..', import.meta.url));

describe('first run on a fresh machine', () => {
  it('scripts/demo.sh passes first time with empty caches and HOME, and prints no error line', async () => {
    // The script builds its own environment for the demo (env -i); this one only starts it.
    const { code, stdout, stderr } = await runProcess('bash', ['scripts/first-run.sh'], {
      cwd: root,
      env: process.env,
    });
    expect({ code, output: stdout + stderr }).toEqual({
      code: 0,
      output: expect.stringContaining('[first-run] passed'),
    });
  }, 1_200_000);
});
