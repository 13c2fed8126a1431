/**
 * Volume: the local database holds a partition of 200,000 buckets loaded through the workers'
 * write path, then answers a count, a filtered count, a full scan and an aggregation over it —
 * and stays up, under its memory bound. mongo-java-server as shipped collected every match of a
 * query into a list, so the first count of a 180,000-bucket partition killed it (1 GiB heap), and
 * its store was left pointing at a freed chunk (issue 23; infra/local/mongo/*.java). Runs in the
 * serial jest run: it loads the machine's two cores for a few minutes.
 *
 * The bound is the stand-in's: its heap (-Xmx) plus 512 MiB off the heap (docs/local-stack.md,
 * "Memory"); resident memory is sampled from /proc every 100 ms while the reads run.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { FoldInput } from '@tickertape/buckets';
import { readFileSync } from 'node:fs';
import type { Db } from 'mongodb';
import type { RollupStore } from '../../src/index.js';
import { StoreStack } from '../support/store-stack.js';

const SERIES = 2000;
const MINUTES = 100;
const BUCKETS = SERIES * MINUTES;
const DAY_START = Date.parse('2026-11-20T00:00:00Z');
const PARTITION = 'rollup_minute_20261120';
const OFF_HEAP_BYTES = 512 * 2 ** 20;

const stackDir =
  process.env.TT_STACK_DIR ?? new URL('../../../../.stack', import.meta.url).pathname;

/** The stand-in's pid and its -Xmx in bytes, from the stack's pid file and the process's command line. */
function standIn(): { pid: number; heapBytes: number } {
  const pid = Number(readFileSync(`${stackDir}/run/mongo.pid`, 'utf8').trim());
  const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
  const xmx = args.find((arg) => arg.startsWith('-Xmx'));
  const match = /^-Xmx(\d+)([mMgG])$/.exec(xmx ?? '');
  if (!match) throw new Error(`no -Xmx<n>m|g in the stand-in's command line: ${args.join(' ')}`);
  const unit = match[2]!.toLowerCase() === 'g' ? 2 ** 30 : 2 ** 20;
  return { pid, heapBytes: Number(match[1]) * unit };
}

function residentBytes(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = /^VmRSS:\s+(\d+) kB$/m.exec(status);
  if (!kb) throw new Error(`no VmRSS in /proc/${pid}/status`);
  return Number(kb[1]) * 1024;
}

/** Runs `work` while sampling the process's resident memory; returns its result and the peak. */
async function sampled<T>(
  pid: number,
  work: () => Promise<T>,
): Promise<{ result: T; peak: number }> {
  let peak = residentBytes(pid);
  const timer = setInterval(() => (peak = Math.max(peak, residentBytes(pid))), 100);
  try {
    const result = await work();
    return { result, peak: Math.max(peak, residentBytes(pid)) };
  } finally {
    clearInterval(timer);
  }
}

describe('the local database with 200,000 buckets in one partition', () => {
  let stack: StoreStack;
  let store: RollupStore;
  let db: Db;
  let server: { pid: number; heapBytes: number };

  beforeAll(async () => {
    stack = await StoreStack.open('volume');
    ({ store, db } = await stack.fresh());
    server = standIn();
    const writer = store.writer('minute');
    let offset = 0;
    let batch: FoldInput[] = [];
    for (let minute = 0; minute < MINUTES; minute++) {
      for (let s = 0; s < SERIES; s++) {
        const sensor = `s${String(s).padStart(5, '0')}`;
        batch.push({
          seriesKey: `traffic|sensor=${sensor}`,
          metric: 'traffic',
          tags: { sensor },
          ts: DAY_START + minute * 60_000 + (s % 60) * 1000,
          fields: { speed: (s + minute) % 70, travel_time: (s * minute) % 90 },
          strings: {},
          kafkaPartition: 0,
          offset: offset++,
        });
        if (batch.length === 5000) {
          await writer.apply(batch);
          batch = [];
        }
      }
    }
    if (batch.length > 0) await writer.apply(batch);
  }, 900_000);
  afterAll(() => stack.close(), 300_000);

  it('counts, scans and aggregates them within its memory bound, and stays up', async () => {
    const partition = db.collection<{ _id: string; n: number }>(PARTITION);
    const { result, peak } = await sampled(server.pid, async () => {
      const counted = await partition.countDocuments();
      const filtered = await partition.countDocuments({ n: { $gt: 0 } });
      let scanned = 0;
      let ticks = 0;
      for await (const bucket of partition.find({})) {
        scanned++;
        ticks += bucket.n;
      }
      const [grouped] = await partition
        .aggregate<{ buckets: number; ticks: number }>([
          { $match: { n: { $gt: 0 } } },
          { $group: { _id: null, buckets: { $sum: 1 }, ticks: { $sum: '$n' } } },
        ])
        .toArray();
      return { counted, filtered, scanned, ticks, grouped };
    });
    expect(result).toEqual({
      counted: BUCKETS,
      filtered: BUCKETS,
      scanned: BUCKETS,
      ticks: BUCKETS,
      grouped: { _id: null, buckets: BUCKETS, ticks: BUCKETS },
    });
    expect(peak).toBeLessThan(server.heapBytes + OFF_HEAP_BYTES);
    // Still the same process: it did not die and get restarted under the test.
    expect(standIn().pid).toBe(server.pid);
    expect(residentBytes(server.pid)).toBeGreaterThan(0);
  }, 600_000);
});
