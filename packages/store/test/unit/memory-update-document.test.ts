import { describe, expect, it } from '@jest/globals';
import { compareBson } from '../../src/memory/bson-order.js';
import { applyUpdate, matchesGuard } from '../../src/memory/update-document.js';

describe("the memory store's BSON order", () => {
  it.each([
    ['numbers', 1, 2, -1],
    ['-Infinity below every number', -Infinity, -1e308, -1],
    ['Infinity above every number', Infinity, 1e308, 1],
    ['NaN below every number', NaN, -Infinity, -1],
    ['a number below a string', 5, 'a', -1],
    ['strings by UTF-8 bytes, not UTF-16 units', '\u{1F600}', '\uFFFD', 1],
    ['marks by t first', { t: 1, o: 9, v: 9 }, { t: 2, o: 0, v: 0 }, -1],
    ['marks by o on equal t', { t: 1, o: 1, v: 9 }, { t: 1, o: 2, v: 0 }, -1],
    ['marks by v on equal t and o', { t: 1, o: 1, v: 3 }, { t: 1, o: 1, v: 2 }, 1],
    ["a shell's first above any mark", { t: Infinity }, { t: 1e15, o: 0, v: 0 }, 1],
    ["a shell's last below any mark", { t: -Infinity }, { t: -1e15, o: 0, v: 0 }, -1],
    ['a prefix first', { t: 1 }, { t: 1, o: 0 }, -1],
    ['Dates by time', new Date(2), new Date(1), 1],
  ])('%s', (_case, a, b, sign) => {
    expect(Math.sign(compareBson(a, b))).toBe(sign);
    expect(Math.sign(compareBson(b, a))).toBe(-sign);
  });
});

describe("the memory store's update documents", () => {
  it('applies $inc, $min, $max on dotted paths and $setOnInsert only on insert', () => {
    const doc: Record<string, unknown> = { _id: 'a' };
    const update = {
      $inc: { n: 1, 'f.x.sec.3': 5 },
      $min: { 'f.x.first': { t: 5, o: 1, v: 2 } },
      $max: { 'ap.0': 7 },
      $setOnInsert: { series: 's' },
    };
    applyUpdate(doc, update, true);
    applyUpdate(
      doc,
      { ...update, $min: { 'f.x.first': { t: 4, o: 9, v: 1 } }, $setOnInsert: { series: 'x' } },
      false,
    );
    expect(doc).toEqual({
      _id: 'a',
      series: 's',
      n: 2,
      f: { x: { sec: { '3': 10 }, first: { t: 4, o: 9, v: 1 } } },
      ap: { '0': 7 },
    });
  });

  it('the guard matches a missing mark or one below the flush, never one at or past it', () => {
    const filter = { _id: 'a', 'ap.3': { $not: { $gte: 10 } } };
    expect(matchesGuard(undefined, filter)).toBe(true);
    expect(matchesGuard({ _id: 'a' }, filter)).toBe(true);
    expect(matchesGuard({ _id: 'a', ap: { '3': 9 } }, filter)).toBe(true);
    expect(matchesGuard({ _id: 'a', ap: { '3': 10 } }, filter)).toBe(false);
    expect(matchesGuard({ _id: 'a', ap: { '3': 11 } }, filter)).toBe(false);
  });

  it('refuses what the layout never writes', () => {
    expect(() => applyUpdate({}, { $set: { a: 1 } } as never, false)).toThrow(/\$set/);
    expect(() => matchesGuard({}, { a: { $gt: 1 } })).toThrow(/only/);
  });
});
