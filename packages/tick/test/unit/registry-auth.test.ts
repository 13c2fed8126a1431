import { describe, expect, it } from '@jest/globals';
import { registryAuthHeaders } from '../../src/index.js';

describe('registryAuthHeaders', () => {
  it.each([
    [{ url: 'http://r' }, {}],
    [
      { url: 'https://r', username: 'key', password: 'secret' },
      { Authorization: `Basic ${Buffer.from('key:secret').toString('base64')}` },
    ],
    [{ url: 'https://r', username: 'key' }, { Authorization: `Basic ${btoa('key:')}` }],
  ])('%j → %j', (endpoint, headers) => {
    expect(registryAuthHeaders(endpoint)).toEqual(headers);
  });
});
