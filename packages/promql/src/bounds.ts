import { PromQLError, PromQLErrorCode } from './promql-error.js';

/** One bound on a query's shape, with the setting that raises it (named in the refusal). */
export interface Bound {
  limit: number;
  setting: string;
}

/** What a query may be before it is parsed or read: checked in one pass over its characters. */
export interface QueryBounds {
  /** Characters of the query text. */
  length: Bound;
  /** Brackets ( [ { open at once. */
  depth: Bound;
  /** Operands joined by binary operators (`1+1+1` is 3). */
  terms: Bound;
  /** Series selectors in the whole query. */
  selectors: Bound;
}

/**
 * Ceilings no setting can pass. The grammar library parses on the stack: past ~2,000 levels of
 * tree (a 2,000-term sum, 5,000 parentheses) it reports spurious syntax errors, at 3,000 it
 * overflowed the stack (a 500, issue 37). A function call costs about three levels per
 * parenthesis, so 200 × 3 + 1,000 stays well below.
 */
export const CEILINGS = { depth: 200, terms: 1000 } as const;

export const DEFAULT_QUERY_BOUNDS: QueryBounds = {
  length: { limit: 16_384, setting: 'MAX_QUERY_LENGTH' },
  depth: { limit: 64, setting: 'MAX_QUERY_DEPTH' },
  terms: { limit: 500, setting: 'MAX_QUERY_TERMS' },
  selectors: { limit: 32, setting: 'MAX_QUERY_SELECTORS' },
};

/** `the query has 3000 terms, more than MAX_QUERY_TERMS allows (500)`. */
export function overBound(bound: Bound, what: string, given: number): PromQLError {
  return new PromQLError(
    PromQLErrorCode.BoundExceeded,
    `${what.replace('#', String(given))}, more than ${bound.setting} allows (${bound.limit})`,
  );
}

/**
 * One token of PromQL as far as nesting and operators go: strings and comments (whose brackets
 * do not count), numbers with their exponent sign (`1e-5` is no subtraction), words, operators.
 */
const TOKEN =
  /\s+|#[^\n]*|"(?:\\[^]|[^"\\])*"|'(?:\\[^]|[^'\\])*'|`[^`]*`|(?:0x[0-9a-f]+|(?:\d[\d_]*\.?\d*|\.\d+)(?:e[+-]?\d+)?)[a-z]*|[a-z_:][\w:]*|==|!=|<=|>=|=~|!~|[^]/iy;
const BINARY = new Set(['+', '-', '*', '/', '%', '^', '==', '!=', '<=', '>=', '<', '>']);
const BINARY_WORDS = new Set(['and', 'or', 'unless', 'atan2']);

/**
 * Refuses, in time linear in its length, a query longer, deeper or with more terms than the
 * bounds, before the parser sees it. Unary signs count as terms too: `- - - 1` nests as deep.
 */
export function checkShape(query: string, bounds: QueryBounds): void {
  if (query.length > bounds.length.limit)
    throw overBound(bounds.length, 'the query has # characters', query.length);
  let depth = 0;
  let deepest = 0;
  let braces = 0;
  let operators = 0;
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < query.length) {
    const token = TOKEN.exec(query)![0];
    if (token === '(' || token === '[' || token === '{') {
      if (token === '{') braces++;
      deepest = Math.max(deepest, ++depth);
    } else if (token === ')' || token === ']' || token === '}') {
      if (token === '}') braces = Math.max(0, braces - 1);
      depth = Math.max(0, depth - 1);
    } else if (braces === 0 && (BINARY.has(token) || BINARY_WORDS.has(token.toLowerCase()))) {
      // Inside braces, `=`, `!=`, `=~` are label matchers, not operators.
      operators++;
    }
  }
  if (deepest > bounds.depth.limit)
    throw overBound(bounds.depth, 'the query nests brackets # deep', deepest);
  if (operators + 1 > bounds.terms.limit)
    throw overBound(bounds.terms, 'the query has # terms', operators + 1);
}
