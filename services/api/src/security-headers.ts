import fastifyHelmet from '@fastify/helmet';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';

/**
 * Helmet's headers on every answer — /api, /prometheus, /docs, the dashboard, /health, errors and
 * 404s alike (global, registered before any route): `X-Content-Type-Options: nosniff` (a CSV
 * or JSON answer is never run as a script or page), `Referrer-Policy: no-referrer`, and a
 * Content-Security-Policy, helmet's defaults but:
 *
 * - `frame-ancestors 'none'` with `X-Frame-Options: DENY`: no page of ours is meant to be framed
 *   (the dashboard holds a token; clickjacking it would spend it).
 * - no `upgrade-insecure-requests`: the API speaks plain HTTP (TLS is the ingress's), and on a
 *   plain-HTTP address other than localhost that directive would make the browser ask for the
 *   pages' scripts over HTTPS, where nothing answers.
 *
 * The pages fit the rest (`script-src 'self'`, `style-src 'self' https: 'unsafe-inline'`,
 * `img-src 'self' data:`): swagger-ui and the dashboard load only their own files, with no
 * inline script or handler attribute (docs-and-files.test.ts checks what they reference; the
 * browser test loads both in Chromium and fails on any CSP violation).
 */
const OPTIONS = {
  contentSecurityPolicy: {
    useDefaults: true,
    directives: {
      'frame-ancestors': ["'none'"],
      'upgrade-insecure-requests': null,
    },
  },
  frameguard: { action: 'deny' },
  referrerPolicy: { policy: 'no-referrer' },
} satisfies HelmetOptions;

export function registerSecurityHeaders(app: FastifyInstance): void {
  void app.register(fastifyHelmet, { global: true, ...OPTIONS });
}

const headersOf = helmet(OPTIONS);

/**
 * The same headers on an answer Fastify sends before any hook runs (a malformed URL, a path
 * parameter past its length: `frameworkErrors` in app.ts).
 */
export function setSecurityHeaders(request: FastifyRequest, reply: FastifyReply): void {
  headersOf(request.raw, reply.raw, () => undefined);
}
