import { describe, expect, it } from '@jest/globals';
import { emptyNote, followLine, formatTail, tailJson } from '../../src/commands/tail/format.js';
import type { TailReport } from '../../src/commands/tail/run.js';

const AT = Date.UTC(2026, 10, 21, 8);

const report: TailReport = {
  topic: 'raw-ticks-dlq',
  ranges: new Map([[0, { start: 0n, end: 2n }]]),
  records: [
    {
      partition: 0,
      offset: '0',
      timestamp: AT,
      key: 'traffic|sensor=a',
      value: { metric: 'traffic', tags: { sensor: 'a' }, ts: AT, fields: { speed: 1 } },
      deadLetter: {
        reason: 'TOO_LATE',
        detail: 'too late',
        sourceTopic: 'raw-ticks',
        sourcePartition: 3,
        sourceOffset: '17',
        at: AT + 1000,
      },
    },
    { partition: 0, offset: '1', timestamp: AT, key: null, undecodable: 'no value' },
  ],
};

describe('tail output', () => {
  it('is a table, with the reason column when a record is a dead letter', () => {
    expect(formatTail(report).split('\n')).toEqual([
      expect.stringMatching(/^partition\s+offset\s+time\s+key\s+value\s+reason$/),
      expect.stringMatching(
        /^\s+0\s+0\s+2026-11-21T08:00:00Z\s+traffic\|sensor=a\s+\{"metric":"traffic".*\}\s+TOO_LATE: too late$/,
      ),
      expect.stringMatching(/^\s+0\s+1\s+2026-11-21T08:00:00Z\s+\(undecodable: no value\)$/),
      '',
    ]);
    expect(formatTail({ ...report, records: report.records.slice(1) })).not.toContain('reason');
  });

  it('is one JSON object a record, times in ISO-8601', () => {
    const lines = tailJson(report)
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as unknown);
    expect(lines).toEqual([
      {
        topic: 'raw-ticks-dlq',
        partition: 0,
        offset: '0',
        timestamp: '2026-11-21T08:00:00Z',
        key: 'traffic|sensor=a',
        value: { metric: 'traffic', tags: { sensor: 'a' }, ts: AT, fields: { speed: 1 } },
        deadLetter: {
          reason: 'TOO_LATE',
          detail: 'too late',
          sourceTopic: 'raw-ticks',
          sourcePartition: 3,
          sourceOffset: '17',
          at: '2026-11-21T08:00:01Z',
        },
      },
      {
        topic: 'raw-ticks-dlq',
        partition: 0,
        offset: '1',
        timestamp: '2026-11-21T08:00:00Z',
        key: null,
        undecodable: 'no value',
      },
    ]);
  });

  it('follows with one unaligned line a record, and says when nothing was read', () => {
    expect(followLine(report.records[0]!)).toMatch(
      /^0 {2}0 {2}2026-11-21T08:00:00Z {2}.* {2}TOO_LATE: too late\n$/,
    );
    expect(emptyNote(report)).toBe('');
    expect(emptyNote({ ...report, records: [] })).toBe(
      'tickertape: no records of raw-ticks-dlq in the offsets read (partition:from-to) 0:0-2\n',
    );
  });
});
