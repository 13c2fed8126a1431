import { describe, expect, it } from '@jest/globals';
import { addToBins, rollUp, type SketchBins } from '@tickertape/buckets';
import { createMemoryStore } from '@tickertape/store';
import { expectedFromFiner } from '@tickertape/verify';
import { planPartitions, type RebuildOptions } from '../../src/rebuild/plan.js';
import {
  checkAligned,
  checkFinal,
  checkSource,
  checkTopicHolds,
  defaultSource,
  WATERMARK_HINT,
} from '../../src/rebuild/range-checks.js';

const at = (iso: string) => Date.parse(iso);
const refusal = (work: () => void) => {
  try {
    work();
  } catch (err) {
    return { code: (err as { code: string }).code, message: (err as Error).message };
  }
  return undefined;
};

describe('rebuild range checks', () => {
  it.each([
    ['minute', 'topic'],
    ['hour', 'minute'],
    ['day', 'hour'],
  ] as const)('%s is rebuilt from %s by default', (level, source) => {
    expect(defaultSource(level)).toBe(source);
    expect(refusal(() => checkSource(level, source))).toBeUndefined();
    expect(refusal(() => checkSource(level, 'topic'))).toBeUndefined();
  });

  it.each([
    ['minute', 'hour', 'use --source topic'],
    ['hour', 'day', 'use --source minute or --source topic'],
    ['day', 'minute', 'use --source hour or --source topic'],
    ['hour', 'hour', 'use --source minute or --source topic'],
  ] as const)('refuses %s from %s', (level, source, hint) => {
    expect(refusal(() => checkSource(level, source))).toEqual({
      code: 'REBUILD_BAD_SOURCE',
      message: `${level} buckets cannot be rebuilt from ${source} buckets: ${hint}`,
    });
  });

  it.each([
    ['hour', '2026-11-21T10:00:00Z', '2026-11-21T13:00:00Z', undefined],
    ['minute', '2026-11-21T10:07:00Z', '2026-11-21T10:08:00Z', undefined],
    ['day', '2026-11-01T00:00:00Z', '2026-12-01T00:00:00Z', undefined],
    [
      'hour',
      '2026-11-21T10:30:00Z',
      '2026-11-21T13:00:00Z',
      '--from 2026-11-21T10:30:00Z is not on an hour boundary: the nearest are 2026-11-21T10:00:00Z and 2026-11-21T11:00:00Z',
    ],
    [
      'minute',
      '2026-11-21T10:00:00Z',
      '2026-11-21T10:00:30.500Z',
      '--to 2026-11-21T10:00:30.500Z is not on a minute boundary: the nearest are 2026-11-21T10:00:00Z and 2026-11-21T10:01:00Z',
    ],
    [
      'day',
      '2026-11-21T00:00:00Z',
      '2026-11-21T00:00:00Z',
      '--to 2026-11-21T00:00:00Z is not after --from 2026-11-21T00:00:00Z: the range holds no day slot',
    ],
  ] as const)('%s from %s to %s', (level, from, to, message) => {
    const found = refusal(() => checkAligned(level, at(from), at(to)));
    expect(found).toEqual(
      message === undefined ? undefined : { code: 'REBUILD_MISALIGNED', message },
    );
  });

  const marks = { minute: at('2026-11-21T12:05:00Z'), hour: at('2026-11-21T11:00:00Z') };
  it.each([
    ['hour', 'minute', '2026-11-21T11:00:00Z', marks, undefined],
    ['hour', 'topic', '2026-11-21T11:00:00Z', marks, undefined],
    ['minute', 'topic', '2026-11-21T12:05:00Z', marks, undefined],
    [
      'hour',
      'minute',
      '2026-11-21T12:00:00Z',
      marks,
      '--to 2026-11-21T12:00:00Z is past the hour watermark (finalBefore 2026-11-21T11:00:00Z): only final slots can be rebuilt, end the range at 2026-11-21T11:00:00Z or earlier',
    ],
    [
      'hour',
      'minute',
      '2026-11-21T11:00:00Z',
      { minute: at('2026-11-21T10:59:00Z'), hour: marks.hour },
      '--to 2026-11-21T11:00:00Z is past the minute watermark (finalBefore 2026-11-21T10:59:00Z): only final slots can be rebuilt, end the range at 2026-11-21T10:59:00Z or earlier',
    ],
    [
      'day',
      'topic',
      '2026-11-21T00:00:00Z',
      marks,
      `no day slot is final yet (the rebuilt level has no watermark): only final slots can be rebuilt. ${WATERMARK_HINT}`,
    ],
    [
      'day',
      'hour',
      '2026-11-21T00:00:00Z',
      { day: at('2026-11-21T00:00:00Z') },
      `no hour slot is final yet (the source level has no watermark): only final slots can be rebuilt. ${WATERMARK_HINT}`,
    ],
  ] as const)('%s from %s up to %s', (level, source, to, watermarks, message) => {
    const found = refusal(() => checkFinal(level, source, at(to), watermarks));
    expect(found).toEqual(
      message === undefined ? undefined : { code: 'REBUILD_NOT_FINAL', message },
    );
  });

  it.each([
    ['never truncated', [{ partition: 0, low: 0n, atOrAfter: 12n }], undefined],
    [
      'first record before from − max future',
      [{ partition: 0, low: 40n, atOrAfter: 41n }],
      undefined,
    ],
    ['empty, never written', [{ partition: 0, low: 0n, atOrAfter: 0n }], undefined],
    [
      'first retained record at or after from − max future',
      [
        { partition: 0, low: 0n, atOrAfter: 5n },
        { partition: 1, low: 40n, atOrAfter: 40n },
      ],
      'partition 1 (first offset 40) starts',
    ],
    [
      'truncated to empty',
      [
        { partition: 2, low: 9n, atOrAfter: 9n },
        { partition: 3, low: 7n, atOrAfter: 7n },
      ],
      'partitions 2 (first offset 9), 3 (first offset 7) start',
    ],
  ])('a topic %s', (_what, partitions, lost) => {
    const found = refusal(() =>
      checkTopicHolds('ticks', at('2026-11-21T10:00:00Z'), 300_000, partitions),
    );
    if (lost === undefined) expect(found).toBeUndefined();
    else {
      expect(found?.code).toBe('REBUILD_TOPIC_TRUNCATED');
      expect(found?.message).toContain(
        `ticks no longer holds every record that may carry a tick from 2026-11-21T10:00:00Z: ${lost} at or after 2026-11-21T09:55:00Z`,
      );
    }
  });
});

describe('expectedFromFiner', () => {
  const mark = (iso: string, o: number, v: number) => ({ t: at(iso), o, v });
  const minute = (
    iso: string,
    n: number,
    price: ReturnType<typeof mark>[],
    ap: Record<string, number>,
  ) => ({
    _id: `px:${iso}`,
    series: 'px',
    metric: 'px',
    tags: {},
    level: 'minute',
    start: new Date(iso),
    n,
    f:
      price.length === 0
        ? {
            price: {
              n: 0,
              sum: 0,
              min: Infinity,
              max: -Infinity,
              first: { t: Infinity },
              last: { t: -Infinity },
            },
          }
        : {
            price: {
              n: price.length,
              sum: price.reduce((a, m) => a + m.v, 0),
              min: Math.min(...price.map((m) => m.v)),
              max: Math.max(...price.map((m) => m.v)),
              first: price[0],
              last: price[price.length - 1],
            },
          },
    s: { venue: { first: { ...price[0], v: 'A' }, last: { ...price[price.length - 1], v: 'B' } } },
    ap,
  });

  it('expects, the plain way, what rollUp makes: the same hour bucket', () => {
    const group = [
      minute('2026-11-21T10:59:00Z', 1, [mark('2026-11-21T10:59:01Z', 9, 4)], { '1': 9 }),
      minute(
        '2026-11-21T10:00:00Z',
        2,
        [mark('2026-11-21T10:00:05Z', 3, 7), mark('2026-11-21T10:00:50Z', 2, -1)],
        { '0': 3, '1': 2 },
      ),
    ];
    const { _id: _ignored, ...rolled } = rollUp('hour', group).get('px:2026112110')!;
    expect(expectedFromFiner('hour', group)).toEqual(rolled);
  });

  it('expects nothing of shells', () => {
    const shell = { ...minute('2026-11-21T10:00:00Z', 0, [], {}), s: undefined };
    expect(expectedFromFiner('hour', [shell])).toBeUndefined();
  });
});

describe('rebuilds and the per-metric policy', () => {
  const options = (level: 'hour' | 'day', source: 'minute' | 'hour'): RebuildOptions => ({
    level,
    source,
    fromMs: at('2026-11-21T00:00:00Z'),
    toMs: at('2026-11-22T00:00:00Z'),
    topic: 'ticks',
    maxLatenessMs: 0,
    maxFutureMs: 0,
    timeoutMs: 1_000,
    dryRun: true,
  });

  it('refuses to roll compact hours of a sketched metric up into days (they keep no sketch)', async () => {
    const store = createMemoryStore();
    await store.changeLevelPolicy('hour', ['px'], 'compact', 0);
    await expect(planPartitions(store, options('day', 'hour'), [])).resolves.toEqual([]);
    await store.changeMetricPolicy({ kind: 'sketch', metrics: ['px'], on: true }, 0);
    await expect(planPartitions(store, options('day', 'hour'), [])).rejects.toThrow(
      'the hour level keeps px compact, without the sketches (level policy) day keeps: use --source topic',
    );
  });

  it('rolls up the spread, weighted sums and sketches as the checker expects them', () => {
    const bins = (...values: number[]) => {
      const q: SketchBins = {};
      for (const v of values) addToBins(q, v);
      return q;
    };
    const minute = (iso: string, values: [number, number][]) => ({
      _id: `px:${iso}`,
      series: 'px',
      metric: 'px',
      tags: {},
      level: 'minute',
      start: new Date(iso),
      n: values.length,
      f: {
        price: {
          n: values.length,
          sum: values.reduce((a, [v]) => a + v, 0),
          min: Math.min(...values.map(([v]) => v)),
          max: Math.max(...values.map(([v]) => v)),
          first: { t: at(iso), o: 0, v: values[0]![0] },
          last: { t: at(iso) + 1, o: 1, v: values[values.length - 1]![0] },
          sq: values.reduce((a, [v]) => a + v * v, 0),
          xw: values.reduce((a, [v, w]) => a + v * w, 0),
          w: values.reduce((a, [, w]) => a + w, 0),
          q: bins(...values.map(([v]) => v)),
        },
      },
      ap: { '0': 1 },
    });
    const minutes = [
      minute('2026-11-21T10:00:00Z', [
        [4, 2],
        [-1, 3],
      ]),
      minute('2026-11-21T10:07:00Z', [[0.5, 1]]),
    ];
    const { _id: _hour, ...hour } = rollUp('hour', minutes).get('px:2026112110')!;
    expect(expectedFromFiner('hour', minutes)).toEqual(hour);
    expect((hour.f as Record<string, Record<string, unknown>>).price).toMatchObject({
      sq: 17.25,
      xw: 5.5,
      w: 6,
      m: { '0': { q: bins(4, -1) }, '7': { q: bins(0.5) } },
    });
    const hours = [{ _id: 'px:2026112110', ...hour }];
    const { _id: _day, ...day } = rollUp('day', hours).get('px:20261121')!;
    expect(expectedFromFiner('day', hours)).toEqual(day);
    const price = (day.f as Record<string, Record<string, unknown>>).price!;
    expect(price.q).toBeUndefined();
    expect(price.h).toMatchObject({ '10': { sq: 17.25, xw: 5.5, w: 6, q: bins(4, -1, 0.5) } });
  });
});
