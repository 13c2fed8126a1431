import {
  candlesTable,
  pointsTable,
  rawTable,
  seriesListTable,
  windowTable,
  type RawRead,
} from '@tickertape/answers';
import {
  candlesSchema,
  pointsSchema,
  rawSchema,
  seriesListSchema,
  windowSchema,
} from '../response-schemas.js';
import type { ReadShape } from './represent.js';

/** Each read route's JSON schema and table: what its answer is in every format. */
export const READ_SHAPES = {
  points: { schema: pointsSchema, table: pointsTable },
  candles: { schema: candlesSchema, table: candlesTable },
  window: { schema: windowSchema, table: windowTable },
  series: { schema: seriesListSchema, table: seriesListTable },
} as const;

/** Raw points: a column per field, or the one field asked for even when no point has it. */
export const rawShape = (field: string | undefined): ReadShape<RawRead> => ({
  schema: rawSchema,
  table: (result) => rawTable(result, field),
});
