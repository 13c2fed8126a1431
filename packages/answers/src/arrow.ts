import {
  Bool,
  Float64,
  Table as ArrowTable,
  TimestampMillisecond,
  Utf8,
  tableToIPC,
  vectorFromArray,
  type DataType,
} from 'apache-arrow';
import type { ColumnKind, Table } from './table.js';

/**
 * The Arrow type of each column kind: times as UTC millisecond timestamps, so pandas reads them
 * as `datetime64[ms, UTC]` and DuckDB as `TIMESTAMP WITH TIME ZONE`; numbers as doubles (counts
 * too: they can be null, which a pandas int64 column cannot hold).
 */
const ARROW_TYPES: Record<ColumnKind, () => DataType> = {
  text: () => new Utf8(),
  number: () => new Float64(),
  time: () => new TimestampMillisecond('UTC'),
  bool: () => new Bool(),
};

/** A table as an Arrow IPC stream (a schema message, then record batches): `pyarrow.ipc.open_stream`. */
export function tableToArrowStream(table: Table): Buffer {
  const vectors = Object.fromEntries(
    table.columns.map((column, i) => [
      column.name,
      vectorFromArray(
        table.rows.map((row) => row[i] ?? null),
        ARROW_TYPES[column.kind](),
      ),
    ]),
  );
  const bytes = tableToIPC(new ArrowTable(vectors), 'stream');
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}
