import { markdownTable } from '@tickertape/answers';
import { fmt } from '@tickertape/capacity';
import { busyMs, CPU_CATEGORIES, IDLE_CATEGORY } from './cpu-profile.js';
import type { CpuProfileRun, LevelProfile } from './cpu-profile-run.js';

function levelTable(level: LevelProfile): string[] {
  const busy = busyMs(level);
  const rows = level.categories.map((c) => [
    c.category,
    fmt.fixed(c.selfMs, 0),
    c.category === IDLE_CATEGORY ? '—' : `${fmt.fixed((100 * c.selfMs) / busy, 1)} %`,
    fmt.fixed((1000 * c.selfMs) / level.ticks, 2),
  ]);
  rows.push([
    '**all but idle**',
    fmt.fixed(busy, 0),
    '100.0 %',
    fmt.fixed((1000 * busy) / level.ticks, 2),
  ]);
  return markdownTable(
    [
      { head: 'category' },
      { head: 'CPU ms', right: true },
      { head: '% of non-idle', right: true },
      { head: 'µs per tick', right: true },
    ],
    rows,
  );
}

function topTable(level: LevelProfile): string[] {
  return markdownTable(
    [
      { head: 'function (most self time)' },
      { head: 'script' },
      { head: 'category' },
      { head: 'CPU ms', right: true },
      { head: 'µs per tick', right: true },
    ],
    level.top.map((f) => [
      `\`${f.functionName}\``,
      f.where === '' ? '(native)' : `\`${f.where}\``,
      f.category,
      fmt.fixed(f.selfMs, 0),
      fmt.fixed((1000 * f.selfMs) / level.ticks, 2),
    ]),
  );
}

/** The section "Where a worker's CPU goes" of docs/benchmarks.md, as Markdown lines. */
export function cpuProfileSection(run: CpuProfileRun): string[] {
  const lines = ["## Where a worker's CPU goes", ''];
  for (const level of run.levels) {
    lines.push(`### ${level.level} worker`, '');
    if ('missing' in level) {
      lines.push(`Not profiled: ${level.missing}.`, '');
      continue;
    }
    lines.push(
      ...levelTable(level),
      '',
      ...topTable(level),
      '',
      `${fmt.int(level.ticks)} ticks in a window of ${fmt.fixed(level.windowMs / 1000, 2)} s (${fmt.fixed(level.sampledMs / 1000, 2)} s sampled).`,
      '',
    );
  }
  lines.push(
    "One extra round of B's two workers, after the measured ones and not among them (the profiler costs CPU), each started with " +
      `\`node ${run.nodeArgs.join(' ')}\` and stopped with SIGTERM, on which it leaves its group, closes its clients and exits, so node writes the profile. ` +
      "Each profile is cut to the level's measured window (both workers joined → the level committed the topic; the profile's clock is CLOCK_MONOTONIC, the harness's `process.hrtime` too) and each sample's **self time** (until the next sample) is added to the category of its function, by its script's path; a function of node itself (`node:*`) or a native one (a builtin such as `utf8Slice`, or code generated with `new Function`, as avsc's readers are) counts for its nearest caller that is neither: " +
      CPU_CATEGORIES.map((rule) => `**${rule.category}** ${rule.holds}`).join('; ') +
      '. The first rule that matches wins (tools/bench/src/cpu-profile.ts). µs per tick = CPU ms × 1000 ÷ the ticks the level applied.',
  );
  return lines;
}
