import { describe, expect, it } from '@jest/globals';
import { parseInstant, parseLastMinutes } from '../../src/instant.js';

describe('parseInstant', () => {
  it.each<[string, number]>([
    ['0', 0],
    ['1795255200000', 1795255200000],
    ['2026-11-21', Date.UTC(2026, 10, 21)],
    ['2026-11-21T10:00', Date.UTC(2026, 10, 21, 10)],
    ['2026-11-21T10:00Z', Date.UTC(2026, 10, 21, 10)],
    ['2026-11-21T10:00:05Z', Date.UTC(2026, 10, 21, 10, 0, 5)],
    ['2026-11-21T10:00:05.25Z', Date.UTC(2026, 10, 21, 10, 0, 5, 250)],
    ['2026-11-21T10:00:05.123456789Z', Date.UTC(2026, 10, 21, 10, 0, 5, 123)],
    ['2026-11-21T10:00:00+01:00', Date.UTC(2026, 10, 21, 9)],
    ['2026-11-21T10:00:00-0530', Date.UTC(2026, 10, 21, 15, 30)],
    ['2028-02-29T00:00:00Z', Date.UTC(2028, 1, 29)],
    ['253402300799999', Date.UTC(9999, 11, 31, 23, 59, 59, 999)],
  ])('reads %s', (text, ms) => {
    expect(parseInstant(text)).toBe(ms);
  });

  it('reads a time without an offset as UTC, whatever the server zone', () => {
    expect(parseInstant('2026-07-01T12:00:00')).toBe(parseInstant('2026-07-01T12:00:00Z'));
  });

  it.each([
    '',
    'yesterday',
    'now',
    '-1',
    '1e12',
    '12345678901234567',
    // past year 9999: JavaScript's dates end at 8.64e15 ms (a 500 in the reader, issue 37)
    '9999999999999999',
    '253402300800000',
    '2026-02-30',
    '2027-02-29',
    '2026-13-01',
    '2026-11-21T24:00Z',
    '2026-11-21T10:60Z',
    '2026-11-21T10:00:00+24:00',
    '2026-11-21T10:00:00+01:75',
    '2026-11-21 10:00',
    'Sat, 21 Nov 2026 10:00:00 GMT',
    '21/11/2026',
  ])('refuses %j', (text) => {
    expect(parseInstant(text)).toBeUndefined();
  });
});

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
