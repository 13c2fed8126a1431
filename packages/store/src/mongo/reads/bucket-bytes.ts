import { BinList } from '@tickertape/buckets';
import { BSON, type Document } from 'mongodb';

/*
 * Bucket reads come back from the driver as raw BSON (`raw: true`) and are decoded here, so that
 * quantile sketches (`q`) arrive as BinLists rather than objects keyed by bin numbers: V8 keeps
 * such an object as a sparse array as long as its largest bin index, and a window over 50 series
 * decodes hundreds of them per read. Measured on the read benchmark's hour buckets (five minutes
 * of 50 sensors): about the driver's time on documents without sketches, two thirds of it on
 * documents with them, whose sketches then add up without enumerating sparse arrays.
 *
 * It reads the types a bucket holds (double, string, document, array, boolean, date, null,
 * int32 and int64) as the driver's defaults would (an int64 as a number). Anything else — or
 * a `q` that is not a document of numbers — leaves the whole document to the driver's decoder,
 * which also reports corrupt input: the fast path never guesses.
 */

const DOUBLE = 0x01;
const STRING = 0x02;
const DOCUMENT = 0x03;
const ARRAY = 0x04;
const BOOLEAN = 0x08;
const DATE = 0x09;
const NULL = 0x0a;
const INT32 = 0x10;
const INT64 = 0x12;

/**
 * Where a document sits in a bucket (docs/data-layout.md): sketches are `q` of a field's totals
 * (`f.<field>.q`) and of its sub-slot aggregates (`f.<field>.m.<minute>.q`, `….h.<hour>.q`), and
 * nowhere else — a minute bucket's `c.<field set>` is also a document of numbers, and stays one.
 */
type Place = 'bucket' | 'fields' | 'field' | 'subSlots' | 'aggregate' | 'other';

function placeOf(parent: Place, key: string): Place | 'sketch' {
  switch (parent) {
    case 'bucket':
      return key === 'f' ? 'fields' : 'other';
    case 'fields':
      return 'field';
    case 'field':
      return key === 'q' ? 'sketch' : key === 'm' || key === 'h' ? 'subSlots' : 'other';
    case 'subSlots':
      return 'aggregate';
    case 'aggregate':
      return key === 'q' ? 'sketch' : 'other';
    default:
      return 'other';
  }
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Thrown inside the fast path for input it leaves to the driver; never escapes this module. */
class NotHandled extends Error {}

/** One bucket document read raw: decoded, its sketches as BinLists. */
export function decodeBucket(bytes: Uint8Array): Document {
  const buffer = Buffer.isBuffer(bytes)
    ? bytes
    : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  try {
    return readDocument(buffer, 0, 'bucket', false);
  } catch (error) {
    if (!(error instanceof NotHandled) && !(error instanceof RangeError)) throw error;
    return BSON.deserialize(buffer);
  }
}

function sizeAt(buffer: Buffer, at: number): number {
  const size = buffer.readInt32LE(at);
  if (size < 5 || at + size > buffer.length || buffer[at + size - 1] !== 0) throw new NotHandled();
  return size;
}

/** The end (exclusive) of the C string starting at `at`. */
function cStringEnd(buffer: Buffer, at: number): number {
  const end = buffer.indexOf(0, at);
  if (end < 0) throw new NotHandled();
  return end;
}

function text(buffer: Buffer, from: number, to: number): string {
  // Keys (bin numbers, sub-slot indexes, part names) are short ASCII: no decoder call for them.
  switch (to - from) {
    case 1:
      if (buffer[from]! < 0x80) return String.fromCharCode(buffer[from]!);
      break;
    case 2:
      if ((buffer[from]! | buffer[from + 1]!) < 0x80)
        return String.fromCharCode(buffer[from]!, buffer[from + 1]!);
      break;
    case 3:
      if ((buffer[from]! | buffer[from + 1]! | buffer[from + 2]!) < 0x80)
        return String.fromCharCode(buffer[from]!, buffer[from + 1]!, buffer[from + 2]!);
      break;
    case 4:
      if ((buffer[from]! | buffer[from + 1]! | buffer[from + 2]! | buffer[from + 3]!) < 0x80)
        return String.fromCharCode(
          buffer[from]!,
          buffer[from + 1]!,
          buffer[from + 2]!,
          buffer[from + 3]!,
        );
      break;
  }
  for (let i = from; i < to; i++)
    if (buffer[i]! >= 0x80) {
      try {
        return utf8.decode(buffer.subarray(from, to));
      } catch {
        throw new NotHandled();
      }
    }
  return buffer.toString('latin1', from, to);
}

function int64At(buffer: Buffer, at: number): number {
  const value = buffer.readBigInt64LE(at);
  // The driver gives a Long beyond 2^53: left to it.
  if (value > BigInt(Number.MAX_SAFE_INTEGER) || value < BigInt(Number.MIN_SAFE_INTEGER))
    throw new NotHandled();
  return Number(value);
}

function readDocument(
  buffer: Buffer,
  start: number,
  place: Place,
  asArray: boolean,
): Document | unknown[] {
  const end = start + sizeAt(buffer, start) - 1;
  const out: Document | unknown[] = asArray ? [] : {};
  let at = start + 4;
  while (at < end) {
    const type = buffer[at++]!;
    const nameEnd = cStringEnd(buffer, at);
    // `$ref`/`$id` (DBRefs) and `__proto__` are the driver's to handle.
    if (buffer[at] === 0x24) throw new NotHandled();
    const name = text(buffer, at, nameEnd);
    if (name === '__proto__') throw new NotHandled();
    at = nameEnd + 1;
    let value: unknown;
    switch (type) {
      case DOUBLE:
        value = buffer.readDoubleLE(at);
        at += 8;
        break;
      case INT32:
        value = buffer.readInt32LE(at);
        at += 4;
        break;
      case INT64:
        value = int64At(buffer, at);
        at += 8;
        break;
      case STRING: {
        const length = buffer.readInt32LE(at);
        if (length < 1 || buffer[at + 3 + length] !== 0) throw new NotHandled();
        value = text(buffer, at + 4, at + 3 + length);
        at += 4 + length;
        break;
      }
      case DOCUMENT: {
        const size = sizeAt(buffer, at);
        const inner = asArray ? 'other' : placeOf(place, name);
        value =
          inner === 'sketch' ? readSketch(buffer, at) : readDocument(buffer, at, inner, false);
        at += size;
        break;
      }
      case ARRAY: {
        const size = sizeAt(buffer, at);
        value = readDocument(buffer, at, 'other', true);
        at += size;
        break;
      }
      case BOOLEAN:
        value = buffer[at] === 1;
        if (buffer[at]! > 1) throw new NotHandled();
        at += 1;
        break;
      case DATE:
        value = new Date(int64At(buffer, at));
        at += 8;
        break;
      case NULL:
        value = null;
        break;
      default:
        throw new NotHandled();
    }
    if (asArray) (out as unknown[]).push(value);
    else (out as Document)[name] = value;
  }
  if (at !== end) throw new NotHandled();
  return out;
}

/** A sketch's bins: keys and counts side by side (every count a number, else not a sketch). */
function readSketch(buffer: Buffer, start: number): BinList {
  const end = start + sizeAt(buffer, start) - 1;
  const keys: string[] = [];
  const counts: number[] = [];
  let at = start + 4;
  while (at < end) {
    const type = buffer[at++]!;
    const nameEnd = cStringEnd(buffer, at);
    keys.push(text(buffer, at, nameEnd));
    at = nameEnd + 1;
    if (type === INT32) {
      counts.push(buffer.readInt32LE(at));
      at += 4;
    } else if (type === DOUBLE) {
      counts.push(buffer.readDoubleLE(at));
      at += 8;
    } else if (type === INT64) {
      counts.push(int64At(buffer, at));
      at += 8;
    } else throw new NotHandled();
  }
  if (at !== end) throw new NotHandled();
  return new BinList(keys, counts);
}
