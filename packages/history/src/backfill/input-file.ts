import { createHash, type Hash } from 'node:crypto';
import { createReadStream, createWriteStream, type Stats } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { BadInputError } from '@tickertape/tick';

/** A backfill's input, identified by its bytes and readable as often as the run needs. */
export interface BackfillInput {
  /** What the person named: a path, or `-` for stdin. */
  name: string;
  sha256: string;
  bytes: number;
  /** Lines as an editor counts them (a last line without a newline counts). */
  lines: number;
  /** A fresh stream of the same bytes; throws if the file changed since it was hashed. */
  read(): Promise<Readable>;
  /** Deletes the spool file of stdin; nothing for a named file. */
  release(): Promise<void>;
}

const NEWLINE = 0x0a;

/** Hashes and counts what passes through, unchanged. */
class Fingerprint extends Transform {
  readonly hash: Hash = createHash('sha256');
  bytes = 0;
  newlines = 0;
  lastByte = NEWLINE;

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: () => void): void {
    this.hash.update(chunk);
    this.bytes += chunk.length;
    for (let at = chunk.indexOf(NEWLINE); at !== -1; at = chunk.indexOf(NEWLINE, at + 1))
      this.newlines += 1;
    if (chunk.length > 0) this.lastByte = chunk[chunk.length - 1]!;
    this.push(chunk);
    done();
  }

  get lines(): number {
    return this.newlines + (this.lastByte === NEWLINE ? 0 : 1);
  }
}

async function unreadable<T>(name: string, work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (err) {
    throw new BadInputError(`cannot read ${name}: ${(err as Error).message}`, { cause: err });
  }
}

async function fingerprintOf(source: Readable, sink?: NodeJS.WritableStream) {
  const print = new Fingerprint();
  await pipeline(source, print, sink ?? new Transform({ transform: (_c, _e, done) => done() }));
  return { sha256: print.hash.digest('hex'), bytes: print.bytes, lines: print.lines };
}

/**
 * Opens the input of a backfill: hashes a named file where it is, and spools stdin to a temporary
 * file first, since the run reads its input more than once and the hash must be known before the
 * first write (it names the run's Kafka-like partition: source.ts).
 */
export async function openBackfillInput(name: string, stdin: Readable): Promise<BackfillInput> {
  if (name === '-') {
    const dir = await mkdtemp(join(tmpdir(), 'tickertape-backfill-'));
    const path = join(dir, 'stdin');
    try {
      const print = await unreadable('stdin', fingerprintOf(stdin, createWriteStream(path)));
      const seen = await stat(path);
      return fileInput(name, path, seen, print, () => rm(dir, { recursive: true, force: true }));
    } catch (err) {
      await rm(dir, { recursive: true, force: true });
      throw err;
    }
  }
  // Looked at before it is hashed, so a change during the hashing shows at the next read too.
  const seen = await unreadable(name, stat(name));
  const print = await unreadable(name, fingerprintOf(createReadStream(name)));
  return fileInput(name, name, seen, print, () => Promise.resolve());
}

function fileInput(
  name: string,
  path: string,
  seen: Stats,
  print: { sha256: string; bytes: number; lines: number },
  release: () => Promise<void>,
): BackfillInput {
  return {
    name,
    ...print,
    async read() {
      // The offsets a run writes are this content's line numbers: a file that changed would
      // put other lines under the same marks.
      const now = await unreadable(name, stat(path));
      if (now.size !== seen.size || now.mtimeMs !== seen.mtimeMs)
        throw new BadInputError(`${name} changed while it was being backfilled`);
      return createReadStream(path);
    },
    release,
  };
}
