export type { Tick } from './tick.js';
export {
  DEFAULT_SUBJECT,
  TICK_SCHEMA_V1,
  TICK_SCHEMA_V2,
  TICK_SCHEMAS,
  valueSubject,
  type AvroField,
  type TickAvroSchema,
  type TickSchemaVersion,
} from './schema.js';
export { parseSeriesKey, seriesKey, SeriesKeyError, type Series } from './series-key.js';
export {
  DEFAULT_SERIES_KEY_CACHE,
  SeriesKeyCache,
  type SeriesKeyCacheOptions,
} from './series-key-cache.js';
export {
  DEFAULT_TICK_LIMITS,
  MAX_TICK_TS,
  MIN_TICK_TS,
  resolveLimits,
  type TickLimits,
} from './limits.js';
export {
  isTickRejected,
  TICK_REJECTION_REASONS,
  TickRejectedError,
  type TickRejectionReason,
} from './rejection.js';
export { TickErrorCode } from './codes.js';
export { isSafeName, nameProblem, validateTick } from './validate.js';
export { HEADER_BYTES, MAGIC_BYTE, readFrameHeader } from './wire-frame.js';
export { RegistryRequestError } from './registry-error.js';
export {
  registryAuthHeaders,
  setSubjectCompatibility,
  type Compatibility,
  type RegistryEndpoint,
} from './subject-config.js';
export { TickCodec, type RegisterTickSchemaOptions, type TickCodecOptions } from './codec.js';
export { DEAD_LETTER_REASONS, DLQ_HEADERS, type DeadLetterReason } from './dead-letter.js';
export { checkEncodedSize, encodedTickBytes } from './encoded-size.js';
export {
  readResolvedTickRecord,
  readTickRecord,
  type RecordVerdict,
  type TickRecord,
} from './record.js';
export { INPUT_FORMATS, inputFormat, type InputFormat } from './lines/format.js';
export { BadInputError, BadLineError, InputErrorCode } from './lines/input-error.js';
export { readTickLines, type BadLine, type TickLine } from './lines/ticks.js';
export { parseIsoInstant, parseTimestamp } from './lines/timestamp.js';
export { CSV_HEADER_SHAPE } from './lines/csv.js';
