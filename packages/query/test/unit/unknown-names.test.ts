import { describe, expect, it } from '@jest/globals';
import { nearest } from '../../src/unknown-names.js';

describe('nearest: the known names a typo may have meant', () => {
  it.each([
    ['sped', ['speed', 'count', 'price'], ['speed']],
    ['pirce', ['price', 'speed'], ['price']],
    ['speed', ['speed', 'sped'], ['sped']],
    ['volume', ['speed', 'count', 'price'], []],
    ['s', ['a', 'b', 'c', 'd'], ['a', 'b', 'c']],
    [
      'traffic|road=I80,sensor=s4',
      ['traffic|road=I80,sensor=s1', 'traffic|road=I90,sensor=s3'],
      ['traffic|road=I80,sensor=s1', 'traffic|road=I90,sensor=s3'],
    ],
  ])('%s among %j: %j', (name, known, expected) => {
    expect(nearest(name, known)).toEqual(expected);
  });
});
