import type { Tick } from '../tick.js';
import { BadLineError } from './input-error.js';
import { parseTimestamp } from './timestamp.js';

const KEYS = new Set(['metric', 'tags', 'ts', 'fields', 'strings', 'source']);

/**
 * One JSON line → a tick: `{metric, tags?, ts, fields, strings?, source?}`. Only the shape is
 * checked here; the values are checked by the producer (validateTick), which names the same
 * rejection reasons a worker would.
 */
export function parseJsonTick(text: string): Tick {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    throw new BadLineError(`not JSON (${err instanceof Error ? err.message : String(err)})`);
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw new BadLineError('not a JSON object');
  }
  const record = raw as Record<string, unknown>;
  const unknown = Object.keys(record).filter((key) => !KEYS.has(key));
  if (unknown.length > 0) {
    throw new BadLineError(
      `unknown key${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')} (expected ${[...KEYS].join(', ')})`,
    );
  }
  const tick = {
    metric: record.metric,
    tags: record.tags ?? {},
    ts: parseTimestamp(record.ts),
    fields: record.fields,
    strings: record.strings ?? {},
    ...(record.source === undefined ? {} : { source: record.source }),
  };
  // Shapes are the producer's to judge: it rejects a non-map `fields` as DECODE_ERROR.
  return tick as Tick;
}
