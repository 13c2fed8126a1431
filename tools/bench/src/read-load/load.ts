import autocannon from 'autocannon';
import type { StackMeter } from '../stack-cpu.js';
import type { ApiProcess } from './api-process.js';
import { repeatShare } from './route-mix.js';

/** One load's figures: throughput and latency, and what the answers cost each process. */
export interface LoadResult {
  name: string;
  requests: number;
  seconds: number;
  perSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** Answers other than 2xx, and connection errors or timeouts. */
  failed: number;
  apiCpuSeconds: number;
  /** The database's CPU meanwhile, when the stack's process was found. */
  dbCpuSeconds: number | null;
  /** Database commands and documents the API sent and got (its /metrics). */
  dbCommands: number;
  dbDocuments: number;
  /** Lookups in the API's caches and how many hit (coalesced ones count as hits). */
  answers: { lookups: number; hits: number };
  buckets: { lookups: number; hits: number };
  /** Answers the proxy served from its cache (X-Cache-Status HIT), when one was in front. */
  proxyHits: number | null;
  /** Requests that repeat one asked within the minute before (route-mix.ts repeatShare). */
  repeatShare: number;
}

/** A sample of a Prometheus text page: the sum of `name`'s lines holding every label given. */
export function sampleOf(text: string, name: string, labels: readonly string[] = []): number {
  let sum = 0;
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    if (!labels.every((label) => line.includes(label))) continue;
    const value = Number(line.slice(line.lastIndexOf(' ') + 1));
    if (Number.isFinite(value)) sum += value;
  }
  return sum;
}

function apiCounters(text: string) {
  const lookups = (cache: string, result?: string) =>
    sampleOf(text, 'tickertape_api_cache_lookups_total', [
      `cache="${cache}"`,
      ...(result ? [`result="${result}"`] : []),
    ]);
  return {
    dbCommands: sampleOf(text, 'tickertape_api_database_commands_total'),
    dbDocuments: sampleOf(text, 'tickertape_api_database_documents_total'),
    answers: {
      lookups: lookups('answers'),
      hits: lookups('answers', 'hit') + lookups('answers', 'coalesced'),
    },
    buckets: { lookups: lookups('buckets'), hits: lookups('buckets', 'hit') },
  };
}

export interface LoadOptions {
  name: string;
  /** Where requests go: the API, or the proxy in front of it. */
  base: string;
  api: ApiProcess;
  stack: StackMeter;
  token: string;
  /** The next request's path (drawn by popularity). */
  nextPath: () => string;
  durationS: number;
  connections: number;
}

/** `connections` clients asking as fast as answers come, for `durationS` (autocannon). */
export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const asked: { atMs: number; key: string }[] = [];
  let proxyHits = 0;
  let proxied = false;
  const before = apiCounters(await options.api.metrics());
  const cpuBefore = options.api.cpuSeconds();
  const meter = options.stack.window();
  meter.start();
  const result = await autocannon({
    url: options.base,
    connections: options.connections,
    duration: options.durationS,
    headers: { authorization: `Bearer ${options.token}` },
    requests: [
      {
        setupRequest: (request) => {
          const path = options.nextPath();
          asked.push({ atMs: Date.now(), key: path });
          return { ...request, path };
        },
        onResponse: (_status, _body, _context, headers) => {
          // autocannon gives the headers as sent: nginx's `X-Cache-Status`.
          const cache = Object.entries((headers ?? {}) as Record<string, unknown>).find(
            ([name]) => name.toLowerCase() === 'x-cache-status',
          )?.[1];
          if (cache === undefined) return;
          proxied = true;
          if (cache === 'HIT') proxyHits += 1;
        },
      },
    ],
  });
  meter.stop();
  const apiCpuSeconds = options.api.cpuSeconds() - cpuBefore;
  const after = apiCounters(await options.api.metrics());
  const db = meter.result().stackCpu.mongo;
  const requests = result.requests.total;
  return {
    name: options.name,
    requests,
    seconds: result.duration,
    perSecond: requests / result.duration,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    failed: result.non2xx + result.errors + result.timeouts,
    apiCpuSeconds,
    dbCpuSeconds: db.measured ? db.cpuSeconds : null,
    dbCommands: after.dbCommands - before.dbCommands,
    dbDocuments: after.dbDocuments - before.dbDocuments,
    answers: {
      lookups: after.answers.lookups - before.answers.lookups,
      hits: after.answers.hits - before.answers.hits,
    },
    buckets: {
      lookups: after.buckets.lookups - before.buckets.lookups,
      hits: after.buckets.hits - before.buckets.hits,
    },
    proxyHits: proxied ? proxyHits : null,
    repeatShare: repeatShare(asked, 60_000),
  };
}
