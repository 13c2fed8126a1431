import type { RollupReader } from '@tickertape/query';
import { ReadAbortedError, ReadTimeoutError } from '@tickertape/store';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { setMaxListeners } from 'node:events';

/** The variable that sets a request's read budget: refusals name it. */
export const READ_TIMEOUT_VARIABLE = 'API_READ_TIMEOUT_MS';

/**
 * 30 s: Grafana's data proxy timeout by default, past which no panel waits for the answer anyway;
 * a request reading longer is almost always one that asks too much (issue 37's 5,000 `match[]`).
 */
export const DEFAULT_READ_TIMEOUT_MS = 30_000;

export interface RequestReadsOptions {
  /** The request's read budget (API_READ_TIMEOUT_MS). */
  readTimeoutMs: number;
  /** Told once when a client goes away before its answer was sent. */
  onAbort?: (request: FastifyRequest, reply: FastifyReply) => void;
}

const controllers = new WeakMap<FastifyRequest, AbortController>();

/** What a request's reads answer once its client has gone: nobody will see it. */
export function clientGone(): ReadAbortedError {
  return new ReadAbortedError('the client closed the connection before the answer was sent');
}

export function readTimeout(budgetMs: number): ReadTimeoutError {
  return new ReadTimeoutError(readTimeoutMessage(budgetMs), budgetMs);
}

/** What a request past its read budget is told, whichever side (server or API) stopped it. */
export function readTimeoutMessage(budgetMs: number): string {
  return `the request's reads took longer than ${READ_TIMEOUT_VARIABLE} (${budgetMs} ms) allows: narrow the range or the selectors, or try again later`;
}

/**
 * Gives every request an AbortSignal for its reads: aborted with a ReadAbortedError when the
 * client goes away before the answer (the response closes unfinished: a reset, a closed tab, a
 * client's own timeout), or with a ReadTimeoutError when its reads budget runs out. The response's
 * `close` is the test rather than the request's: for a POST the request side closes as soon as
 * its body is read, while the client is still waiting.
 */
export function trackRequestReads(app: FastifyInstance, options: RequestReadsOptions): void {
  const { readTimeoutMs, onAbort } = options;
  app.addHook('onRequest', async (request, reply) => {
    const controller = new AbortController();
    // Each read under way listens (the driver's abort listener, removed when it ends), and one
    // request runs many at once: a year of minute partitions, eight selectors at a time.
    setMaxListeners(0, controller.signal);
    controllers.set(request, controller);
    const timer = setTimeout(() => controller.abort(readTimeout(readTimeoutMs)), readTimeoutMs);
    timer.unref();
    reply.raw.once('close', () => {
      clearTimeout(timer);
      if (reply.raw.writableFinished || controller.signal.aborted) return;
      controller.abort(clientGone());
      onAbort?.(request, reply);
    });
  });
}

/** Whether the request's client went away before its answer (trackRequestReads). */
export function wasAborted(request: FastifyRequest): boolean {
  const reason: unknown = controllers.get(request)?.signal.reason;
  return reason instanceof ReadAbortedError;
}

/** The signal a request's reads stop at; one that never aborts outside trackRequestReads. */
export function readSignalOf(request: FastifyRequest): AbortSignal {
  return controllers.get(request)?.signal ?? new AbortController().signal;
}

/** `reader` for this request: its reads stop when the client goes or the budget runs out. */
export function readerFor(reader: RollupReader, request: FastifyRequest): RollupReader {
  return reader.withSignal(readSignalOf(request));
}
