import { describe, expect, it } from '@jest/globals';
import { Writable } from 'node:stream';
import { pace, progressLine, startProgress } from '../../src/progress.js';

function sink(isTTY = false): { stream: Writable & { isTTY?: boolean }; text: () => string } {
  let text = '';
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      text += chunk.toString();
      done();
    },
  }) as Writable & { isTTY?: boolean };
  if (isTTY) stream.isTTY = true;
  return { stream, text: () => text };
}

describe('progress', () => {
  it('measures the rate over the whole run and the time the rest takes at it', () => {
    expect(pace(500, 2000, 1000)).toEqual({ rate: 500, etaMs: 3000 });
    expect(pace(0, 2000, 1000)).toEqual({ rate: 0, etaMs: undefined });
    expect(pace(0, 2000, 0)).toEqual({ rate: 0, etaMs: undefined });
  });

  it('writes a line with percentage, counts, rate and ETA', () => {
    expect(progressLine('backfill', 'ticks', 12_345, 40_000, 2_000)).toBe(
      'backfill: 30% (12,345/40,000 ticks), 6,173 ticks/s, ETA 4.5 s\n',
    );
    expect(progressLine('backfill', 'ticks', 0, 0, 0)).toBe(
      'backfill: 100% (0/0 ticks), 0 ticks/s, ETA unknown\n',
    );
  });

  it('off a terminal writes at most one line per interval', () => {
    let clock = 0;
    const out = sink();
    const progress = startProgress({
      total: 100,
      unit: 'ticks',
      label: 'backfill',
      stream: out.stream,
      everyMs: 1000,
      now: () => clock,
    });
    clock = 500;
    progress.update(10);
    expect(out.text()).toBe('');
    clock = 1000;
    progress.update(20);
    clock = 1500;
    progress.update(30);
    clock = 2000;
    progress.update(40);
    progress.stop();
    expect(out.text().trim().split('\n')).toEqual([
      'backfill: 20% (20/100 ticks), 20 ticks/s, ETA 4.0 s',
      'backfill: 40% (40/100 ticks), 20 ticks/s, ETA 3.0 s',
    ]);
  });

  it('off a terminal says where a run ended, once, when it stops before the interval', () => {
    let clock = 0;
    const out = sink();
    const progress = startProgress({
      total: 4,
      unit: 'stores',
      label: 'verify: comparing',
      stream: out.stream,
      now: () => clock,
    });
    clock = 1000;
    progress.update(4);
    progress.stop();
    progress.stop();
    expect(out.text()).toBe('verify: comparing: 100% (4/4 stores), 4 stores/s, ETA 0 ms\n');
  });

  it('draws nothing without a stream', () => {
    const progress = startProgress({ total: 10, unit: 'ticks' });
    progress.update(5);
    progress.stop();
  });

  it('draws a bar on a terminal and takes it away at the end', () => {
    const out = sink(true);
    const progress = startProgress({
      total: 10,
      unit: 'ticks',
      label: 'backfill',
      stream: out.stream,
    });
    progress.update(5);
    progress.stop();
    progress.stop();
    expect(out.text()).toContain('backfill');
    expect(out.text()).toContain('ticks/s');
  });
});
