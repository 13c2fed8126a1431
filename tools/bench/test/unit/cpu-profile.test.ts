import { describe, expect, it } from '@jest/globals';
import { readFile } from 'node:fs/promises';
import {
  busyMs,
  categorize,
  CPU_CATEGORIES,
  isRuntime,
  shortWhere,
  summarizeProfile,
  type CpuProfile,
} from '../../src/cpu-profile.js';

// Ten 1 ms samples: idle, BSON, a native function BSON called, kafkajs, zlib called by its
// decompression, fold, series key, GC, node's events at the root, idle.
// A .cpuprofile by content; named .json because the repository ignores *.cpuprofile.
const FIXTURE = new URL('../fixtures/worker-cpuprofile.json', import.meta.url);
const load = async () => JSON.parse(await readFile(FIXTURE, 'utf8')) as CpuProfile;

const ms = (summary: ReturnType<typeof summarizeProfile>) =>
  Object.fromEntries(
    summary.categories.filter((c) => c.selfMs > 0).map((c) => [c.category, c.selfMs]),
  );

describe('summarizeProfile', () => {
  it('sums self time per category, each sample lasting until the next', async () => {
    const summary = summarizeProfile(await load());
    expect(summary.sampledMs).toBe(10);
    expect(ms(summary)).toEqual({
      idle: 2,
      GC: 1,
      'Kafka decompression': 1,
      'Kafka client': 1,
      fold: 1,
      'series key': 1,
      'BSON encoding/decoding': 2,
      'node internals/other': 1,
    });
    expect(summary.categories.map((c) => c.category)).toEqual(
      CPU_CATEGORIES.map((r) => r.category),
    );
    expect(busyMs(summary)).toBe(8);
    expect(summary.top).toContainEqual({
      functionName: 'utf8Slice',
      where: '',
      category: 'BSON encoding/decoding',
      selfMs: 1,
    });
    expect(summary.top).toContainEqual({
      functionName: 'inflateSync',
      where: 'node:zlib',
      category: 'Kafka decompression',
      selfMs: 1,
    });
    expect(summary.top.map((f) => f.functionName)).not.toContain('(idle)');
  });

  it('keeps only the samples taken inside the window', async () => {
    const summary = summarizeProfile(await load(), { fromUs: 1_002_000, toUs: 1_006_000 });
    expect(summary.sampledMs).toBe(4);
    expect(ms(summary)).toEqual({
      'BSON encoding/decoding': 1,
      'Kafka client': 1,
      'Kafka decompression': 1,
      fold: 1,
    });
  });
});

describe('categorize', () => {
  const at = (url: string, functionName = 'f') => categorize({ url, functionName });
  it('sorts our packages by file, from dist/ or src/', () => {
    expect(at('file:///r/node_modules/.pnpm/avsc@5.7.9/node_modules/avsc/lib/types.js')).toBe(
      'Avro decode',
    );
    expect(at('file:///r/packages/tick/dist/wire-frame.js')).toBe('Avro decode');
    expect(at('file:///r/packages/tick/src/validate.ts')).toBe('tick validation');
    expect(at('file:///r/packages/tick/dist/series-key-cache.js')).toBe('series key');
    expect(at('file:///r/packages/buckets/dist/marks.js')).toBe('fold');
    expect(at('file:///r/packages/buckets/dist/update.js')).toBe('update building');
    expect(at('file:///r/packages/store/dist/rollup-writer.js')).toBe('update building');
    expect(at('file:///r/services/rollup-worker/dist/metrics.js')).toBe('metrics');
    expect(at('file:///r/services/rollup-worker/dist/rollup-consumer.js')).toBe(
      'other tickertape code',
    );
    expect(at('file:///r/packages/buckets/dist/time-verdict.js')).toBe('other tickertape code');
  });

  it('sorts dependencies by package, wherever pnpm put them', () => {
    const nm = 'file:///r/node_modules/.pnpm/x@1/node_modules/';
    expect(at(`${nm}mongodb/lib/cmap/connection.js`)).toBe('MongoDB driver other');
    expect(at(`${nm}prom-client/lib/counter.js`)).toBe('metrics');
    expect(at(`${nm}pino/lib/proto.js`)).toBe('logging');
    expect(at(`${nm}sonic-boom/index.js`)).toBe('logging');
    expect(at(`${nm}tsx/dist/esm/index.mjs`)).toBe('other dependencies');
    // A dependency's own packages/ folder is not ours.
    expect(at(`${nm}some-lib/packages/core/src/index.js`)).toBe('other dependencies');
  });

  it('names the runtime’s own functions, which count for their caller', () => {
    expect(isRuntime({ url: '', functionName: 'utf8Slice' })).toBe(true);
    expect(isRuntime({ url: '', functionName: 'readTick' })).toBe(true);
    expect(isRuntime({ url: 'node:buffer', functionName: 'subarray' })).toBe(true);
    expect(isRuntime({ url: '', functionName: '(garbage collector)' })).toBe(false);
    expect(isRuntime({ url: 'file:///r/packages/buckets/dist/fold.js', functionName: 'f' })).toBe(
      false,
    );
  });

  it('sorts the profiler’s pseudo-frames by name', () => {
    expect(at('', '(program)')).toBe('idle');
    expect(at('', '(garbage collector)')).toBe('GC');
    expect(at('', 'writev')).toBe('node internals/other');
    expect(at('node:internal/streams/writable', 'write')).toBe('node internals/other');
  });
});

describe('shortWhere', () => {
  it('names a script from its package on', () => {
    expect(shortWhere('file:///r/node_modules/.pnpm/bson@6/node_modules/bson/lib/bson.cjs')).toBe(
      'bson/lib/bson.cjs',
    );
    expect(shortWhere('file:///r/packages/buckets/dist/update.js')).toBe(
      'packages/buckets/dist/update.js',
    );
    expect(shortWhere('node:events')).toBe('node:events');
  });
});
