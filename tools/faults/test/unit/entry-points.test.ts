import { describe, expect, it } from '@jest/globals';
import { serviceEntry } from '@tickertape/testing';
import { existsSync } from 'node:fs';
import { basename } from 'node:path';

// The suite runs every process from source (scripts/faults.sh builds nothing): each service it
// starts must export a "./main" whose source entry is there.
describe('the services the fault suite starts', () => {
  it.each(['@tickertape/rollup-worker', '@tickertape/scheduler', '@tickertape/cli'])(
    '%s exports its source entry point',
    (service) => {
      const entry = serviceEntry(service, 'source', import.meta.url);
      expect(existsSync(entry.file)).toBe(true);
      expect(basename(entry.file)).toBe('main.ts');
      expect(entry.file.startsWith(entry.dir)).toBe(true);
    },
  );
});
