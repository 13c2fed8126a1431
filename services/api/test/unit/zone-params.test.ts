import { describe, expect, it } from '@jest/globals';
import {
  candlesQuerySchema,
  pointsQuerySchema,
  windowQuerySchema,
} from '../../src/query-schemas.js';

const messages = (result: { error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
  (result.error?.issues ?? []).map(
    (issue) => `${issue.path.map(String).join('.')}: ${issue.message}`,
  );

const points = { series: 'speed|sensor=s1', field: 'speed', from: '0' };

describe('tz and fill in the query strings', () => {
  it('takes an IANA zone on points, candles and window, and a fill mode on points', () => {
    expect(
      pointsQuerySchema.parse({ ...points, tz: 'Asia/Kolkata', fill: 'linear' }),
    ).toMatchObject({
      tz: 'Asia/Kolkata',
      fill: 'linear',
    });
    expect(candlesQuerySchema.parse({ ...points, tz: 'America/Los_Angeles' }).tz).toBe(
      'America/Los_Angeles',
    );
    expect(windowQuerySchema.parse({ series: 'a|b=c', field: 'x', from: '0', tz: 'UTC' }).tz).toBe(
      'UTC',
    );
  });

  it.each<[string, Record<string, unknown>, string]>([
    [
      'an unknown zone',
      { tz: 'Mars/Base' },
      'tz: "Mars/Base" is not a time zone; give an IANA zone such as America/Los_Angeles or Asia/Kolkata',
    ],
    ['a repeated zone', { tz: ['UTC', 'UTC'] }, 'tz: give it once (it is not repeatable)'],
    ['an unknown fill', { fill: 'zero' }, 'fill: must be null, previous, linear, given once'],
  ])('refuses %s naming the parameter', (_name, extra, message) => {
    expect(messages(pointsQuerySchema.safeParse({ ...points, ...extra }))).toEqual([message]);
  });

  it('has no fill on candles (a candle without ticks has no open or close)', () => {
    expect(messages(candlesQuerySchema.safeParse({ ...points, fill: 'null' }))).toEqual([
      expect.stringMatching(/fill|Unrecognized/),
    ]);
  });
});
