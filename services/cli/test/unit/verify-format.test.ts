import { describe, expect, it } from '@jest/globals';
import { WHOLE_TIME, type VerifyReport } from '@tickertape/verify';
import { InvalidArgumentError } from 'commander';
import { formatVerify } from '../../src/commands/verify/run.js';
import { groupArgument, storesArgument } from '../../src/store-arguments.js';

const report = (differences: VerifyReport['differences']): VerifyReport => ({
  topic: 'raw-ticks',
  dlqTopic: 'raw-ticks-dlq',
  ends: [
    { partition: 0, end: '120' },
    { partition: 1, end: '98' },
  ],
  range: WHOLE_TIME,
  tally: {
    records: 218,
    valid: 216,
    rejected: { INVALID_VALUE: 1 },
    dropped: { TOO_LATE: 1 },
    deadLetters: 2,
  },
  stores: [
    { store: 'dead-letters', expected: 1, stored: 2, differences: 0 },
    { store: 'minute', expected: 40, stored: 40, differences: differences.length },
  ],
  differences,
});

describe('formatVerify', () => {
  it('says what was read and that nothing differs', () => {
    const text = formatVerify(report([]), 50);
    expect(text).toContain('verify raw-ticks (p0<120 p1<98) against the database, all time');
    expect(text).toContain(
      'records: 218 (216 valid ticks); not ticks: INVALID_VALUE 1; dead-lettered for their time: TOO_LATE 1; DLQ records: 2',
    );
    expect(text).toMatch(/minute\s+40\s+40\s+0/);
    expect(text).toContain(
      '0 differences: every bucket, segment and dead letter matches the topic',
    );
  });

  it('lists differences with field, expected and stored value, up to the limit', () => {
    const text = formatVerify(
      report([
        {
          store: 'minute',
          kind: 'wrong',
          id: 'm:202611211015',
          path: 'f.speed.max',
          expected: 55,
          actual: 1055,
        },
        { store: 'minute', kind: 'missing', id: 'm:202611211016', expected: 3 },
        { store: 'minute', kind: 'extra', id: 'm:202611211017', actual: 2 },
      ]),
      2,
    );
    expect(text).toMatch(/minute\s+wrong\s+m:202611211015\s+f\.speed\.max\s+55\s+1055/);
    expect(text).toMatch(/minute\s+missing\s+m:202611211016\s+3\s+—/);
    expect(text).not.toContain('m:202611211017');
    expect(text).toContain('… and 1 more (--limit)');
    expect(text).toContain('3 differences\n');
  });
});

describe('verify arguments', () => {
  it('takes stores and group overrides, refusing what is not a store', () => {
    expect(storesArgument('minute,segments')).toEqual(['minute', 'segments']);
    expect(() => storesArgument('minute,week')).toThrow(InvalidArgumentError);
    expect(groupArgument('hour=g1', groupArgument('day=g2'))).toEqual({ hour: 'g1', day: 'g2' });
    expect(() => groupArgument('hour=')).toThrow(InvalidArgumentError);
    expect(() => groupArgument('week=g')).toThrow(InvalidArgumentError);
  });
});
