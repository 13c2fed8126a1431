import { TickertapeError } from '@tickertape/errors';
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** infra/local/proxy: the caching proxy's template and scripts, as `stack.sh up proxy` runs them. */
const PROXY_DIR = fileURLToPath(new URL('../../../../infra/local/proxy/', import.meta.url));

export interface ProxyProcess {
  base: string;
  stop(): Promise<void>;
}

/**
 * The local stack's caching proxy (Debian's nginx, installed when missing) in front of the API
 * at `upstream`, listening on `port`, its cache in a fresh directory removed at stop.
 */
export async function startProxyProcess(upstream: string, port: number): Promise<ProxyProcess> {
  execFileSync('bash', [join(PROXY_DIR, 'ensure-nginx.sh')], { stdio: 'inherit' });
  const dir = mkdtempSync(join(tmpdir(), 'tt-bench-proxy-'));
  const conf = execFileSync(
    'bash',
    [join(PROXY_DIR, 'render.sh'), dir, `127.0.0.1:${port}`, upstream],
    {
      encoding: 'utf8',
    },
  ).trim();
  const child = spawn('nginx', ['-e', join(dir, 'error.log'), '-p', dir, '-c', conf], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 15_000;
  while (
    !(await fetch(`${base}/health`).then(
      () => true,
      () => false,
    ))
  ) {
    if (child.exitCode !== null)
      throw new TickertapeError('BENCH_PROXY_EXITED', `nginx exited: ${stderr}`);
    if (Date.now() > deadline)
      throw new TickertapeError('BENCH_PROXY_NOT_READY', `nginx is not listening: ${stderr}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    base,
    async stop() {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
