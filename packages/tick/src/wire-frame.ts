import type { TickLimits } from './limits.js';
import { TickRejectedError } from './rejection.js';

/** Confluent wire format: magic byte 0, a 4-byte big-endian schema id, then the Avro datum. */
export const MAGIC_BYTE = 0;
export const HEADER_BYTES = 5;

/**
 * Checks what can be checked without the registry and returns the writer's schema id. Size
 * comes first so an oversized message costs no registry lookup and no decoding.
 */
export function readFrameHeader(
  message: Buffer,
  limits: Pick<TickLimits, 'maxMessageBytes'>,
): number {
  if (message.length > limits.maxMessageBytes) {
    throw new TickRejectedError(
      'OVERSIZED',
      `${message.length} bytes, at most ${limits.maxMessageBytes}`,
    );
  }
  if (message.length === 0 || message[0] !== MAGIC_BYTE) {
    const seen = message.length === 0 ? 'an empty message' : `magic byte ${message[0]}`;
    throw new TickRejectedError('BAD_MAGIC_BYTE', `${seen}, expected ${MAGIC_BYTE}`);
  }
  if (message.length < HEADER_BYTES) {
    throw new TickRejectedError('DECODE_ERROR', `${message.length}-byte message, header cut short`);
  }
  // Signed, as the registry client reads it; registries hand out ids from 1, so anything
  // below cannot name a schema and need not be looked up.
  const schemaId = message.readInt32BE(1);
  if (schemaId < 1) throw new TickRejectedError('UNKNOWN_SCHEMA', `schema id ${schemaId}`);
  return schemaId;
}
