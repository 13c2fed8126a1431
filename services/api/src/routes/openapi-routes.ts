import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';

export const API_VERSION = '1.0.0';

/** The security requirement of every /api route, naming the scheme declared below. */
export const BEARER = [{ bearerAuth: [] }];

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
          'a read that would exceed the server’s budget is refused with 400.',
        version: API_VERSION,
      },
      components: {
        securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer' } },
      },
    },
    transform: jsonSchemaTransform,
  });
  app.get('/openapi.json', { schema: { hide: true } }, () => app.swagger());
  void app.register(fastifySwaggerUi, {
    routePrefix: '/docs',
    // No validator badge: it would send the document's URL to validator.swagger.io, an image
    // the Content-Security-Policy refuses anyway (security-headers.ts).
    uiConfig: { persistAuthorization: false, validatorUrl: null },
  });
}
