import { describe, expect, it } from '@jest/globals';
import { Readable } from 'node:stream';
import { parse } from 'csv-parse/sync';
import { csvCells, parseCsvHeader, parseCsvTick } from '../../src/lines/csv.js';
import { BadInputError, BadLineError } from '../../src/lines/input-error.js';
import { parseJsonTick } from '../../src/lines/jsonl.js';
import { readLines } from '../../src/lines/lines.js';
import { parseTimestamp } from '../../src/lines/timestamp.js';

const TS = Date.UTC(2026, 10, 21, 8, 0, 0);

describe('parseTimestamp', () => {
  it.each([
    [TS, TS],
    [String(TS), TS],
    ['2026-11-21T08:00:00Z', TS],
    ['2026-11-21T08:00:00.250Z', TS + 250],
    ['2026-11-21T09:00:00+01:00', TS],
    ['2026-11-21T09:00+0100', TS],
    ['2026-11-21', Date.UTC(2026, 10, 21)],
  ])('reads %p as %p', (input, ms) => {
    expect(parseTimestamp(input)).toBe(ms);
  });

  it.each([
    ['2026-11-21T08:00:00', /ISO-8601 time with a zone/], // local time: ambiguous
    ['yesterday', /neither/],
    [1.5, /whole milliseconds/],
    [undefined, /no ts/],
    ['', /no ts/],
    [null, /neither/],
  ])('refuses %p', (input, message) => {
    expect(() => parseTimestamp(input)).toThrow(BadLineError);
    expect(() => parseTimestamp(input)).toThrow(message);
  });
});

describe('parseJsonTick', () => {
  it('reads a full line', () => {
    expect(
      parseJsonTick(
        '{"metric":"traffic","tags":{"sensor":"900006"},"ts":"2026-11-21T08:00:00Z","fields":{"speed":63},"strings":{"conditions":"rain"},"source":"feed"}',
      ),
    ).toEqual({
      metric: 'traffic',
      tags: { sensor: '900006' },
      ts: TS,
      fields: { speed: 63 },
      strings: { conditions: 'rain' },
      source: 'feed',
    });
  });

  it('defaults tags and strings to empty', () => {
    expect(parseJsonTick(`{"metric":"m","ts":${TS},"fields":{"v":1}}`)).toEqual({
      metric: 'm',
      tags: {},
      ts: TS,
      fields: { v: 1 },
      strings: {},
    });
  });

  it.each([
    ['{"metric":', /not JSON/],
    ['[1,2]', /not a JSON object/],
    ['42', /not a JSON object/],
    [`{"metric":"m","ts":${TS},"feilds":{"v":1}}`, /unknown key feilds/],
    ['{"metric":"m","fields":{"v":1}}', /no ts/],
  ])('reports %s', (line, message) => {
    expect(() => parseJsonTick(line)).toThrow(BadLineError);
    expect(() => parseJsonTick(line)).toThrow(message);
  });
});

describe('CSV', () => {
  const layout = parseCsvHeader(
    'metric,ts,tag:sensor,tag:segment,field:speed,field:travel_time,string:conditions',
  );

  it('reads a line by its header', () => {
    expect(
      parseCsvTick(layout, 'traffic,2026-11-21T08:00:00Z,900006,I80_mile34,63.5,57,rain'),
    ).toEqual({
      metric: 'traffic',
      tags: { sensor: '900006', segment: 'I80_mile34' },
      ts: TS,
      fields: { speed: 63.5, travel_time: 57 },
      strings: { conditions: 'rain' },
    });
  });

  it('takes columns in any order, quoted cells with commas, and leaves empty cells out', () => {
    const reordered = parseCsvHeader('field:price,tag:symbol,ts,metric,string:note');
    expect(parseCsvTick(reordered, `101.25,"AC,ME",${TS},stock.tick,`)).toEqual({
      metric: 'stock.tick',
      tags: { symbol: 'AC,ME' },
      ts: TS,
      fields: { price: 101.25 },
      strings: {},
    });
    expect(parseCsvTick(layout, `traffic,${TS},900006,,,57,`)).toMatchObject({
      tags: { sensor: '900006' },
      fields: { travel_time: 57 },
      strings: {},
    });
  });

  it('keeps a column named __proto__ as a key, for the producer to refuse by name', () => {
    const odd = parseCsvHeader('metric,ts,tag:__proto__,field:__proto__,field:v');
    const tick = parseCsvTick(odd, `m,${TS},x,1,2`);
    expect(Object.keys(tick.tags)).toEqual(['__proto__']);
    expect(Object.keys(tick.fields)).toEqual(['__proto__', 'v']);
    expect(Object.getPrototypeOf(tick.fields)).toBe(Object.prototype);
  });

  it.each([
    ['traffic,2026-11-21T08:00:00Z,900006', /3 cells, the header has 7/],
    ['traffic,later,900006,I80_mile34,63,57,rain', /neither/],
    ['traffic,1,900006,I80_mile34,fast,57,rain', /field:speed "fast" is not a number/],
    ['traffic,1,"9000,I80_mile34,63,57,rain', /not CSV/],
  ])('reports the line %s', (line, message) => {
    expect(() => parseCsvTick(layout, line)).toThrow(BadLineError);
    expect(() => parseCsvTick(layout, line)).toThrow(message);
  });

  it('cuts a line into the cells csv-parse gives, with or without quotes', () => {
    const alphabet = [
      'a',
      'Z',
      '7',
      '.',
      '-',
      ' ',
      '\t',
      ',',
      ',',
      ':',
      '"',
      'é',
      '\u00a0',
      '\u3000',
    ];
    let seed = 7;
    const next = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    const lines = [' a , b ,, c\t', ',,', 'x', ' \t ', '"a,b", c ', 'é, b', '\u00a0a,b\u00a0'];
    for (let i = 0; i < 2000; i++)
      lines.push(
        Array.from(
          { length: 1 + Math.floor(next() * 12) },
          () => alphabet[Math.floor(next() * alphabet.length)],
        ).join(''),
      );
    for (const line of lines) {
      // Blank lines never reach the parser (readTickLines skips them).
      if (line.trim() === '') continue;
      let expected: unknown;
      try {
        const rows: string[][] = parse(line, { relax_column_count: true, trim: true });
        expected = rows[0];
      } catch {
        expected = 'error';
      }
      let actual: unknown;
      try {
        actual = csvCells(line);
      } catch {
        actual = 'error';
      }
      expect([line, actual]).toEqual([line, expected]);
    }
  });

  it.each([
    ['ts,field:v', /no metric column/],
    ['metric,field:v', /no ts column/],
    ['metric,ts,tag:a', /no field:<key> column/],
    ['metric,ts,field:v,price', /unknown column "price"/],
    ['metric,ts,field:v,field:v', /repeats the column field:v/],
    ['metric,ts,field:', /unknown column "field:"/],
  ])('refuses the header %s', (header, message) => {
    expect(() => parseCsvHeader(header)).toThrow(BadInputError);
    expect(() => parseCsvHeader(header)).toThrow(message);
  });
});

describe('readLines', () => {
  it('numbers lines as an editor does, across CRLF, blank lines and a BOM', async () => {
    const input = Readable.from(['\uFEFFfirst\r\nsec', 'ond\r\n\r\nfourth\nfifth']);
    const lines = [];
    for await (const line of readLines(input)) lines.push(line);
    expect(lines).toEqual([
      { number: 1, text: 'first' },
      { number: 2, text: 'second' },
      { number: 3, text: '' },
      { number: 4, text: 'fourth' },
      { number: 5, text: 'fifth' },
    ]);
  });
});
