/** docs/operating.md's `API` rows are the API's registry, nothing more or less. */
import { describe, expect, it } from '@jest/globals';
import { documentedMetrics, registeredMetrics } from '@tickertape/testing';
import { Registry } from 'prom-client';
import { createApiMetrics } from '../../src/metrics.js';

describe('the API’s metrics and docs/operating.md', () => {
  it('exports exactly the API rows', async () => {
    const registry = new Registry();
    createApiMetrics(registry);
    expect(await registeredMetrics(registry)).toEqual(await documentedMetrics('API'));
  });
});
