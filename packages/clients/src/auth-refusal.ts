import { DependencyAuthError, DependencyUnreachableError } from '@tickertape/errors';
import { redactUrl } from '@tickertape/logger';

/** MongoDB's AuthenticationFailed server error code. */
const MONGO_AUTH_FAILED = 18;

const CREDENTIALS: Record<string, readonly string[]> = {
  KAFKA_BROKERS: ['KAFKA_SASL_MECHANISM', 'KAFKA_SASL_USERNAME', 'KAFKA_SASL_PASSWORD'],
  SCHEMA_REGISTRY_URL: ['SCHEMA_REGISTRY_USERNAME', 'SCHEMA_REGISTRY_PASSWORD'],
  MONGODB_URI: ['MONGODB_URI (user:password@)'],
  REDIS_URL: ['REDIS_URL (:password@)'],
};

function refusedBy(variable: string, err: Error): boolean {
  const fields = err as Error & { code?: unknown; status?: unknown };
  switch (variable) {
    case 'KAFKA_BROKERS':
      return err.name === 'KafkaJSSASLAuthenticationError';
    case 'SCHEMA_REGISTRY_URL':
      return fields.status === 401 || fields.status === 403;
    case 'MONGODB_URI':
      return fields.code === MONGO_AUTH_FAILED;
    case 'REDIS_URL':
      // Redis error replies start with their code: WRONGPASS for a bad password (or user),
      // NOAUTH for none given to a server that requires one.
      return err.name === 'ReplyError' && /^(WRONGPASS|NOAUTH)\b/.test(err.message);
    default:
      return false;
  }
}

/**
 * When `err` (or an error in its cause chain) says the dependency behind `variable` refused
 * the credentials, the variables holding them; otherwise undefined. Matches each client's own
 * error type or the server's error code, never free text.
 */
export function refusedCredentials(variable: string, err: unknown): readonly string[] | undefined {
  const seen = new Set<unknown>();
  let current = err;
  while (current instanceof Error && !seen.has(current)) {
    seen.add(current);
    if (refusedBy(variable, current)) return CREDENTIALS[variable];
    current = current.cause;
  }
  return undefined;
}

/**
 * The error a start reports when the dependency behind `variable` failed: refused credentials
 * (not retriable) or unreachable. The address is logged redacted.
 */
export function dependencyFailure(
  variable: string,
  address: string,
  err: unknown,
): DependencyAuthError | DependencyUnreachableError {
  const credentials = refusedCredentials(variable, err);
  return credentials
    ? new DependencyAuthError(variable, redactUrl(address), credentials, err)
    : new DependencyUnreachableError(variable, redactUrl(address), err);
}
