import type { Answers } from './api-types.js';

/** An answer other than 2xx, or no answer (status 0, code UNREACHABLE). */
export class ApiError extends Error {
  override readonly name = 'ApiError';

  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** A request given up because a newer one replaced it: never shown. */
export function isAbort(err: unknown): boolean {
  return err instanceof DOMException && err.name === 'AbortError';
}

/** Query parameters; undefined and empty values are left out. */
export type Params = Record<string, string | number | undefined>;

/** GET one API resource, typed by its path. */
export type ApiGet = <P extends keyof Answers>(
  path: P,
  params: Params,
  signal?: AbortSignal,
) => Promise<Answers[P]>;

/**
 * GETs with the current token (read at each request: the user may change it), relative to the
 * page, so a proxy's path prefix is kept.
 */
export function apiClient(token: () => string): ApiGet {
  return async (path, params, signal) => {
    const url = new URL(`../api/v1/${path}`, document.baseURI);
    for (const [key, value] of Object.entries(params))
      if (value !== undefined && value !== '') url.searchParams.set(key, String(value));
    let response: Response;
    try {
      response = await fetch(url, {
        headers: { Authorization: `Bearer ${token()}`, Accept: 'application/json' },
        signal,
      });
    } catch (err) {
      if (isAbort(err)) throw err;
      throw new ApiError(0, 'UNREACHABLE', `the API did not answer: ${String(err)}`);
    }
    if (!response.ok) {
      let body: { error?: unknown; message?: unknown } = {};
      try {
        body = (await response.json()) as typeof body;
      } catch {
        // not JSON: fall back to the status line
      }
      throw new ApiError(
        response.status,
        typeof body.error === 'string' ? body.error : String(response.status),
        typeof body.message === 'string' ? body.message : response.statusText,
      );
    }
    return (await response.json()) as Answers[typeof path];
  };
}
