import { describe, expect, it } from '@jest/globals';
import { passed, type FaultRunReport } from '../../src/report.js';
import { countByKind } from '../../src/schedule.js';

function run(over: Partial<Omit<FaultRunReport, 'passed'>> = {}): Omit<FaultRunReport, 'passed'> {
  const kinds = { ...countByKind([]), 'kill-worker': 10, restart: 3, replay: 1, scale: 2 };
  kinds['bad-input'] = 2;
  return {
    profile: 'short',
    seed: 7,
    sketches: true,
    topic: 't',
    database: 'd',
    startedAt: '2026-11-21T10:00:00.000Z',
    elapsedMs: 90_000,
    load: { generated: 7500, acknowledged: 7500, failed: 0 },
    planned: kinds,
    faults: { ...kinds },
    faultErrors: [],
    restarts: [],
    rebuilds: [],
    processes: { started: 20, killed: 10, unexpectedExits: 0 },
    badInputs: [
      {
        kind: 'NaN',
        reason: 'INVALID_VALUE',
        partition: 0,
        offset: 5,
        deadLettered: ['INVALID_VALUE'],
      },
    ],
    verify: {
      tally: { records: 7501, valid: 7500, rejected: {}, dropped: {}, deadLetters: 1 },
      stores: [],
      differences: 0,
      sample: [],
    },
    ...over,
  };
}

describe('passed', () => {
  it('passes a run with no difference, every fault carried out and every bad record dead-lettered', () => {
    expect(passed(run())).toBe(true);
  });

  it.each([
    ['a difference', run({ verify: { ...run().verify, differences: 1 } })],
    ['a fault that failed', run({ faultErrors: ['restart at 15000 ms: exit 1'] })],
    [
      'a planned fault not carried out',
      run({
        faults: { ...run().planned, restart: 2 },
      }),
    ],
    ['no bad input at all', run({ badInputs: [] })],
    [
      'an acknowledged tick missing from the topic',
      run({ verify: { ...run().verify, tally: { ...run().verify.tally, records: 7500 } } }),
    ],
    [
      'a bad record missing from the DLQ',
      run({
        badInputs: [
          { kind: 'NaN', reason: 'INVALID_VALUE', partition: 0, offset: 5, deadLettered: [] },
        ],
      }),
    ],
    [
      'a bad record dead-lettered for another reason',
      run({
        badInputs: [
          {
            kind: 'NaN',
            reason: 'INVALID_VALUE',
            partition: 0,
            offset: 5,
            deadLettered: ['DECODE_ERROR'],
          },
        ],
      }),
    ],
  ])('fails a run with %s', (_name, report) => {
    expect(passed(report)).toBe(false);
  });
});
