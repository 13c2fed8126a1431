import { accessSync, constants } from 'node:fs';
import { z } from 'zod';
import { flag, stackShape } from './fields.js';

export const SASL_MECHANISMS = ['plain', 'scram-sha-256', 'scram-sha-512'] as const;
export type SaslMechanism = (typeof SASL_MECHANISMS)[number];

/**
 * A file this process can read, checked at start: a wrong path then stops the service naming
 * the variable, instead of surfacing as a TLS failure on the first connection. Paths are not
 * secrets, so the message repeats it.
 */
export const readableFile = () =>
  z.string().check((ctx) => {
    try {
      accessSync(ctx.value, constants.R_OK);
    } catch (err) {
      const reason = (err as NodeJS.ErrnoException).code ?? 'unreadable';
      ctx.issues.push({
        code: 'custom',
        input: ctx.value,
        message: `cannot read ${ctx.value} (${reason})`,
      });
    }
  });

/** Case-insensitive: Confluent's docs spell them `PLAIN`, `SCRAM-SHA-512`, kafkajs lower case. */
const saslMechanism = () =>
  z
    .string()
    .transform((text) => text.toLowerCase())
    .pipe(z.enum(SASL_MECHANISMS, `must be one of ${SASL_MECHANISMS.join(', ')}`));

/**
 * How a service reaches a secured Kafka (docs/security.md). Unset, it speaks PLAINTEXT without
 * authentication, as the local stack does. Spread into a schema together with
 * `checkKafkaSecurity`, which checks the variables against each other.
 */
export const kafkaSecurityShape = {
  /** TLS to the brokers (`SSL` or `SASL_SSL`), against the system's trusted CAs unless a CA file is given. */
  KAFKA_SSL: flag().default(false),
  /** PEM file of the CA that signed the brokers' certificates (a private CA). */
  KAFKA_SSL_CA_FILE: readableFile().optional(),
  /** PEM client certificate and its key, both or neither: mutual TLS. */
  KAFKA_SSL_CERT_FILE: readableFile().optional(),
  KAFKA_SSL_KEY_FILE: readableFile().optional(),
  /** `false` accepts any broker certificate. Only for a test broker with a throwaway certificate. */
  KAFKA_SSL_REJECT_UNAUTHORIZED: flag().default(true),
  /** `plain`, `scram-sha-256` or `scram-sha-512`; needs the username and password below. */
  KAFKA_SASL_MECHANISM: saslMechanism().optional(),
  KAFKA_SASL_USERNAME: z.string().optional(),
  /** Never logged, never repeated in an error. */
  KAFKA_SASL_PASSWORD: z.string().optional(),
} as const;

export type KafkaSecurityEnv = z.output<z.ZodObject<typeof kafkaSecurityShape>>;

/** Basic auth for the Schema Registry (Confluent Cloud: an API key and secret). */
export const registryAuthShape = {
  SCHEMA_REGISTRY_USERNAME: z.string().optional(),
  /** Never logged, never repeated in an error. */
  SCHEMA_REGISTRY_PASSWORD: z.string().optional(),
} as const;

export type RegistryAuthEnv = z.output<z.ZodObject<typeof registryAuthShape>>;

/** The brokers and how to reach them: what a service that talks to Kafka spreads in. */
export const kafkaShape = { KAFKA_BROKERS: stackShape.KAFKA_BROKERS, ...kafkaSecurityShape };
/** The registry and its credentials. */
export const registryShape = {
  SCHEMA_REGISTRY_URL: stackShape.SCHEMA_REGISTRY_URL,
  ...registryAuthShape,
};

interface CheckContext<T> {
  value: T;
  issues: z.core.$ZodRawIssue[];
}

function requireBoth<T>(
  ctx: CheckContext<T>,
  what: string,
  pair: [keyof T & string, keyof T & string],
) {
  const [a, b] = pair;
  const set = (key: keyof T) => ctx.value[key] !== undefined;
  for (const [present, missing] of [
    [a, b],
    [b, a],
  ] as const) {
    if (set(present) && !set(missing)) {
      ctx.issues.push({
        code: 'custom',
        input: '[redacted]',
        path: [missing],
        message: `is required with ${present} (${what})`,
      });
    }
  }
}

/**
 * The Kafka security variables checked against each other, as an object-level zod check: each
 * problem names the variable to set. Credentials without a mechanism, or CA/cert files without
 * KAFKA_SSL, are refused rather than ignored: a half-configured client would otherwise connect
 * in clear text, or fail later with a broker error that names nothing.
 */
export function checkKafkaSecurity(ctx: CheckContext<KafkaSecurityEnv>): void {
  const env = ctx.value;
  const issue = (variable: keyof KafkaSecurityEnv, message: string) =>
    ctx.issues.push({ code: 'custom', input: '[redacted]', path: [variable], message });
  if (env.KAFKA_SASL_MECHANISM !== undefined) {
    if (env.KAFKA_SASL_USERNAME === undefined)
      issue(
        'KAFKA_SASL_USERNAME',
        `is required with KAFKA_SASL_MECHANISM=${env.KAFKA_SASL_MECHANISM}`,
      );
    if (env.KAFKA_SASL_PASSWORD === undefined)
      issue(
        'KAFKA_SASL_PASSWORD',
        `is required with KAFKA_SASL_MECHANISM=${env.KAFKA_SASL_MECHANISM}`,
      );
  } else {
    const given = (['KAFKA_SASL_USERNAME', 'KAFKA_SASL_PASSWORD'] as const).filter(
      (variable) => env[variable] !== undefined,
    );
    if (given.length > 0)
      issue(
        'KAFKA_SASL_MECHANISM',
        `is required with ${given.join(' and ')} (${SASL_MECHANISMS.join(', ')})`,
      );
  }
  requireBoth(ctx, 'mutual TLS', ['KAFKA_SSL_CERT_FILE', 'KAFKA_SSL_KEY_FILE']);
  if (!env.KAFKA_SSL) {
    for (const variable of [
      'KAFKA_SSL_CA_FILE',
      'KAFKA_SSL_CERT_FILE',
      'KAFKA_SSL_KEY_FILE',
    ] as const) {
      if (env[variable] !== undefined) issue('KAFKA_SSL', `must be true when ${variable} is set`);
    }
  }
}

/** Registry username and password together or not at all. */
export function checkRegistryAuth(ctx: CheckContext<RegistryAuthEnv>): void {
  requireBoth(ctx, 'registry basic auth', ['SCHEMA_REGISTRY_USERNAME', 'SCHEMA_REGISTRY_PASSWORD']);
}

/**
 * Both checks, for a schema with `kafkaShape` and/or `registryShape` (absent variables pass):
 * `z.object({…}).check(checkSecurity)`.
 */
export function checkSecurity(ctx: CheckContext<KafkaSecurityEnv & RegistryAuthEnv>): void {
  checkKafkaSecurity(ctx);
  checkRegistryAuth(ctx);
}

function presentVars<T extends object>(env: T, keys: readonly (keyof T & string)[]) {
  const vars: Record<string, string> = {};
  for (const key of keys) {
    const value = env[key];
    if (value !== undefined) vars[key] = String(value);
  }
  return vars;
}

/**
 * The parsed settings written back as variables, for a process that starts others with the same
 * access (the bench's worker processes). Unset stays unset.
 */
export function kafkaSecurityVars(env: KafkaSecurityEnv): Record<string, string> {
  return presentVars(env, Object.keys(kafkaSecurityShape) as (keyof KafkaSecurityEnv)[]);
}

export function registryAuthVars(env: RegistryAuthEnv): Record<string, string> {
  return presentVars(env, Object.keys(registryAuthShape) as (keyof RegistryAuthEnv)[]);
}

/** Registry address and credentials in the shape the registry client and the codec take. */
export function registryEndpoint(env: RegistryAuthEnv & { SCHEMA_REGISTRY_URL: string }): {
  url: string;
  username?: string;
  password?: string;
} {
  return env.SCHEMA_REGISTRY_USERNAME === undefined
    ? { url: env.SCHEMA_REGISTRY_URL }
    : {
        url: env.SCHEMA_REGISTRY_URL,
        username: env.SCHEMA_REGISTRY_USERNAME,
        password: env.SCHEMA_REGISTRY_PASSWORD ?? '',
      };
}
