import { describe, expect, it } from '@jest/globals';
import { createLogger } from '@tickertape/logger';
import { parseBenchEnv } from '../../src/env.js';
import { renderMarkdown } from '../../src/markdown.js';
import { DESIGN_NAMES, figures } from '../../src/report.js';
import { runBench } from '../../src/run.js';
import { resolveSettings } from '../../src/settings.js';

// The CI smoke run of the benchmark: the whole harness on the real stack with a couple of
// thousand ticks. It proves every design, read and measure produces its row and that the
// workers coalesce exactly (one operation per bucket per flush); it never asserts a speed.
describe('bench, smoke profile', () => {
  it('produces every row, and the workers write one operation per bucket touched', async () => {
    const env = parseBenchEnv(process.env);
    // Workers from source through tsx: CI typechecks but does not build dist/.
    const settings = resolveSettings('smoke', { workers: 'source' });
    const logger = createLogger({ name: 'bench-smoke', level: 'warn' });
    const report = await runBench({ settings, env, logger });
    const total = report.load.shape.total;

    expect(report.load.ticks).toBe(total);
    expect(report.designs.map((d) => d.key)).toEqual(['A', 'B', 'C', 'D', 'E', 'F']);
    for (const run of report.designs) {
      expect(run.ticks).toBe(total);
      expect(run.seconds).toBeGreaterThan(0);
      expect(run.cpuSeconds).toBeGreaterThan(0);
      if (run.key !== 'A') expect(run.stored?.dataBytes).toBeGreaterThan(0);
    }
    for (const key of ['B', 'F'] as const) {
      const levels = report.designs.find((d) => d.key === key)!.levels!;
      expect(levels.map((l) => l.level)).toEqual(['minute', 'hour']);
      for (const level of levels) {
        expect(level.applied).toBe(total);
        expect(level.deadLetters).toBe(0);
        expect(level.conflicts).toBe(0);
        expect(level.buckets).toBeGreaterThan(0);
        expect(level.ops / level.buckets).toBe(1);
      }
    }

    const derived = figures(report);
    expect(derived.coalescing.map((c) => c.ratio)).toEqual([1, 1]);
    expect(derived.targets.find((t) => t.target.startsWith('DB operations per flush'))?.met).toBe(
      true,
    );
    expect(derived.ratios.every((r) => Number.isFinite(r.value))).toBe(true);

    const { window, chart } = report.reads;
    expect(window.sensors).toBe(50);
    expect(window.rollups.examined).toBeGreaterThan(0);
    expect(window.rollups.examined).toBeLessThanOrEqual(100);
    expect(window.perTick.examined).toBeGreaterThan(window.rollups.examined);
    expect(window.maxDifference).toBeLessThan(1e-9);
    expect(chart.rollups.examined).toBeGreaterThan(0);
    expect(chart.maxDifference).toBe(0);

    expect(report.latency.markers).toBeGreaterThan(0);
    expect(report.latency.visible).toBe(report.latency.markers);
    expect(report.probe.documents).toBeGreaterThan(0);

    const markdown = renderMarkdown(report, { command: 'bash scripts/bench.sh --profile smoke' });
    for (const name of Object.values(DESIGN_NAMES)) expect(markdown).toContain(name);
    for (const row of ['B · minute', 'B · hour', 'F · minute', 'F · hour', 'Produce → visible'])
      expect(markdown).toContain(row);
    for (const target of derived.targets) expect(markdown).toContain(target.target);
  }, 120_000);
});
