/**
 * The base of every error tickertape throws on purpose. Callers decide what to do from `code`
 * and `retriable`, never from the message (messages are for people and may change).
 */
export interface TickertapeErrorOptions {
  /** Whether trying the same operation again may succeed (a broker restart, a lost connection). */
  retriable?: boolean;
  cause?: unknown;
}

export class TickertapeError extends Error {
  override readonly name: string = 'TickertapeError';
  readonly code: string;
  readonly retriable: boolean;

  constructor(code: string, message: string, options: TickertapeErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.retriable = options.retriable ?? false;
  }
}
