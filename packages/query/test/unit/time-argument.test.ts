import { describe, expect, it } from '@jest/globals';
import {
  MAX_INSTANT_MS,
  TIME_DEFAULTS,
  TIME_FORMS,
  defaultRange,
  parseLastArgument,
  QueryErrorCode,
  isClockRelative,
  parseAbsoluteTime,
  parseTimeArgument,
} from '../../src/index.js';

const NOW = Date.UTC(2026, 10, 21, 12, 0, 0);
const MIN = 60_000;
const HOUR = 60 * MIN;
const read = (text: string, tz?: string) => parseTimeArgument(text, { nowMs: NOW, tz });

describe('parseTimeArgument: the forms every read accepts (docs/querying.md)', () => {
  it.each<[string, number]>([
    // now, and relative to it
    ['now', NOW],
    ['NOW', NOW],
    ['Now-15m', NOW - 15 * MIN],
    ['-15m', NOW - 15 * MIN],
    ['now-15m', NOW - 15 * MIN],
    ['now-1h30m', NOW - 90 * MIN],
    ['-1.5h', NOW - 90 * MIN],
    ['-2d', NOW - 48 * HOUR],
    ['-1w', NOW - 7 * 24 * HOUR],
    ['-500ms', NOW - 500],
    ['-30s', NOW - 30_000],
    ['+5m', NOW + 5 * MIN],
    ['now+5m', NOW + 5 * MIN],
    // epoch milliseconds
    ['0', 0],
    ['1795255200000', 1795255200000],
    ['253402300799999', MAX_INSTANT_MS],
    // RFC 3339 with an offset
    ['2026-11-21T10:00Z', Date.UTC(2026, 10, 21, 10)],
    ['2026-11-21t10:00:00z', Date.UTC(2026, 10, 21, 10)],
    ['2026-11-21T10:00:05.25Z', Date.UTC(2026, 10, 21, 10, 0, 5, 250)],
    ['2026-11-21T10:00:05.123456789Z', Date.UTC(2026, 10, 21, 10, 0, 5, 123)],
    ['2026-11-21T10:00:00+01:00', Date.UTC(2026, 10, 21, 9)],
    ['2026-11-21T10:00:00-0530', Date.UTC(2026, 10, 21, 15, 30)],
    ['2028-02-29T00:00:00Z', Date.UTC(2028, 1, 29)],
    // without an offset and without tz: UTC, whatever the machine's zone
    ['2026-11-21', Date.UTC(2026, 10, 21)],
    ['2026-11-21T10:00', Date.UTC(2026, 10, 21, 10)],
    ['2026-11-21T10:00:30.5', Date.UTC(2026, 10, 21, 10, 0, 30, 500)],
    ['0050-01-01T00:00Z', Date.parse('0050-01-01T00:00:00Z')],
  ])('reads %j', (text, ms) => {
    expect(read(text)).toBe(ms);
  });

  it.each<[string, string, number]>([
    // a time without an offset is the zone's wall time
    ['2026-11-21', 'Asia/Kolkata', Date.UTC(2026, 10, 20, 18, 30)],
    ['2026-03-08', 'America/Los_Angeles', Date.UTC(2026, 2, 8, 8)],
    ['2026-03-09', 'America/Los_Angeles', Date.UTC(2026, 2, 9, 7)],
    // a time the spring-forward skips lands as far after the jump (03:30 PDT)
    ['2026-03-08T02:30', 'America/Los_Angeles', Date.UTC(2026, 2, 8, 10, 30)],
    // an offset wins over the zone; so do now, relative and epoch times
    ['2026-11-21T10:00Z', 'Asia/Kolkata', Date.UTC(2026, 10, 21, 10)],
    ['-1h', 'Asia/Kolkata', NOW - HOUR],
    ['1795255200000', 'Asia/Kolkata', 1795255200000],
  ])('reads %j in %s', (text, tz, ms) => {
    expect(read(text, tz)).toBe(ms);
  });

  it.each([
    '',
    'yesterday',
    '-1',
    '-15',
    'now-',
    'now-15x',
    '15m',
    '1e12',
    '-1e3m',
    '12345678901234567',
    // past year 9999: JavaScript's dates end at 8.64e15 ms (a 500 in the reader, issue 37)
    '9999999999999999',
    '253402300800000',
    '-1000000000w',
    '2026-02-30',
    '2027-02-29',
    '2026-13-01',
    '2026-11-21T24:00Z',
    '2026-11-21T10:60Z',
    '2026-11-21T10:00:60Z',
    '2026-11-21T10:00:00+24:00',
    '2026-11-21T10:00:00+01:75',
    '2026-11-21 10:00',
    '2026-11-21Z',
    'Sat, 21 Nov 2026 10:00:00 GMT',
    '21/11/2026',
    ' now',
    'now - 15m',
    // units are lowercase: M reads as months to some
    '-15M',
    '-1H',
  ])('refuses %j, naming the parameter and the accepted forms', (text) => {
    expect(() => parseTimeArgument(text, { nowMs: NOW, name: 'from' })).toThrow(
      expect.objectContaining({
        code: QueryErrorCode.InvalidTime,
        retriable: false,
        message: expect.stringMatching(/^from: .* is not a time; give RFC 3339 .* now-1h30m/),
      }),
    );
  });

  it("names no parameter unless given one (the API's issues name it)", () => {
    expect(() => read('soon')).toThrow(/^"soon" is not a time; give RFC 3339/);
  });

  it('refuses an unknown zone for a time without an offset', () => {
    expect(() => read('2026-11-21', 'Mars/Olympus')).toThrow(
      expect.objectContaining({ code: QueryErrorCode.InvalidTimeZone }),
    );
  });

  it.each<[string, boolean]>([
    ['now', true],
    ['-1h', true],
    ['now+5m', true],
    ['2026-11-21', false],
    ['1795255200000', false],
    ['2026-11-21T10:00Z', false],
    ['junk', false],
  ])('isClockRelative(%j) is %s', (text, relative) => {
    expect(isClockRelative(text)).toBe(relative);
  });
});

describe('parseAbsoluteTime: a fixed instant, for a reader that holds no clock', () => {
  it.each<[string, string | undefined]>([
    ['2026-11-21T10:00:00.000Z', undefined],
    ['2026-11-21T10:00', 'Asia/Kolkata'],
    ['1795255200000', undefined],
  ])('reads %j (tz %s) as parseTimeArgument does', (text, tz) => {
    expect(parseAbsoluteTime(text, { tz })).toBe(read(text, tz));
  });

  it.each(['now', '-15m', 'now-1h30m', '+5m', 'soon'])(
    'refuses %j as any text it cannot read',
    (text) => {
      expect(() => parseAbsoluteTime(text, { name: 'to' })).toThrow(
        expect.objectContaining({
          code: QueryErrorCode.InvalidTime,
          message: `to: ${JSON.stringify(text)} is not a time; give ${TIME_FORMS}`,
        }),
      );
    },
  );
});

describe('defaultRange: where unset times fall, for the CLI and the API alike', () => {
  it.each<[number | undefined, number | undefined, number | undefined, [number, number]]>([
    [undefined, undefined, undefined, [NOW - HOUR, NOW]],
    [NOW - 5 * HOUR, undefined, undefined, [NOW - 5 * HOUR, NOW]],
    // `to` alone still names a range: the hour before it
    [undefined, NOW - 24 * HOUR, undefined, [NOW - 25 * HOUR, NOW - 24 * HOUR]],
    [undefined, undefined, TIME_DEFAULTS.seriesSpanMs, [NOW - 7 * 24 * HOUR, NOW]],
    [7, 9, TIME_DEFAULTS.seriesSpanMs, [7, 9]],
  ])('from %p, to %p, span %p', (from, to, span, [fromMs, toMs]) => {
    expect(defaultRange(from, to, NOW, span)).toEqual({ fromMs, toMs });
  });
});

describe('parseLastArgument: a window length, for --last and last= alike', () => {
  it.each<[string, number]>([
    ['10m', 10],
    ['1m', 1],
    ['6h', 360],
    ['1.5h', 90],
    ['1h30m', 90],
    ['120s', 2],
    ['7d', 10_080],
    ['1w', 10_080],
    ['3660d', 3660 * 1440],
  ])('reads %j as %i minutes', (text, minutes) => {
    expect(parseLastArgument(text)).toBe(minutes);
  });

  it.each(['', '0m', '10', 'm', '10s', '90s', '-5m', '10M', '3661d', '99999999m', 'ten minutes'])(
    'refuses %j, naming the parameter and the forms',
    (text) => {
      expect(() => parseLastArgument(text, 'last')).toThrow(
        expect.objectContaining({
          code: QueryErrorCode.InvalidTime,
          message: `last: ${JSON.stringify(text)} is not a window length; give whole minutes with units, such as 10m, 2h, 1h30m, 7d or 1w`,
        }),
      );
    },
  );
});
