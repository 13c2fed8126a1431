import avsc, { type Type } from 'avsc';
import type { TickLimits } from './limits.js';
import { TickRejectedError } from './rejection.js';
import { TICK_SCHEMAS, type TickSchemaVersion } from './schema.js';
import type { Tick } from './tick.js';
import { HEADER_BYTES } from './wire-frame.js';

const types = new Map<TickSchemaVersion, Type>();

function typeOf(version: TickSchemaVersion): Type {
  let type = types.get(version);
  if (type === undefined) types.set(version, (type = avsc.Type.forSchema(TICK_SCHEMAS[version])));
  return type;
}

/**
 * The size of a valid tick's message in the Confluent wire format, computed here without the
 * registry: the same bytes the registry client writes (header, then the Avro datum). For ticks
 * that never pass through Kafka (backfill) but must meet the same OVERSIZED rule a worker applies.
 */
export function encodedTickBytes(tick: Tick, version: TickSchemaVersion = 2): number {
  const { metric, tags, ts, fields, strings } = tick;
  const record =
    version === 1
      ? { metric, tags, ts, fields, strings }
      : { metric, tags, ts, fields, strings, source: tick.source ?? null };
  return HEADER_BYTES + typeOf(version).toBuffer(record).length;
}

/** Refuses a valid tick whose message a worker would dead-letter as OVERSIZED. */
export function checkEncodedSize(
  tick: Tick,
  limits: Pick<TickLimits, 'maxMessageBytes'>,
  version: TickSchemaVersion = 2,
): void {
  const bytes = encodedTickBytes(tick, version);
  if (bytes > limits.maxMessageBytes) {
    throw new TickRejectedError(
      'OVERSIZED',
      `${bytes} bytes encoded, at most ${limits.maxMessageBytes}`,
    );
  }
}
