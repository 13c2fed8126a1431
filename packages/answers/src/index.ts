export { tableToArrowStream } from './arrow.js';
export { tableToCsv } from './csv.js';
export {
  ENCODERS,
  FORMATS,
  encodeAnswer,
  type Answer,
  type Body,
  type Encoder,
  type Format,
} from './formats.js';
export { statsColumns, type StatsColumns } from './stats-columns.js';
export { markdownTable, type MarkdownColumn } from './markdown.js';
export {
  candlesTable,
  pointsTable,
  rawTable,
  seriesListTable,
  statusTable,
  windowTable,
} from './read-tables.js';
export type {
  CandlesRead,
  Mark,
  PointsRead,
  RawPoint,
  RawRead,
  SeriesListRead,
  StatsRead,
  StatusRead,
  WindowRead,
} from './reads.js';
export { isoTime, type Cell, type Column, type ColumnKind, type Table } from './table.js';
