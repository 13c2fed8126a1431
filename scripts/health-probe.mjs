// The production image's HEALTHCHECK: GET http://127.0.0.1:$HTTP_PORT/health, exit 0 on 200 and
// 1 on anything else (503 while a service is starting or has lost a dependency, no answer, no
// HTTP_PORT). Written for node because node is what every tickertape image has: bookworm-slim
// ships neither curl nor wget. scripts/bundle.sh puts it at the same path in the bundle, so
// `node scripts/health-probe.mjs` runs in the image's /app as it does in the repository.
//
// HTTP_PORT must be set: the services' defaults differ (worker 9400, scheduler 9410, API 9420)
// and a second copy of them here could drift, so docker-compose.yml sets it for every service.
import { get } from 'node:http';

const TIMEOUT_MS = 3_000;

function fail(message) {
  process.stderr.write(`health-probe: ${message}\n`);
  process.exit(1);
}

const port = process.env.HTTP_PORT;
if (!port || !/^\d+$/.test(port) || Number(port) === 0) {
  fail(`HTTP_PORT must be the service's fixed port (got ${JSON.stringify(port ?? null)})`);
}
const url = `http://127.0.0.1:${port}/health`;
const request = get(url, { timeout: TIMEOUT_MS }, (response) => {
  let body = '';
  response.setEncoding('utf8');
  response.on('data', (chunk) => (body += chunk));
  response.on('end', () => {
    if (response.statusCode === 200) process.exit(0);
    fail(`${url} answered ${response.statusCode}: ${body.slice(0, 200)}`);
  });
});
request.on('timeout', () => request.destroy(new Error(`no answer within ${TIMEOUT_MS} ms`)));
request.on('error', (err) => fail(`${url}: ${err.message}`));
