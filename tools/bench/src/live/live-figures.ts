import { LEVEL_SPECS, type Level } from '@tickertape/buckets';
import { LEVEL_FRESHNESS_BUDGETS } from '@tickertape/topology';
import type { DensityProbeResult } from '../density.js';
import { modesLabel } from '../level-policy.js';
import type { Target } from '../target.js';
import type { SeriesLoad } from '../tick-set.js';
import type {
  LiveCellRun,
  LiveDesign,
  LiveDesignRun,
  LiveReport,
  LiveStore,
} from './live-types.js';

/** The workers' default budgets, from the table the workers read them from. */
export const DEFAULT_BUDGETS_MS: Readonly<Record<Level, number>> = LEVEL_FRESHNESS_BUDGETS;

/** The issue's goals for the live grid. */
export const LIVE_GOALS = {
  /** DB operations per tick at 10,000 series × 1 tick/s, default budgets. */
  opsPerTick: { minute: 0.25, hour: 0.05, day: 0.05 } as Readonly<Record<Level, number>>,
  /** Live operations ÷ one write per bucket per budget window, at every cell. */
  coalescing: 1.1,
  /** Records not consumed when the producer stops, in seconds of its rate. */
  keptUpSeconds: 2,
  /** Produce → visible p99 ≤ budget + this. */
  visibleSlackMs: 1000,
  /** Stored bytes per tick: ours ≤ 1/this of one document per tick. */
  bytesOverC: 5,
} as const;

export interface LiveStoreFigures {
  cell: SeriesLoad;
  design: LiveDesign;
  /** `ours`: the level policy it ran under ("full", "minute skip, hour compact"). */
  layout?: string;
  store: LiveStore['store'];
  opsPerTick: number;
  requestsPerTick: number;
  /** The consuming process's CPU per tick. */
  cpuUsPerTick: number;
  /** The database server's CPU per tick over the design's run (the stack's `mongo` part). */
  dbCpuUsPerTick?: number;
  keptUp: boolean;
  backlogAtEnd: number;
  settleSeconds: number;
  /** Records still uncommitted when the harness stopped waiting (0: everything was written). */
  unsettled: number;
  p50Ms: number;
  p99Ms: number;
  visible: string;
  /** Ours: operations ÷ one write per bucket per budget window. */
  coalescing?: number;
  budgetMs?: number;
}

/** "10,000 × 1/s", "20,000 × 1/min". */
export function cellLabel(cell: SeriesLoad): string {
  const series = cell.series.toLocaleString('en-US');
  if (cell.perSecond >= 1) return `${series} × ${cell.perSecond}/s`;
  const every = Math.round(1 / cell.perSecond);
  if (every % 60 === 0) return `${series} × 1/${every === 60 ? '' : every / 60}min`;
  return `${series} × 1/${every} s`;
}

/**
 * One write per bucket per budget window: each series writes once per window in which it had a
 * tick (series × ⌈run ÷ budget⌉ × min(1, rate × budget)), and once more when a window straddles
 * its bucket's boundary (a share budget ÷ slot of the windows); each marker is a series of its
 * own and one write.
 */
export function idealOperations(
  cell: SeriesLoad,
  level: Level,
  producingSeconds: number,
  budgetMs: number,
  markers: number,
): number {
  const windowS = Math.max(budgetMs, 1) / 1000;
  const windows = Math.max(1, Math.ceil(producingSeconds / windowS));
  const writesPerWindow = Math.min(1, cell.perSecond * windowS);
  const straddle = 1 + Math.min(1, budgetMs / LEVEL_SPECS[level].slotMs);
  return cell.series * windows * writesPerWindow * straddle + markers;
}

function storeFigures(
  cell: LiveCellRun,
  run: LiveDesignRun,
  store: LiveStore,
  budgetMs: number | undefined,
): LiveStoreFigures {
  const mongo = run.cpu.stackCpu.mongo;
  const budget =
    store.store === 'ticks'
      ? undefined
      : run.design === 'ours0'
        ? 0
        : (budgetMs ?? DEFAULT_BUDGETS_MS[store.store]);
  return {
    cell: cell.cell,
    design: run.design,
    ...(run.design === 'ours' ? { layout: modesLabel(run.modes) } : {}),
    store: store.store,
    opsPerTick: store.ops / store.applied,
    requestsPerTick: store.requests / store.applied,
    cpuUsPerTick: (store.cpuSeconds * 1e6) / store.applied,
    ...(mongo.measured ? { dbCpuUsPerTick: (mongo.cpuSeconds * 1e6) / run.produced } : {}),
    keptUp: store.backlogAtEnd <= cell.rate * LIVE_GOALS.keptUpSeconds && store.unsettled === 0,
    backlogAtEnd: store.backlogAtEnd,
    settleSeconds: store.settleSeconds,
    unsettled: store.unsettled,
    p50Ms: store.latency.p50Ms,
    p99Ms: store.latency.p99Ms,
    visible: `${store.latency.visible}/${store.latency.markers}`,
    ...(budget === undefined || store.store === 'ticks' || run.design === 'ours0'
      ? {}
      : {
          budgetMs: budget,
          coalescing:
            store.ops /
            idealOperations(
              cell.cell,
              store.store,
              run.producingSeconds,
              budget,
              store.latency.markers,
            ),
        }),
  };
}

/** Every store of every design of every cell, as rows. */
export function liveFigures(live: LiveReport): LiveStoreFigures[] {
  return live.cells.flatMap((cell) =>
    cell.designs.flatMap((run) =>
      run.stores.map((store) => storeFigures(cell, run, store, live.budgetMs)),
    ),
  );
}

const fixed = (value: number, digits = 2) => (Number.isFinite(value) ? value.toFixed(digits) : '—');

/** Stored bytes per tick, ours (minute + hour) ÷ one document per tick, by density and layout. */
export function liveBytes(densities: DensityProbeResult) {
  return densities.densities.map((d) => ({
    perSecond: d.perSecond,
    /** Written under the suggested level policy (the target's rows), or the full layout. */
    suggested: d.modes !== undefined && Object.keys(d.modes).length > 0,
    layout: modesLabel(d.modes),
    ours: d.bytesPerTick.rollups.total,
    minute: d.bytesPerTick.minute.total,
    hour: d.bytesPerTick.hour.total,
    perTick: d.bytesPerTick.perTick.total,
    oursOverC: d.bytesPerTick.rollups.total / d.bytesPerTick.perTick.total,
  }));
}

/**
 * Before/after in one run: each cell's DB operations per tick of the workers with
 * FRESHNESS_BUDGET_MS=0 (every fetch written, as before budgets) ÷ with their budgets, by level.
 */
export function budgetGains(
  live: LiveReport,
): { cell: SeriesLoad; store: string; before: number; after: number }[] {
  const rows = liveFigures(live);
  return rows
    .filter((r) => r.design === 'ours')
    .flatMap((after) => {
      const before = rows.find(
        (r) => r.design === 'ours0' && r.cell === after.cell && r.store === after.store,
      );
      return before === undefined
        ? []
        : [
            {
              cell: after.cell,
              store: after.store,
              before: before.opsPerTick,
              after: after.opsPerTick,
            },
          ];
    });
}

/** The live grid's rows of the Targets table. */
export function liveTargets(live: LiveReport): Target[] {
  const rows = liveFigures(live);
  const ours = rows.filter((r) => r.design === 'ours');
  const targets: Target[] = [];
  const dense = ours.filter((r) => r.cell.series === 10_000 && r.cell.perSecond === 1);
  if (dense.length > 0 && live.budgetMs === undefined) {
    targets.push({
      target: `live DB operations per tick at 10,000 series × 1/s, default budgets: minute ≤ ${LIVE_GOALS.opsPerTick.minute}, hour ≤ ${LIVE_GOALS.opsPerTick.hour}`,
      measured: dense.map((r) => `${r.store} ${fixed(r.opsPerTick, 3)}`).join(', '),
      met: dense.every((r) => r.opsPerTick <= LIVE_GOALS.opsPerTick[r.store as Level]),
    });
  }
  targets.push(
    {
      target: `live coalescing: DB operations ≤ ${LIVE_GOALS.coalescing} × one write per bucket per budget window, every cell`,
      measured: `worst ${fixed(Math.max(...ours.map((r) => r.coalescing ?? Number.NaN)))} (${ours
        .map((r) => `${cellLabel(r.cell)} ${r.store} ${fixed(r.coalescing ?? Number.NaN)}`)
        .join('; ')})`,
      met: ours.every((r) => (r.coalescing ?? Number.POSITIVE_INFINITY) <= LIVE_GOALS.coalescing),
    },
    {
      target: `live: the workers keep up at every cell (backlog when the producer stops ≤ ${LIVE_GOALS.keptUpSeconds} s of its rate)`,
      measured: ours
        .map((r) => `${cellLabel(r.cell)} ${r.store} ${r.backlogAtEnd.toLocaleString('en-US')}`)
        .join('; '),
      met: ours.every((r) => r.keptUp),
    },
    {
      target: `live produce → visible p99 ≤ the level's budget + ${LIVE_GOALS.visibleSlackMs / 1000} s, every cell`,
      measured: ours
        .map((r) => `${cellLabel(r.cell)} ${r.store} ${fixed(r.p99Ms / 1000, 1)} s (${r.visible})`)
        .join('; '),
      met: ours.every(
        (r) =>
          r.visible.split('/')[0] === r.visible.split('/')[1] &&
          r.p99Ms <= (r.budgetMs ?? 0) + LIVE_GOALS.visibleSlackMs,
      ),
    },
  );
  // Each density in the layout the docs suggest for it: the full one at 1/s and above.
  const bytes = liveBytes(live.densities).filter(
    (b, i, all) => b.suggested || !all.some((o) => o.suggested && o.perSecond === b.perSecond),
  );
  targets.push({
    target: `stored bytes per tick, ours (minute + hour, the suggested level policy) ≤ 1/${LIVE_GOALS.bytesOverC} of one document per tick, at every grid density (whole hours)`,
    measured: bytes
      .map(
        (b) =>
          `${fixed(b.perSecond, 3)}/s (${b.layout}): ${fixed(b.ours, 0)} vs ${fixed(b.perTick, 0)} B`,
      )
      .join('; '),
    met: bytes.every((b) => b.oursOverC <= 1 / LIVE_GOALS.bytesOverC),
  });
  return targets;
}
