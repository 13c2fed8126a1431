import type { SyntaxNode, Tree } from '@lezer/common';
import { parser } from '@prometheus-io/lezer-promql';
import {
  AGGREGATIONS,
  ARITHMETIC,
  COMPARISONS,
  RANGE_FUNCTIONS,
  type Aggregation,
  type BinaryOp,
  type Expr,
  type Matcher,
  type MatchOp,
  type RangeFunction,
  type Selector,
} from './ast.js';
import { checkShape, DEFAULT_QUERY_BOUNDS, overBound, type QueryBounds } from './bounds.js';
import { cut } from './cut.js';
import { parseDurationMs } from './duration.js';
import { anchored, matchesValue } from './matchers.js';
import { PromQLError, PromQLErrorCode } from './promql-error.js';

const unsupported = (what: string) => new PromQLError(PromQLErrorCode.Unsupported, what);

/** Functions of counters: ticks are gauges (a price, a speed), so they have no meaning here. */
const COUNTER_FUNCTIONS = new Set(['rate', 'irate', 'increase', 'resets', 'delta', 'idelta']);

const SUPPORTED =
  'selectors, the *_over_time functions count, sum, avg, min, max, first, last, stddev, stdvar and quantile (quantile_over_time(φ, x[5m])), sum/avg/min/max/count/topk/bottomk with by/without, arithmetic and comparisons (between numbers and vectors, one to one with on/ignoring), and offset';

/**
 * PromQL text to our tree, with the Prometheus project's own grammar (@prometheus-io/lezer-promql)
 * doing the parsing. The query's shape is checked against `bounds` first (checkShape), so the
 * grammar never meets a depth it would fail on. Anything outside the subset tickertape evaluates
 * is refused here, before any read, with a message naming it.
 */
export function parsePromQL(query: string, bounds: QueryBounds = DEFAULT_QUERY_BOUNDS): Expr {
  checkShape(query, bounds);
  if (query.trim() === '') throw new PromQLError(PromQLErrorCode.Syntax, 'the query is empty');
  let tree: Tree;
  try {
    tree = parser.parse(query);
  } catch (err) {
    // Within the ceilings this cannot happen; if it does, it is the query's depth, not our fault.
    if (err instanceof RangeError)
      throw overBound(
        bounds.depth,
        'the query nests too deep for the parser at # levels',
        bounds.depth.limit,
      );
    throw err;
  }
  let selectors = 0;
  tree.iterate({
    enter(node) {
      if (node.type.isError)
        throw new PromQLError(
          PromQLErrorCode.Syntax,
          `syntax error at character ${node.from + 1} of ${JSON.stringify(cut(query))}`,
        );
      if (node.name === 'VectorSelector') selectors++;
    },
  });
  if (selectors > bounds.selectors.limit)
    throw overBound(bounds.selectors, 'the query has # selectors', selectors);
  const reader = new TreeReader(query);
  const top = reader.children(tree.topNode)[0];
  if (!top) throw new PromQLError(PromQLErrorCode.Syntax, 'the query is empty');
  return reader.expr(top);
}

/**
 * Reads the grammar's tree, in which a `# comment` is a skipped token that may sit between any
 * two tokens (`up # note\n+ up`, `- # note\n2`): Prometheus' lexer drops comments anywhere
 * outside strings, so `children` and `text` never show them and no position in the tree does
 * either.
 */
class TreeReader {
  constructor(private readonly source: string) {}

  /** A node's source without the comments inside it (`- # c\n2` is the number -2). */
  private text(node: SyntaxNode): string {
    let text = '';
    let at = node.from;
    const cursor = node.cursor();
    while (cursor.next() && cursor.from < node.to)
      if (cursor.type.isSkipped) {
        text += this.source.slice(at, cursor.from);
        at = cursor.to;
      }
    return text + this.source.slice(at, node.to);
  }

  /** A node's text as a refusal quotes it: cut, never a whole hostile body. */
  private quote(node: SyntaxNode): string {
    return cut(this.text(node));
  }

  /** A node's children but its comments. */
  children(node: SyntaxNode): SyntaxNode[] {
    const list: SyntaxNode[] = [];
    for (let child = node.firstChild; child; child = child.nextSibling)
      if (!child.type.isSkipped) list.push(child);
    return list;
  }

  private only(node: SyntaxNode, name: string): SyntaxNode | undefined {
    return this.children(node).find((child) => child.name === name);
  }

  expr(node: SyntaxNode): Expr {
    switch (node.name) {
      case 'ParenExpr':
        return this.expr(this.children(node)[0]!);
      case 'NumberDurationLiteral':
        return { kind: 'number', value: this.number(this.text(node)) };
      case 'VectorSelector':
        return { kind: 'selector', selector: this.selector(node, 0) };
      case 'OffsetExpr':
        return this.offset(node);
      case 'FunctionCall':
        return this.functionCall(node);
      case 'AggregateExpr':
        return this.aggregate(node);
      case 'BinaryExpr':
        return this.binary(node);
      case 'UnaryExpr': {
        const [op, operand] = this.children(node);
        const inner = this.expr(operand!);
        return this.text(op!) === '-' ? { kind: 'negate', expr: inner } : inner;
      }
      case 'MatrixSelector':
        throw unsupported(
          `a range selector (${this.quote(node)}) must be the argument of a *_over_time function`,
        );
      case 'SubqueryExpr':
        throw unsupported(
          `subqueries (${this.quote(node)}) are not supported; we evaluate ${SUPPORTED}`,
        );
      case 'StepInvariantExpr':
        throw unsupported(`the @ modifier is not supported; we evaluate ${SUPPORTED}`);
      case 'StringLiteral':
        throw unsupported('a string is not a query; we evaluate ' + SUPPORTED);
      default:
        throw unsupported(`${this.quote(node)} is not supported; we evaluate ${SUPPORTED}`);
    }
  }

  /** `x offset 5m` or `x[10m] offset 5m` (the offset moves the selector, not the function). */
  private offset(node: SyntaxNode): Expr {
    const [inner, , duration] = this.children(node);
    const offsetMs = this.signedDuration(duration!);
    if (inner!.name === 'VectorSelector')
      return { kind: 'selector', selector: this.selector(inner!, offsetMs) };
    if (inner!.name === 'MatrixSelector') {
      // Only reachable inside a function call: functionCall reads it through rangeArgument.
      throw unsupported(`${this.quote(node)} must be the argument of a *_over_time function`);
    }
    throw unsupported(`offset applies to a selector, not to ${this.quote(inner!)}`);
  }

  private signedDuration(node: SyntaxNode): number {
    const text = this.text(node).replace(/\s+/g, '');
    const negative = text.startsWith('-');
    const ms = parseDurationMs(text.replace(/^[-+]/, ''), 'offset');
    return negative ? -ms : ms;
  }

  private selector(node: SyntaxNode, offsetMs: number): Selector {
    const matchers: Matcher[] = [];
    const name = this.only(node, 'Identifier');
    if (name) matchers.push({ label: '__name__', op: '=', value: this.text(name) });
    const list = this.only(node, 'LabelMatchers');
    for (const matcher of list ? this.children(list) : []) {
      if (matcher.name === 'QuotedLabelName') {
        matchers.push({ label: '__name__', op: '=', value: this.string(matcher.firstChild!) });
        continue;
      }
      const [label, op, value] = this.children(matcher);
      const opText = this.text(op!);
      if (opText === '=~' || opText === '!~') anchored(this.string(value!));
      matchers.push({
        label:
          label!.name === 'QuotedLabelName' ? this.string(label!.firstChild!) : this.text(label!),
        op: this.text(op!) as MatchOp,
        value: this.string(value!),
      });
    }
    // Prometheus' rule: a selector must not match every series (`{x=""}` matches them all).
    if (!matchers.some((m) => m.label === '__name__' || !matchesValue(m, '')))
      throw new PromQLError(
        PromQLErrorCode.BadParameter,
        `vector selector ${this.quote(node)} must contain at least one non-empty matcher`,
      );
    return { matchers, offsetMs };
  }

  private functionCall(node: SyntaxNode): Expr {
    const name = this.text(this.only(node, 'FunctionIdentifier')!);
    const args = this.children(this.only(node, 'FunctionCallBody')!);
    if (COUNTER_FUNCTIONS.has(name))
      throw unsupported(
        `${name}() is for counters; ticks are gauges (prices, readings): use avg_over_time, sum_over_time or count_over_time instead`,
      );
    if (!(RANGE_FUNCTIONS as readonly string[]).includes(name))
      throw unsupported(`function ${name}() is not supported; we evaluate ${SUPPORTED}`);
    const takesParam = name === 'quantile_over_time';
    if (args.length !== (takesParam ? 2 : 1))
      throw new PromQLError(
        PromQLErrorCode.BadParameter,
        takesParam
          ? `${name}() takes a number φ and a range selector, got ${args.length} arguments`
          : `${name}() takes one range selector, got ${args.length} arguments`,
      );
    return {
      kind: 'range-function',
      fn: name as RangeFunction,
      ...this.rangeArgument(args[takesParam ? 1 : 0]!, name),
      ...(takesParam ? { param: this.expr(args[0]!) } : {}),
    };
  }

  /** `x[10m]`, `x[10m] offset 5m`, or `x offset 5m [10m]`. */
  private rangeArgument(node: SyntaxNode, fn: string): { selector: Selector; rangeMs: number } {
    let offsetMs = 0;
    let matrix = node;
    if (node.name === 'OffsetExpr') {
      const [inner, , duration] = this.children(node);
      offsetMs = this.signedDuration(duration!);
      matrix = inner!;
    }
    if (matrix.name !== 'MatrixSelector')
      throw new PromQLError(
        PromQLErrorCode.BadParameter,
        `${fn}() takes a range selector such as x[5m], got ${this.quote(node)}`,
      );
    const [vector, duration] = this.children(matrix);
    let selectorNode = vector!;
    if (selectorNode.name === 'OffsetExpr') {
      const [inner, , innerOffset] = this.children(selectorNode);
      offsetMs += this.signedDuration(innerOffset!);
      selectorNode = inner!;
    }
    if (selectorNode.name !== 'VectorSelector')
      throw unsupported(
        `a range of ${this.quote(selectorNode)} is not supported (subqueries are not)`,
      );
    const rangeText = this.text(duration!);
    if (!/^[0-9a-z.]+$/.test(rangeText))
      throw unsupported(`duration arithmetic (${rangeText}) is not supported`);
    const rangeMs = parseDurationMs(rangeText, 'range');
    if (rangeMs <= 0)
      throw new PromQLError(PromQLErrorCode.BadParameter, `the range of ${fn}() must be positive`);
    return { selector: this.selector(selectorNode, offsetMs), rangeMs };
  }

  private aggregate(node: SyntaxNode): Expr {
    const op = this.text(this.only(node, 'AggregateOp')!) as Aggregation;
    if (!(AGGREGATIONS as readonly string[]).includes(op))
      throw unsupported(`aggregation ${op} is not supported; we evaluate ${SUPPORTED}`);
    const modifier = this.only(node, 'AggregateModifier');
    const args = this.children(this.only(node, 'FunctionCallBody')!);
    const takesParam = op === 'topk' || op === 'bottomk';
    if (args.length !== (takesParam ? 2 : 1))
      throw new PromQLError(
        PromQLErrorCode.BadParameter,
        `${op} takes ${takesParam ? 'a number and an expression' : 'one expression'}, got ${args.length} arguments`,
      );
    const grouping = modifier
      ? {
          without: this.children(modifier)[0]!.name === 'Without',
          labels: this.groupingLabels(this.only(modifier, 'GroupingLabels')),
        }
      : undefined;
    return {
      kind: 'aggregate',
      op,
      ...(takesParam ? { param: this.expr(args[0]!) } : {}),
      ...(grouping ? { grouping } : {}),
      expr: this.expr(args[takesParam ? 1 : 0]!),
    };
  }

  private binary(node: SyntaxNode): Expr {
    const parts = this.children(node);
    const lhs = parts[0]!;
    const rhs = parts[parts.length - 1]!;
    const op = this.text(parts[1]!) as BinaryOp;
    if (![...ARITHMETIC, ...COMPARISONS].includes(op))
      throw unsupported(
        `operator ${this.quote(parts[1]!)} is not supported; we evaluate arithmetic (+ - * / % ^) and comparisons (== != > < >= <=)`,
      );
    const modifiers = parts.slice(2, -1);
    if (modifiers.some((m) => m.name === 'FillModifier'))
      throw unsupported('fill() is not supported');
    const clause = modifiers.find((m) => m.name === 'MatchingModifierClause');
    const matching = clause ? this.matching(clause) : undefined;
    return {
      kind: 'binary',
      op,
      bool: modifiers.some((m) => m.name === 'BoolModifier'),
      ...(matching ? { matching } : {}),
      lhs: this.expr(lhs),
      rhs: this.expr(rhs),
    };
  }

  /** `on(a, b)` or `ignoring(c)`; group_left/right (many-to-one) are refused. */
  private matching(clause: SyntaxNode): { on: boolean; labels: string[] } {
    const parts = this.children(clause);
    if (parts.some((p) => p.name === 'GroupLeft' || p.name === 'GroupRight'))
      throw unsupported('group_left and group_right are not supported: match one series to one');
    return {
      on: parts[0]!.name === 'On',
      labels: this.groupingLabels(this.only(clause, 'GroupingLabels')),
    };
  }

  /** `(a, "b")`: the names of a by/without/on/ignoring list. */
  private groupingLabels(node: SyntaxNode | undefined): string[] {
    return node
      ? this.children(node).map((label) =>
          label.name === 'QuotedLabelName' ? this.string(label.firstChild!) : this.text(label),
        )
      : [];
  }

  private number(text: string): number {
    const trimmed = text.replace(/\s+/g, '').replaceAll('_', '');
    const sign = trimmed.startsWith('-') ? -1 : 1;
    const body = trimmed.replace(/^[-+]/, '');
    const lower = body.toLowerCase();
    if (lower === 'inf') return sign * Infinity;
    if (lower === 'nan') return NaN;
    const value = Number(body);
    if (Number.isFinite(value)) return sign * value;
    // A duration where a number goes (`5m` is 300): seconds, as Prometheus reads it.
    return (sign * parseDurationMs(body, 'number')) / 1000;
  }

  private string(node: SyntaxNode): string {
    const text = this.text(node);
    const quote = text[0];
    const body = text.slice(1, -1);
    if (quote === '`') return body;
    // Go's escapes, as Prometheus unquotes: \a \b \f \n \r \t \v \\ \' \" \xHH \uHHHH \UHHHHHHHH \ooo.
    return body.replace(
      /\\(x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|[0-7]{3}|.)/g,
      (_all, escape: string) => {
        const simple: Record<string, string> = {
          a: '\x07',
          b: '\b',
          f: '\f',
          n: '\n',
          r: '\r',
          t: '\t',
          v: '\v',
          '\\': '\\',
          "'": "'",
          '"': '"',
        };
        if (escape in simple) return simple[escape]!;
        if (/^[xuU]/.test(escape)) return String.fromCodePoint(parseInt(escape.slice(1), 16));
        if (/^[0-7]{3}$/.test(escape)) return String.fromCharCode(parseInt(escape, 8));
        throw new PromQLError(PromQLErrorCode.Syntax, `unknown escape \\${escape} in ${cut(text)}`);
      },
    );
  }
}
