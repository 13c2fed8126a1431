import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, runProcess, waitFor } from '@tickertape/testing';

const PROXY_DIR = resolve(fileURLToPath(import.meta.url), '../../../../../infra/local/proxy');

export interface RunningProxy {
  base: string;
  /** GET through the proxy with `headers`; the body as text. */
  get(
    path: string,
    headers?: Record<string, string>,
  ): Promise<{ status: number; headers: Headers; text: string }>;
  close(): Promise<void>;
}

/**
 * The local stack's caching proxy — the same template `stack.sh up proxy` renders
 * (infra/local/proxy) — in front of `upstream`, on a free port with its cache in a fresh
 * directory: Debian's nginx, installed by ensure-nginx.sh when missing.
 */
export async function startProxy(upstream: string): Promise<RunningProxy> {
  const ensured = await runProcess('bash', [join(PROXY_DIR, 'ensure-nginx.sh')], {
    env: process.env,
  });
  if (ensured.code !== 0) throw new Error(`nginx is not installed: ${ensured.stderr}`);
  const dir = await mkdtemp(join(tmpdir(), 'tt-proxy-'));
  const port = await freePort();
  const rendered = await runProcess(
    'bash',
    [join(PROXY_DIR, 'render.sh'), dir, `127.0.0.1:${port}`, upstream],
    { env: process.env },
  );
  if (rendered.code !== 0) throw new Error(`render.sh failed: ${rendered.stderr}`);
  const conf = rendered.stdout.trim();
  const nginx: ChildProcess = spawn(
    'nginx',
    ['-e', join(dir, 'error.log'), '-p', dir, '-c', conf],
    {
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  let stderr = '';
  nginx.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<void>((done) => nginx.once('exit', () => done()));
  const base = `http://127.0.0.1:${port}`;
  await waitFor(
    async () => {
      if (nginx.exitCode !== null) throw new Error(`nginx exited: ${stderr}`);
      return (await fetch(`${base}/health`).catch(() => undefined)) !== undefined;
    },
    { description: `nginx listening on ${port}`, timeoutMs: 15_000 },
  );
  return {
    base,
    async get(path, headers = {}) {
      const response = await fetch(`${base}${path}`, { headers });
      return { status: response.status, headers: response.headers, text: await response.text() };
    },
    async close() {
      if (nginx.exitCode === null) {
        nginx.kill('SIGTERM');
        await exited;
      }
      await rm(dir, { recursive: true, force: true });
    },
  };
}
