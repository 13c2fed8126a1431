/**
 * The local database's volume test (scripts/soak.sh; figures in docs/local-stack.md, "Volume"):
 * loads SOAK_SERIES series × SOAK_HOURS hours of one tick a minute through the workers' writers
 * (SOAK_LEVELS: minute, hour and day by default; so series × hours × 60 minute buckets, all in one
 * day's partition), then runs the reads the project does on it — counts, the seed's 10-minute
 * window of 50 sensors, a rebuild's scan in `_id` order, the tick counts, retention's drop —
 * sampling the database process's resident memory throughout. SOAK_READ_ONLY runs the reads alone
 * on what an interrupted run loaded. Prints a Markdown table of what it measured.
 */
import { LEVELS, type FoldInput } from '@tickertape/buckets';
import { createLogger } from '@tickertape/logger';
import { RollupReader } from '@tickertape/query';
import { openMongoStores } from '@tickertape/store';
import { loadSoakEnv } from './soak-env.js';
import { ResidentPeak, directoryBytes, partPid } from './resident.js';

const DAY = Date.UTC(2026, 9, 1);
const MINUTE_PARTITION = 'rollup_minute_20261001';
const HOUR_PARTITION = 'rollup_hour_202610';
const MiB = 2 ** 20;

const env = loadSoakEnv();
const log = createLogger({ name: 'soak', level: env.LOG_LEVEL });
const stores = await openMongoStores({
  uri: env.MONGODB_URI,
  database: env.SOAK_DATABASE,
  appName: 'tickertape-soak',
  logger: log,
  serverSelectionTimeoutMs: 120_000,
});
const store = stores.rollups;
const pid = partPid(env.TT_STACK_DIR, env.SOAK_PART);
const dataDir = `${env.TT_STACK_DIR}/data/${
  env.SOAK_PART === 'ferretdb'
    ? 'ferretdb-part'
    : env.TT_MONGO === 'ferretdb'
      ? 'ferretdb'
      : 'mongo'
}`;
const database =
  env.SOAK_PART === 'ferretdb' || env.TT_MONGO === 'ferretdb'
    ? 'FerretDB (SQLite)'
    : 'the stand-in';
const rows: [string, string][] = [];
const mib = (bytes: number): string => `${(bytes / MiB).toFixed(0)} MiB`;
const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;

async function timed<T>(
  what: string,
  work: () => Promise<T>,
  show: (result: T) => string,
): Promise<T> {
  const memory = new ResidentPeak(pid, 100);
  const began = performance.now();
  const result = await work();
  const took = performance.now() - began;
  rows.push([what, `${show(result)}; ${seconds(took)}; peak resident ${mib(memory.stop())}`]);
  log.info({ what, took }, 'measured');
  return result;
}

function hourOfTicks(hour: number, offsetBase: number): FoldInput[] {
  const ticks: FoldInput[] = [];
  for (let minute = 0; minute < 60; minute++)
    for (let s = 0; s < env.SOAK_SERIES; s++) {
      const sensor = `s${String(s).padStart(6, '0')}`;
      const fields: Record<string, number> = {};
      for (let f = 0; f < env.SOAK_FIELDS; f++) fields[`f${f}`] = (s * 7 + minute * 13 + f) % 100;
      ticks.push({
        seriesKey: `traffic|sensor=${sensor}`,
        metric: 'traffic',
        tags: { sensor },
        ts: DAY + hour * 3_600_000 + minute * 60_000 + (s % 60) * 1000,
        fields,
        strings: {},
        kafkaPartition: s % 4,
        offset: offsetBase + ticks.length,
      });
    }
  return ticks;
}

/** What the load wrote at each level it wrote. */
function bucketCounts(loaded: number): string {
  const per = { minute: loaded, hour: env.SOAK_SERIES * env.SOAK_HOURS, day: env.SOAK_SERIES };
  return env.SOAK_LEVELS.map(
    (level) =>
      `${per[level].toLocaleString('en')} ${level}${level === LEVELS[0] ? ' buckets in one partition' : ''}`,
  ).join(', ');
}

/** Loads the ticks through the writers, logging progress; a row of what it did. */
async function loadTicks(): Promise<void> {
  await stores.dropDatabase(env.SOAK_DATABASE);
  const load = new ResidentPeak(pid, 1000);
  const writers = env.SOAK_LEVELS.map((level) => store.writer(level));
  const began = performance.now();
  let ticks = 0;
  for (let hour = 0; hour < env.SOAK_HOURS; hour++) {
    const hourTicks = hourOfTicks(hour, ticks);
    for (let i = 0; i < hourTicks.length; i += env.SOAK_FLUSH) {
      const flush = hourTicks.slice(i, i + env.SOAK_FLUSH);
      await Promise.all(writers.map((writer) => writer.apply(flush)));
      const done = ticks + i + flush.length;
      if (done % 100_000 < env.SOAK_FLUSH)
        log.info(
          { ticks: done, perSecond: Math.round(done / ((performance.now() - began) / 1000)) },
          'loading',
        );
    }
    ticks += hourTicks.length;
    const elapsed = performance.now() - began;
    log.warn(
      {
        hour: hour + 1,
        ticks,
        perSecond: Math.round(ticks / (elapsed / 1000)),
        resident: mib(load.sample()),
        data: mib(directoryBytes(dataDir)),
      },
      'loaded an hour',
    );
  }
  const loadMs = performance.now() - began;
  rows.push([
    'loaded',
    `${ticks.toLocaleString('en')} ticks → ${bucketCounts(ticks)}; ${seconds(loadMs)} (${Math.round(ticks / (loadMs / 1000))} ticks/s, every level); peak resident ${mib(load.stop())}`,
  ]);
}

if (env.SOAK_READ_ONLY)
  rows.push([
    'loaded',
    `by an earlier run (SOAK_READ_ONLY): ${(await store.partition(MINUTE_PARTITION).count()).toLocaleString('en')} minute buckets in one partition`,
  ]);
else await loadTicks();
rows.push(['data on disk after load', mib(directoryBytes(dataDir))]);

const minutes = store.partition(MINUTE_PARTITION);
const everything = { fromMs: 0, toMs: Number.MAX_SAFE_INTEGER };
await timed('count (minute partition)', () => minutes.count(), String);
await timed(
  'count of buckets with ticks',
  () => minutes.count({ ...everything, withTicks: true }),
  String,
);
const end = DAY + env.SOAK_HOURS * 3_600_000;
const reader = new RollupReader(
  { rollups: store },
  {
    levels: env.SOAK_LEVELS.filter((level) => level !== LEVELS.at(-1)),
    now: () => end,
  },
);
const window = { metric: 'traffic', limit: 50, field: 'f0', fromMs: end - 10 * 60_000, toMs: end };
await timed(
  "the seed's window: 10-minute average of 50 sensors (first call)",
  () => reader.windowByMetric(window),
  (r) => `${r.examined} documents examined`,
);
await timed(
  `the same window, ${env.SOAK_WINDOW_CALLS} more calls`,
  async () => {
    for (let i = 0; i < env.SOAK_WINDOW_CALLS; i++) await reader.windowByMetric(window);
  },
  () => `${env.SOAK_WINDOW_CALLS} answers`,
);
// Written at the minute level alone, a rebuild scans that partition: the full scan below.
if (env.SOAK_LEVELS.includes(LEVELS[1]))
  await timed(
    "a rebuild's scan: hour partition in _id order",
    async () => {
      let n = 0;
      for await (const bucket of store
        .partition(HOUR_PARTITION)
        .scan(undefined, { inIdOrder: true }))
        n += Number(bucket.n);
      return n;
    },
    (n) => `${n} ticks`,
  );
await timed(
  'a full scan of the minute partition',
  async () => {
    let n = 0;
    for await (const bucket of minutes.scan()) n += Number(bucket.n);
    return n;
  },
  (n) => `${n} ticks`,
);
await timed(
  'tick counts of every minute bucket',
  async () => {
    let n = 0;
    for await (const bucket of minutes.scanCounts()) n += bucket.n;
    return n;
  },
  (n) => `${n} ticks`,
);
await timed("retention's drop of the minute partition", () => minutes.drop(), String);
const settleMs = 60_000;
await new Promise((resolve) => setTimeout(resolve, settleMs));
rows.push([`data on disk ${settleMs / 1000} s after the drop`, mib(directoryBytes(dataDir))]);
await stores.dropDatabase(env.SOAK_DATABASE);
await stores.close();

process.stdout.write(
  `database: ${database} (${dataDir}), resident memory sampled from /proc/${pid}\n\n`,
);
process.stdout.write('| step | result |\n|---|---|\n');
for (const [step, result] of rows) process.stdout.write(`| ${step} | ${result} |\n`);
