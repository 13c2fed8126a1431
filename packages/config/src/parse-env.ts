import { ConfigError, type ConfigIssue } from '@tickertape/errors';
import type { z } from 'zod';
import { censor, secretValues } from './secret-values.js';

export type EnvSource = Readonly<Record<string, string | undefined>>;

/**
 * Parses an environment against a zod object schema and returns the typed config, or throws one
 * ConfigError naming every bad variable. Empty strings count as unset: compose files and CI
 * often pass `VAR=` for "not configured". Messages never carry a secret of `source`.
 */
export function parseEnv<S extends z.ZodType>(schema: S, source: EnvSource): z.output<S> {
  const cleaned: Record<string, string> = {};
  for (const [key, value] of Object.entries(source)) {
    if (value !== undefined && value !== '') cleaned[key] = value;
  }
  const result = schema.safeParse(cleaned);
  if (result.success) return result.data;
  const secrets = secretValues(cleaned);
  const issues: ConfigIssue[] = result.error.issues.map((issue) => ({
    variable: issue.path.length > 0 ? issue.path.map(String).join('.') : '(environment)',
    message: censor(issue.message, secrets),
  }));
  throw new ConfigError(issues);
}

/**
 * The one place that reads `process.env`: a service calls it once at start, from its `env.ts`.
 */
export function loadEnv<S extends z.ZodType>(schema: S): z.output<S> {
  return parseEnv(schema, process.env);
}
