import { describe, expect, it } from '@jest/globals';
import { parseLastMinutes } from '../../src/instant.js';

describe('parseLastMinutes', () => {
  it.each<[string, number]>([
    ['10m', 10],
    ['1m', 1],
    ['6h', 360],
    ['7d', 10_080],
    ['3660d', 3660 * 1440],
  ])('reads %s as %i minutes', (text, minutes) => {
    expect(parseLastMinutes(text)).toBe(minutes);
  });

  it.each(['', '0m', '10', 'm', '10s', '1w', '1.5h', '-5m', '10M', '3661d', '99999999m'])(
    'refuses %j',
    (text) => {
      expect(parseLastMinutes(text)).toBeUndefined();
    },
  );
});
