/*
 * The tick's Avro schemas, as registered under the topic's value subject. Evolution rule: every
 * new field has a default, so each version is BACKWARD compatible with the one before (a new
 * reader reads old data) and old readers skip what they do not know (the v1 workers keep
 * running while producers move to v2).
 */
import { TICK_TOPIC } from '@tickertape/topology';

type AvroPrimitive = 'null' | 'string' | 'long' | 'double';
interface AvroMap {
  type: 'map';
  values: AvroPrimitive;
}
interface AvroTimestamp {
  type: 'long';
  logicalType: 'timestamp-millis';
}
type AvroFieldType = AvroPrimitive | AvroMap | AvroTimestamp | AvroPrimitive[];

export interface AvroField {
  name: string;
  doc?: string;
  type: AvroFieldType;
  default?: unknown;
}

/** Shaped so it passes as is to avsc's `Type.forSchema` and to the registry client. */
export interface TickAvroSchema {
  type: 'record';
  name: 'Tick';
  namespace: 'dev.tickertape';
  doc: string;
  fields: AvroField[];
}

export type TickSchemaVersion = 1 | 2;

/** Confluent's TopicNameStrategy: the value schema of topic T lives under `T-value`. */
export function valueSubject(topic: string): string {
  return `${topic}-value`;
}

export const DEFAULT_SUBJECT = valueSubject(TICK_TOPIC);

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}

const V1_FIELDS: AvroField[] = [
  { name: 'metric', type: 'string' },
  { name: 'tags', type: { type: 'map', values: 'string' } },
  {
    name: 'ts',
    doc: 'Event time, ms since the Unix epoch (UTC).',
    // Without avsc's logicalTypes option this decodes as a plain number of ms, which is what
    // the pipeline wants; the logical type documents the unit for other readers.
    type: { type: 'long', logicalType: 'timestamp-millis' },
  },
  { name: 'fields', doc: 'Numeric fields.', type: { type: 'map', values: 'double' } },
  {
    name: 'strings',
    doc: 'Optional string fields, e.g. weather.',
    type: { type: 'map', values: 'string' },
    default: {},
  },
];

// Frozen: one object shared by every codec and test, and a mutation would change what a
// worker believes it registered.
export const TICK_SCHEMA_V1: TickAvroSchema = deepFreeze({
  type: 'record',
  name: 'Tick',
  namespace: 'dev.tickertape',
  doc: 'One time-series observation.',
  fields: V1_FIELDS,
});

export const TICK_SCHEMA_V2: TickAvroSchema = deepFreeze({
  ...TICK_SCHEMA_V1,
  fields: [
    ...V1_FIELDS,
    {
      name: 'source',
      doc: 'The producer that sent the tick.',
      type: ['null', 'string'],
      default: null,
    },
  ],
});

export const TICK_SCHEMAS: Readonly<Record<TickSchemaVersion, TickAvroSchema>> = Object.freeze({
  1: TICK_SCHEMA_V1,
  2: TICK_SCHEMA_V2,
});
