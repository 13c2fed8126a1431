import { describe, expect, it } from '@jest/globals';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { jsonPathFor, reportJson } from '../../src/report-json.js';
import type { BenchReport } from '../../src/bench-report.js';
import { writeReport } from '../../src/write-report.js';

const FIXTURE = new URL('../fixtures/benchmarks.json', import.meta.url);

describe('reportJson', () => {
  it('sorts keys at every depth, keeps array order and drops undefined', () => {
    const text = reportJson({ b: 1, a: { d: [3, { z: 1, y: 2 }], c: undefined } } as never);
    expect(text).toBe(
      '{\n  "a": {\n    "d": [\n      3,\n      {\n        "y": 2,\n        "z": 1\n      }\n    ]\n  },\n  "b": 1\n}\n',
    );
  });

  it('names the JSON after the Markdown file', () => {
    expect(jsonPathFor('/x/docs/benchmarks.md')).toBe('/x/docs/benchmarks.json');
  });
});

describe('writeReport', () => {
  it('writes the Markdown, the chart and the whole report as JSON beside it', async () => {
    const report = JSON.parse(await readFile(FIXTURE, 'utf8')) as BenchReport;
    const dir = await mkdtemp(join(tmpdir(), 'bench-report-'));
    try {
      const written = await writeReport(report, join(dir, 'bench.md'), 'bash scripts/bench.sh');
      expect(written.json).toBe(join(dir, 'bench.json'));
      expect(JSON.parse(await readFile(written.json, 'utf8'))).toEqual(report);
      expect(await readFile(written.doc, 'utf8')).toContain('bash scripts/bench.sh');
      expect((await readFile(written.chart, 'utf8')).startsWith('<svg')).toBe(true);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
