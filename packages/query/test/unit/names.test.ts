import { describe, expect, it } from '@jest/globals';
import { checkName } from '../../src/limits.js';
import { QueryError, QueryErrorCode } from '../../src/index.js';

describe('checkName', () => {
  it.each([
    ['__proto__', 'invalid tag name "__proto__": it is a reserved name'],
    ['a.b', 'invalid tag name "a.b": it contains "."'],
    ['$where', 'invalid tag name "$where": it starts with "$"'],
  ])('refuses %p with its reason', (name, message) => {
    const refuse = () => checkName('tag', name);
    expect(refuse).toThrow(QueryError);
    expect(refuse).toThrow(message);
    expect(refuse).toThrow(expect.objectContaining({ code: QueryErrorCode.InvalidName }));
  });

  it('lets a name such as constructor through', () => {
    expect(() => checkName('field', 'constructor')).not.toThrow();
  });
});
