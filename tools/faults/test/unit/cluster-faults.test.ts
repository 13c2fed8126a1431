import { describe, expect, it } from '@jest/globals';
import { busiestLeader } from '../../src/cluster/broker-faults.js';
import { proxiesOf } from '../../src/cluster/network-faults.js';

describe('busiestLeader', () => {
  it.each([
    [[1, 2, 2, 3], 2],
    [[3, 3, 1, 1], 1],
    [[2], 2],
  ])('of the partitions led by %j is broker %i', (leaders, broker) => {
    expect(busiestLeader(leaders)).toBe(broker);
  });

  it('refuses a topic no broker leads', () => {
    expect(() => busiestLeader([])).toThrow('no partition with a leader');
  });
});

describe('proxiesOf', () => {
  it('is one proxy per broker for Kafka, the part itself otherwise (stack.sh names them so)', () => {
    expect(proxiesOf('kafka', 3)).toEqual(['kafka-1', 'kafka-2', 'kafka-3']);
    expect(proxiesOf('mongo', 3)).toEqual(['mongo']);
  });
});
