/**
 * A new user's path, README → docs/querying.md → docs/analysts.md, on the demo's data: every
 * marked example (`<!-- example -->`, support/doc-examples.ts) of the three runs — the CLI, curl,
 * promtool, jq and the Python examples from their pinned venv — and must answer: the exit code
 * the doc shows (0 unless it shows a refusal), output with data, and the shape the doc shows
 * (its columns, CSV header, JSON keys or refusal code). Values and times are never compared:
 * the docs were recorded on another run.
 *
 * The data is written as scripts/demo.sh writes it: the load generator's two profiles with the
 * demo's series counts and rates (so the series the docs name exist), one worker per store, and
 * `tickertape summary --wait-for-groups` until every level has committed the topic — on this
 * test's own topic, groups and database. The commands read them through a `tickertape` that
 * adds `--database`, and an API on a free port in place of `http://127.0.0.1:9420`.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  freePort,
  runProcess,
  spawnNode,
  spawnService,
  TestStack,
  waitHealthy,
  type ServiceProcess,
} from '@tickertape/testing';
import { testDatabase } from '@tickertape/store/testing';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import {
  answerRows,
  EXAMPLE_DOCS,
  exampleProblem,
  parseExamples,
  type DocCommand,
  type DocExample,
  type ExampleRun,
} from '../support/doc-examples.js';
import { repositoryRoot } from '../support/prometheus.js';

const TOKEN = 'doc-examples-token-0123456789';
const STORES = ['minute', 'hour', 'day', 'segments'] as const;
/** The demo's load: scripts/demo.sh's two loadgen lines, for 10 s as the first-run check has it. */
const LOADS = [
  ['--profile', 'stocks', '--series', '10', '--rate', '300'],
  ['--profile', 'traffic', '--series', '50', '--rate', '700'],
];
const DOCUMENTED_API = 'http://127.0.0.1:9420';

const cliDir = `${repositoryRoot}/services/cli`;
const examples: DocExample[] = [];

describe('the docs’ examples on the demo’s data', () => {
  let stack: TestStack;
  let database: string;
  let apiBase: string;
  let work: string;
  const processes: ServiceProcess[] = [];
  let env: Record<string, string>;

  /** Runs a console example's commands in one bash, in order (assignments carry over). */
  async function runSession(commands: readonly DocCommand[]): Promise<ExampleRun[]> {
    const dir = await mkdtemp(join(work, 'session-'));
    const script = [
      // `tickertape` as the docs' alias runs it, on this test's database.
      'tickertape() {',
      '  local db=()',
      '  case "$1" in query | summary | levels) db=(--database "$TT_DOC_DATABASE") ;; esac',
      '  node --import "$TT_DOC_TSX" --conditions=source "$TT_DOC_CLI" "$@" "${db[@]}"',
      '}',
      ...commands.map((c, i) => {
        const command = c.command
          .replaceAll(DOCUMENTED_API, apiBase)
          .replaceAll('.stack/api-token', `${work}/api-token`);
        return `{\n${command}\n} >"${dir}/${i}.out" 2>"${dir}/${i}.err"; echo $? >"${dir}/${i}.code"`;
      }),
    ].join('\n');
    await runProcess('bash', ['-c', script], { cwd: repositoryRoot, env });
    return Promise.all(
      commands.map(async (_c, i) => ({
        code: Number(await readFile(`${dir}/${i}.code`, 'utf8').catch(() => '-1')),
        stdout: await readFile(`${dir}/${i}.out`, 'utf8').catch(() => ''),
        stderr: await readFile(`${dir}/${i}.err`, 'utf8').catch(() => ''),
      })),
    );
  }

  beforeAll(async () => {
    for (const doc of EXAMPLE_DOCS)
      examples.push(...parseExamples(doc, await readFile(`${repositoryRoot}/${doc}`, 'utf8')));
    stack = await TestStack.open('doc-examples');
    work = await mkdtemp(join(tmpdir(), 'doc-examples-'));
    await writeFile(`${work}/api-token`, TOKEN);
    const topic = await stack.createTopic({
      partitions: 4,
      config: { 'message.timestamp.type': 'LogAppendTime' },
    });
    const dlqTopic = await stack.createTopic();
    database = testDatabase(stack).databaseName;
    const base = {
      KAFKA_BROKERS: stack.env.KAFKA_BROKERS.join(','),
      SCHEMA_REGISTRY_URL: stack.env.SCHEMA_REGISTRY_URL,
      MONGODB_URI: stack.env.MONGODB_URI,
      REDIS_URL: stack.env.REDIS_URL,
      MONGODB_DATABASE: database,
      TOPIC: topic,
      LOG_LEVEL: 'warn',
    };
    const groups = STORES.map((store) => stack.name(store));
    // One at a time: two free ports asked for at once can be the same.
    const ports: number[] = [];
    for (const _store of STORES) ports.push(await freePort());
    const apiPort = await freePort();
    apiBase = `http://127.0.0.1:${apiPort}`;

    // The demo's workers: a 2 s budget, as scripts/demo.sh sets.
    const workers = STORES.map((store, i) =>
      spawnService(`${repositoryRoot}/services/rollup-worker`, {
        ...base,
        ROLLUP_LEVEL: store,
        DLQ_TOPIC: dlqTopic,
        GROUP_ID: groups[i]!,
        HTTP_PORT: String(ports[i]),
        FRESHNESS_BUDGET_MS: '2000',
      }),
    );
    const api = spawnService(`${repositoryRoot}/services/api`, {
      ...base,
      API_TOKENS: TOKEN,
      HTTP_PORT: String(apiPort),
    });
    processes.push(...workers, api);
    await Promise.all([
      ...workers.map((w, i) => waitHealthy(w, `http://127.0.0.1:${ports[i]}/health`)),
      waitHealthy(api, `${apiBase}/health`),
    ]);

    const cli = (args: string[]) =>
      spawnNode(cliDir, ['--import', 'tsx', '--conditions=source', 'src/main.ts', ...args], base);
    const loads = LOADS.map((load) =>
      cli(['loadgen', ...load, '--duration', '10s', '--topic', topic, '--no-progress']),
    );
    for (const load of loads) expect((await load.exited).code).toBe(0);
    const summary = cli([
      'summary',
      '--database',
      database,
      '--topic',
      topic,
      '--workers',
      ports.map((port) => `http://127.0.0.1:${port}`).join(','),
      '--wait-for-groups',
      groups.join(','),
      // Beside the rest of the suite the workers may take longer than the demo's 2 minutes.
      '--timeout-ms',
      '300000',
    ]);
    const { code } = await summary.exited;
    if (code !== 0) throw new Error(`the demo's summary failed: ${summary.output()}`);
    // The workers are done; the examples read what they wrote.
    for (const worker of workers) worker.child.kill('SIGTERM');
    await Promise.all(workers.map((w) => w.exited));

    // analysts.md's Python examples: the venv as a fresh machine installs it (about 20 s).
    await promisify(execFile)('bash', [`${repositoryRoot}/examples/python-analyst/install.sh`], {
      timeout: 300_000,
    });
    env = {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      ...base,
      TOKEN,
      TT_DOC_DATABASE: database,
      TT_DOC_CLI: `${cliDir}/src/main.ts`,
      TT_DOC_TSX: pathToFileURL(createRequire(`${cliDir}/package.json`).resolve('tsx')).href,
      // No __pycache__ left in the checkout, and the examples' `mktemp -d` under what afterAll removes.
      PYTHONDONTWRITEBYTECODE: '1',
      TMPDIR: work,
    };
  }, 720_000);

  afterAll(async () => {
    for (const process of processes) process.child.kill('SIGTERM');
    await Promise.all(processes.map((p) => p.exited));
    await stack?.close();
    if (work) await rm(work, { recursive: true, force: true });
  }, 60_000);

  it('finds examples in every doc of the path', () => {
    for (const doc of EXAMPLE_DOCS)
      expect(examples.filter((e) => e.doc === doc).length).toBeGreaterThanOrEqual(2);
  });

  // About 30 CLI, curl and Python runs, the CLI from source: 100 s alone, more beside the suite.
  it('answers every console example with the exit code and the shape the doc shows', async () => {
    const failures: string[] = [];
    for (const example of examples) {
      if (example.kind !== 'console') continue;
      const runs = await runSession(example.commands);
      example.commands.forEach((command, i) => {
        const run = runs[i]!;
        const problem = exampleProblem(command, run);
        if (problem !== undefined)
          failures.push(
            `${example.doc}:${example.line}: $ ${command.command}\n  ${problem}\n` +
              `  stdout: ${run.stdout.slice(0, 400)}\n  stderr: ${run.stderr.slice(0, 400)}`,
          );
      });
    }
    expect(failures).toEqual([]);
  }, 600_000);

  it('answers every HTTP example with 200 and rows', async () => {
    for (const example of examples) {
      if (example.kind !== 'http') continue;
      const response = await fetch(`${apiBase}${example.path}`, {
        headers: { authorization: `Bearer ${TOKEN}` },
      });
      const body = await response.text();
      expect({ where: `${example.doc}:${example.line}`, status: response.status }).toEqual({
        where: `${example.doc}:${example.line}`,
        status: 200,
      });
      const rows =
        response.headers.get('content-type')?.startsWith('text/csv') === true
          ? body.trim().split('\n').slice(1)
          : answerRows(body);
      expect(rows?.length).toBeGreaterThan(0);
    }
  });

  it('pandas reads the demo’s sensor tag as text, not a number', async () => {
    const python = (
      await promisify(execFile)('bash', [`${repositoryRoot}/examples/python-analyst/install.sh`])
    ).stdout.trim();
    const run = await runProcess(
      python,
      [
        `${repositoryRoot}/examples/python-analyst/pandas_csv.py`,
        '--series',
        'traffic|segment=I10_mile2,sensor=900002',
        '--field',
        'speed',
      ],
      { env: { ...env, TICKERTAPE_API: apiBase, TICKERTAPE_TOKEN: TOKEN } },
    );
    expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' });
    const frame = JSON.parse(run.stdout) as { dtypes: Record<string, string>; rows: unknown[] };
    expect(frame.dtypes).toMatchObject({ segment: 'str', sensor: 'str', n: 'int64' });
    expect(frame.rows.length).toBeGreaterThan(0);
  });
});
