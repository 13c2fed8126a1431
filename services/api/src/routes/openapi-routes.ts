import fastifySwagger, { type SwaggerTransformObject } from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { emptyAnswer } from '../response-schemas.js';

export const API_VERSION = '1.0.0';

/** The security requirement of every /api route, naming the scheme declared below. */
export const BEARER = [{ bearerAuth: [] }];

/** fastify-type-provider-zod's transform, with the answers without a body written as such. */
const transform: typeof jsonSchemaTransform = (document) => {
  const response = document.schema?.response as Record<string, unknown> | undefined;
  if (!response) return jsonSchemaTransform(document);
  const empty = Object.entries(response).flatMap(([status, schema]) => {
    const description = emptyAnswer(schema);
    return description === undefined ? [] : [[status, description] as const];
  });
  if (empty.length === 0) return jsonSchemaTransform(document);
  const rest = Object.fromEntries(
    Object.entries(response).filter(([status]) => !empty.some(([s]) => s === status)),
  );
  const transformed = jsonSchemaTransform({
    ...document,
    schema: { ...document.schema, response: rest },
  });
  // @fastify/swagger writes a response of type 'null' with its description and no content.
  const schema = transformed.schema as { response?: Record<string, unknown> };
  schema.response = {
    ...schema.response,
    ...Object.fromEntries(
      empty.map(([status, description]) => [status, { type: 'null', description }]),
    ),
  };
  return transformed;
};

/**
 * @fastify/swagger writes every request body as required; a Prometheus form is not: a POST
 * without one reads the URL's parameters, as Go's `r.ParseForm` (an empty /labels lists all).
 */
const optionalForms: SwaggerTransformObject = (documentObject) => {
  const document =
    'openapiObject' in documentObject ? documentObject.openapiObject : documentObject.swaggerObject;
  const paths = (document.paths ?? {}) as Record<string, Record<string, unknown> | undefined>;
  for (const path of Object.values(paths))
    for (const operation of Object.values(path ?? {})) {
      const body = (operation as { requestBody?: { required?: boolean; content?: object } })
        .requestBody;
      if (body?.content && 'application/x-www-form-urlencoded' in body.content)
        body.required = false;
    }
  return document;
};

/**
 * OpenAPI 3 generated from the routes' zod schemas, so the document cannot drift from what the
 * routes check: /openapi.json, and swagger-ui at /docs/. Registered before the routes it
 * describes (the plugin collects them as they are added); queued, not awaited, so `buildApp`
 * stays synchronous.
 */
export function registerOpenApi(app: FastifyInstance): void {
  void app.register(fastifySwagger, {
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'tickertape API',
        description:
          'Read-only access to the rollups and to the raw points of the segment store. Times are ' +
          'epoch milliseconds (UTC) in answers and ISO-8601 or epoch milliseconds in queries. ' +
          'Every read reports `examined`, the bucket (or, for /raw, segment) documents it read; ' +
          'a read that would exceed the server’s budget is refused with 400. Under ' +
          '/prometheus/api/v1, the Prometheus HTTP query API: its parameters, envelopes and ' +
          'errors (400 bad_data, 422 execution).',
        version: API_VERSION,
      },
      components: {
        securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer' } },
      },
    },
    transform,
    transformObject: optionalForms,
  });
  app.get('/openapi.json', { schema: { hide: true } }, () => app.swagger());
  void app.register(fastifySwaggerUi, {
    routePrefix: '/docs',
    // No validator badge: it would send the document's URL to validator.swagger.io, an image
    // the Content-Security-Policy refuses anyway (security-headers.ts).
    uiConfig: { persistAuthorization: false, validatorUrl: null },
  });
}
