import { describe, expect, it } from '@jest/globals';
import {
  SegmentBudgetError,
  type RawPointsLimits,
  type RawPointsQuery,
  type RawPointsResult,
  type SegmentStore,
} from '@tickertape/segments';
import { createMemoryStore } from '@tickertape/store';
import { QueryErrorCode, RollupReader } from '../../src/index.js';

const FROM = Date.UTC(2026, 0, 1);
const TO = FROM + 60_000;

/**
 * The segment store as far as raw reads go: what the reader asked, and one answer (or the
 * store's own budget refusal past `maxSegments`).
 */
function segmentsHolding(segments: number) {
  const asked: [RawPointsQuery, RawPointsLimits][] = [];
  const store: Pick<SegmentStore, 'readPoints'> = {
    readPoints(query, limits): Promise<RawPointsResult> {
      asked.push([query, limits]);
      if (segments > limits.maxDocuments)
        return Promise.reject(new SegmentBudgetError(`${segments} segments over the budget`));
      const point = { t: query.fromMs, v: { v: 1 } };
      return Promise.resolve({ ...query, points: [point], before: null, after: null, examined: 1 });
    },
  };
  return { asked, segments: store as SegmentStore };
}

describe('RollupReader.rawPoints: exact raw points from the segment store', () => {
  it("reads the segment store with the reader's document budget", async () => {
    const { asked, segments } = segmentsHolding(3);
    const reader = new RollupReader(
      { rollups: createMemoryStore(), segments },
      { limits: { maxDocuments: 10 } },
    );
    const result = await reader.rawPoints({ series: 'm|a=1', fromMs: FROM, toMs: TO, field: 'v' });
    expect(result.points).toHaveLength(1);
    expect(asked).toEqual([
      [{ series: 'm|a=1', fromMs: FROM, toMs: TO, field: 'v' }, { maxDocuments: 10 }],
    ]);
  });

  it("answers the segment store's budget refusal with the query's code", async () => {
    const { segments } = segmentsHolding(11);
    const reader = new RollupReader(
      { rollups: createMemoryStore(), segments },
      { limits: { maxDocuments: 10 } },
    );
    await expect(
      reader.rawPoints({ series: 'm|a=1', fromMs: FROM, toMs: TO }),
    ).rejects.toMatchObject({ code: QueryErrorCode.ReadBudgetExceeded });
  });

  it('refuses a bad query before reading, and says so when it has no segment store', async () => {
    const { asked, segments } = segmentsHolding(1);
    const reader = new RollupReader({ rollups: createMemoryStore(), segments });
    await expect(
      reader.rawPoints({ series: 'm|a=1', fromMs: TO, toMs: FROM }),
    ).rejects.toMatchObject({ code: QueryErrorCode.InvalidRange });
    await expect(
      reader.rawPoints({ series: 'm|a=1', fromMs: FROM, toMs: TO, field: 'a.b' }),
    ).rejects.toMatchObject({ code: QueryErrorCode.InvalidName });
    expect(asked).toEqual([]);
    await expect(
      new RollupReader({ rollups: createMemoryStore() }).rawPoints({
        series: 'm|a=1',
        fromMs: FROM,
        toMs: TO,
      }),
    ).rejects.toMatchObject({ code: 'QUERY_NO_SEGMENT_STORE' });
  });
});
