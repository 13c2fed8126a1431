import { describe, expect, it } from '@jest/globals';
import { LOG_APPEND_TIME, timestampTypeProblem } from '../../src/timestamp-type.js';

describe('timestampTypeProblem', () => {
  it.each([
    [LOG_APPEND_TIME, false],
    [undefined, false],
    ['CreateTime', true],
  ])('for %s: a problem %s', (timestampType, problem) => {
    expect(timestampTypeProblem('raw-ticks', timestampType, ['b1:9092']) !== undefined).toBe(
      problem,
    );
  });

  it('names the topic and the setting, and gives the command that fixes it', () => {
    expect(timestampTypeProblem('raw-ticks', 'CreateTime', ['b1:9092', 'b2:9092'])).toBe(
      'raw-ticks has message.timestamp.type=CreateTime, not LogAppendTime: lateness and lag in ' +
        "seconds go by the producers' clocks. Fix (for the records appended from then on): " +
        'kafka-configs.sh --bootstrap-server b1:9092,b2:9092 --alter --entity-type topics ' +
        '--entity-name raw-ticks --add-config message.timestamp.type=LogAppendTime',
    );
  });
});
