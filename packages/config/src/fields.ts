import { createRequire } from 'node:module';
import type { ConnectionString as ConnectionStringClass } from 'mongodb-connection-string-url' with {
  'resolution-mode': 'require',
};
import { z } from 'zod';

const HOST_PORT = /^(?<host>\[[0-9a-fA-F:]+\]|[A-Za-z0-9.-]+):(?<port>\d{1,5})$/;

function validPort(text: string): boolean {
  const port = Number(text);
  return Number.isInteger(port) && port >= 1 && port <= 65535;
}

/** `host:port[,host:port…]` → list of brokers. */
export const kafkaBrokers = () =>
  z
    .string()
    .transform((text) =>
      text
        .split(',')
        .map((part) => part.trim())
        .filter((part) => part !== ''),
    )
    .check((ctx) => {
      if (ctx.value.length === 0) {
        ctx.issues.push({
          code: 'custom',
          input: ctx.value,
          message: 'needs at least one host:port',
        });
      }
      for (const broker of ctx.value) {
        const match = HOST_PORT.exec(broker);
        if (!match?.groups?.port || !validPort(match.groups.port)) {
          ctx.issues.push({
            code: 'custom',
            input: broker,
            message: `"${broker}" is not host:port`,
          });
        }
      }
    });

function urlWithProtocols(protocols: readonly string[]) {
  return z.string().check((ctx) => {
    let url: URL;
    try {
      url = new URL(ctx.value);
    } catch {
      ctx.issues.push({ code: 'custom', input: ctx.value, message: 'is not a URL' });
      return;
    }
    if (!protocols.includes(url.protocol)) {
      ctx.issues.push({
        code: 'custom',
        input: ctx.value,
        message: `must use ${protocols.map((p) => `${p}//`).join(' or ')}`,
      });
    }
  });
}

export const httpUrl = () => urlWithProtocols(['http:', 'https:']);
export const redisUrl = () => urlWithProtocols(['redis:', 'rediss:']);

// Required, not imported: the package types only its CommonJS entry.
const { ConnectionString } = createRequire(import.meta.url)('mongodb-connection-string-url') as {
  ConnectionString: typeof ConnectionStringClass;
};

/**
 * A MongoDB connection string, checked by the parser the driver itself parses with (scheme, host
 * list, credentials, percent-encoding). The driver checks the options' values when the store
 * opens; config does not link the driver (only the store's MongoDB folder does).
 */
export const mongoUri = () =>
  z.string().check((ctx) => {
    try {
      new ConnectionString(ctx.value);
    } catch (err) {
      const reason = err instanceof Error ? err.message : String(err);
      ctx.issues.push({
        code: 'custom',
        input: ctx.value,
        message: `is not a MongoDB URI (${reason})`,
      });
    }
  });

/** A MongoDB database name, short and plain enough for every deployment (Atlas allows 38). */
export const mongoDatabase = () =>
  z.string().regex(/^[A-Za-z0-9_-]{1,38}$/, 'letters, digits, _ or -, at most 38');

export const port = () => z.coerce.number().int().min(1).max(65535);
export const positiveInt = () => z.coerce.number().int().positive();
/** Milliseconds as an integer; `0` allowed (e.g. "no delay"). */
export const durationMs = () => z.coerce.number().int().nonnegative();
/** `true/false/1/0/yes/no/on/off`. */
export const flag = () => z.stringbool();
export const logLevel = () =>
  z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info');

/**
 * The four addresses every part of tickertape may need. Services spread the ones they use into
 * their own schema so each variable is declared once, with its check.
 */
export const stackShape = {
  /** Kafka bootstrap brokers, `host:port[,…]`. */
  KAFKA_BROKERS: kafkaBrokers(),
  /** Base URL of a Confluent-compatible Schema Registry API (Apicurio: …/apis/ccompat/v7). */
  SCHEMA_REGISTRY_URL: httpUrl(),
  /** MongoDB connection string. */
  MONGODB_URI: mongoUri(),
  /** Redis URL, `redis://` or `rediss://`. */
  REDIS_URL: redisUrl(),
} as const;

export const stackEnvSchema = z.object(stackShape);
export type StackEnv = z.output<typeof stackEnvSchema>;
