import { PromQLError, PromQLErrorCode, parseTime } from '@tickertape/promql';
import type { FastifyRequest } from 'fastify';

/**
 * A request's parameters as Prometheus reads them (Go's `r.ParseForm`): for a POST, its
 * `application/x-www-form-urlencoded` body first, then the URL's query string, so the body's
 * value wins where both give one (`r.FormValue`), and a repeated `match[]` keeps both.
 */
export class PromParams {
  private constructor(private readonly params: URLSearchParams) {}

  static of(request: FastifyRequest): PromParams {
    const params = new URLSearchParams();
    if (request.body instanceof URLSearchParams)
      for (const [key, value] of request.body) params.append(key, value);
    for (const [key, value] of new URL(request.url, 'http://localhost').searchParams)
      params.append(key, value);
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

  /**
   * A whole number as Go's `strconv.Atoi` reads it (decimal, an optional sign): `0x10`, `1e3`
   * and `16.0` are refused as Prometheus refuses them.
   */
  int(name: string): number | undefined {
    const value = this.get(name);
    if (value === undefined) return undefined;
    const n = Number(value);
    if (!/^[-+]?\d{1,15}$/.test(value) || !Number.isSafeInteger(n))
      throw new PromQLError(PromQLErrorCode.BadParameter, `${name} must be a number`);
    return n;
  }

  /**
   * Every parameter, sorted by name, each name's values in the order read: a kept answer's key
   * (order within a name matters, the first `query` being the one evaluated).
   */
  canonical(): string {
    return [...this.params.entries()]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
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
