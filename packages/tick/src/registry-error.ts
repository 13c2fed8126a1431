import { TickertapeError } from '@tickertape/errors';
import { TickErrorCode } from './codes.js';
import { TickRejectedError } from './rejection.js';

/**
 * A registry call failed for a reason that says nothing about the message: the registry is
 * down, slow, or refuses us. A consumer must retry or stop, never dead-letter on this.
 */
export class RegistryRequestError extends TickertapeError {
  override readonly name = 'RegistryRequestError';
  /** The HTTP status, when the registry answered at all. */
  readonly status: number | undefined;

  constructor(what: string, status: number | undefined, cause: unknown) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    super(
      TickErrorCode.RegistryRequestFailed,
      `${what} failed${status === undefined ? '' : ` (${status})`}: ${reason}`,
      // 4xx answers other than 408/429 repeat themselves (bad credentials, an incompatible
      // schema); everything else may pass on a later try.
      {
        retriable:
          status === undefined ||
          status === 400 ||
          status === 408 ||
          status === 429 ||
          status >= 500,
        cause,
      },
    );
    this.status = status;
  }
}

const UNPARSABLE_SCHEMA = 'ConfluentSchemaRegistryArgumentError';

/** The HTTP status the registry client attached to its error, if any. */
export function httpStatusOf(err: unknown): number | undefined {
  const status = (err as { status?: unknown } | null)?.status;
  return typeof status === 'number' ? status : undefined;
}

/**
 * Sorts a failed writer-schema lookup into "this message is bad" and "the registry is". Only a
 * 404 names the message; the client reports a refused connection or a timeout as status 400
 * (mappersmith's convention), so 400 counts as an outage, not as a bad id. The client's own
 * error classes are not exported, but they carry their class name: an ArgumentError here means
 * the registry served a schema the client cannot parse. Anything else is treated as an outage,
 * because dead-lettering a good message is worse than retrying it.
 */
export function schemaLookupFailure(
  schemaId: number,
  err: unknown,
): TickRejectedError | RegistryRequestError {
  const status = httpStatusOf(err);
  if (status === 404) {
    return new TickRejectedError('UNKNOWN_SCHEMA', `schema id ${schemaId} is not registered`, {
      cause: err,
    });
  }
  if (status === undefined && err instanceof Error && err.name === UNPARSABLE_SCHEMA) {
    return new TickRejectedError('UNKNOWN_SCHEMA', `schema id ${schemaId} is unreadable`, {
      cause: err,
    });
  }
  return new RegistryRequestError(`fetching schema id ${schemaId}`, status, err);
}
