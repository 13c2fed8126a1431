import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';

export interface Line {
  /** 1-based, counting blank lines too, as an editor does. */
  number: number;
  text: string;
}

/** The input's lines, without line endings (\n or \r\n) and without a leading byte-order mark. */
export async function* readLines(input: Readable): AsyncGenerator<Line> {
  const reader = createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY });
  let number = 0;
  try {
    for await (const text of reader) {
      number += 1;
      yield { number, text: number === 1 ? text.replace(/^\uFEFF/, '') : text };
    }
  } finally {
    reader.close();
  }
}
