import { describe, expect, it } from '@jest/globals';
import type { Format } from '@tickertape/answers';
import { negotiateFormat } from '../../src/formats/answer-format.js';

describe('negotiateFormat', () => {
  const CSV = 'text/csv';
  const ARROW = 'application/vnd.apache.arrow.stream';
  it.each<[string, Format | undefined, string | undefined, Format]>([
    ['no format, no Accept: JSON', undefined, undefined, 'json'],
    ['Accept text/csv', undefined, CSV, 'csv'],
    ['Accept the Arrow stream', undefined, ARROW, 'arrow'],
    ['Accept with parameters and another case', undefined, 'Text/CSV; charset=utf-8', 'csv'],
    ['application/json', undefined, 'application/json', 'json'],
    ['anything else: JSON', undefined, 'text/html,application/xhtml+xml', 'json'],
    ['wildcards: JSON', undefined, '*/*', 'json'],
    ['text/* is no request for CSV', undefined, 'text/*', 'json'],
    ['the higher quality wins', undefined, `${CSV};q=0.5, ${ARROW};q=0.9`, 'arrow'],
    ['JSON preferred by quality', undefined, `${CSV};q=0.5, application/json`, 'json'],
    ['on a tie, the first named', undefined, `${ARROW}, ${CSV}`, 'arrow'],
    ['q=0 refuses a type', undefined, `${CSV};q=0`, 'json'],
    ['an unreadable q counts as 0', undefined, `${CSV};q=high`, 'json'],
    ['format= wins over Accept', 'json', CSV, 'json'],
    ['format=csv without Accept', 'csv', undefined, 'csv'],
    ['format=arrow over Accept CSV', 'arrow', CSV, 'arrow'],
  ])('%s', (_case, format, accept, chosen) => {
    expect(negotiateFormat(format, accept)).toBe(chosen);
  });
});
