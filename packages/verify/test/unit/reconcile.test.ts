import { describe, expect, it } from '@jest/globals';
import { reconcile, type DecodedRecord } from '../../src/index.js';

const NOW = Date.parse('2026-11-21T12:00:00Z');
const HOUR = 3_600_000;
const bounds = { maxLatenessMs: 6 * HOUR, maxFutureMs: 300_000 };

function good(offset: number, ts: number): DecodedRecord {
  return {
    partition: 0,
    offset,
    series: 'm',
    tick: { metric: 'm', tags: {}, ts, fields: { x: offset }, strings: {} },
  };
}

describe('reconcile', () => {
  it('expects valid ticks in the rollups and rejected records in the DLQ with their reason', () => {
    const records: DecodedRecord[] = [
      good(0, NOW),
      { partition: 0, offset: 1, rejected: 'INVALID_VALUE' },
      { partition: 0, offset: 2, rejected: 'BAD_MAGIC_BYTE' },
      { partition: 0, offset: 3, rejected: 'OVERSIZED' },
      good(4, NOW - 7 * HOUR),
      good(5, NOW - HOUR),
      good(6, NOW),
    ];
    const result = reconcile(
      't',
      records,
      [
        { sourcePartition: 0, sourceOffset: 1, reason: 'INVALID_VALUE', at: NOW },
        // A replayed worker dead-letters twice: still one record.
        { sourcePartition: 0, sourceOffset: 1, reason: 'INVALID_VALUE', at: NOW },
        { sourcePartition: 0, sourceOffset: 2, reason: 'DECODE_ERROR', at: NOW },
        { sourcePartition: 0, sourceOffset: 4, reason: 'TOO_LATE', at: NOW },
        // Only an hour old when dead-lettered: the verdict does not hold.
        { sourcePartition: 0, sourceOffset: 5, reason: 'TOO_LATE', at: NOW },
        { sourcePartition: 0, sourceOffset: 6, reason: 'NO_FIELDS', at: NOW },
      ],
      bounds,
    );
    expect(result.ticks.map((tick) => tick.offset)).toEqual([0, 5, 6]);
    expect(result.tally).toEqual({
      records: 7,
      valid: 4,
      rejected: { INVALID_VALUE: 1, BAD_MAGIC_BYTE: 1, OVERSIZED: 1 },
      dropped: { TOO_LATE: 1 },
      deadLetters: 6,
    });
    expect(result.differences).toEqual([
      {
        store: 'dead-letters',
        kind: 'wrong',
        id: 't/0/2',
        path: 'reason',
        expected: 'BAD_MAGIC_BYTE',
        actual: 'DECODE_ERROR',
      },
      { store: 'dead-letters', kind: 'missing', id: 't/0/3', expected: 'OVERSIZED' },
      {
        store: 'dead-letters',
        kind: 'wrong',
        id: 't/0/5',
        path: 'reason',
        expected: `no dead letter: event time ${new Date(NOW - HOUR).toISOString()} is within bounds at ${new Date(NOW).toISOString()}`,
        actual: 'TOO_LATE',
      },
      { store: 'dead-letters', kind: 'extra', id: 't/0/6', actual: 'NO_FIELDS' },
    ]);
  });
});
