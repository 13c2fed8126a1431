import { TickertapeError } from '@tickertape/errors';

export const InputErrorCode = {
  /** The whole input is unusable: unreadable file, malformed CSV header. */
  BadInput: 'BAD_INPUT',
  /** One line is: it is reported and skipped. */
  BadLine: 'BAD_LINE',
} as const;

export class BadInputError extends TickertapeError {
  override readonly name = 'BadInputError';
  constructor(message: string, options: { cause?: unknown } = {}) {
    super(InputErrorCode.BadInput, message, options);
  }
}

/** One input line that is not a tick; the message is written for the person who made the file. */
export class BadLineError extends TickertapeError {
  override readonly name = 'BadLineError';
  constructor(message: string) {
    super(InputErrorCode.BadLine, message);
  }
}
