/**
 * The representations of a read's answer: the API's JSON, CSV for spreadsheets and
 * `pd.read_csv`, an Arrow IPC stream for pyarrow, pandas and DuckDB (docs/analysts.md).
 */
export const ANSWER_FORMATS = ['json', 'csv', 'arrow'] as const;
export type AnswerFormat = (typeof ANSWER_FORMATS)[number];

/** The media type each format is asked for by (`Accept`) and answered with (`Content-Type`). */
export const MEDIA_TYPES = {
  json: 'application/json',
  csv: 'text/csv',
  arrow: 'application/vnd.apache.arrow.stream',
} as const satisfies Record<AnswerFormat, string>;

/** The Content-Type sent: CSV says it has a header row (RFC 4180's optional `header` parameter). */
export const CONTENT_TYPES: Readonly<Record<AnswerFormat, string>> = {
  json: 'application/json; charset=utf-8',
  csv: 'text/csv; charset=utf-8; header=present',
  arrow: MEDIA_TYPES.arrow,
};

interface MediaRange {
  type: string;
  q: number;
}

function mediaRanges(accept: string): MediaRange[] {
  return accept.split(',').map((part) => {
    const [type = '', ...params] = part.split(';').map((piece) => piece.trim().toLowerCase());
    const qParam = params.find((param) => /^q\s*=/.test(param));
    const q = qParam === undefined ? 1 : Number(qParam.slice(qParam.indexOf('=') + 1).trim());
    return { type, q: Number.isFinite(q) ? q : 0 };
  });
}

/**
 * The format of one answer: `format=` when given (it wins, so a link or a notebook cell says
 * what it gets whatever its client sends), else the Accept header: the one of our three media
 * types named with the highest quality (`q=0` refuses it; on a tie, the first named). Wildcards
 * (`*\/*`, `text/*`), no header, or only other types: JSON, as before these formats existed.
 */
export function negotiateFormat(
  format: AnswerFormat | undefined,
  accept: string | undefined,
): AnswerFormat {
  if (format !== undefined) return format;
  if (accept === undefined || accept === '') return 'json';
  let best: { format: AnswerFormat; q: number } | undefined;
  for (const range of mediaRanges(accept)) {
    const named = ANSWER_FORMATS.find((candidate) => MEDIA_TYPES[candidate] === range.type);
    if (named === undefined || range.q <= 0) continue;
    if (best === undefined || range.q > best.q) best = { format: named, q: range.q };
  }
  return best?.format ?? 'json';
}
