import { ENCODERS, FORMATS, type Format } from '@tickertape/answers';

/** The media type each format is asked for by (`Accept`), from its encoder. */
export const MEDIA_TYPES = Object.fromEntries(
  FORMATS.map((format) => [format, ENCODERS[format].mediaType]),
) as Readonly<Record<Format, string>>;

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
export function negotiateFormat(format: Format | undefined, accept: string | undefined): Format {
  if (format !== undefined) return format;
  if (accept === undefined || accept === '') return 'json';
  let best: { format: Format; q: number } | undefined;
  for (const range of mediaRanges(accept)) {
    const named = FORMATS.find((candidate) => MEDIA_TYPES[candidate] === range.type);
    if (named === undefined || range.q <= 0) continue;
    if (best === undefined || range.q > best.q) best = { format: named, q: range.q };
  }
  return best?.format ?? 'json';
}
