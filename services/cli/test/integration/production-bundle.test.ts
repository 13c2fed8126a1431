import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  TestStack,
  freePort,
  runProcess,
  spawnNode,
  waitHealthy,
  type ServiceProcess,
} from '@tickertape/testing';
import { valueSubject } from '@tickertape/tick';
import { existsSync, lstatSync, readFileSync, readdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { testDatabase } from '@tickertape/store/testing';

// What the Dockerfile's runtime stage ships, checked without a Docker engine: scripts/bundle.sh
// builds the same directory here, and the services run from it as the image runs them.
const repo = fileURLToPath(new URL('../../../../', import.meta.url));
const TOKEN = 'bundle-token-0123456789';
const SERVICES = ['cli', 'api', 'rollup-worker', 'scheduler'];

/** Tooling families that have no business in a production image, whoever pulls them in. */
const TOOLING =
  /^(@jest|@babel|@swc|@eslint|@typescript-eslint|@types|@esbuild)\/|^(typescript|typescript-eslint|jest|eslint|prettier|turbo|tsx|esbuild|playwright-core|fast-check)$/;

interface Manifest {
  name: string;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
}

interface Run {
  code: number | null;
  output: string;
}

function readManifest(path: string): Manifest {
  return JSON.parse(readFileSync(path, 'utf8')) as Manifest;
}

/** The root's and every workspace project's package.json under `dir`. */
function manifestsIn(dir: string): Manifest[] {
  const projects = ['packages', 'services'].flatMap((group) =>
    existsSync(join(dir, group))
      ? readdirSync(join(dir, group)).map((name) => join(dir, group, name, 'package.json'))
      : [],
  );
  return [join(dir, 'package.json'), ...projects].filter(existsSync).map(readManifest);
}

/** Package names in pnpm's virtual store: `@scope+name@1.2.3_peer@4` → `@scope/name`. */
function installedPackages(bundle: string): Set<string> {
  const entries = readdirSync(join(bundle, 'node_modules', '.pnpm'), { withFileTypes: true });
  return new Set(
    entries
      .filter((entry) => entry.isDirectory() && entry.name !== 'node_modules')
      .map((entry) => entry.name.slice(0, entry.name.indexOf('@', 1)).replace('+', '/')),
  );
}

/** Every path under `dir`, relative to it, without following links (pnpm links everything). */
function walk(dir: string, skip: (name: string) => boolean = () => false): string[] {
  const found: string[] = [];
  const visit = (at: string): void => {
    for (const entry of readdirSync(at, { withFileTypes: true })) {
      if (skip(entry.name)) continue;
      const path = join(at, entry.name);
      found.push(relative(dir, path));
      if (entry.isDirectory()) visit(path);
    }
  };
  visit(dir);
  return found;
}

/** A command to its end, stdout and stderr as one text. */
async function run(
  command: string,
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv },
): Promise<Run> {
  const { code, stdout, stderr } = await runProcess(command, args, options);
  return { code, output: stdout + stderr };
}

describe('the production bundle (scripts/bundle.sh, the image’s /app)', () => {
  let scratch: string;
  let bundle: string;
  let stack: TestStack;
  const started: ServiceProcess[] = [];

  /** A shipped entry point as the image starts it: node on dist, cwd the bundle, env given. */
  function startFromBundle(entry: string, env: Record<string, string>): ServiceProcess {
    const service = spawnNode(bundle, [entry], { NODE_ENV: 'production', ...env });
    started.push(service);
    return service;
  }

  function probe(port: string | undefined): Promise<Run> {
    const env: NodeJS.ProcessEnv = { PATH: process.env.PATH ?? '' };
    if (port !== undefined) env.HTTP_PORT = port;
    return run(process.execPath, ['scripts/health-probe.mjs'], { cwd: bundle, env });
  }

  beforeAll(async () => {
    scratch = await mkdtemp(join(tmpdir(), 'tickertape-bundle-'));
    bundle = join(scratch, 'app');
    // The jest process's NODE_OPTIONS (vm modules) are for jest, not for the build's tools.
    const { NODE_OPTIONS: _jestOnly, ...env } = process.env;
    const built = await run('bash', [join(repo, 'scripts', 'bundle.sh'), bundle], {
      cwd: repo,
      env,
    });
    if (built.code !== 0)
      throw new Error(`scripts/bundle.sh exited ${built.code}:\n${built.output}`);
    stack = await TestStack.open('bundle');
  }, 600_000);

  afterAll(async () => {
    // A failed assertion must not leave services running against the stack.
    for (const service of started) {
      if (service.child.exitCode === null && service.child.signalCode === null) {
        service.child.kill('SIGKILL');
      }
    }
    await Promise.all(started.map((service) => service.exited));
    await stack?.close();
    if (scratch) await rm(scratch, { recursive: true, force: true });
  });

  it('holds the built services and production dependencies only', () => {
    for (const service of SERVICES) {
      expect(existsSync(join(bundle, 'services', service, 'dist', 'main.js'))).toBe(true);
    }
    expect(existsSync(join(bundle, 'services/api/dist/dashboard/index.html'))).toBe(true);
    expect(existsSync(join(bundle, 'scripts/health-probe.mjs'))).toBe(true);
    // Projects only tests and the tools (benchmark, fault suite, capacity model) use stay out.
    for (const devOnly of ['packages/testing', 'tools']) {
      expect(existsSync(join(bundle, devOnly))).toBe(false);
    }

    // Our own files: dist JavaScript, manifests, the dashboard; no sources, tests or types.
    const ours = walk(bundle, (name) => name === 'node_modules');
    expect(ours.filter((path) => /(^|\/)(src|test)(\/|$)/.test(path))).toEqual([]);
    expect(ours.filter((path) => path.endsWith('.ts'))).toEqual([]);

    // A name only devDependencies bring in (root's and every project's, bundled or not), or any
    // tooling family, must not be in the virtual store.
    const bundled = manifestsIn(bundle);
    const runtime = new Set(bundled.flatMap((m) => [m.name, ...Object.keys(m.dependencies ?? {})]));
    const devOnly = manifestsIn(repo)
      .flatMap((m) => Object.keys(m.devDependencies ?? {}))
      .filter((name) => !runtime.has(name));
    expect(devOnly).toEqual(
      expect.arrayContaining(['typescript', 'jest', 'eslint', 'turbo', 'tsx']),
    );
    const installed = installedPackages(bundle);
    expect(installed.has('kafkajs') && installed.has('mongodb') && installed.has('fastify')).toBe(
      true,
    );
    expect([...installed].filter((name) => devOnly.includes(name) || TOOLING.test(name))).toEqual(
      [],
    );

    // Pruning left no link pointing at nothing.
    const links = walk(join(bundle, 'node_modules'))
      .map((path) => join(bundle, 'node_modules', path))
      .filter((path) => lstatSync(path).isSymbolicLink());
    expect(links.length).toBeGreaterThan(0);
    expect(links.filter((path) => !existsSync(path))).toEqual([]);
  });

  it('starts a rollup worker, the scheduler and the API to healthy, and each stops cleanly on SIGTERM', async () => {
    const topic = await stack.createTopic();
    const dlqTopic = await stack.createTopic();
    // The worker registers the tick schema under the topic's subject; deleted with the stack.
    stack.subject(valueSubject(topic));
    const database = testDatabase(stack).databaseName;
    const minuteGroup = stack.name('group-minute');
    const addresses = {
      KAFKA_BROKERS: stack.env.KAFKA_BROKERS.join(','),
      SCHEMA_REGISTRY_URL: stack.env.SCHEMA_REGISTRY_URL,
      MONGODB_URI: stack.env.MONGODB_URI,
      REDIS_URL: stack.env.REDIS_URL,
    };
    const [workerPort, schedulerPort, apiPort] = await Promise.all([
      freePort(),
      freePort(),
      freePort(),
    ]);

    // As docker-compose.yml's one-shot `topics` service runs it: idempotent on existing topics.
    const topics = await run(
      process.execPath,
      [
        'services/cli/dist/main.js',
        'topics',
        'create',
        '--topic',
        topic,
        '--partitions',
        '1',
        '--dlq-topic',
        dlqTopic,
      ],
      { cwd: bundle, env: { PATH: process.env.PATH ?? '', NODE_ENV: 'production', ...addresses } },
    );
    expect(topics).toEqual({ code: 0, output: expect.stringContaining(topic) });

    const worker = startFromBundle('services/rollup-worker/dist/main.js', {
      ...addresses,
      ROLLUP_LEVEL: 'minute',
      MONGODB_DATABASE: database,
      TOPIC: topic,
      DLQ_TOPIC: dlqTopic,
      GROUP_ID: minuteGroup,
      KAFKA_SESSION_TIMEOUT_MS: '6000',
      HTTP_PORT: String(workerPort),
      LOG_LEVEL: 'info',
    });
    const scheduler = startFromBundle('services/scheduler/dist/main.js', {
      ...addresses,
      TOPIC: topic,
      FINALITY_GROUPS: `minute=${minuteGroup}`,
      MONGODB_DATABASE: database,
      BULLMQ_PREFIX: stack.redisPrefix(),
      SCHEDULER_QUEUE: stack.name('queue'),
      HTTP_PORT: String(schedulerPort),
      LOG_LEVEL: 'info',
    });
    const api = startFromBundle('services/api/dist/main.js', {
      ...addresses,
      API_TOKENS: TOKEN,
      MONGODB_DATABASE: database,
      TOPIC: topic,
      HTTP_PORT: String(apiPort),
      LOG_LEVEL: 'info',
    });
    const services = [
      { service: worker, port: workerPort, stopped: 'rollup worker stopped' },
      { service: scheduler, port: schedulerPort, stopped: 'scheduler stopped' },
      { service: api, port: apiPort, stopped: 'api stopped' },
    ];
    try {
      await Promise.all(
        services.map(({ service, port }) =>
          waitHealthy(service, `http://127.0.0.1:${port}/health`, 90_000),
        ),
      );
      // The image's HEALTHCHECK command, run from the bundle against each service's port.
      for (const { port } of services)
        expect(await probe(String(port))).toEqual({ code: 0, output: '' });

      const base = `http://127.0.0.1:${apiPort}`;
      const levels = await fetch(`${base}/api/v1/levels`, {
        headers: { Authorization: `Bearer ${TOKEN}` },
      });
      expect(levels.status).toBe(200);
      // Bodies are read to the end: a half-read response holds its connection open, and the
      // API's shutdown waits for it.
      const { levels: read } = (await levels.json()) as { levels: { level: string }[] };
      expect(read.map(({ level }) => level)).toEqual(['minute', 'hour', 'day']);
      // The dashboard page (built into the API's dist) and the chart library's build.
      const page = await fetch(`${base}/dashboard/`);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('<html');
      const charts = await fetch(`${base}/dashboard/vendor/lightweight-charts.js`);
      expect(charts.status).toBe(200);
      expect(await charts.text()).toContain('LightweightCharts');
    } finally {
      for (const { service } of services) service.child.kill('SIGTERM');
    }
    for (const { service, stopped } of services) {
      expect(await service.exited).toEqual({ code: 0, signal: null });
      expect(service.output()).toContain(stopped);
    }
  }, 180_000);

  it('has a health probe that fails without an answer or without HTTP_PORT', async () => {
    const dead = await probe(String(await freePort()));
    expect(dead.code).toBe(1);
    expect(dead.output).toContain('/health');
    const unset = await probe(undefined);
    expect(unset.code).toBe(1);
    expect(unset.output).toContain('HTTP_PORT');
  }, 30_000);
});
