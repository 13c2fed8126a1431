import { isBadQuery, isClockRelative, isTimeZone, parseTimeArgument } from '@tickertape/query';
import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';

/*
 * `from` and `to` of the read routes, read as the CLI reads `--from`/`--to` (docs/querying.md,
 * "Times and tags"): relative times (`-1h`, `now-15m`) from the API's clock, and, with a known
 * `tz`, times without an offset as the zone's wall time. A preValidation hook rewrites each time
 * it reads to RFC 3339 UTC before the query schema parses it, so the schema's refusals still name
 * the parameter; a request whose range moves with the clock is remembered, so its answer is never
 * kept as final.
 */

const TIMES = ['from', 'to'] as const;
const clockRelative = new WeakSet<FastifyRequest>();

/** The hook of the points, candles, window, series and raw routes; one clock reading per request. */
export function readTimes(now: () => number) {
  return (request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction): void => {
    const query = request.query as Record<string, unknown> | undefined;
    if (query !== undefined) {
      const nowMs = now();
      const tz = typeof query.tz === 'string' && isTimeZone(query.tz) ? query.tz : undefined;
      for (const name of TIMES) {
        const text = query[name];
        if (typeof text !== 'string') continue;
        let ms: number;
        try {
          ms = parseTimeArgument(text, { nowMs, tz });
        } catch (err) {
          // Left as given: the schema refuses it, naming the parameter.
          if (isBadQuery(err)) continue;
          throw err;
        }
        if (isClockRelative(text)) clockRelative.add(request);
        query[name] = new Date(ms).toISOString();
      }
    }
    done();
  };
}

/** Whether `from` or `to` was given relative to now (`now`, `-1h`): the answer moves with the clock. */
export function isRelativeRead(request: FastifyRequest): boolean {
  return clockRelative.has(request);
}
