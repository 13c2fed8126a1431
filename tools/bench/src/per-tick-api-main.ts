#!/usr/bin/env node
import { mongoDatabase, mongoUri, parseEnv, port } from '@tickertape/config';
import { createServer } from 'node:http';
import { MongoClient } from 'mongodb';
import { z } from 'zod';
import { TICKS_COLLECTION, type TickDocument } from './designs.js';
import { perTickWindow } from './read-load/per-tick-window.js';

/**
 * Design C behind HTTP, for the read-load benchmark only: `GET /api/v1/window?field=F&series=…
 * &from=&to=` or `&last=10m` answered from the per-tick collection (per-tick-window.ts), and its
 * database commands and documents at /metrics under the API's names, so the harness measures both
 * designs the same way. Configured by PORT, MONGODB_URI and MONGODB_DATABASE; stops on SIGTERM.
 */
const { PORT, MONGODB_URI, MONGODB_DATABASE } = parseEnv(
  z.object({ PORT: port(), MONGODB_URI: mongoUri(), MONGODB_DATABASE: mongoDatabase() }),
  process.env,
);
const client = new MongoClient(MONGODB_URI);
await client.connect();
const ticks = client.db(MONGODB_DATABASE).collection<TickDocument>(TICKS_COLLECTION);
let commands = 0;
let documents = 0;

const MINUTE_MS = 60_000;
const server = createServer((request, response) => {
  const url = new URL(request.url ?? '/', 'http://localhost');
  const send = (status: number, body: string, type = 'application/json') => {
    response.writeHead(status, { 'content-type': type });
    response.end(body);
  };
  if (url.pathname === '/health') return send(200, '{"ok":true}');
  if (url.pathname === '/metrics')
    return send(
      200,
      `tickertape_api_database_commands_total ${commands}\ntickertape_api_database_documents_total ${documents}\n`,
      'text/plain',
    );
  if (url.pathname !== '/api/v1/window') return send(404, '{"error":"not_found"}');
  const q = url.searchParams;
  const series = q.getAll('series');
  const field = q.get('field') ?? '';
  const last = q.get('last');
  // `last=10m`: the ten whole minutes up to and including the current one, as the API's.
  const toMs = last
    ? Math.floor(Date.now() / MINUTE_MS) * MINUTE_MS + MINUTE_MS
    : Number(q.get('to'));
  const fromMs = last ? toMs - Number.parseInt(last, 10) * MINUTE_MS : Number(q.get('from'));
  if (series.length === 0 || field === '' || !Number.isFinite(fromMs) || !Number.isFinite(toMs))
    return send(400, '{"error":"invalid_request"}');
  perTickWindow(ticks, series, field, fromMs, toMs).then(
    (answer) => {
      commands += series.length;
      documents += answer.documents;
      send(200, JSON.stringify({ field, fromMs, toMs, rows: answer.rows }));
    },
    (err: unknown) => send(500, JSON.stringify({ error: String(err) })),
  );
});
server.listen(PORT, '127.0.0.1');
process.on('SIGTERM', () => {
  server.close();
  void client.close().then(() => process.exit(0));
});
