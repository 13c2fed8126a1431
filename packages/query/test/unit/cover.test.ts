import { describe, expect, it } from '@jest/globals';
import { LEVEL_SPECS, type Level } from '@tickertape/buckets';
import fc from 'fast-check';
import { coverUnitMs, planCover, type CoverPiece } from '../../src/index.js';

const at = (iso: string) => Date.parse(iso);
const M = 60_000;
const ALL: Level[] = ['minute', 'hour', 'day'];

/** The [from, to) instants a piece sums. */
function spanOf(piece: CoverPiece): [number, number] {
  const spec = LEVEL_SPECS[piece.level];
  if (!piece.sub) return [piece.start, piece.start + spec.slotMs];
  return [
    piece.start + piece.sub.from * spec.subSlotMs,
    piece.start + piece.sub.to * spec.subSlotMs,
  ];
}

const show = (pieces: CoverPiece[]) =>
  pieces.map((p) => {
    const iso = new Date(p.start).toISOString().slice(0, 16);
    return p.sub ? `${p.level} ${iso} [${p.sub.from},${p.sub.to})` : `${p.level} ${iso}`;
  });

describe('planCover', () => {
  it.each<[string, string, string, string[]]>([
    [
      '10 minutes inside one hour: one hour bucket',
      '2026-11-21T10:40:00Z',
      '2026-11-21T10:50:00Z',
      ['hour 2026-11-21T10:00 [40,50)'],
    ],
    [
      '10 minutes across an hour boundary: two hour buckets',
      '2026-11-21T10:55:00Z',
      '2026-11-21T11:05:00Z',
      ['hour 2026-11-21T10:00 [55,60)', 'hour 2026-11-21T11:00 [0,5)'],
    ],
    [
      '10 minutes across midnight (a day and a minute partition boundary)',
      '2026-11-21T23:55:00Z',
      '2026-11-22T00:05:00Z',
      ['hour 2026-11-21T23:00 [55,60)', 'hour 2026-11-22T00:00 [0,5)'],
    ],
    [
      'a whole hour: one day bucket, that hour',
      '2026-11-21T10:00:00Z',
      '2026-11-21T11:00:00Z',
      ['day 2026-11-21T00:00 [10,11)'],
    ],
    [
      'two days and ragged edges: hours from day buckets, minutes from hour buckets',
      '2026-11-20T10:30:00Z',
      '2026-11-22T14:15:00Z',
      [
        'hour 2026-11-20T10:00 [30,60)',
        'day 2026-11-20T00:00 [11,24)',
        'day 2026-11-21T00:00',
        'day 2026-11-22T00:00 [0,14)',
        'hour 2026-11-22T14:00 [0,15)',
      ],
    ],
  ])('%s', (_name, from, to, expected) => {
    expect(show(planCover(at(from), at(to), ALL))).toEqual(expected);
  });

  it('uses minute buckets when no hour level runs', () => {
    expect(
      show(planCover(at('2026-11-21T10:58:00Z'), at('2026-11-21T11:01:00Z'), ['minute', 'day'])),
    ).toEqual(['minute 2026-11-21T10:58', 'minute 2026-11-21T10:59', 'minute 2026-11-21T11:00']);
    expect(coverUnitMs(['minute', 'day'])).toBe(M);
    expect(coverUnitMs(['day'])).toBe(60 * M);
  });

  it('covers any aligned window exactly once, with at most two finer pieces per coarser edge', () => {
    const levelSets: Level[][] = [
      ALL,
      ['minute', 'hour'],
      ['hour', 'day'],
      ['minute', 'day'],
      ['day'],
    ];
    fc.assert(
      fc.property(
        fc.constantFrom(...levelSets),
        fc.integer({ min: 0, max: 3 * 24 * 60 }),
        fc.integer({ min: 1, max: 5 * 24 * 60 }),
        (levels, offsetUnits, lengthUnits) => {
          const unit = coverUnitMs(levels);
          const from = at('2026-11-19T00:00:00Z') + offsetUnits * unit;
          const to = from + lengthUnits * unit;
          const spans = planCover(from, to, levels)
            .map(spanOf)
            .sort((a, b) => a[0] - b[0]);
          let cursor = from;
          for (const [lo, hi] of spans) {
            expect(lo).toBe(cursor); // no hole, no overlap
            expect(hi).toBeGreaterThan(lo);
            cursor = hi;
          }
          expect(cursor).toBe(to);
        },
      ),
    );
  });

  it('reads one or two hour buckets for any 10-minute window', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 7 * 24 * 60 }), (minute) => {
        const from = at('2026-11-16T00:00:00Z') + minute * M;
        const pieces = planCover(from, from + 10 * M, ALL);
        expect(pieces.length).toBeLessThanOrEqual(2);
      }),
    );
  });
});
