import { cut, TickertapeError } from '@tickertape/errors';
import { parseSeriesKey } from '@tickertape/tick';
import type { FastifyRequest } from 'fastify';

/** ScopeError's code, the `error` of its 403 (api-error.ts's ApiErrorCode.Forbidden). */
export const FORBIDDEN = 'forbidden';

/** A read of a metric outside the token's scope: 403, decided by the name alone, never by data. */
export class ScopeError extends TickertapeError {
  override readonly name = 'ScopeError';
  readonly statusCode = 403;

  constructor(message: string) {
    super(FORBIDDEN, message);
  }
}

export const isScopeError = (err: unknown): err is ScopeError => err instanceof ScopeError;

/**
 * The metrics one token may read: exact names and name prefixes (`weather.*`), or all of them.
 * Every read consults the request's scope (`scopeOf`) in one of three ways: a named series or
 * metric outside it is refused (`checkMetric`), a listing is filtered (`allows`), and kept
 * answers are keyed by it (`key`), so one scope's answer never reaches another.
 */
export class MetricScope {
  /** A plain token's scope: every metric. */
  static readonly ALL = new MetricScope(undefined, []);

  private constructor(
    /** Undefined for every metric. */
    private readonly names: ReadonlySet<string> | undefined,
    private readonly prefixes: readonly string[],
  ) {}

  static of(names: readonly string[], prefixes: readonly string[]): MetricScope {
    return new MetricScope(new Set(names), [...new Set(prefixes)].sort());
  }

  get all(): boolean {
    return this.names === undefined;
  }

  allows(metric: string): boolean {
    return (
      this.names === undefined ||
      this.names.has(metric) ||
      this.prefixes.some((prefix) => metric.startsWith(prefix))
    );
  }

  /** Equal for equal scopes, whatever order they were written in; `*` for every metric. */
  get key(): string {
    if (this.names === undefined) return '*';
    return JSON.stringify([[...this.names].sort(), this.prefixes]);
  }

  /** Refuses a metric the request names outside the scope (403), whether it exists or not. */
  checkMetric(metric: string): void {
    if (!this.allows(metric))
      throw new ScopeError(
        `this token's scope does not include metric ${JSON.stringify(cut(metric))}`,
      );
  }

  /** checkMetric for a series key's metric. A malformed key is left to the reader, which refuses it (400) before any read. */
  checkSeries(series: string): void {
    let metric: string;
    try {
      metric = parseSeriesKey(series).metric;
    } catch {
      return;
    }
    this.checkMetric(metric);
  }
}

/**
 * A scope as API_TOKENS writes it after a token's `:` — names and prefixes separated by `|`,
 * a prefix ending in `*` (`weather.*|traffic_speed`), `*` alone for every metric — or the
 * problem with it. The problem never quotes the text: it sits next to a secret.
 */
export function parseScope(text: string): MetricScope | string {
  const names: string[] = [];
  const prefixes: string[] = [];
  const parts = text.split('|').map((part) => part.trim());
  for (const [i, part] of parts.entries()) {
    const star = part.indexOf('*');
    if (part === '') return `its scope's entry ${i + 1} is empty`;
    if (part === '*') return MetricScope.ALL;
    if (star !== -1 && star !== part.length - 1)
      return `its scope's entry ${i + 1} has a * before its end (only a trailing * marks a prefix)`;
    if (star === -1) names.push(part);
    else prefixes.push(part.slice(0, -1));
  }
  return MetricScope.of(names, prefixes);
}

/** A bearer token and what it may read. */
export interface ScopedToken {
  token: string;
  scope: MetricScope;
}

/** A plain string is a token with every metric in scope (BuildAppOptions' `tokens`). */
export function scopedToken(entry: string | ScopedToken): ScopedToken {
  return typeof entry === 'string' ? { token: entry, scope: MetricScope.ALL } : entry;
}

const scopes = new WeakMap<FastifyRequest, MetricScope>();

/** Set by the bearer hook once the token is accepted. */
export function assignScope(request: FastifyRequest, scope: MetricScope): void {
  scopes.set(request, scope);
}

/**
 * The request's scope. A request that reached a read without one is refused rather than given
 * every metric: a route registered outside the bearer hook then fails closed.
 */
export function scopeOf(request: FastifyRequest): MetricScope {
  const scope = scopes.get(request);
  if (scope === undefined) throw new ScopeError('this request carries no token scope');
  return scope;
}
