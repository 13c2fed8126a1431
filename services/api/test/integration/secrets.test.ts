import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { TestStack, freePort, spawnService, waitHealthy } from '@tickertape/testing';
import { Partitioners } from 'kafkajs';
import { fileURLToPath } from 'node:url';
import { testDatabase } from '@tickertape/store/testing';

const apiDir = fileURLToPath(new URL('../..', import.meta.url));
const TOKEN = 'secrets-token-0a1b2c3d4e5f';
const OTHER_TOKEN = 'secrets-token-f5e4d3c2b1a0';
const MONGO_PASSWORD = 'api-mongo-secret-9e8d';

// The API as a process with real secrets in its environment: SASL to Kafka for lag, two
// tokens. Every answer (bodies and headers) and every line it writes is searched for them.
describe('api process with secrets', () => {
  let stack: TestStack;
  let base: Record<string, string>;
  let secrets: string[];

  beforeAll(async () => {
    stack = await TestStack.open('api-secrets');
    const topic = await stack.createTopic();
    const producer = stack.kafka.producer({ createPartitioner: Partitioners.DefaultPartitioner });
    await producer.connect();
    await producer.send({ topic, messages: [{ value: 'a' }, { value: 'b' }, { value: 'c' }] });
    await producer.disconnect();
    base = {
      API_TOKENS: `${TOKEN},${OTHER_TOKEN}`,
      MONGODB_URI: stack.env.MONGODB_URI,
      MONGODB_DATABASE: testDatabase(stack).databaseName,
      ...stack.saslEnv(),
      TOPIC: topic,
      GROUP_PREFIX: stack.name('group-'),
      LOG_LEVEL: 'debug',
      STARTUP_TIMEOUT_MS: '5000',
    };
    secrets = [TOKEN, OTHER_TOKEN, stack.saslListener().password, MONGO_PASSWORD];
  });
  afterAll(() => stack.close());

  const expectNoSecret = (text: string) => {
    for (const secret of secrets) expect(text).not.toContain(secret);
  };

  it('reads lag over SASL, refuses requests without a valid token, and never shows a secret', async () => {
    const port = await freePort();
    const api = spawnService(apiDir, { ...base, HTTP_PORT: String(port) });
    const url = `http://127.0.0.1:${port}`;
    const answers: string[] = [];
    const get = async (path: string, authorization?: string) => {
      const res = await fetch(`${url}${path}`, {
        headers: authorization === undefined ? {} : { Authorization: authorization },
      });
      const body = await res.text();
      answers.push(JSON.stringify([...res.headers.entries()]), body);
      return { status: res.status, body, headers: res.headers };
    };
    try {
      await waitHealthy(api, `${url}/health`);
      // No group has committed: lag is every record of the topic, read through the SASL port.
      const levels = await get('/api/v1/levels', `Bearer ${TOKEN}`);
      expect(levels.status).toBe(200);
      expect(JSON.parse(levels.body)).toMatchObject({
        levels: [
          { level: 'minute', lag: 3 },
          { level: 'hour', lag: 3 },
          { level: 'day', lag: 3 },
        ],
      });
      for (const [authorization, message] of [
        [undefined, 'send Authorization: Bearer <token>'],
        [`Bearer ${TOKEN.slice(0, -1)}`, 'the bearer token is not one this API accepts'],
        [`Bearer ${TOKEN}x`, 'the bearer token is not one this API accepts'],
        [
          `Basic ${Buffer.from(`user:${TOKEN}`).toString('base64')}`,
          'send Authorization: Bearer <token>',
        ],
      ] as const) {
        const refused = await get('/api/v1/levels', authorization);
        expect(refused.status).toBe(401);
        expect(JSON.parse(refused.body)).toEqual({ error: 'unauthorized', message });
        expect(refused.headers.get('www-authenticate')).toBe('Bearer realm="tickertape"');
      }
      for (const path of ['/health', '/metrics', '/openapi.json', '/api/v1/nope'])
        await get(path, `Bearer ${OTHER_TOKEN}`);
    } finally {
      api.child.kill('SIGTERM');
    }
    expect(await api.exited).toEqual({ code: 0, signal: null });
    expectNoSecret(answers.join('\n'));
    expect(api.output()).toContain('"msg":"api started"');
    expectNoSecret(api.output());
  }, 90_000);

  it.each([
    ['a bad level', { LEVELS: 'minute,week' }, 'LEVELS'],
    ['a SASL password without mechanism', { KAFKA_SASL_MECHANISM: '' }, 'KAFKA_SASL_MECHANISM'],
    [
      'a MongoDB URI with credentials the stand-in cannot check',
      {},
      'DEPENDENCY_UNREACHABLE: MONGODB_URI=mongodb://app:%5Bredacted%5D@',
    ],
  ])(
    'stops at start on %s without printing a secret',
    async (_case, over: Record<string, string>, expected) => {
      const api = spawnService(apiDir, {
        ...base,
        MONGODB_URI: stack.env.MONGODB_URI.replace(
          'mongodb://',
          `mongodb://app:${MONGO_PASSWORD}@`,
        ),
        ...over,
      });
      expect((await api.exited).code).toBe(1);
      expect(api.output()).toContain(expected);
      expectNoSecret(api.output());
    },
    30_000,
  );
});
