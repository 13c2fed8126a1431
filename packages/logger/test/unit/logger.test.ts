import { describe, expect, it } from '@jest/globals';
import { Writable } from 'node:stream';
import { createLogger, redactUrl } from '../../src/index.js';

function capture() {
  const lines: Record<string, unknown>[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
      done();
    },
  });
  return { lines, destination };
}

describe('createLogger', () => {
  it('writes JSON lines with name, level label and ISO time', () => {
    const { lines, destination } = capture();
    createLogger({ name: 'rollup-worker', destination }).info({ batch: 3 }, 'flushed');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      name: 'rollup-worker',
      level: 'info',
      batch: 3,
      msg: 'flushed',
    });
    expect(String(lines[0]?.time)).toMatch(/^\d{4}-\d\d-\d\dT/);
  });

  it('censors secrets at the top level and one object down', () => {
    const { lines, destination } = capture();
    const log = createLogger({ name: 't', destination });
    log.info({
      password: 'hunter2',
      kafka: { sasl: { username: 'u', password: 'p' } },
      api: { token: 'abc' },
    });
    const text = JSON.stringify(lines);
    expect(text).not.toContain('hunter2');
    expect(text).not.toContain('"abc"');
    expect(lines[0]).toMatchObject({
      password: '[redacted]',
      kafka: { sasl: '[redacted]' },
      api: { token: '[redacted]' },
    });
  });

  it('censors authorization headers of requests', () => {
    const { lines, destination } = capture();
    createLogger({ name: 't', destination }).info({
      req: { headers: { authorization: 'Bearer s3cret' } },
    });
    expect(JSON.stringify(lines)).not.toContain('s3cret');
  });

  it('respects the level', () => {
    const { lines, destination } = capture();
    const log = createLogger({ name: 't', level: 'warn', destination });
    log.info('hidden');
    log.warn('shown');
    expect(lines.map((line) => line.msg)).toEqual(['shown']);
  });
});

describe('redactUrl', () => {
  it.each([
    ['mongodb://app:pw@db:27017/ticks', 'mongodb://app:%5Bredacted%5D@db:27017/ticks'],
    ['redis://:pw@cache:6379', 'redis://:%5Bredacted%5D@cache:6379'],
    ['mongodb://app:pw@h1:27017,h2:27017/x', 'mongodb://app:[redacted]@h1:27017,h2:27017/x'],
    ['http://registry:8081/apis/ccompat/v7', 'http://registry:8081/apis/ccompat/v7'],
    ['https://r/x?apiToken=t0k', 'https://r/x?apiToken=%5Bredacted%5D'],
    // Atlas: SRV record, TLS implied; and a seed list with TLS and authSource.
    [
      'mongodb+srv://app:pw@cluster0.ab1cd.mongodb.net/ticks?retryWrites=true&w=majority',
      'mongodb+srv://app:%5Bredacted%5D@cluster0.ab1cd.mongodb.net/ticks?retryWrites=true&w=majority',
    ],
    [
      'mongodb://app:pw@h1:27017,h2:27017/x?tls=true&authSource=admin',
      'mongodb://app:[redacted]@h1:27017,h2:27017/x?tls=true&authSource=admin',
    ],
    ['mongodb://app:p%40pw@db/x', 'mongodb://app:%5Bredacted%5D@db/x'],
    // Redis 6 ACL user, TLS, database number.
    [
      'rediss://default:pw@cache.example.com:6380/0',
      'rediss://default:%5Bredacted%5D@cache.example.com:6380/0',
    ],
    ['redis://ticker:pw@cache:6379/2', 'redis://ticker:%5Bredacted%5D@cache:6379/2'],
    [
      'https://key:pw@psrc-1.aws.confluent.cloud',
      'https://key:%5Bredacted%5D@psrc-1.aws.confluent.cloud/',
    ],
    [
      'mongodb://app@db/x?authMechanism=MONGODB-X509',
      'mongodb://app@db/x?authMechanism=MONGODB-X509',
    ],
  ])('%s → %s', (input, expected) => {
    expect(redactUrl(input)).toBe(expected);
    expect(redactUrl(input)).not.toMatch(/:pw@|t0k/);
  });
});
