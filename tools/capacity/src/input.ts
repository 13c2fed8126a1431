import { z } from 'zod';

/**
 * The part of docs/benchmarks.json (the harness's BenchReport) the capacity model reads.
 * Unknown fields are dropped, so the report can grow without breaking the model; a field the
 * model needs that is missing or malformed fails the parse with its path.
 */
const timing = z.object({
  examined: z.number(),
  p50Ms: z.number(),
  p99Ms: z.number(),
  runs: z.number(),
});

const levelRun = z.object({
  level: z.string(),
  seconds: z.number(),
  applied: z.number(),
  flushes: z.number(),
  buckets: z.number(),
  ops: z.number(),
  cpuSeconds: z.number(),
});

const storedPart = z.object({
  documents: z.number(),
  dataBytes: z.number(),
  indexBytes: z.number(),
});

const design = z.object({
  key: z.string(),
  ticks: z.number(),
  cpuSeconds: z.number(),
  stored: z.object({ byCollection: z.array(storedPart.extend({ name: z.string() })) }).optional(),
  levels: z.array(levelRun).optional(),
});

const density = z.object({
  perSecond: z.number(),
  series: z.number(),
  ticks: z.number(),
  durationMs: z.number(),
  levels: z.object({ minute: storedPart, hour: storedPart }),
  perTick: storedPart,
});

export const benchJsonSchema = z.object({
  settings: z.object({ profile: z.string(), partitions: z.number().optional() }),
  startedAt: z.number(),
  machine: z.object({
    cores: z.number(),
    cpuModel: z.string(),
    memoryGiB: z.number(),
    os: z.string(),
    node: z.string(),
    database: z.string(),
    standIn: z.boolean(),
  }),
  load: z.object({
    ticks: z.number(),
    bytes: z.number(),
    partitions: z.number(),
    shape: z.object({
      total: z.number(),
      stockSeries: z.array(z.string()),
      trafficSeries: z.array(z.string()),
      startMs: z.number(),
      endMs: z.number(),
    }),
  }),
  designs: z.array(design),
  reads: z.object({
    window: z.object({
      sensors: z.number(),
      fromMs: z.number(),
      toMs: z.number(),
      rollups: timing,
      perTick: timing,
    }),
    chart: z.object({
      series: z.string(),
      fromMs: z.number(),
      toMs: z.number(),
      resolution: z.string(),
      rollups: timing,
      perTick: timing,
    }),
  }),
  probe: z.object({ guardedMsPerOp: z.number() }).optional(),
  density: z.object({ densities: z.array(density) }).optional(),
  /** The live grid (absent in reports from before it). */
  live: z
    .object({
      budgetMs: z.number().optional(),
      cells: z.array(
        z.object({
          cell: z.object({ series: z.number(), perSecond: z.number() }),
          rate: z.number(),
          designs: z.array(
            z.object({
              design: z.string(),
              /** The level policy `ours` ran under (absent before it: the full layout). */
              modes: z.record(z.string(), z.string()).optional(),
              producingSeconds: z.number(),
              stores: z.array(
                z.object({ store: z.string(), ops: z.number(), applied: z.number() }),
              ),
            }),
          ),
        }),
      ),
    })
    .optional(),
});

export type BenchJson = z.output<typeof benchJsonSchema>;
export type BenchJsonDesign = BenchJson['designs'][number];

/** Parses the benchmark's JSON text; throws a ZodError naming the field that does not fit. */
export function parseBenchJson(text: string): BenchJson {
  return benchJsonSchema.parse(JSON.parse(text));
}
