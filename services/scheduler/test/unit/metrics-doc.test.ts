/** docs/operating.md's `scheduler` rows are the scheduler's registry, nothing more or less. */
import { describe, expect, it } from '@jest/globals';
import { documentedMetrics, registeredMetrics } from '@tickertape/testing';
import { createSchedulerMetrics } from '../../src/metrics.js';

describe('the scheduler’s metrics and docs/operating.md', () => {
  it('exports exactly the scheduler rows', async () => {
    const exported = await registeredMetrics(createSchedulerMetrics().registry);
    expect(exported).toEqual(await documentedMetrics('scheduler'));
  });

  it('names its BullMQ job job_name: a `job` label would meet the scrape’s and become exported_job', async () => {
    const metrics = createSchedulerMetrics();
    metrics.jobsRun.inc({ job_name: 'finalize', outcome: 'ok' });
    const text = await metrics.registry.metrics();
    expect(text).toContain('tickertape_scheduler_jobs_total{job_name="finalize",outcome="ok"} 1');
    expect(text).not.toMatch(/[{,]job="/);
  });
});
