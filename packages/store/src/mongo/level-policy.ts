import {
  AUTO_SKIP_LEVEL,
  LevelPolicy,
  type AutoSkipChange,
  type AutoSkipSpec,
  isLevel,
  type Level,
  type LevelMode,
  type LevelPolicySpec,
  type MetricPolicyChange,
  type PinChange,
  type SketchAlphaSpec,
  type WeightSpec,
} from '@tickertape/buckets';
import type { Db } from 'mongodb';

/**
 * One document per level: `{ _id: level, skip: [metric…], compact: [metric…], updatedAt }`; and
 * one for what holds at every level, `{ _id: 'metrics', sketch: [metric…], sketchAlpha: [{ metric,
 * alpha }…], weights: [{ metric, field, by }…], updatedAt }` (metric names hold dots, so lists rather than keys). Readers from
 * before the second document ignore it: they read level ids only. The minute level's document
 * also holds the automatic rule's spans (`auto`) and the metrics the operator pinned out of its
 * reach (`pinned`); a document from before either reads as none.
 */
export const LEVEL_POLICY_COLLECTION = 'level_policy';
const METRICS_ID = 'metrics';

interface PolicyDoc {
  _id: Level | typeof METRICS_ID;
  skip?: string[];
  compact?: string[];
  sketch?: string[];
  /** Sketched metrics at an α other than the default. */
  sketchAlpha?: SketchAlphaSpec[];
  weights?: WeightSpec[];
  /** On the minute level's document: the automatic rule's spans (`until` unset while open). */
  auto?: { metric: string; from: Date; until?: Date }[];
  /** On the minute level's document: metrics the operator keeps there, out of the rule's reach. */
  pinned?: string[];
  updatedAt: Date;
}

export async function readLevelPolicy(db: Db): Promise<LevelPolicy> {
  const docs = await db.collection<PolicyDoc>(LEVEL_POLICY_COLLECTION).find().toArray();
  const spec: {
    -readonly [K in keyof LevelPolicySpec]: LevelPolicySpec[K];
  } = {};
  for (const doc of docs) {
    if (isLevel(doc._id)) {
      spec[doc._id] = { skip: doc.skip ?? [], compact: doc.compact ?? [] };
      if (doc._id === AUTO_SKIP_LEVEL) {
        spec.autoSkip = (doc.auto ?? []).map(({ metric, from, until }): AutoSkipSpec =>
          until === undefined || until === null
            ? { metric, fromMs: from.getTime() }
            : { metric, fromMs: from.getTime(), untilMs: until.getTime() },
        );
        spec.pinned = doc.pinned ?? [];
      }
    } else if (doc._id === METRICS_ID) {
      spec.sketch = doc.sketch ?? [];
      spec.sketchAlpha = (doc.sketchAlpha ?? []).map(({ metric, alpha }) => ({ metric, alpha }));
      spec.weights = (doc.weights ?? []).map(({ metric, field, by }) => ({ metric, field, by }));
    }
  }
  return new LevelPolicy(spec);
}

/**
 * Stores `metrics` in `mode` at `level` and returns the new policy. Checked whole before
 * writing, so a change that would leave a metric on no level (or ask for a form a level lacks)
 * is refused and stores nothing. Two operators changing the policy at once: the last write per
 * level wins.
 */
export async function changeLevelPolicy(
  db: Db,
  level: Level,
  metrics: readonly string[],
  mode: LevelMode,
  nowMs: number,
): Promise<LevelPolicy> {
  const next = (await readLevelPolicy(db)).with(level, metrics, mode);
  await db.collection<PolicyDoc>(LEVEL_POLICY_COLLECTION).updateOne(
    { _id: level },
    {
      $set: {
        skip: next.metricsAt(level, 'skip'),
        compact: next.metricsAt(level, 'compact'),
        // The operator's skip there replaces a pin (LevelPolicy.with).
        ...(level === AUTO_SKIP_LEVEL ? { pinned: next.pinnedMetrics() } : {}),
        updatedAt: new Date(nowMs),
      },
    },
    { upsert: true },
  );
  return next;
}

/**
 * Sketches on or off, or a weight set or cleared, for every level; checked whole before writing
 * (a field weighted by itself is refused and stores nothing). The last write wins.
 */
export async function changeMetricPolicy(
  db: Db,
  change: MetricPolicyChange,
  nowMs: number,
): Promise<LevelPolicy> {
  const next = (await readLevelPolicy(db)).withMetricChange(change);
  await db.collection<PolicyDoc>(LEVEL_POLICY_COLLECTION).updateOne(
    { _id: METRICS_ID },
    {
      $set: {
        sketch: next.sketchedMetrics(),
        sketchAlpha: next.sketchAlphas(),
        weights: next.weights(),
        updatedAt: new Date(nowMs),
      },
    },
    { upsert: true },
  );
  return next;
}

/** The automatic rule's spans as the minute level's document holds them. */
function storedSpans(policy: LevelPolicy): NonNullable<PolicyDoc['auto']> {
  return policy
    .autoSkips()
    .map(({ metric, fromMs, untilMs }) =>
      untilMs === undefined
        ? { metric, from: new Date(fromMs) }
        : { metric, from: new Date(fromMs), until: new Date(untilMs) },
    );
}

/**
 * One change of the automatic rule's spans (on the minute level's document, beside the
 * operator's lists, which it leaves alone). Only the scheduler's job writes them, one run at a time.
 */
export async function changeAutoSkip(
  db: Db,
  change: AutoSkipChange,
  nowMs: number,
): Promise<LevelPolicy> {
  const next = (await readLevelPolicy(db)).withAutoChange(change);
  await db
    .collection<PolicyDoc>(LEVEL_POLICY_COLLECTION)
    .updateOne(
      { _id: AUTO_SKIP_LEVEL },
      { $set: { auto: storedSpans(next), updatedAt: new Date(nowMs) } },
      { upsert: true },
    );
  return next;
}

/**
 * Metrics pinned at the minute level or handed back to the automatic rule: the operator's skip
 * list, the pins and the spans (a pin closes an open one) in one update of the minute level's
 * document, so no reader sees a pin without its span closed. Should the job open a span between
 * this read and its own write, its next run closes it (`autoSkipDecision` keeps a pinned metric).
 */
export async function changePins(db: Db, change: PinChange, nowMs: number): Promise<LevelPolicy> {
  const next = (await readLevelPolicy(db)).withPinChange(change);
  await db.collection<PolicyDoc>(LEVEL_POLICY_COLLECTION).updateOne(
    { _id: AUTO_SKIP_LEVEL },
    {
      $set: {
        skip: next.metricsAt(AUTO_SKIP_LEVEL, 'skip'),
        pinned: next.pinnedMetrics(),
        auto: storedSpans(next),
        updatedAt: new Date(nowMs),
      },
    },
    { upsert: true },
  );
  return next;
}
