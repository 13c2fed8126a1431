import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { TestStack, freePort, spawnService, waitHealthy } from '@tickertape/testing';
import { fileURLToPath } from 'node:url';
import { testDatabase } from '@tickertape/store/testing';

const apiDir = fileURLToPath(new URL('../..', import.meta.url));
const TOKEN = 'process-token-0123456789';

describe('api process', () => {
  let stack: TestStack;
  let base: Record<string, string>;

  beforeAll(async () => {
    stack = await TestStack.open('api-process');
    base = {
      API_TOKENS: TOKEN,
      MONGODB_URI: stack.env.MONGODB_URI,
      MONGODB_DATABASE: testDatabase(stack).databaseName,
      // Nothing listens here: lag is unknown, reads must not care.
      KAFKA_BROKERS: `127.0.0.1:${await freePort()}`,
      LOG_LEVEL: 'info',
      STARTUP_TIMEOUT_MS: '3000',
    };
  });
  afterAll(() => stack.close());

  it.each([
    [
      'a token shorter than 16 characters',
      { API_TOKENS: `${TOKEN},short-secret` },
      'API_TOKENS',
      'short-secret',
    ],
    ['no token at all', { API_TOKENS: '' }, 'API_TOKENS', undefined],
    [
      'a scoped token with an empty scope entry',
      {
        API_TOKENS: `${TOKEN},scoped-secret-0123456789:weather.*||traffic`,
        CACHE_SCOPE: 'private',
      },
      'API_TOKENS',
      'scoped-secret-0123456789',
    ],
    [
      'a scoped token with answers public to shared caches',
      // Private is the default: public must be asked for, and a scoped token refuses it.
      { API_TOKENS: `${TOKEN},scoped-secret-0123456789:weather.*`, CACHE_SCOPE: 'public' },
      'CACHE_SCOPE',
      'scoped-secret-0123456789',
    ],
    ['an unknown level', { LEVELS: 'minute,week' }, 'LEVELS', undefined],
    ['a port that is not a number', { HTTP_PORT: 'http' }, 'HTTP_PORT', undefined],
    ['a limit of zero', { MAX_DOCUMENTS: '0' }, 'MAX_DOCUMENTS', undefined],
    ['an unreachable database', { MONGODB_URI: 'mongodb://127.0.0.1:9' }, 'MONGODB_URI', undefined],
  ])(
    'stops at start on %s, naming the variable (exit 1)',
    async (_case, env, variable, secret) => {
      const api = spawnService(apiDir, { ...base, ...env });
      expect((await api.exited).code).toBe(1);
      expect(api.output()).toContain(variable);
      expect(api.output()).not.toContain(TOKEN);
      if (secret) expect(api.output()).not.toContain(secret);
    },
    30_000,
  );

  it('answers reads with Kafka down (lag null), then stops cleanly on SIGTERM', async () => {
    const port = await freePort();
    const api = spawnService(apiDir, { ...base, HTTP_PORT: String(port) });
    const url = `http://127.0.0.1:${port}`;
    try {
      await waitHealthy(api, `${url}/health`);
      const levels = await fetch(`${url}/api/v1/levels`, {
        headers: { Authorization: `Bearer ${TOKEN}` },
      });
      expect(levels.status).toBe(200);
      expect(await levels.json()).toEqual({
        levels: ['minute', 'hour', 'day'].map((level) => ({
          level,
          finalBefore: null,
          lag: null,
          skips: [],
          compact: [],
          pinned: [],
        })),
        sketches: [],
        sketchAlpha: [],
        weights: [],
        autoSkips: [],
      });
      const refused = await fetch(`${url}/api/v1/levels`);
      expect(refused.status).toBe(401);
    } finally {
      api.child.kill('SIGTERM');
    }
    expect(await api.exited).toEqual({ code: 0, signal: null });
    expect(api.output()).toContain('"msg":"api started"');
    expect(api.output()).toContain('"msg":"api stopped"');
    expect(api.output()).not.toContain(TOKEN);
  }, 90_000);
});
