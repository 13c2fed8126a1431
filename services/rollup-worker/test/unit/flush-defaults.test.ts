import { describe, expect, it } from '@jest/globals';
import { LEVELS } from '@tickertape/buckets';
import { FETCH_DEFAULTS, HOLD_DEFAULTS, LEVEL_FRESHNESS_BUDGETS } from '@tickertape/topology';
import { freshnessBudgetMs, parseWorkerEnv } from '../../src/env.js';

const base = {
  KAFKA_BROKERS: '127.0.0.1:19092',
  SCHEMA_REGISTRY_URL: 'http://127.0.0.1:18081/apis/ccompat/v7',
  MONGODB_URI: 'mongodb://127.0.0.1:27117',
};

// The capacity model and the benchmark plan with @tickertape/topology's numbers, never copies:
// what a worker runs with when nothing is set must be those.
describe("the worker's flush defaults", () => {
  it('are the shared table’s: holds, fetches and each level’s freshness budget', () => {
    const env = parseWorkerEnv({ ...base, ROLLUP_LEVEL: 'minute' });
    expect(env.FLUSH_MAX_TICKS).toBe(HOLD_DEFAULTS.maxTicks);
    expect(env.HELD_MAX_BYTES).toBe(HOLD_DEFAULTS.maxBytes);
    expect(env.FLUSH_MAX_WAIT_MS).toBe(FETCH_DEFAULTS.maxWaitMs);
    expect(env.FLUSH_MIN_BYTES).toBe(FETCH_DEFAULTS.minBytes);
    for (const level of LEVELS)
      expect(freshnessBudgetMs(parseWorkerEnv({ ...base, ROLLUP_LEVEL: level }))).toBe(
        LEVEL_FRESHNESS_BUDGETS[level],
      );
  });
});
