/** How a read is represented: the format chosen for a request, its headers, and its body. */
import { ENCODERS, type Answer, type Body, type Format, type Table } from '@tickertape/answers';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { negotiateFormat } from './answer-format.js';

export interface ChosenFormat {
  format: Format;
  /** Chosen by the Accept header (no `format=`): caches must keep one answer per Accept. */
  byAccept: boolean;
}

/** The format a read route answers in (its query string's `format` was checked by its schema). */
export function chosenFormat(request: FastifyRequest): ChosenFormat {
  const asked = (request.query as { format?: Format } | undefined)?.format;
  return {
    format: negotiateFormat(asked, request.headers.accept),
    byAccept: asked === undefined,
  };
}

/**
 * What a read route answers with: the JSON schema of its body (the one its 200 documents,
 * response-schemas.ts) and the table of its rows (@tickertape/answers).
 */
export interface ReadShape<T> {
  schema: z.ZodType;
  table: (result: T) => Table;
}

/**
 * A reader's result as an answer. Its JSON is the result encoded by the route's schema, as
 * Fastify's serializer would (fastify-type-provider-zod), so nothing the reader adds leaks out.
 */
export const answerOf = <T>(shape: ReadShape<T>, result: T): Answer => ({
  json: () => shape.schema.encode(result),
  table: () => shape.table(result),
});

/**
 * The headers of a representation: its Content-Type and, when Accept chose it, `Vary: Accept`
 * (a cache that keys by URL alone would otherwise hand a kept JSON answer to a CSV request).
 */
export function representationHeaders(reply: FastifyReply, chosen: ChosenFormat): void {
  void reply.type(ENCODERS[chosen.format].contentType);
  if (chosen.byAccept) void reply.header('vary', 'Accept');
}

/** The body of an answer in `format`, for sending or keeping: JSON text, CSV text or Arrow bytes. */
export function answerBody<T>(format: Format, shape: ReadShape<T>, result: T): Body {
  return ENCODERS[format].encode(answerOf(shape, result));
}

/**
 * A result in the format asked for, with Content-Type and Vary. Sent as it is (Fastify never
 * serializes a string or Buffer again); typed as the result, which it represents, so each route
 * keeps its response schema's type check.
 */
export function represent<T>(
  request: FastifyRequest,
  reply: FastifyReply,
  result: T,
  shape: ReadShape<T>,
): T {
  const chosen = chosenFormat(request);
  representationHeaders(reply, chosen);
  return answerBody(chosen.format, shape, result) as unknown as T;
}
