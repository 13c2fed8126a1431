import { TickertapeError, cut } from '@tickertape/errors';
import { TickErrorCode } from './codes.js';

/**
 * A series key is `metric|k1=v1,k2=v2` with tags sorted by key, or just `metric` without tags.
 * `|`, `,`, `=` and `\` are the key's own separators, and `:` separates the key from the slot
 * in bucket ids (`<seriesKey>:<YYYYMMDDHHmm>`): all five are backslash-escaped wherever they
 * occur in a metric, tag key or tag value. So no two series share a key, and no key followed
 * by `:` is a prefix of another series' bucket ids, which keeps `^key:` range scans exact.
 */

const SPECIAL = /[\\|,=:]/g;
// Not global, so `test` keeps no lastIndex between calls.
const HAS_SPECIAL = /[\\|,=:]/;
const ESCAPABLE = new Set(['\\', '|', ',', '=', ':']);

export interface Series {
  metric: string;
  tags: Record<string, string>;
}

export class SeriesKeyError extends TickertapeError {
  override readonly name = 'SeriesKeyError';
  readonly key: string;

  constructor(key: string, problem: string) {
    super(
      TickErrorCode.InvalidSeriesKey,
      `invalid series key ${JSON.stringify(cut(key))}: ${problem}`,
    );
    this.key = key;
  }
}

// Almost no part has a separator in it: testing first spares `replace` building a new string.
function escapePart(part: string): string {
  return HAS_SPECIAL.test(part) ? part.replace(SPECIAL, '\\$&') : part;
}

export function seriesKey(metric: string, tags: Readonly<Record<string, string>>): string {
  // The default sort compares UTF-16 code units: the same order on every machine and locale,
  // unlike localeCompare.
  const keys = Object.keys(tags).sort();
  let key = escapePart(metric);
  for (let i = 0; i < keys.length; i += 1) {
    const name = keys[i]!;
    key += `${i === 0 ? '|' : ','}${escapePart(name)}=${escapePart(tags[name]!)}`;
  }
  return key;
}

/**
 * The inverse of `seriesKey`. Accepts only keys `seriesKey` could have produced (sorted, unique
 * tag keys, no needless escapes), so `seriesKey(parse(k)) === k` for every accepted `k`.
 */
export function parseSeriesKey(key: string): Series {
  let metric: string | undefined;
  let tagKey: string | undefined;
  const entries: [string, string][] = [];
  let current = '';
  for (let i = 0; i < key.length; i += 1) {
    const char = key[i]!;
    if (char === '\\') {
      const next = key[i + 1];
      if (next === undefined || !ESCAPABLE.has(next)) {
        throw new SeriesKeyError(key, `bad escape at ${i}`);
      }
      current += next;
      i += 1;
    } else if (char === '|' && metric === undefined) {
      metric = current;
      current = '';
    } else if (char === '=' && metric !== undefined && tagKey === undefined) {
      tagKey = current;
      current = '';
    } else if (char === ',' && tagKey !== undefined) {
      entries.push([tagKey, current]);
      tagKey = undefined;
      current = '';
    } else if (ESCAPABLE.has(char)) {
      throw new SeriesKeyError(key, `unexpected ${JSON.stringify(char)} at ${i}`);
    } else {
      current += char;
    }
  }
  if (metric === undefined) return { metric: current, tags: {} };
  if (tagKey === undefined) throw new SeriesKeyError(key, 'tag without a value');
  entries.push([tagKey, current]);
  for (let i = 1; i < entries.length; i += 1) {
    if (!(entries[i - 1]![0] < entries[i]![0])) {
      throw new SeriesKeyError(key, 'tag keys are not sorted and unique');
    }
  }
  // fromEntries defines own properties, so a tag named `__proto__` stays a tag.
  return { metric, tags: Object.fromEntries(entries) };
}
