import { TICK_SCHEMA_V2, type DeadLetterReason, type Tick } from '@tickertape/tick';
import avsc from 'avsc';

const avro = avsc.Type.forSchema(TICK_SCHEMA_V2);

/** A Confluent-framed message written straight with avsc, bypassing the codec's checks. */
function frame(schemaId: number, tick: Tick, magic = 0): Buffer {
  const header = Buffer.alloc(5);
  header.writeUInt8(magic, 0);
  header.writeUInt32BE(schemaId, 1);
  return Buffer.concat([header, avro.toBuffer({ source: null, ...tick })]);
}

/** One kind of bad producer input and the reason the workers must dead-letter it with. */
export interface BadInput {
  kind: BadInputKind;
  reason: DeadLetterReason;
  value: Buffer | null;
}

/** The kinds `badInputs` makes, in its order. */
export const BAD_INPUT_KINDS = [
  'malformed Avro',
  'no value',
  'unknown schema id',
  'wrong magic byte',
  'NaN',
  '+Infinity',
  '-Infinity',
  'missing metric',
  'missing fields',
  'before 1970',
  'after 2100',
  'too far in the future',
  'oversized',
  'too many fields',
  'too many tags',
  'bad field name',
  'too late',
] as const;
export type BadInputKind = (typeof BAD_INPUT_KINDS)[number];

/**
 * One record of every bad-input kind for a topic whose schema has registry id `schemaId`, with
 * `nowMs` as the wall clock the workers will judge event times by; `tags` mark the series they
 * pretend to be (key them by its series key so they share a partition with good ticks).
 */
export function badInputs(
  schemaId: number,
  nowMs: number,
  tags: Record<string, string>,
): BadInput[] {
  const ok = (over: Partial<Tick> = {}): Tick => ({
    metric: 'traffic',
    tags,
    ts: nowMs - 60_000,
    fields: { speed: 50 },
    strings: {},
    ...over,
  });
  const kinds: Record<BadInputKind, [DeadLetterReason, Buffer | null]> = {
    'malformed Avro': [
      'DECODE_ERROR',
      Buffer.concat([frame(schemaId, ok()).subarray(0, 5), Buffer.from([0xff, 0xff, 0xff, 0xff])]),
    ],
    'no value': ['DECODE_ERROR', null],
    'unknown schema id': ['UNKNOWN_SCHEMA', frame(987_654_321, ok())],
    'wrong magic byte': ['BAD_MAGIC_BYTE', frame(schemaId, ok(), 1)],
    NaN: ['INVALID_VALUE', frame(schemaId, ok({ fields: { speed: Number.NaN } }))],
    '+Infinity': [
      'INVALID_VALUE',
      frame(schemaId, ok({ fields: { speed: Number.POSITIVE_INFINITY } })),
    ],
    '-Infinity': [
      'INVALID_VALUE',
      frame(schemaId, ok({ fields: { speed: Number.NEGATIVE_INFINITY } })),
    ],
    'missing metric': ['MISSING_METRIC', frame(schemaId, ok({ metric: '' }))],
    'missing fields': ['NO_FIELDS', frame(schemaId, ok({ fields: {} }))],
    'before 1970': ['TIMESTAMP_OUT_OF_RANGE', frame(schemaId, ok({ ts: -1000 }))],
    'after 2100': ['TIMESTAMP_OUT_OF_RANGE', frame(schemaId, ok({ ts: Date.UTC(2200, 0, 1) }))],
    'too far in the future': [
      'TIMESTAMP_OUT_OF_RANGE',
      frame(schemaId, ok({ ts: nowMs + 24 * 3_600_000 })),
    ],
    oversized: ['OVERSIZED', frame(schemaId, ok({ strings: { blob: 'x'.repeat(70_000) } }))],
    'too many fields': [
      'TOO_MANY_FIELDS',
      frame(
        schemaId,
        ok({ fields: Object.fromEntries(Array.from({ length: 70 }, (_, i) => [`f${i}`, i])) }),
      ),
    ],
    'too many tags': [
      'TOO_MANY_TAGS',
      frame(
        schemaId,
        ok({ tags: Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`t${i}`, 'x'])) }),
      ),
    ],
    'bad field name': ['INVALID_NAME', frame(schemaId, ok({ fields: { 'speed.avg': 1 } }))],
    'too late': ['TOO_LATE', frame(schemaId, ok({ ts: nowMs - 7 * 3_600_000 }))],
  };
  return BAD_INPUT_KINDS.map((kind) => ({ kind, reason: kinds[kind][0], value: kinds[kind][1] }));
}
