import { PromQLError, PromQLErrorCode, parseTime } from '@tickertape/promql';
import type { FastifyRequest } from 'fastify';

/**
 * A request's parameters as Prometheus reads them (`r.ParseForm`): the URL's query string and,
 * for a POST, its `application/x-www-form-urlencoded` body, merged; `match[]` may repeat.
 */
export class PromParams {
  private constructor(private readonly params: URLSearchParams) {}

  static of(request: FastifyRequest): PromParams {
    const params = new URL(request.url, 'http://localhost').searchParams;
    if (request.body instanceof URLSearchParams)
      for (const [key, value] of request.body) params.append(key, value);
    return new PromParams(params);
  }

  get(name: string): string | undefined {
    const value = this.params.get(name);
    return value === null || value === '' ? undefined : value;
  }

  required(name: string): string {
    const value = this.get(name);
    if (value === undefined)
      throw new PromQLError(PromQLErrorCode.BadParameter, `invalid parameter "${name}": missing`);
    return value;
  }

  all(name: string): string[] {
    return this.params.getAll(name).filter((value) => value !== '');
  }

  time(name: string): number | undefined {
    const value = this.get(name);
    return value === undefined ? undefined : parseTime(value, name);
  }

  /** Every parameter but the token-free ones, sorted: a kept answer's key. */
  canonical(): string {
    return [...this.params.entries()]
      .sort(([a, av], [b, bv]) => (a < b ? -1 : a > b ? 1 : av < bv ? -1 : av > bv ? 1 : 0))
      .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`)
      .join('&');
  }
}

/** Parses POST form bodies into URLSearchParams (Prometheus clients POST queries as forms). */
export function formBodyParser(
  _request: FastifyRequest,
  body: string,
  done: (err: Error | null, body?: URLSearchParams) => void,
): void {
  done(null, new URLSearchParams(body));
}
