import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { noContent, unscopedErrors } from '../response-schemas.js';
import { BEARER } from './openapi-routes.js';

/**
 * 204 when the bearer token is one the API accepts (the /api scope's hook answers 401 before this
 * runs otherwise): what a caching proxy asks before serving a kept answer (nginx's auth_request,
 * infra/local/proxy), so a kept answer never reaches a request the API would refuse.
 */
export const tokenRoute: FastifyPluginCallbackZod = (api, _options, done) => {
  api.get(
    '/token',
    {
      schema: {
        summary: 'Whether the bearer token is accepted (204), for proxies that authenticate',
        tags: ['status'],
        security: BEARER,
        response: { 204: noContent('The token is accepted'), ...unscopedErrors },
      },
    },
    async (_request, reply) =>
      reply.code(204).header('cache-control', 'private, no-store').send(null),
  );
  done();
};
