import fastifyStatic from '@fastify/static';
import type { FastifyPluginAsync } from 'fastify';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * `services/api/dist/dashboard/`, the page as `build:dashboard` makes it from dashboard/: two
 * levels up from both src/routes (tests) and dist/routes.
 */
export const DASHBOARD_DIR = fileURLToPath(new URL('../../dist/dashboard/', import.meta.url));

const CHARTS_FILE = 'lightweight-charts.standalone.production.js';
const DAY_MS = 86_400_000;

/** The page's own files; anything else in the directory is not served. */
const SERVED = /\.(html|js|css|svg|png|ico)$/;

/**
 * Where a dependency's files are: next to its package.json (lightweight-charts exports only
 * its ESM entry, so the standalone build cannot be resolved by name).
 */
export function packageDir(name: string): string {
  return dirname(createRequire(import.meta.url).resolve(`${name}/package.json`));
}

export interface DashboardOptions {
  dir: string;
}

/**
 * The dashboard's files at /dashboard/ and the chart library's standalone build (a global
 * `LightweightCharts`, no bundler) at /dashboard/vendor/lightweight-charts.js. No token here:
 * the page holds none until the user enters it, and sends it on its own /api calls.
 */
export const dashboardRoutes: FastifyPluginAsync<DashboardOptions> = async (app, options) => {
  const charts = join(packageDir('lightweight-charts'), 'dist');
  await app.register(fastifyStatic, {
    root: options.dir,
    prefix: '/dashboard/',
    allowedPath: (path) => SERVED.test(path) || path.endsWith('/'),
    // The page changes with each deploy: browsers revalidate.
    maxAge: 0,
  });
  const hidden = { schema: { hide: true } };
  // The page's relative URLs (app.js, ../api/v1/…) need the trailing slash; a relative
  // redirect keeps working behind a path prefix.
  app.get('/dashboard', hidden, (_request, reply) => reply.redirect('dashboard/', 301));
  // Versioned with the package: safe to cache for a day.
  app.get(
    '/dashboard/vendor/lightweight-charts.js',
    { schema: { hide: true } },
    (_request, reply) => reply.sendFile(CHARTS_FILE, charts, { maxAge: DAY_MS }),
  );
};
