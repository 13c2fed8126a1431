import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { parseBenchJson } from '@tickertape/capacity';
import { liveCheckSection } from '@tickertape/capacity';

const FIXTURE = new URL('../fixtures/benchmarks.json', import.meta.url);

describe('the operations formula against the live grid', () => {
  const json = parseBenchJson(readFileSync(FIXTURE, 'utf8'));

  it('is left out for a report from before the live grid', () => {
    expect(liveCheckSection(json)).toEqual([]);
  });

  it("sets each ours cell's measured operations per second beside the model's", () => {
    // 10,000 series × 1/s at the default budgets: E = 5 s (minute), 38.3 s (hour: 128 MiB of
    // held ticks at 10,000 ticks/s come before its 60 s budget).
    const lines = liveCheckSection({
      ...json,
      settings: { ...json.settings, partitions: 4 },
      live: {
        cells: [
          {
            cell: { series: 10_000, perSecond: 1 },
            rate: 10_000,
            designs: [
              {
                design: 'ours',
                producingSeconds: 60,
                stores: [
                  { store: 'minute', ops: 130_000, applied: 600_000 },
                  { store: 'hour', ops: 30_000, applied: 600_000 },
                ],
              },
              {
                design: 'D',
                producingSeconds: 60,
                stores: [{ store: 'ticks', ops: 600_000, applied: 600_000 }],
              },
            ],
          },
        ],
      },
    });
    const rows = lines.filter((line) => line.startsWith('| 10,000'));
    expect(rows).toHaveLength(2);
    const minuteModel = 10_000 / 5 + 10_000 / 60;
    expect(rows[0]).toContain(
      `| minute | 5.0 | ${Math.round(minuteModel).toLocaleString('en-US')} | 2,167 | 1.00 |`,
    );
    const hourSpan = (128 * 2 ** 20) / (10_000 * 350);
    const hourModel = 10_000 / hourSpan + 10_000 / 3600;
    expect(rows[1]).toContain(
      `| hour | ${hourSpan.toFixed(1)} | ${Math.round(hourModel).toLocaleString('en-US')} | 500 |`,
    );
  });
});
