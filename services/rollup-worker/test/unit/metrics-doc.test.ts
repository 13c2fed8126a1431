/**
 * docs/operating.md's table of series is the workers' registry: a rollup worker exports the
 * `worker` rows, a segment worker those and the `segment worker` rows, nothing more or less.
 */
import { describe, expect, it } from '@jest/globals';
import { LEVELS } from '@tickertape/buckets';
import { documentedMetrics, registeredMetrics } from '@tickertape/testing';
import { createWorkerMetrics } from '../../src/metrics.js';

describe('the workers’ metrics and docs/operating.md', () => {
  it.each(LEVELS)('a %s worker exports exactly the worker rows', async (level) => {
    const exported = await registeredMetrics(createWorkerMetrics(level).registry);
    expect(exported).toEqual(await documentedMetrics('worker'));
  });

  it('a segment worker exports the worker and segment worker rows', async () => {
    const exported = await registeredMetrics(createWorkerMetrics('segments').registry);
    const documented = [
      ...(await documentedMetrics('worker')),
      ...(await documentedMetrics('segment worker')),
    ].sort();
    expect(exported).toEqual(documented);
    expect(exported).toContain('tickertape_segment_series_split_total');
  });
});
