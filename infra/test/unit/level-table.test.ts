/**
 * The table of levels (@tickertape/buckets LEVEL_SPECS) is the one place a level is defined; the
 * deployment files name levels too, and these checks make a level added to the table without its
 * chart and alert rows fail here (docs/architecture.md, "Where to add": a level).
 */
import { describe, expect, it } from '@jest/globals';
import { LEVELS, LEVEL_SPECS } from '@tickertape/buckets';
import { STORES } from '@tickertape/topology';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

const file = (path: string) => fileURLToPath(new URL(`../../${path}`, import.meta.url));

describe('the deployment files follow the table of levels', () => {
  it('the chart has one worker entry per store', async () => {
    const values = parse(await readFile(file('k8s/values.yaml'), 'utf8')) as {
      workers: { levels: Record<string, unknown> };
    };
    expect(Object.keys(values.workers.levels).sort()).toEqual([...STORES].sort());
  });

  it('the finality alert has a row for every level, past its grace and one slot', async () => {
    const rules = parse(await readFile(file('prometheus/tickertape-alerts.yml'), 'utf8')) as {
      groups: { rules: { alert?: string; expr?: string }[] }[];
    };
    const stalled = rules.groups
      .flatMap((group) => group.rules)
      .find((rule) => rule.alert === 'TickertapeFinalityStalled');
    const expr = stalled?.expr ?? '';
    for (const level of LEVELS) {
      // Each row: a level selector (= or =~ with alternatives) and its threshold in seconds.
      const row = expr
        .split(/\bor\b/)
        .find((part) => new RegExp(`level=~?"[^"]*\\b${level}\\b`).test(part));
      expect(row).toBeDefined();
      const threshold = /> ([\d\s*]+)$/.exec(row!.trim())?.[1] ?? '';
      const seconds = threshold.split('*').reduce((product, n) => product * Number(n.trim()), 1);
      // The default grace is 6 h; a slot more, and the watermark has stopped moving.
      expect(seconds * 1000).toBeGreaterThanOrEqual(6 * 3_600_000 + LEVEL_SPECS[level].slotMs);
    }
  });
});
