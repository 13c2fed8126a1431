import { describe, expect, it } from '@jest/globals';
import {
  DLQ_HEADERS,
  headerText,
  KNOWN_DLQ_REASONS,
  originalHeaders,
  REDRIVEN_FROM_HEADER,
  RedrivePlan,
  type DeadLetterRecord,
} from '../../src/index.js';

function letter(
  reason: string | undefined,
  sourceOffset: number | undefined,
  overrides: Partial<DeadLetterRecord> = {},
): DeadLetterRecord {
  return {
    reason,
    sourceTopic: 'raw-ticks',
    sourcePartition: '0',
    sourceOffset: sourceOffset === undefined ? undefined : String(sourceOffset),
    ...overrides,
  };
}

describe('RedrivePlan', () => {
  it('redrives every record to its source topic and tallies by reason', () => {
    const plan = new RedrivePlan();
    const decisions = [
      letter('INVALID_VALUE', 1),
      letter('TOO_LATE', 2),
      letter('INVALID_VALUE', 3),
    ].map((record) => plan.decide(record));
    expect(decisions).toEqual(Array(3).fill({ redrive: true, topic: 'raw-ticks' }));
    expect(plan.tally()).toEqual({
      byReason: [
        { reason: 'INVALID_VALUE', seen: 2, redriven: 2, skipped: 0 },
        { reason: 'TOO_LATE', seen: 1, redriven: 1, skipped: 0 },
      ],
      total: { reason: 'total', seen: 3, redriven: 3, skipped: 0 },
      skipped: { duplicate: 0, filtered: 0, overMax: 0, noSourceTopic: 0 },
    });
  });

  it('skips a record whose source partition and offset appeared earlier in the DLQ', () => {
    const plan = new RedrivePlan();
    expect(plan.decide(letter('DECODE_ERROR', 7))).toMatchObject({ redrive: true });
    expect(plan.decide(letter('DECODE_ERROR', 7))).toEqual({ redrive: false, cause: 'duplicate' });
    // Same offset in another partition, or another topic, is another record.
    expect(plan.decide(letter('DECODE_ERROR', 7, { sourcePartition: '1' }))).toMatchObject({
      redrive: true,
    });
    expect(plan.decide(letter('DECODE_ERROR', 7, { sourceTopic: 'other' }))).toMatchObject({
      redrive: true,
    });
    expect(plan.tally().byReason).toEqual([
      { reason: 'DECODE_ERROR', seen: 4, redriven: 3, skipped: 1 },
    ]);
  });

  it('counts a duplicate as such even when its first copy was filtered out', () => {
    const plan = new RedrivePlan({ reasons: ['TOO_LATE'] });
    expect(plan.decide(letter('INVALID_VALUE', 1))).toEqual({ redrive: false, cause: 'filtered' });
    expect(plan.decide(letter('INVALID_VALUE', 1))).toEqual({
      redrive: false,
      cause: 'duplicate',
    });
    expect(plan.tally().skipped).toMatchObject({ filtered: 1, duplicate: 1 });
  });

  it('cannot dedupe records without source coordinates, so redrives each', () => {
    const plan = new RedrivePlan();
    expect(plan.decide(letter('DECODE_ERROR', undefined))).toMatchObject({ redrive: true });
    expect(plan.decide(letter('DECODE_ERROR', undefined))).toMatchObject({ redrive: true });
  });

  it('keeps only the requested reasons', () => {
    const plan = new RedrivePlan({ reasons: ['TOO_LATE', 'INVALID_VALUE'] });
    const redriven = [
      letter('TOO_LATE', 1),
      letter('DECODE_ERROR', 2),
      letter('INVALID_VALUE', 3),
      letter(undefined, 4),
    ].map((record) => plan.decide(record).redrive);
    expect(redriven).toEqual([true, false, true, false]);
    expect(plan.tally().byReason.map((row) => row.reason)).toEqual([
      '(none)',
      'DECODE_ERROR',
      'INVALID_VALUE',
      'TOO_LATE',
    ]);
  });

  it('stops redriving after max, still counting what it sees', () => {
    const plan = new RedrivePlan({ max: 2 });
    const redriven = [1, 2, 3, 4].map((offset) => plan.decide(letter('TOO_LATE', offset)).redrive);
    expect(redriven).toEqual([true, true, false, false]);
    expect(plan.tally().total).toEqual({ reason: 'total', seen: 4, redriven: 2, skipped: 2 });
    expect(plan.tally().skipped.overMax).toBe(2);
  });

  it('sends to the override topic, and skips records with nowhere to go', () => {
    expect(new RedrivePlan({ topic: 'fixed' }).decide(letter('TOO_LATE', 1))).toEqual({
      redrive: true,
      topic: 'fixed',
    });
    const plan = new RedrivePlan({ existingTopics: new Set(['raw-ticks']) });
    expect(plan.decide(letter('TOO_LATE', 1, { sourceTopic: undefined }))).toEqual({
      redrive: false,
      cause: 'noSourceTopic',
    });
    expect(plan.decide(letter('TOO_LATE', 2, { sourceTopic: 'gone' }))).toEqual({
      redrive: false,
      cause: 'noSourceTopic',
    });
    expect(plan.decide(letter('TOO_LATE', 3))).toMatchObject({ redrive: true });
  });

  it('refuses a negative or fractional max', () => {
    expect(() => new RedrivePlan({ max: -1 })).toThrow(/max/);
    expect(() => new RedrivePlan({ max: 1.5 })).toThrow(/max/);
  });
});

describe('DLQ headers', () => {
  it('uses the names the rollup worker writes', () => {
    expect(DLQ_HEADERS).toEqual({
      reason: 'tickertape-dlq-reason',
      detail: 'tickertape-dlq-detail',
      topic: 'tickertape-source-topic',
      partition: 'tickertape-source-partition',
      offset: 'tickertape-source-offset',
      at: 'tickertape-dlq-at',
    });
    expect(KNOWN_DLQ_REASONS).toEqual(expect.arrayContaining(['DECODE_ERROR', 'TOO_LATE']));
  });

  it('reads headers as text from Buffers, strings and repeated values', () => {
    const headers = {
      a: Buffer.from('alpha'),
      b: 'beta',
      c: [Buffer.from('first'), Buffer.from('last')],
    };
    expect(headerText(headers, 'a')).toBe('alpha');
    expect(headerText(headers, 'b')).toBe('beta');
    expect(headerText(headers, 'c')).toBe('last');
    expect(headerText(headers, 'missing')).toBeUndefined();
    expect(headerText(undefined, 'a')).toBeUndefined();
  });

  it('gives back the headers a record had before it was dead-lettered', () => {
    const trace = Buffer.from('trace-1');
    const headers = {
      traceparent: trace,
      [DLQ_HEADERS.reason]: Buffer.from('TOO_LATE'),
      [DLQ_HEADERS.detail]: Buffer.from('late'),
      [DLQ_HEADERS.topic]: Buffer.from('raw-ticks'),
      [DLQ_HEADERS.partition]: Buffer.from('0'),
      [DLQ_HEADERS.offset]: Buffer.from('5'),
      [DLQ_HEADERS.at]: Buffer.from('1'),
      [REDRIVEN_FROM_HEADER]: Buffer.from('dlq/0/1'),
    };
    expect(originalHeaders(headers)).toEqual({ traceparent: trace });
    expect(originalHeaders(undefined)).toEqual({});
  });
});
