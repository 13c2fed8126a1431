import { z } from 'zod';
import { ASSUMPTIONS } from './model.js';
import { markdownTable } from '@tickertape/answers';
import { fmt } from './figures-format.js';

/** Seed 001's readers: 5 million users, each asking once a minute. */
export const SEED_READERS = { users: 5_000_000, everyS: 60, dataCentres: 3 } as const;

const loadSchema = z.object({
  name: z.string(),
  requests: z.number(),
  apiCpuSeconds: z.number(),
  dbCommands: z.number(),
  dbDocuments: z.number(),
  proxyHits: z.number().nullable(),
});

/** What the read side takes from docs/benchmarks-reads.json (`bash scripts/bench.sh reads`). */
const readsJsonSchema = z.object({
  startedAt: z.number(),
  cores: z.number(),
  settings: z.object({ mix: z.object({ sensors: z.number(), sensorsPerRoute: z.number() }) }),
  loads: z.array(loadSchema),
});

export type ReadsJson = z.output<typeof readsJsonSchema>;

export function parseReadsJson(text: string): ReadsJson {
  return readsJsonSchema.parse(JSON.parse(text));
}

type Load = z.output<typeof loadSchema>;

function load(json: ReadsJson, name: string): Load {
  const found = json.loads.find((l) => l.name === name);
  if (!found) throw new Error(`the read load has no "${name}" run`);
  return found;
}

const perCore = (l: Load) => l.requests / l.apiCpuSeconds;
const perRequest = (total: number, l: Load) => total / Math.max(l.requests, 1);

/**
 * The read side for seed 001: API cores, database reads and documents per second for its
 * 83,000 requests/s, at the hit ratios a proxy or CDN in front may reach, from the read load's
 * measured costs per request (the open question, "last 10 minutes": every request of it needs
 * an answer at most a few seconds old).
 */
export function readSideSection(json: ReadsJson, source: string): string[] {
  const demand = SEED_READERS.users / SEED_READERS.everyS;
  const off = load(json, 'last 10 min, caches off');
  const on = load(json, 'last 10 min, caches on');
  const proxied = load(json, 'last 10 min, through the proxy');
  const measuredHit = proxied.proxyHits === null ? 0 : proxied.proxyHits / proxied.requests;
  // Behind a proxy, what reaches the API is what the proxy does not keep: answers it asks for
  // again once their max-age is over, each a miss for the API's own answer cache too (it keeps
  // them no longer). Those rows take the caches-off costs: a bound, since the API's kept final
  // buckets still serve the final part of a window.
  const costs = (l: Load) => ({
    core: perCore(l),
    commands: perRequest(l.dbCommands, l),
    documents: perRequest(l.dbDocuments, l),
  });
  const rows: { label: string; hit: number; core: number; commands: number; documents: number }[] =
    [
      { label: 'no proxy, API caches off', hit: 0, ...costs(off) },
      { label: 'no proxy, API caches on', hit: 0, ...costs(on) },
      ...[0.9, 0.99, measuredHit].map((hit, i) => ({
        label:
          i === 2
            ? `proxy in front, hit ratio ${fmt.fixed(100 * hit, 1)} % (measured)`
            : `proxy in front, hit ratio ${100 * hit} %`,
        hit,
        ...costs(off),
      })),
    ];
  const cores = (r: (typeof rows)[number]) =>
    (demand * (1 - r.hit)) / (r.core * ASSUMPTIONS.utilisation);
  return [
    '## The read side: seed 001 in three data centres',
    '',
    `From \`${source}\` (\`bash scripts/bench.sh reads\`, the run of ${new Date(json.startedAt).toISOString()} on ${json.cores} cores, ${fmt.int(json.settings.mix.sensors)} sensors on routes of ${json.settings.mix.sensorsPerRoute}): ${fmt.int(SEED_READERS.users)} users each asking every ${SEED_READERS.everyS} s for their route's "last 10 minutes" are ${fmt.int(demand)} requests/s, ${fmt.int(demand / SEED_READERS.dataCentres)} per data centre. ` +
      `Requests reaching the API = demand × (1 − proxy hit ratio); API cores = those ÷ (measured requests/s per API core × ${ASSUMPTIONS.utilisation * 100} % utilisation); database commands and documents = those × the measured ones per request. Without a proxy the API's own caches are in its measured per-core and per-request figures (answers reused for a few seconds, identical queries coalesced); with one, the requests that reach the API are the proxy's misses, priced at the caches-off figures (a bound: the API's kept final buckets still help); the proxy's hit ratio is the measured ${fmt.fixed(100 * measuredHit, 1)} % and two planning points. ` +
      'The database figures are counts (they carry over to MongoDB); per-core figures are this machine’s, with the load generator, the database and the proxy on the same two cores.',
    '',
    ...markdownTable(
      [
        { head: 'in front, and the API' },
        { head: 'requests/s reaching the APIs', right: true },
        { head: 'API cores, all', right: true },
        { head: 'API cores per data centre', right: true },
        { head: 'database commands/s', right: true },
        { head: 'documents read/s', right: true },
        { head: 'from (per request)' },
      ],
      rows.map((r) => {
        const reaching = demand * (1 - r.hit);
        return [
          r.label,
          fmt.int(reaching),
          fmt.fixed(cores(r), 1),
          fmt.fixed(cores(r) / SEED_READERS.dataCentres, 1),
          fmt.int(reaching * r.commands),
          fmt.int(reaching * r.documents),
          `${fmt.int(r.core)} requests/s per API core, ${fmt.fixed(r.commands, 3)} commands, ${fmt.fixed(r.documents, 2)} documents`,
        ];
      }),
    ),
    '',
    `**Hit ratio needed.** To serve the seed with at most 2 API cores per data centre, the proxy or CDN must answer ${fmt.fixed(100 * Math.max(0, 1 - (2 * SEED_READERS.dataCentres * perCore(off) * ASSUMPTIONS.utilisation) / demand), 1)} % of requests (its misses at the caches-off cost); the deployment is drawn in docs/scaling.md ("Reads from three data centres").`,
  ];
}
