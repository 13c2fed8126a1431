/** How a read is represented: the format chosen for a request, its headers, and its body. */
import { TickertapeError } from '@tickertape/errors';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CONTENT_TYPES, MEDIA_TYPES, negotiateFormat, type AnswerFormat } from './answer-format.js';
import { tableToArrowStream } from './arrow.js';
import { tableToCsv } from './csv.js';
import type { Table } from './table.js';

export interface ChosenFormat {
  format: AnswerFormat;
  /** Chosen by the Accept header (no `format=`): caches must keep one answer per Accept. */
  byAccept: boolean;
}

/** The format a read route answers in (its query string's `format` was checked by its schema). */
export function chosenFormat(request: FastifyRequest): ChosenFormat {
  const asked = (request.query as { format?: AnswerFormat } | undefined)?.format;
  return {
    format: negotiateFormat(asked, request.headers.accept),
    byAccept: asked === undefined,
  };
}

/** A table in one of the formats that are not the API's JSON. */
export function tableBody(table: Table, format: Exclude<AnswerFormat, 'json'>): string | Buffer {
  return format === 'csv' ? tableToCsv(table) : tableToArrowStream(table);
}

/**
 * The headers of a representation: its Content-Type and, when Accept chose it, `Vary: Accept`
 * (a cache that keys by URL alone would otherwise hand a kept JSON answer to a CSV request).
 */
export function representationHeaders(reply: FastifyReply, chosen: ChosenFormat): void {
  void reply.type(CONTENT_TYPES[chosen.format]);
  if (chosen.byAccept) void reply.header('vary', 'Accept');
}

/**
 * The JSON body of a result, through the route's own serializer (its response schema's JSON
 * media type: the 200 lists one per format, response-schemas.ts), so nothing the reader adds
 * leaks out.
 */
function jsonBody(reply: FastifyReply, result: unknown): string {
  const serialize = reply.getSerializationFunction('200', MEDIA_TYPES.json);
  if (serialize === undefined)
    throw new TickertapeError(
      'API_NO_SERIALIZER',
      `route ${reply.request.routeOptions.url ?? '?'} has no JSON schema for 200`,
    );
  return serialize(result as Record<string, unknown>);
}

/**
 * A result in the format asked for: as it is for JSON (Fastify serializes it by the route's
 * schema), its table encoded for CSV and Arrow — with Content-Type and Vary either way.
 */
export function represent<T>(
  request: FastifyRequest,
  reply: FastifyReply,
  result: T,
  table: (result: T) => Table,
): T {
  const chosen = chosenFormat(request);
  representationHeaders(reply, chosen);
  if (chosen.format === 'json') return result;
  // Sent as it is (a string or Buffer is never serialized again); typed as the result, which it
  // represents, so each route keeps its response schema's type check.
  return tableBody(table(result), chosen.format) as unknown as T;
}

/** The body of an answer in `format`, for keeping: JSON text, CSV text or Arrow bytes. */
export function answerBody<T>(
  reply: FastifyReply,
  format: AnswerFormat,
  result: T,
  table: (result: T) => Table,
): string | Buffer {
  return format === 'json' ? jsonBody(reply, result) : tableBody(table(result), format);
}
