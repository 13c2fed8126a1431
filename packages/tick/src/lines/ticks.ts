import type { Tick } from '../tick.js';
import type { Readable } from 'node:stream';
import { parseCsvHeader, parseCsvTick, type CsvLayout } from './csv.js';
import type { InputFormat } from './format.js';
import { BadLineError } from './input-error.js';
import { parseJsonTick } from './jsonl.js';
import { readLines } from './lines.js';

/** A line that parsed into a tick (its values are not checked yet: validateTick does that). */
export interface TickLine {
  number: number;
  tick: Tick;
}

/** A line that is not a tick at all. */
export interface BadLine {
  number: number;
  error: BadLineError;
}

/**
 * The input's ticks, line by line, for every command that reads tick files (publish, backfill):
 * blank lines are skipped, a CSV input's first line is its header, and a line that does not parse
 * comes out as a BadLine so the run goes on. A bad CSV header throws (BadInputError): nothing
 * after it can be read.
 */
export async function* readTickLines(
  input: Readable,
  format: InputFormat,
): AsyncGenerator<TickLine | BadLine> {
  let layout: CsvLayout | undefined;
  for await (const { number, text } of readLines(input)) {
    if (text.trim() === '') continue;
    if (format === 'csv' && layout === undefined) {
      layout = parseCsvHeader(text);
      continue;
    }
    try {
      yield {
        number,
        tick: layout === undefined ? parseJsonTick(text) : parseCsvTick(layout, text),
      };
    } catch (err) {
      if (!(err instanceof BadLineError)) throw err;
      yield { number, error: err };
    }
  }
}
