import { TickertapeError } from './tickertape-error.js';

export const ErrorCode = {
  ConfigInvalid: 'CONFIG_INVALID',
  DependencyUnreachable: 'DEPENDENCY_UNREACHABLE',
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
