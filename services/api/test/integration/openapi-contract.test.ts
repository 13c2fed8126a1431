/**
 * The API against its own /openapi.json, judged by a tool nobody here wrote: schemathesis (pinned
 * in test/schemathesis/requirements.txt, installed by scripts/ensure-schemathesis.sh) generates
 * requests for every operation, the Prometheus routes and their POSTed forms included, valid and
 * invalid, and checks each answer with every check it has (test/schemathesis/schemathesis.toml
 * says which it skips and why): never a 5xx, a status and a content type the document declares for
 * the operation, the declared body, the token enforced, 405 for a method not declared. A fixed seed
 * and a bounded number of examples per operation keep the run reproducible and about a minute long;
 * issue 37 found a 500 this way (`to=9999999999999999` on points and candles).
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { storesOf } from '@tickertape/store';
import { testDatabase } from '@tickertape/store/testing';
import { runProcess, TestStack } from '@tickertape/testing';
import { execFile } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { ANALYST_NOW, writeAnalystData } from '../support/analyst-data.js';
import { TOKEN, startTestApi, type RunningApi } from '../support/api.js';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
/** schemathesis' JUnit report and its output (output.txt), as CI keeps .out/. */
const REPORTS = `${ROOT}.out/schemathesis`;

/** Generated requests per operation and phase: 21 operations, about a minute on 2 cores. */
const MAX_EXAMPLES = 100;
const SEED = 37;

describe('the OpenAPI document as schemathesis tests it', () => {
  let stack: TestStack;
  let api: RunningApi;
  let st: string;

  beforeAll(async () => {
    stack = await TestStack.open('api-openapi-contract');
    const db = testDatabase(stack);
    await writeAnalystData(db);
    api = await startTestApi(await storesOf(db), { reader: { now: () => ANALYST_NOW } });
    // A fresh machine installs schemathesis here (~30 s from PyPI); later runs reuse the venv.
    const { stdout } = await promisify(execFile)(
      'bash',
      [`${ROOT}scripts/ensure-schemathesis.sh`],
      { timeout: 300_000 },
    );
    st = stdout.trim();
    await mkdir(REPORTS, { recursive: true });
  }, 360_000);
  afterAll(async () => {
    await api?.close();
    await stack?.close();
  });

  it('finds no server error and no undeclared status or content type on any operation', async () => {
    const run = await runProcess(
      st,
      [
        '--config-file',
        `${ROOT}services/api/test/schemathesis/schemathesis.toml`,
        'run',
        `${api.base}/openapi.json`,
        '--url',
        api.base,
        '--header',
        `Authorization: Bearer ${TOKEN}`,
        // Stateful testing follows OpenAPI links, which a read-only API has none of.
        '--phases',
        'examples,coverage,fuzzing',
        '--max-examples',
        String(MAX_EXAMPLES),
        '--seed',
        String(SEED),
        '--generation-database',
        'none',
        '--workers',
        '1',
        '--request-timeout',
        '10',
        '--no-color',
        '--report',
        'junit',
        '--report-dir',
        REPORTS,
      ],
      // No colour, no telemetry, nothing written under HOME.
      {
        env: {
          ...process.env,
          SCHEMATHESIS_TELEMETRY: 'false',
          NO_COLOR: '1',
          PYTHONDONTWRITEBYTECODE: '1',
        },
        cwd: REPORTS,
      },
    );
    await writeFile(`${REPORTS}/output.txt`, run.stdout + run.stderr);
    // The whole report on failure: which operation, which request, which check.
    expect({ code: run.code, output: run.code === 0 ? '' : run.stdout + run.stderr }).toEqual({
      code: 0,
      output: '',
    });
    expect(run.stdout).toMatch(/\d+ passed/);
    expect(api.logs()).not.toContain('"level":50');
  }, 600_000);

  it('answers 405 with Allow for a method a path is not served with, 404 for no path', async () => {
    for (const [method, path, allow] of [
      ['PATCH', '/health', 'GET, HEAD'],
      ['DELETE', '/api/v1/token', 'GET, HEAD'],
      ['PUT', '/prometheus/api/v1/query', 'GET, HEAD, POST'],
      ['POST', '/prometheus/api/v1/label/dir/values', 'GET, HEAD'],
    ] as const) {
      const answer = await fetch(`${api.base}${path}`, {
        method,
        headers: { Authorization: `Bearer ${TOKEN}` },
      });
      expect({ path, status: answer.status, allow: answer.headers.get('allow') }).toEqual({
        path,
        status: 405,
        allow,
      });
      expect(await answer.json()).toMatchObject({ error: 'method_not_allowed' });
    }
    const none = await fetch(`${api.base}/api/v1/nothing`, {
      method: 'PATCH',
      headers: { Authorization: `Bearer ${TOKEN}` },
    });
    expect(none.status).toBe(404);
  });
});
