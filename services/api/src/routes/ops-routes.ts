import { withDeadline } from '@tickertape/errors';
import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import type { Registry } from 'prom-client';
import { healthSchema } from '../response-schemas.js';

export interface OpsRouteOptions {
  registry: Registry;
  /** Resolves while the database answers; rejects (or is absent: always healthy) otherwise. */
  health?: () => Promise<unknown>;
}

/** Orchestrators give up on a probe after a few seconds; say "unavailable" before they do. */
const HEALTH_TIMEOUT_MS = 2000;

/** Outside /api and without auth: scrapers and orchestrators carry no token. */
export const opsRoutes: FastifyPluginCallbackZod<OpsRouteOptions> = (app, options, done) => {
  const { registry, health } = options;

  app.get(
    '/health',
    {
      schema: {
        summary: 'Whether the API can reach its database (MongoDB ping)',
        tags: ['ops'],
        response: { 200: healthSchema, 503: healthSchema },
      },
    },
    async (_request, reply) => {
      try {
        if (health) await withDeadline(HEALTH_TIMEOUT_MS, 'the database ping', health);
        return { status: 'ok' as const };
      } catch {
        // The driver's message names hosts; the mongo client's listener logs the outage itself.
        return reply.code(503).send({ status: 'unavailable', message: 'database unreachable' });
      }
    },
  );

  app.get(
    '/metrics',
    { schema: { summary: 'Prometheus metrics', tags: ['ops'], produces: ['text/plain'] } },
    async (_request, reply) => {
      const text = await registry.metrics();
      return reply.header('Content-Type', registry.contentType).send(text);
    },
  );
  done();
};
