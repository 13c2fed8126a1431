import { describe, expect, it } from '@jest/globals';
import { QueryErrorCode, parseTagArgument, parseTagArguments } from '../../src/index.js';

describe('parseTagArguments: one tag syntax for --tag and tag= (docs/querying.md)', () => {
  it.each<[string[], Record<string, string>]>([
    [['sensor=s1'], { sensor: 's1' }],
    [['sensor:s1'], { sensor: 's1' }],
    [['sensor=s1', 'road:I80'], { sensor: 's1', road: 'I80' }],
    // split at the first separator: values may hold either
    [['url=http://host:80/a=b'], { url: 'http://host:80/a=b' }],
    [['url:http://host:80'], { url: 'http://host:80' }],
    [['sensor='], { sensor: '' }],
    // the same tag twice, written either way, is one tag
    [['sensor=s1', 'sensor:s1'], { sensor: 's1' }],
    [['__proto__=x'], { ['__proto__']: 'x' }],
  ])('reads %j', (texts, tags) => {
    const read = parseTagArguments(texts);
    expect(read).toEqual(tags);
    expect(Object.keys(read)).toEqual(Object.keys(tags));
  });

  it.each(['sensor', '=s1', ':s1', ''])('refuses %j, showing the accepted form', (text) => {
    expect(() => parseTagArgument(text, {}, '--tag')).toThrow(
      expect.objectContaining({
        code: QueryErrorCode.InvalidTag,
        message: expect.stringMatching(/^--tag: .* is not a tag; give key=value \(or key:value\)/),
      }),
    );
  });

  it('refuses one key with two values: no series has both', () => {
    expect(() => parseTagArguments(['sensor=s1', 'sensor:s2'])).toThrow(
      expect.objectContaining({
        code: QueryErrorCode.InvalidTag,
        message:
          'tag "sensor" is given twice with different values ("s1", "s2"); no series has both',
      }),
    );
  });
});
