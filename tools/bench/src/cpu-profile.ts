/**
 * Where a worker's CPU goes: a V8 CPU profile (`node --cpu-prof`, the `.cpuprofile` JSON) summed
 * by **self time** into the categories of CPU_CATEGORIES. Pure: the profile in, milliseconds out.
 */

export interface CallFrame {
  functionName: string;
  url: string;
}

export interface CpuProfileNode {
  id: number;
  callFrame: CallFrame;
  /** Ids of the nodes it called. */
  children?: number[];
}

/** The parts of the `.cpuprofile` format the summary reads (times in µs of CLOCK_MONOTONIC). */
export interface CpuProfile {
  nodes: CpuProfileNode[];
  startTime: number;
  endTime: number;
  /** Node id of each sample; the sample's time is startTime plus the deltas up to it. */
  samples: number[];
  timeDeltas: number[];
}

interface CategoryRule {
  category: string;
  /** What the category holds, for the report's notes. */
  holds: string;
  /** A frame belongs to the first rule (in table order) whose url or function name matches. */
  url?: RegExp;
  functionName?: RegExp;
}

/** A path inside one of our packages or services, from src/ (tsx) or dist/ alike. */
const ours = (where: string, files: string) =>
  new RegExp(`/${where}/(?:src|dist)/(?:${files})\\.[cm]?[jt]s$`);
/** A path inside a dependency, wherever pnpm put it. */
const dependency = (names: string) => new RegExp(`/node_modules/(?:${names})/`);

/**
 * Every category and how a frame is sorted into one: the only place the rules live. Order
 * matters (first match wins): decompression before the Kafka client that calls it, the named
 * files of our packages before "other tickertape code".
 */
export const CPU_CATEGORIES: readonly CategoryRule[] = [
  {
    category: 'idle',
    holds: '`(idle)`, `(program)` (native code V8 cannot attribute)',
    functionName: /^\((?:idle|program)\)$/,
  },
  { category: 'GC', holds: '`(garbage collector)`', functionName: /^\(garbage collector\)$/ },
  {
    category: 'Kafka decompression',
    holds: "kafkajs's compression codecs (and the zlib they call)",
    url: /\/node_modules\/kafkajs\/src\/protocol\/message\/compression\//,
  },
  { category: 'Kafka client', holds: 'kafkajs', url: dependency('kafkajs') },
  {
    category: 'Avro decode',
    holds: 'avsc, packages/tick codec, wire-frame, schema',
    url: new RegExp(
      `${dependency('avsc').source}|${ours('packages/tick', 'codec|wire-frame|schema').source}`,
    ),
  },
  {
    category: 'tick validation',
    holds: 'packages/tick validate, limits',
    url: ours('packages/tick', 'validate|limits'),
  },
  {
    category: 'series key',
    holds: 'packages/tick series-key, series-key-cache',
    url: ours('packages/tick', 'series-key|series-key-cache'),
  },
  {
    category: 'fold',
    holds: 'packages/buckets fold, aggregate, marks, slots, partitions',
    url: ours('packages/buckets', 'fold|aggregate|marks|slots|partitions'),
  },
  {
    category: 'update building',
    holds: 'packages/buckets update, packages/store apply, rollup-writer',
    url: new RegExp(
      `${ours('packages/buckets', 'update').source}|${ours('packages/store', 'apply|rollup-writer').source}`,
    ),
  },
  { category: 'BSON encoding/decoding', holds: 'bson', url: dependency('bson') },
  { category: 'MongoDB driver other', holds: 'mongodb', url: dependency('mongodb') },
  {
    category: 'metrics',
    holds: 'prom-client, services/rollup-worker metrics',
    url: new RegExp(
      `${dependency('prom-client').source}|${ours('services/rollup-worker', 'metrics').source}`,
    ),
  },
  {
    category: 'logging',
    holds: 'pino and its helpers, packages/logger',
    url: new RegExp(
      `${dependency('pino|pino-[a-z-]+|sonic-boom|thread-stream|@pinojs/[a-z-]+').source}|/packages/logger/(?:src|dist)/`,
    ),
  },
  {
    category: 'other tickertape code',
    holds: 'the rest of packages/* and services/* (worker loop, time verdicts, clients)',
    url: /^(?:(?!\/node_modules\/).)*\/(?:packages|services)\/[^/]+\/(?:src|dist)\//,
  },
  { category: 'other dependencies', holds: 'any other package', url: /\/node_modules\// },
  {
    category: 'node internals/other',
    holds:
      "node's own modules (`node:*`) and native functions that no package called (the event loop, sockets, timers), anything unmatched",
  },
];

const FALLBACK = CPU_CATEGORIES[CPU_CATEGORIES.length - 1]!.category;

/** Categories not counted as the worker's work in "% of non-idle". */
export const IDLE_CATEGORY = 'idle';

/**
 * A function of node itself (`node:*`) or a native one (no script: a builtin such as
 * `utf8Slice`, or code a package generated with `new Function`, as avsc does for its readers).
 * Its time is spent for whoever called it, so it counts for its nearest caller that is neither.
 */
export function isRuntime(frame: CallFrame): boolean {
  if (frame.url.startsWith('node:')) return true;
  return frame.url === '' && !/^\(.*\)$/.test(frame.functionName);
}

export function categorize(frame: CallFrame): string {
  for (const rule of CPU_CATEGORIES) {
    if (rule.functionName?.test(frame.functionName) || rule.url?.test(frame.url)) {
      return rule.category;
    }
  }
  return FALLBACK;
}

export interface CategoryTime {
  category: string;
  selfMs: number;
}

/** One function's self time, where it lives shortened to its package or our path. */
export interface FunctionTime {
  functionName: string;
  where: string;
  category: string;
  selfMs: number;
}

export interface ProfileSummary {
  /** Milliseconds of samples inside the window, idle included. */
  sampledMs: number;
  /** Every category in table order, zero ones included. */
  categories: CategoryTime[];
  /** The functions with the most self time, idle left out, most first. */
  top: FunctionTime[];
}

/** How many functions `top` lists. */
export const TOP_FUNCTIONS = 10;

/** A script's path from its package on: `bson/lib/bson.cjs`, `packages/buckets/dist/update.js`. */
export function shortWhere(url: string): string {
  const dependencyAt = url.lastIndexOf('/node_modules/');
  if (dependencyAt >= 0) return url.slice(dependencyAt + '/node_modules/'.length);
  const ours = /\/((?:packages|services)\/[^/]+\/.*)$/.exec(url);
  return ours?.[1] ?? url;
}

/**
 * Self time per category of the samples taken within `window` (µs of the profile's clock,
 * CLOCK_MONOTONIC on Linux, which `process.hrtime` reads too): all samples when absent. A
 * sample lasts until the next one (the last until endTime), as Chrome's DevTools count it.
 */
export function summarizeProfile(
  profile: CpuProfile,
  window?: { fromUs: number; toUs: number },
): ProfileSummary {
  const frameOf = new Map<number, CallFrame>();
  const parentOf = new Map<number, number>();
  for (const node of profile.nodes) {
    frameOf.set(node.id, node.callFrame);
    for (const child of node.children ?? []) parentOf.set(child, node.id);
  }
  const categoryOf = new Map<number, string>();
  const categoryOfNode = (id: number): string => {
    const known = categoryOf.get(id);
    if (known !== undefined) return known;
    const frame = frameOf.get(id);
    const parent = parentOf.get(id);
    const category =
      frame === undefined
        ? FALLBACK
        : isRuntime(frame) && parent !== undefined
          ? callerCategory(parent)
          : categorize(frame);
    categoryOf.set(id, category);
    return category;
  };
  // The category of the nearest caller that is not the runtime; the fallback when none is.
  const callerCategory = (id: number): string => {
    const frame = frameOf.get(id);
    if (frame === undefined || frame.functionName === '(root)') return FALLBACK;
    return categoryOfNode(id);
  };
  const selfUs = new Map<string, number>(CPU_CATEGORIES.map((rule) => [rule.category, 0]));
  // Per function (name and script: one function has a node per call path).
  const functionUs = new Map<string, FunctionTime>();
  let at = profile.startTime;
  let sampledUs = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    at += profile.timeDeltas[i] ?? 0;
    const next =
      i + 1 < profile.samples.length ? at + (profile.timeDeltas[i + 1] ?? 0) : profile.endTime;
    if (window !== undefined && (at < window.fromUs || at >= window.toUs)) continue;
    const duration = Math.max(0, next - at);
    const id = profile.samples[i]!;
    const category = categoryOfNode(id);
    selfUs.set(category, (selfUs.get(category) ?? 0) + duration);
    sampledUs += duration;
    const frame = frameOf.get(id);
    if (frame === undefined || category === IDLE_CATEGORY) continue;
    const key = `${frame.functionName}\n${frame.url}`;
    const entry = functionUs.get(key) ?? {
      functionName: frame.functionName === '' ? '(anonymous)' : frame.functionName,
      where: shortWhere(frame.url),
      category,
      selfMs: 0,
    };
    entry.selfMs += duration / 1000;
    functionUs.set(key, entry);
  }
  return {
    sampledMs: toMs(sampledUs),
    categories: [...selfUs].map(([category, us]) => ({ category, selfMs: toMs(us) })),
    top: [...functionUs.values()]
      .sort((x, y) => y.selfMs - x.selfMs)
      .slice(0, TOP_FUNCTIONS)
      .map((f) => ({ ...f, selfMs: toMs(f.selfMs * 1000) })),
  };
}

/** µs → ms, whole µs: the profile's resolution, without float dust in the report's JSON. */
const toMs = (us: number) => Math.round(us) / 1000;

/** Milliseconds of the summary that were not idle: the base of "% of non-idle". */
export function busyMs(summary: ProfileSummary): number {
  return summary.categories
    .filter((c) => c.category !== IDLE_CATEGORY)
    .reduce((sum, c) => sum + c.selfMs, 0);
}
