import { describe, expect, it } from '@jest/globals';
import { SKETCH_ALPHA } from '@tickertape/buckets';
import { createLogger } from '@tickertape/logger';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CPU_CATEGORIES } from '../../src/cpu-profile.js';
import { parseBenchEnv } from '../../src/env.js';
import { budgetGains, liveFigures } from '../../src/live/live-figures.js';
import { renderMarkdown } from '../../src/markdown.js';
import { DESIGN_NAMES, figures } from '../../src/report.js';
import { runBench } from '../../src/run.js';
import { resolveSettings } from '../../src/settings.js';
import { STACK_PARTS } from '../../src/stack-cpu.js';
import { writeReport } from '../../src/write-report.js';

// The CI smoke run of the benchmark: the whole harness on the real stack with a couple of
// thousand ticks. It proves every design, read and measure produces its row and that the
// workers coalesce exactly (one operation per bucket per flush); it never asserts a speed.
describe('bench, smoke profile', () => {
  it('produces every row, and the workers write one operation per bucket touched', async () => {
    const env = parseBenchEnv(process.env);
    // Workers from source through tsx: CI typechecks but does not build dist/. The profiled
    // round is on, to prove a worker writes its profile on SIGTERM and the analyzer reads it.
    const settings = resolveSettings('smoke', { workers: 'source', cpuProfile: true });
    const logger = createLogger({ name: 'bench-smoke', level: 'warn' });
    const report = await runBench({ settings, env, logger });
    const total = report.load.shape.total;

    expect(report.load.ticks).toBe(total);
    expect(report.designs.map((d) => d.key)).toEqual(['A', 'B', 'C', 'D', 'E', 'F', 'S']);
    for (const run of report.designs) {
      expect(run.ticks).toBe(total);
      expect(run.seconds).toBeGreaterThan(0);
      expect(run.cpuSeconds).toBeGreaterThan(0);
      if (run.key !== 'A') expect(run.stored?.dataBytes).toBeGreaterThan(0);
    }
    for (const key of ['B', 'F', 'S'] as const) {
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

    // Sketches on cost more bytes than off at both densities of the sketch probe, and both
    // sketch targets have a measured row.
    const sketchDensities = report.sketchDensity!.densities;
    expect(sketchDensities.map((d) => [d.perSecond, d.sketches === true])).toEqual([
      [1, false],
      [1, true],
      [1 / 60, false],
      [1 / 60, true],
    ]);
    for (let i = 0; i < sketchDensities.length; i += 2)
      expect(sketchDensities[i + 1]!.bytesPerTick.rollups.total).toBeGreaterThan(
        sketchDensities[i]!.bytesPerTick.rollups.total,
      );

    // The percentile read on S's sketched rollups: every tick covered, within α of the truth.
    const quantile = report.reads.quantile!;
    expect(quantile.rollups.examined).toBeLessThanOrEqual(100);
    expect(quantile.ticks).toBeGreaterThan(0);
    expect(quantile.covered).toBe(quantile.ticks);
    expect(quantile.maxDifference).toBeLessThanOrEqual(SKETCH_ALPHA * (1 + 1e-9));

    const derived = figures(report);
    for (const goal of ['with sketches on ≤ 1.3 × off', 'bytes per tick with sketches on'])
      expect(derived.targets.find((t) => t.target.includes(goal))?.measured).toMatch(/= \d/);
    expect(derived.coalescing.map((c) => c.ratio)).toEqual([1, 1]);
    expect(derived.targets.find((t) => t.target.startsWith('DB operations per flush'))?.met).toBe(
      true,
    );
    expect(derived.ratios.every((r) => Number.isFinite(r.value))).toBe(true);
    for (const level of ['minute', 'hour']) {
      const row = derived.targets.find((t) => t.target.includes(`${level} level ≤ 1.25 × A`));
      expect(row?.measured).toMatch(/ × A$/);
    }

    // The stack's CPU: a figure for every part found by its pid file, a reason for any other.
    const stack = report.stack!;
    for (const part of STACK_PARTS) {
      const found = 'pid' in stack.parts[part];
      for (const run of report.designs) {
        const cpu = run.stackCpu![part];
        expect(cpu.measured).toBe(found);
        if (cpu.measured) expect(cpu.cpuSeconds).toBeGreaterThanOrEqual(0);
        else expect(cpu.reason).not.toBe('');
      }
    }

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

    // A real profile of each worker, written on SIGTERM and summed by category.
    for (const level of report.cpuProfile!.levels) {
      expect('missing' in level ? level.missing : 'written').toBe('written');
      if ('missing' in level) continue;
      expect(level.ticks).toBe(total);
      expect(level.sampledMs).toBeGreaterThan(0);
      expect(level.categories.map((c) => c.category)).toEqual(
        CPU_CATEGORIES.map((r) => r.category),
      );
      // No category is asserted: the window opens once both workers have joined, and one of
      // them can have consumed the smoke's 2,400 ticks by then (CI saw the worker's own
      // categories at 0). The full profile's 117,000 ticks take seconds; its figures are real.
    }

    // The live grid: one cell, each design consuming while the producer publishes; every record
    // written and every marker seen in every store.
    const live = report.live!;
    expect(live.cells).toHaveLength(1);
    const cell = live.cells[0]!;
    expect(cell.designs.map((d) => d.design)).toEqual(['ours', 'ours0', 'D', 'E']);
    for (const run of cell.designs) {
      expect(run.produced).toBeGreaterThanOrEqual(cell.rate * (cell.durationMs / 1000) * 0.9);
      expect(run.stores.map((s) => s.store)).toEqual(
        run.design.startsWith('ours') ? ['minute', 'hour'] : ['ticks'],
      );
      for (const store of run.stores) {
        expect(store.unsettled).toBe(0);
        expect(store.consumed).toBe(run.produced);
        expect(store.applied).toBe(run.produced);
        expect(store.ops).toBeGreaterThan(0);
        expect(store.cpuSeconds).toBeGreaterThan(0);
        expect(store.latency.markers).toBeGreaterThan(0);
        expect(store.latency.visible).toBe(store.latency.markers);
      }
    }
    // Held across fetches for the budget: far fewer bucket writes than ticks at both levels.
    for (const row of liveFigures(live).filter((r) => r.design === 'ours')) {
      expect(row.opsPerTick).toBeLessThan(0.5);
      expect(row.coalescing).toBeGreaterThan(0);
    }
    // A 1 s budget holds two fetch waits (500 ms) or more: fewer writes per tick than budget 0.
    const gains = budgetGains(live);
    expect(gains.map((g) => g.store)).toEqual(['minute', 'hour']);
    for (const gain of gains) expect(gain.after).toBeLessThan(gain.before);
    expect(live.densities.densities.length).toBeGreaterThan(0);

    const markdown = renderMarkdown(report, { command: 'bash scripts/bench.sh --profile smoke' });
    for (const name of Object.values(DESIGN_NAMES)) expect(markdown).toContain(name);
    for (const row of ['B · minute', 'B · hour', 'F · minute', 'F · hour', 'Produce → visible'])
      expect(markdown).toContain(row);
    for (const target of derived.targets) expect(markdown).toContain(target.target);
    for (const section of [
      'CPU per million ticks by process',
      "Where a worker's CPU goes",
      'Live: while a producer publishes',
    ])
      expect(markdown).toContain(section);

    // The files bench.sh writes: the Markdown, its chart and the whole report as JSON beside it.
    const dir = await mkdtemp(join(tmpdir(), 'bench-smoke-'));
    try {
      const written = await writeReport(report, join(dir, 'benchmarks.md'), 'smoke');
      expect(written.json).toBe(join(dir, 'benchmarks.json'));
      const json = JSON.parse(await readFile(written.json, 'utf8')) as typeof report;
      expect(json.designs.map((d) => d.key)).toEqual(['A', 'B', 'C', 'D', 'E', 'F', 'S']);
      expect(json.designs[1]!.stackCpu).toEqual(report.designs[1]!.stackCpu);
      expect(json.cpuProfile?.levels.length).toBe(2);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 150_000);
});
