import { describe, expect, it } from '@jest/globals';
import { reconcile, type DecodedRecord } from '../../src/index.js';

const NOW = Date.parse('2026-11-21T12:00:00Z');
const HOUR = 3_600_000;
const bounds = { maxLatenessMs: 6 * HOUR, maxFutureMs: 300_000 };

function good(offset: number, ts: number, recordTs = NOW): DecodedRecord {
  return {
    partition: 0,
    offset,
    recordTs,
    series: 'm',
    tick: { metric: 'm', tags: {}, ts, fields: { x: offset }, strings: {} },
  };
}

describe('reconcile', () => {
  it('expects valid ticks in the rollups and rejected records in the DLQ with their reason', () => {
    const records: DecodedRecord[] = [
      good(0, NOW),
      { partition: 0, offset: 1, recordTs: NOW, rejected: 'INVALID_VALUE' },
      { partition: 0, offset: 2, recordTs: NOW, rejected: 'BAD_MAGIC_BYTE' },
      { partition: 0, offset: 3, recordTs: NOW, rejected: 'OVERSIZED' },
      good(4, NOW - 7 * HOUR),
      good(5, NOW - HOUR),
      good(6, NOW),
      // Five days old for its record, whatever the time of the check: dead-lettered, missing.
      good(7, NOW - 5 * 24 * HOUR),
      // A record written five days ago carrying a tick of its own time: valid today.
      good(8, NOW - 5 * 24 * HOUR, NOW - 5 * 24 * HOUR),
      good(9, NOW + HOUR),
    ];
    const result = reconcile(
      't',
      records,
      [
        { sourcePartition: 0, sourceOffset: 1, reason: 'INVALID_VALUE' },
        // A replayed worker dead-letters twice: still one record.
        { sourcePartition: 0, sourceOffset: 1, reason: 'INVALID_VALUE' },
        { sourcePartition: 0, sourceOffset: 2, reason: 'DECODE_ERROR' },
        { sourcePartition: 0, sourceOffset: 4, reason: 'TOO_LATE' },
        // Only an hour older than its record: the verdict does not hold.
        { sourcePartition: 0, sourceOffset: 5, reason: 'TOO_LATE' },
        { sourcePartition: 0, sourceOffset: 6, reason: 'NO_FIELDS' },
        { sourcePartition: 0, sourceOffset: 9, reason: 'TIMESTAMP_OUT_OF_RANGE' },
      ],
      bounds,
    );
    expect(result.ticks.map((tick) => tick.offset)).toEqual([0, 5, 6, 8]);
    expect(result.tally).toEqual({
      records: 10,
      valid: 7,
      rejected: { INVALID_VALUE: 1, BAD_MAGIC_BYTE: 1, OVERSIZED: 1 },
      dropped: { TOO_LATE: 2, TIMESTAMP_OUT_OF_RANGE: 1 },
      deadLetters: 7,
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
      { store: 'dead-letters', kind: 'extra', id: 't/0/5', actual: 'TOO_LATE' },
      { store: 'dead-letters', kind: 'extra', id: 't/0/6', actual: 'NO_FIELDS' },
      { store: 'dead-letters', kind: 'missing', id: 't/0/7', expected: 'TOO_LATE' },
    ]);
  });
});
