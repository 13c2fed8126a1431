import { describe, expect, it } from '@jest/globals';
import { formatSummary } from '../../src/commands/demo/summary/format.js';
import type { SummaryReport } from '../../src/commands/demo/summary/run.js';

const HOUR = Date.parse('2026-11-21T10:00:00Z');

const report: SummaryReport = {
  workers: [],
  workersNotAnswering: [],
  bucketsByLevel: { minute: 12, hour: 3, day: 3 },
  windowMinutes: 10,
  averages: {
    fromMs: HOUR,
    toMs: HOUR + 600_000,
    rows: [
      { series: 'traffic|sensor=a', average: 52.345, readings: 40 },
      { series: 'traffic|sensor=b', average: null, readings: 0 },
    ],
    piecesPerSeries: 1,
    examined: 2,
  },
  candles: {
    hourStart: HOUR,
    rows: [
      {
        series: 'stock.tick|symbol=A',
        candle: {
          t: HOUR,
          open: 10,
          high: 12.5,
          low: 9.75,
          close: 11,
          volume: 30,
          variance: 0.5,
          stddev: Math.SQRT1_2,
          coverage: { spread: 30 },
          final: false,
        },
      },
      { series: 'stock.tick|symbol=B', candle: null },
    ],
    source: '1h points from the hours of day buckets',
    discoveryExamined: 2,
    examined: 3,
  },
};

describe('formatSummary', () => {
  it('prints the answers read through the query library, with what they cost', () => {
    const text = formatSummary(report);
    expect(text).toContain(
      'average speed over the last 10 minutes (2026-11-21T10:00:00Z to 2026-11-21T10:10:00Z)',
    );
    expect(text).toMatch(/^traffic\|sensor=a\s+52\.35\s+40$/m);
    // No readings: an empty average, not 0.
    expect(text).toMatch(/^traffic\|sensor=b\s+0$/m);
    expect(text).toContain(
      '  examined 2 documents (1 bucket part per series for the window, the series found in them)\n',
    );
    expect(text).toContain(
      'price candles for the hour from 2026-11-21T10:00:00Z (1h points from the hours of day buckets)',
    );
    expect(text).toMatch(/^stock\.tick\|symbol=A\s+10\s+12\.5\s+9\.75\s+11\s+30$/m);
    expect(text).toMatch(/^stock\.tick\|symbol=B$/m);
    expect(text).toMatch(/examined 3 documents \(2 to find the series\)\n$/);
  });

  it('names the workers that did not answer in place of their figures', () => {
    const text = formatSummary({
      ...report,
      workersNotAnswering: [
        {
          url: 'http://127.0.0.1:9401',
          reason: 'not answering (connect ECONNREFUSED 127.0.0.1:9401)',
        },
      ],
    });
    expect(text).toMatch(
      /^workers\n {2}http:\/\/127\.0\.0\.1:9401: not answering \(connect ECONNREFUSED 127\.0\.0\.1:9401\); its figures are in its \/metrics while it runs\n\nbuckets in the database\n/,
    );
    expect(text).not.toContain('ticks consumed');
  });
});
