import { describe, expect, it } from '@jest/globals';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { capacityDocument } from '@tickertape/capacity';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

interface Pair {
  /** The JSON as the doc names it, relative to the repository root. */
  json: string;
  doc: string;
  /** The read load's JSON, when the doc has a read side. */
  reads?: string;
}

// The fixture pair always; the committed docs/benchmarks.json with docs/capacity.md as soon as
// the JSON is in the repository (the doc must then exist and match it).
const FIXTURE: Pair = {
  json: 'tools/bench/test/fixtures/benchmarks.json',
  doc: 'tools/bench/test/fixtures/capacity.md',
};
const REAL: Pair = {
  json: 'docs/benchmarks.json',
  doc: 'docs/capacity.md',
  ...(existsSync(join(ROOT, 'docs/benchmarks-reads.json'))
    ? { reads: 'docs/benchmarks-reads.json' }
    : {}),
};
const pairs = existsSync(join(ROOT, REAL.json)) ? [FIXTURE, REAL] : [FIXTURE];

describe('docs/capacity.md is generated, never edited by hand', () => {
  it.each(pairs)('$doc is what scripts/capacity.sh generates from $json', async (pair) => {
    const docPath = join(ROOT, pair.doc);
    const generated = await capacityDocument(readFileSync(join(ROOT, pair.json), 'utf8'), {
      source: pair.json,
      docPath,
      ...(pair.reads === undefined
        ? {}
        : { readsJsonText: readFileSync(join(ROOT, pair.reads), 'utf8'), readsSource: pair.reads }),
    });
    const committed = existsSync(docPath) ? readFileSync(docPath, 'utf8') : '(missing)';
    // On a difference: regenerate (bash scripts/capacity.sh, or for the fixture
    // `node tools/bench/dist/capacity-main.js <json> <doc>`) instead of editing the doc.
    expect(committed).toBe(generated);
  });
});
