import { storesOf } from '@tickertape/store';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { TestStack } from '@tickertape/testing';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startTestApi, type RunningApi } from '../support/api.js';
import { testDatabase } from '@tickertape/store/testing';

const DASHBOARD = fileURLToPath(new URL('../../dashboard/', import.meta.url));
const CHARTS = join(
  dirname(createRequire(import.meta.url).resolve('lightweight-charts/package.json')),
  'dist/lightweight-charts.standalone.production.js',
);

interface Operation {
  summary?: string;
  security?: Record<string, string[]>[];
  parameters?: { name: string; in: string; required?: boolean; schema?: { type?: string } }[];
  requestBody?: {
    content: Record<
      string,
      { schema: { properties: Record<string, unknown>; required?: string[] } }
    >;
  };
  responses: Record<string, { content?: Record<string, { schema?: unknown }> }>;
}
interface OpenApiDoc {
  openapi: string;
  info: { title: string; version: string };
  components: { securitySchemes: Record<string, unknown> };
  paths: Record<string, Record<string, Operation>>;
}

const API_ROUTES: Record<string, string[]> = {
  '/api/v1/series': ['metric', 'tag', 'from', 'to', 'limit', 'format'],
  '/api/v1/points': [
    'series',
    'field',
    'from',
    'to',
    'maxPoints',
    'tz',
    'quantile',
    'level',
    'detail',
    'fill',
    'format',
  ],
  '/api/v1/candles': ['series', 'field', 'from', 'to', 'maxPoints', 'tz', 'quantile', 'format'],
  '/api/v1/window': [
    'series',
    'metric',
    'tag',
    'limit',
    'field',
    'from',
    'to',
    'last',
    'tz',
    'quantile',
    'format',
  ],
  '/api/v1/status': ['series'],
  '/api/v1/raw': ['series', 'from', 'to', 'field', 'format'],
  '/api/v1/levels': [],
};

/**
 * The Prometheus HTTP query API: its methods and its parameters (described; PromParams reads them
 * as Prometheus does), the required ones first.
 */
const PROMETHEUS_ROUTES: Record<
  string,
  { methods: string[]; params: string[]; required: string[] }
> = {
  '/prometheus/api/v1/query': {
    methods: ['get', 'post'],
    params: ['query', 'time'],
    required: ['query'],
  },
  '/prometheus/api/v1/query_range': {
    methods: ['get', 'post'],
    params: ['query', 'start', 'end', 'step'],
    required: ['query', 'start', 'end', 'step'],
  },
  '/prometheus/api/v1/labels': {
    methods: ['get', 'post'],
    params: ['match[]', 'start', 'end'],
    required: [],
  },
  '/prometheus/api/v1/label/{name}/values': {
    methods: ['get'],
    params: ['match[]', 'start', 'end', 'name'],
    required: ['name'],
  },
  '/prometheus/api/v1/series': {
    methods: ['get', 'post'],
    params: ['match[]', 'start', 'end'],
    required: ['match[]'],
  },
  '/prometheus/api/v1/metadata': { methods: ['get'], params: ['metric', 'limit'], required: [] },
  '/prometheus/api/v1/status/buildinfo': { methods: ['get'], params: [], required: [] },
};

/** A Content-Security-Policy header as its directives: `{ 'script-src': ["'self'"], … }`. */
function directives(header: string | null): Record<string, string[]> {
  return Object.fromEntries(
    (header ?? '')
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .filter(([name]) => name !== '')
      .map(([name, ...values]) => [name!, values]),
  );
}

/**
 * What a page's HTML loads and runs: the URLs of its scripts, stylesheets and icons, and any
 * inline script, inline handler (`onclick=`) or style element, which `script-src 'self'` and
 * `script-src-attr 'none'` would block.
 */
function pageLoads(html: string) {
  const attr = (tag: RegExp, name: string) =>
    [...html.matchAll(tag)].map((m) => new RegExp(`${name}="([^"]*)"`).exec(m[0])?.[1] ?? '');
  return {
    scripts: attr(/<script\b[^>]*>/g, 'src'),
    links: attr(/<link\b[^>]*>/g, 'href'),
    handlers: [...html.matchAll(/<[^>]+\son[a-z]+\s*=/gi)].map((m) => m[0]),
  };
}

/** Whether `url`, as the page at `page` refers to it, is allowed by `sources` of a CSP. */
function allowed(sources: string[], url: string, page: string): boolean {
  const target = new URL(url, page);
  if (target.protocol === 'data:') return sources.includes('data:');
  return target.origin === new URL(page).origin && sources.includes("'self'");
}

describe('the OpenAPI document, the docs page, the dashboard files and /metrics', () => {
  let stack: TestStack;
  let api: RunningApi;
  let doc: OpenApiDoc;

  beforeAll(async () => {
    stack = await TestStack.open('api-docs');
    api = await startTestApi(await storesOf(testDatabase(stack)));
    const res = await api.get<OpenApiDoc>('/openapi.json', null);
    expect(res.status).toBe(200);
    doc = res.body;
  });
  afterAll(async () => {
    await api?.close();
    await stack?.close();
  });

  it('is OpenAPI 3 and lists every route with its parameters, bearer auth and answers', () => {
    expect(doc.openapi).toMatch(/^3\.0\.\d$/);
    expect(doc.info).toEqual({
      title: 'tickertape API',
      version: '1.0.0',
      description: expect.any(String),
    });
    expect(doc.components.securitySchemes).toEqual({
      bearerAuth: { type: 'http', scheme: 'bearer' },
    });
    expect(Object.keys(doc.paths).sort()).toEqual(
      [
        ...Object.keys(API_ROUTES),
        ...Object.keys(PROMETHEUS_ROUTES),
        '/api/v1/token',
        '/health',
        '/metrics',
      ].sort(),
    );
    for (const [path, { methods, params, required }] of Object.entries(PROMETHEUS_ROUTES)) {
      expect(Object.keys(doc.paths[path]!).sort()).toEqual(methods);
      for (const method of methods) {
        const operation = doc.paths[path]![method]!;
        expect(operation.summary).toMatch(/Prometheus HTTP API/);
        expect(operation.security).toEqual([{ bearerAuth: [] }]);
        // A GET takes its parameters in the URL, a POST as a form (the path's name stays in the path).
        const inUrl = operation.parameters ?? [];
        const form = operation.requestBody?.content['application/x-www-form-urlencoded']?.schema;
        const named = [...inUrl.map((p) => p.name), ...Object.keys(form?.properties ?? {})];
        expect(named.sort()).toEqual([...params].sort());
        const needed = [
          ...inUrl.filter((p) => p.required).map((p) => p.name),
          ...(form?.required ?? []),
        ];
        expect(needed.sort()).toEqual([...required].sort());
        if (method === 'post') expect(inUrl.filter((p) => p.in === 'query')).toEqual([]);
        // Prometheus' statuses: 400 bad_data, 422 execution and 503 timeout (not for buildinfo,
        // which reads nothing); a form also meets the body's refusals.
        const reads = !path.endsWith('buildinfo');
        const statuses = [
          '200',
          '304',
          '400',
          '401',
          ...(method === 'post' ? ['413', '415'] : []),
          ...(reads ? ['422'] : []),
          '500',
          ...(reads ? ['503'] : []),
        ];
        expect(Object.keys(operation.responses).sort()).toEqual(statuses);
        for (const [status, response] of Object.entries(operation.responses))
          expect({ status, types: Object.keys(response.content ?? {}) }).toEqual({
            status,
            types: status === '304' ? [] : ['application/json'],
          });
      }
    }
    // What a caching proxy asks before serving a kept answer: 204, without a body, or the refusals.
    const token = doc.paths['/api/v1/token']!.get!;
    expect(token.security).toEqual([{ bearerAuth: [] }]);
    expect(Object.keys(token.responses).sort()).toEqual(['204', '400', '401', '500']);
    expect(token.responses['204']!.content).toBeUndefined();
    for (const [path, names] of Object.entries(API_ROUTES)) {
      const operation = doc.paths[path]!.get!;
      expect(Object.keys(doc.paths[path]!)).toEqual(['get']);
      expect(operation.summary).toEqual(expect.any(String));
      expect(operation.security).toEqual([{ bearerAuth: [] }]);
      expect((operation.parameters ?? []).map((p) => p.name)).toEqual(names);
      for (const parameter of operation.parameters ?? []) {
        expect(parameter.in).toBe('query');
        expect(parameter.schema).toEqual(expect.any(Object));
      }
      // A read names metrics: 403 outside the token's scope; /levels only lists them. A read of
      // a series' field: 404 for a name the store does not hold (QUERY_UNKNOWN_NAME).
      const named = ['/api/v1/points', '/api/v1/candles', '/api/v1/window'].includes(path);
      expect(Object.keys(operation.responses).sort()).toEqual(
        path === '/api/v1/levels'
          ? ['200', '304', '400', '401', '500', '503']
          : ['200', '304', '400', '401', '403', ...(named ? ['404'] : []), '500', '503'],
      );
      // A 304 (If-None-Match named the ETag) has no body.
      expect(operation.responses['304']!.content).toBeUndefined();
      for (const [status, response] of Object.entries(operation.responses))
        if (status !== '304')
          expect(response.content?.['application/json']?.schema).toMatchObject({ type: 'object' });
    }
    const window = doc.paths['/api/v1/window']!.get!.parameters!;
    // Either series (repeatable) or metric: neither is required on its own.
    expect(window.find((p) => p.name === 'series')).toMatchObject({
      required: false,
      schema: { type: 'array' },
    });
    expect(window.find((p) => p.name === 'metric')).toMatchObject({ required: false });
    // quantile=0.5,0.85 or repeated: an optional list, described.
    expect(window.find((p) => p.name === 'quantile')).toMatchObject({
      required: false,
      schema: { type: 'array' },
    });
    expect(doc.paths['/health']!.get!.security).toBeUndefined();
    // Every reference points into the document itself.
    const refs = [...JSON.stringify(doc).matchAll(/"\$ref":"([^"]+)"/g)].map((m) => m[1]!);
    for (const ref of refs) expect(ref).toMatch(/^#\/components\//);
  });

  it('serves swagger-ui (@fastify/swagger-ui) on the same document at /docs', async () => {
    const page = await fetch(`${api.base}/docs`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await page.text()).toContain('swagger-ui');
    const json = await api.get('/docs/json', null);
    expect(json.body).toEqual((await api.get('/openapi.json', null)).body);
    for (const asset of [
      'swagger-ui.css',
      'swagger-ui-bundle.js',
      'swagger-ui-standalone-preset.js',
    ]) {
      const res = await api.get(`/docs/static/${asset}`, null);
      expect(res.status).toBe(200);
      expect(res.text.length).toBeGreaterThan(1000);
    }
  });

  it('serves the dashboard directory and the chart library, as they are on disk', async () => {
    const redirect = await fetch(`${api.base}/dashboard`, { redirect: 'manual' });
    expect(redirect.status).toBe(301);
    expect(redirect.headers.get('location')).toMatch(/^\/?dashboard\/$/);
    const index = await api.get('/dashboard/', null);
    expect(index.headers.get('content-type')).toMatch(/^text\/html/);
    expect(index.headers.get('cache-control')).toBe('public, max-age=0');
    expect(index.text).toBe(await readFile(join(DASHBOARD, 'index.html'), 'utf8'));
    const charts = await api.get('/dashboard/vendor/lightweight-charts.js', null);
    expect(charts.headers.get('content-type')).toMatch(/javascript/);
    expect(charts.text).toBe(await readFile(CHARTS, 'utf8'));
    expect(charts.text).toContain('LightweightCharts');
  });

  it.each([
    '/dashboard/no-such-file.js',
    '/dashboard/..%2Fpackage.json',
    '/dashboard/%2E%2E%2Fsrc%2Fmain.ts',
    '/dashboard/.hidden.js',
    '/dashboard/tsconfig.json',
    '/dashboard/vendor/other.js',
    '/docs/static/..%2F..%2Fpackage.json',
  ])('answers 404 JSON for %s, never a file outside the directory', async (path) => {
    const res = await api.get(path, null);
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ error: 'not_found' });
  });

  it('sends the security headers on every answer: API, Prometheus, docs, dashboard, errors', async () => {
    const answers = [
      await api.get('/api/v1/token'),
      await api.get('/api/v1/token', null),
      await api.get('/prometheus/api/v1/labels'),
      await api.get('/api/v1/no-such-route'),
      await api.get('/docs/', null),
      await api.get('/docs/static/swagger-ui-bundle.js', null),
      await api.get('/dashboard/', null),
      await api.get('/dashboard/app.js', null),
      await api.get('/health', null),
      await api.get('/no-such-page', null),
    ];
    expect(answers.map((a) => a.status)).toEqual([
      204, 401, 200, 404, 200, 200, 200, 200, 200, 404,
    ]);
    for (const { headers } of answers) {
      expect(headers.get('x-content-type-options')).toBe('nosniff');
      expect(headers.get('x-frame-options')).toBe('DENY');
      expect(headers.get('referrer-policy')).toBe('no-referrer');
      const csp = directives(headers.get('content-security-policy'));
      expect(csp['frame-ancestors']).toEqual(["'none'"]);
      expect(csp['script-src']).toEqual(["'self'"]);
      expect(csp['script-src-attr']).toEqual(["'none'"]);
      expect(csp['object-src']).toEqual(["'none'"]);
      // The API speaks plain HTTP: upgrading the pages' requests would break them.
      expect(csp).not.toHaveProperty('upgrade-insecure-requests');
    }
  });

  it.each([
    ['/docs/', 3],
    ['/dashboard/', 2],
  ])('lets %s load everything it references under its policy', async (path, scripts) => {
    const page = await api.get(path, null);
    const csp = directives(page.headers.get('content-security-policy'));
    const loads = pageLoads(page.text);
    const at = `${api.base}${path}`;
    expect(loads.scripts).toHaveLength(scripts);
    // No inline script (each has a src), no inline handler: script-src 'self' alone serves them.
    expect(loads.scripts.filter((src) => src === '')).toEqual([]);
    expect(loads.handlers).toEqual([]);
    for (const src of loads.scripts) {
      expect([src, allowed(csp['script-src']!, src, at)]).toEqual([src, true]);
      expect((await api.get(new URL(src, at).pathname, null)).status).toBe(200);
    }
    for (const href of loads.links) {
      const sources = href.startsWith('data:') ? csp['img-src']! : csp['style-src']!;
      expect([href, allowed(sources, href, at)]).toEqual([href, true]);
      if (!href.startsWith('data:'))
        expect((await api.get(new URL(href, at).pathname, null)).status).toBe(200);
    }
  });

  it('serves /metrics in the Prometheus format with the API series', async () => {
    await api.get('/api/v1/levels');
    const res = await api.get('/metrics', null);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    for (const name of [
      'tickertape_api_requests_total',
      'tickertape_api_request_duration_seconds_bucket',
      'tickertape_api_documents_examined',
      'tickertape_api_auth_failures_total',
    ])
      expect(res.text).toContain(name);
    expect(res.text).toMatch(
      /tickertape_api_request_duration_seconds_count\{route="\/api\/v1\/levels"\} 1/,
    );
  });

  it('answers /health with a database ping', async () => {
    const res = await api.get('/health', null);
    expect(res).toMatchObject({ status: 200, body: { status: 'ok' } });
  });
});
