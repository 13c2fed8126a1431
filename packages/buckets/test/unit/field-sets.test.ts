import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { fieldSetKey, fieldSetKeyOf, fieldSetNames, secondCountsOf } from '../../src/index.js';

describe('field-set keys', () => {
  it.each([
    [[], ''],
    [['speed'], 'speed'],
    [['travel_time', 'speed'], 'speed,travel_time'],
    [['a,b', 'c'], 'a\\,b,c'],
    [['back\\slash', 'Z'], 'Z,back\\\\slash'],
  ])('%j → %s', (names, key) => {
    expect(fieldSetKeyOf(names)).toBe(key);
    expect(fieldSetNames(key)).toEqual([...names].sort());
  });

  const namesArb = fc.uniqueArray(
    fc.string({ minLength: 1, maxLength: 6, unit: fc.constantFrom('a', 'b', ',', '\\', 'x', '_') }),
    { maxLength: 5 },
  );

  it('round-trips any set of names, and the hot path agrees with the sorted one', () => {
    fc.assert(
      fc.property(namesArb, (names) => {
        const fields = Object.fromEntries(names.map((name, i) => [name, i]));
        expect(fieldSetKey(fields)).toBe(fieldSetKeyOf(names));
        expect(fieldSetNames(fieldSetKeyOf(names))).toEqual([...names].sort());
      }),
    );
  });

  it('gives distinct sets distinct keys', () => {
    fc.assert(
      fc.property(namesArb, namesArb, (a, b) => {
        const same = [...a].sort().join('\u0000') === [...b].sort().join('\u0000');
        expect(fieldSetKeyOf(a) === fieldSetKeyOf(b)).toBe(same);
      }),
    );
  });
});

describe('secondCountsOf', () => {
  it('adds the counts of every field set that holds the field, and skips zeros', () => {
    const counts = {
      'speed,travel': { '0': 2, '5': 1, '7': 0 },
      speed: { '5': 3 },
      travel: { '9': 4 },
    };
    expect([...secondCountsOf(counts, 'speed')].sort((a, b) => a[0] - b[0])).toEqual([
      [0, 2],
      [5, 4],
    ]);
    expect([...secondCountsOf(counts, 'travel')].sort((a, b) => a[0] - b[0])).toEqual([
      [0, 2],
      [5, 1],
      [9, 4],
    ]);
    expect(secondCountsOf(undefined, 'speed').size).toBe(0);
  });
});
