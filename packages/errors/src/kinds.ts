import { TickertapeError } from './tickertape-error.js';

export const ErrorCode = {
  ConfigInvalid: 'CONFIG_INVALID',
  DependencyUnreachable: 'DEPENDENCY_UNREACHABLE',
  DependencyAuthFailed: 'DEPENDENCY_AUTH_FAILED',
  Timeout: 'TIMEOUT',
} as const;
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

export interface ConfigIssue {
  /** The environment variable at fault, e.g. `MONGODB_URI`. */
  variable: string;
  message: string;
}

/** Bad configuration: the service must not start. Never retriable. */
export class ConfigError extends TickertapeError {
  override readonly name = 'ConfigError';
  readonly issues: readonly ConfigIssue[];

  constructor(issues: readonly ConfigIssue[]) {
    const lines = issues.map((issue) => `  ${issue.variable}: ${issue.message}`);
    super(ErrorCode.ConfigInvalid, `invalid configuration:\n${lines.join('\n')}`);
    this.issues = issues;
  }

  get variables(): string[] {
    return this.issues.map((issue) => issue.variable);
  }
}

/**
 * A dependency named by a config variable could not be reached at start. Retriable (it may come
 * up), but a service gives up after its startup deadline and reports the variable.
 */
export class DependencyUnreachableError extends TickertapeError {
  override readonly name = 'DependencyUnreachableError';
  readonly variable: string;

  constructor(variable: string, address: string, cause: unknown) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    super(ErrorCode.DependencyUnreachable, `${variable}=${address} is unreachable: ${reason}`, {
      retriable: true,
      cause,
    });
    this.variable = variable;
  }
}

/**
 * A dependency answered but refused the credentials. Not retriable: the same credentials will
 * be refused again, and retrying only delays the message naming the variables to fix.
 */
export class DependencyAuthError extends TickertapeError {
  override readonly name = 'DependencyAuthError';
  readonly variable: string;
  /** The variables holding the credentials, e.g. KAFKA_SASL_USERNAME and KAFKA_SASL_PASSWORD. */
  readonly credentials: readonly string[];

  constructor(variable: string, address: string, credentials: readonly string[], cause: unknown) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    super(
      ErrorCode.DependencyAuthFailed,
      `${variable}=${address} refused the credentials (check ${credentials.join(', ')}): ${reason}`,
      { cause },
    );
    this.variable = variable;
    this.credentials = credentials;
  }
}
