import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Registry } from 'prom-client';

/**
 * `/metrics` (Prometheus text) and `/health` (200 while `healthy()` says so, else 503). Any
 * other request goes to `fallback` when given (the scheduler mounts Bull Board there), else 404.
 */
export async function startOpsServer(
  port: number,
  registry: Registry,
  healthy: () => boolean,
  fallback?: RequestListener,
): Promise<Server & { port: number }> {
  const server = createServer((req, res) => {
    if (req.method === 'GET' && req.url === '/metrics') {
      registry.metrics().then(
        (text) => res.writeHead(200, { 'Content-Type': registry.contentType }).end(text),
        (err: unknown) => res.writeHead(500).end(String(err)),
      );
    } else if (req.method === 'GET' && req.url === '/health') {
      const ok = healthy();
      res
        .writeHead(ok ? 200 : 503, { 'Content-Type': 'application/json' })
        .end(JSON.stringify({ status: ok ? 'ok' : 'unavailable' }));
    } else if (fallback) {
      fallback(req, res);
    } else {
      res
        .writeHead(404, { 'Content-Type': 'application/json' })
        .end(JSON.stringify({ error: 'not found; try /metrics or /health' }));
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '0.0.0.0', resolve);
  });
  return Object.assign(server, { port: (server.address() as AddressInfo).port });
}
