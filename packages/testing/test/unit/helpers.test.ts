import { describe, expect, it } from '@jest/globals';
import { uniqueName, waitFor } from '../../src/index.js';

describe('uniqueName', () => {
  it('never repeats and stays a valid topic and database name', () => {
    const names = new Set(Array.from({ length: 1000 }, () => uniqueName('Compat Kafka/Test')));
    expect(names.size).toBe(1000);
    for (const name of names) {
      expect(name).toMatch(/^tt-[a-z0-9-]+$/);
      expect(name.length).toBeLessThanOrEqual(38);
    }
  });
});

describe('waitFor', () => {
  it('returns the first truthy value', async () => {
    let calls = 0;
    const value = await waitFor(() => (++calls >= 3 ? `done after ${calls}` : undefined), {
      description: 'three calls',
      intervalMs: 1,
    });
    expect(value).toBe('done after 3');
  });

  it('treats null like undefined: not there yet', async () => {
    let calls = 0;
    const value = await waitFor(() => (++calls >= 2 ? { found: true } : null), {
      description: 'a document',
      intervalMs: 1,
    });
    expect(value).toEqual({ found: true });
    expect(calls).toBe(2);
  });

  it('keeps polling through thrown errors', async () => {
    let calls = 0;
    const value = await waitFor(
      () => {
        calls += 1;
        if (calls < 2) throw new Error('not yet');
        return 42;
      },
      { description: 'no throw', intervalMs: 1 },
    );
    expect(value).toBe(42);
  });

  it('times out naming what it waited for and what it last saw', async () => {
    await expect(
      waitFor(() => Promise.reject(new Error('broker down')), {
        description: 'the consumer to join',
        timeoutMs: 30,
        intervalMs: 5,
      }),
    ).rejects.toThrow(/the consumer to join.*broker down/);
  });
});
