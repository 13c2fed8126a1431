/**
 * The window by metric finds its series in the buckets it sums, each piece cut at `limit + 1`
 * series. Whatever series each hour holds, the rows must be the listed window's rows for the
 * first `limit` series with data in those hours, and the read must stay within
 * pieces × (limit + 1) documents.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { LEVELS, type FoldInput } from '@tickertape/buckets';
import { seriesKey } from '@tickertape/tick';
import { QueryErrorCode, RollupReader } from '../../src/index.js';
import { random } from './ticks.js';
import type { OpenedStore } from './opened-store.js';

const at = (iso: string) => Date.parse(iso);
const HOURS = [at('2026-11-20T10:00:00Z'), at('2026-11-20T11:00:00Z')] as const;
const FROM = at('2026-11-20T10:50:00Z');
const TO = at('2026-11-20T11:10:00Z');
const NOW = at('2026-11-20T12:00:00Z');
const SERIES = 16;
const PRESENCE: readonly [boolean, boolean][] = [
  [true, false],
  [true, true],
  [false, true],
  [false, false],
];

interface Probe {
  key: string;
  tags: Record<string, string>;
  /** Whether it has ticks in hour 10, and in hour 11. */
  inHour: [boolean, boolean];
}

/** Series that each hold ticks in hour 10 only, 11 only, both or neither, some outside the window. */
function probes(): { probes: Probe[]; ticks: FoldInput[] } {
  const next = random(20261120);
  const list: Probe[] = [];
  const ticks: FoldInput[] = [];
  let offset = 0;
  for (let i = 0; i < SERIES; i++) {
    const tags = { probe: `p${String(i).padStart(2, '0')}`, parity: i % 2 === 0 ? 'even' : 'odd' };
    // Hour 10 only, both, hour 11 only, neither: neighbours by key differ in where they have data.
    const inHour = PRESENCE[i % PRESENCE.length]!;
    const key = seriesKey('probe', tags);
    list.push({ key, tags, inHour });
    HOURS.forEach((hour, h) => {
      if (!inHour[h]) return;
      // Early in hour 10 and late in hour 11 lie outside the window: their series still count.
      for (let ts = hour + next(60_000); ts < hour + 3_600_000; ts += 60_000 + next(600_000))
        ticks.push({
          seriesKey: key,
          metric: 'probe',
          tags,
          ts,
          fields: { v: next(100) },
          strings: {},
          kafkaPartition: 0,
          offset: offset++,
        });
    });
  }
  return { probes: list, ticks };
}

/** RollupReader.windowByMetric: the same tests on every store. */
export function describeWindowByMetric(name: string, open: () => Promise<OpenedStore>): void {
  describe(`${name}: RollupReader.windowByMetric`, () => {
    let opened: OpenedStore;
    let reader: RollupReader;
    const data = probes();
    const withData = (keep: (p: Probe) => boolean) =>
      data.probes
        .filter((p) => p.inHour.some(Boolean) && keep(p))
        .map((p) => p.key)
        .sort();

    beforeAll(async () => {
      opened = await open();
      for (const level of LEVELS) await opened.store.writer(level).apply(data.ticks);
      reader = new RollupReader({ rollups: opened.store }, { now: () => NOW });
    }, 120_000);
    afterAll(() => opened.close());

    it.each([1, 2, 3, 5, 8, 13, 16, 40])(
      'limit %i: the listed window of the first series by key, within pieces × (limit + 1)',
      async (limit) => {
        const all = withData(() => true);
        const result = await reader.windowByMetric({
          metric: 'probe',
          limit,
          field: 'v',
          fromMs: FROM,
          toMs: TO,
        });
        const listed = await reader.window({
          series: all.slice(0, limit),
          field: 'v',
          fromMs: FROM,
          toMs: TO,
        });
        expect(result.rows).toEqual(listed.rows);
        expect(result.selected).toEqual({
          metric: 'probe',
          tags: {},
          series: Math.min(limit, all.length),
          truncated: all.length > limit,
        });
        expect(result.pieces).toEqual(listed.pieces);
        expect(result.examined).toBeLessThanOrEqual(result.pieces.length * (limit + 1));
      },
    );

    it('filters by tags, names a metric without series, answers a quiet range with no rows', async () => {
      const even = withData((p) => p.tags.parity === 'even');
      const result = await reader.windowByMetric({
        metric: 'probe',
        tags: { parity: 'even' },
        limit: 100,
        field: 'v',
        fromMs: FROM,
        toMs: TO,
      });
      expect(result.rows.map((r) => r.series)).toEqual(even);
      expect(result.selected).toMatchObject({ series: even.length, truncated: false });

      const none = reader.windowByMetric({
        metric: 'nothing',
        limit: 10,
        field: 'v',
        fromMs: FROM,
        toMs: TO,
      });
      // A metric no series is kept of reads like an outage when answered with no rows (issue 38).
      await expect(none).rejects.toMatchObject({
        code: QueryErrorCode.UnknownName,
        unknown: { metrics: ['nothing'], tags: [] },
      });
      const quiet = await reader.windowByMetric({
        metric: 'probe',
        tags: { parity: 'even' },
        limit: 10,
        field: 'v',
        fromMs: FROM - 86_400_000,
        toMs: TO - 86_400_000,
      });
      expect(quiet).toMatchObject({
        rows: [],
        examined: 0,
        selected: { series: 0, truncated: false },
      });
    });

    it.each([
      ['an empty metric', { metric: '' }, QueryErrorCode.InvalidName],
      ['a limit of 0', { limit: 0 }, QueryErrorCode.InvalidRange],
      ['a limit over the series limit', { limit: 501 }, QueryErrorCode.TooManySeries],
      ['a tag name with a dot', { tags: { 'a.b': 'x' } }, QueryErrorCode.InvalidName],
    ])('refuses %s before reading', async (_name, change, code) => {
      await expect(
        reader.windowByMetric({
          metric: 'probe',
          limit: 5,
          field: 'v',
          fromMs: FROM,
          toMs: TO,
          ...change,
        }),
      ).rejects.toMatchObject({ code });
    });
  });
}
