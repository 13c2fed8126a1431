import type { Logger } from '@tickertape/logger';
import type { TickCodec } from '@tickertape/tick';
import type { DesignKey, DesignRun } from './bench-report.js';
import { consumeInProcess, type Design } from './consume.js';
import { profileLevels, type CpuProfileRun } from './cpu-profile-run.js';
import { allShells, fromConsume, fromLevels, medianOf, medianRound } from './design-runs.js';
import {
  insertManyDesign,
  naiveDesign,
  noOpDesign,
  perTickCollection,
  sinkDesign,
  type KeyedTickDocument,
} from './designs.js';
import type { BenchEnv } from './env.js';
import { perTickReads } from './design-databases.js';
import { applySketchPolicy } from './level-policy.js';
import { probeServer, type ServerProbe } from './probe.js';
import { measureReads, type ReadResults } from './reads.js';
import type { BenchDatabase, RunResources } from './run-resources.js';
import type { BenchSettings } from './settings.js';
import type { StackMeter } from './stack-cpu.js';
import { storedBytes } from './storage.js';
import type { TickSetShape } from './tick-set.js';
import { CATCH_UP_VARS, runLevels } from './workers.js';

export interface DesignsInput {
  run: RunResources;
  settings: BenchSettings;
  env: BenchEnv;
  logger: Logger;
  stack: StackMeter;
  codec: TickCodec;
  shape: TickSetShape;
  /** Extra node arguments for the worker processes (e.g. `--cpu-prof --cpu-prof-dir=…`). */
  workerNodeArgs?: readonly string[];
}

export interface DesignsMeasured {
  designs: DesignRun[];
  /** B, our pipeline: its median round. */
  b: DesignRun;
  reads: ReadResults;
  probe: ServerProbe;
  cpuProfile?: CpuProfileRun;
}

/**
 * The designs A–F and S, one after another on the loaded topic (each with its own group and database),
 * the reads while B's rollups and D's per-tick documents are both there, and the server probe.
 */
export async function measureDesigns(input: DesignsInput): Promise<DesignsMeasured> {
  const { run, settings, env, logger, stack, codec, shape } = input;
  const { names, database, drop } = run;
  const total = shape.total;
  const workerConcurrency =
    settings.workerConcurrency === undefined
      ? {}
      : { partitionsConcurrently: settings.workerConcurrency };

  const inProcess = async (
    key: DesignKey,
    design: Design,
    db?: BenchDatabase,
    capped = false,
    round = 0,
  ) => {
    logger.info({ design: key, round }, 'consuming');
    const meter = stack.window();
    const result = await consumeInProcess({
      kafka: run.kafka,
      codec,
      topic: names.topic,
      groupId: names.group(`${key.toLowerCase()}${round}`),
      total,
      design,
      meter,
      logger,
      ...(capped ? { cap: { ms: settings.naiveCapMs, ticks: settings.naiveCapTicks } } : {}),
    });
    const stored = db === undefined ? undefined : await storedBytes(db.rollups);
    const measured = fromConsume(key, result, meter.result(), stored);
    logger.info({ design: key, ticksPerSec: Math.round(measured.ticksPerSec) }, 'consumed');
    return measured;
  };
  const levelOptions = (db: BenchDatabase, group: string) => ({
    env,
    admin: run.admin,
    topic: names.topic,
    dlqTopic: names.dlqTopic,
    database: db.name,
    groupPrefix: names.group(group),
    mode: settings.workers,
    ...(input.workerNodeArgs === undefined ? {} : { nodeArgs: input.workerNodeArgs }),
    ...workerConcurrency,
    vars: CATCH_UP_VARS,
    logger,
  });
  const workers = async (key: DesignKey, db: BenchDatabase, round = 0) => {
    logger.info({ design: key, round }, 'consuming with the rollup workers');
    const meter = stack.window();
    const { runs: levels } = await runLevels({
      ...levelOptions(db, `${key.toLowerCase()}${round}`),
      meter,
    });
    const measured = fromLevels(key, total, levels, await storedBytes(db.rollups), meter.result());
    logger.info({ design: key, ticksPerSec: Math.round(measured.ticksPerSec) }, 'consumed');
    return measured;
  };

  const designs: DesignRun[] = [];
  // A and B, the ratio that matters most, alternate for several rounds: on a shared machine one
  // round can land in someone else's busy minute. The median round of each is reported.
  // S (B with sketches, issue 36) joins the rounds: its CPU per tick is compared with B's.
  const aRounds: DesignRun[] = [];
  const bRounds: { run: DesignRun; db: BenchDatabase }[] = [];
  const sRounds: { run: DesignRun; db: BenchDatabase }[] = [];
  for (let round = 0; round < settings.rounds; round++) {
    aRounds.push(await inProcess('A', noOpDesign, undefined, false, round));
    const db = await database(`b${round}`);
    bRounds.push({ run: await workers('B', db, round), db });
    const dbS = await database(`s${round}`);
    await applySketchPolicy(dbS.rollups);
    sRounds.push({ run: await workers('S', dbS, round), db: dbS });
  }
  designs.push(medianRound(aRounds));
  const b = medianRound(bRounds.map((r) => r.run));
  designs.push(b);
  // The median round's database stays for the reads; the others go.
  const dbB = bRounds.find((r) => r.run === medianOf(bRounds.map((x) => x.run)))!.db;
  for (const { db } of bRounds) if (db !== dbB) await drop(db);
  const s = medianRound(sRounds.map((r) => r.run));
  const dbS = sRounds.find((r) => r.run === medianOf(sRounds.map((x) => x.run)))!.db;
  for (const { db } of sRounds) if (db !== dbS) await drop(db);

  // Where B's workers spend their CPU: one more round under the profiler, not measured.
  let cpuProfile: CpuProfileRun | undefined;
  if (settings.cpuProfile) {
    logger.info('profiling a round of the workers');
    const dbProfile = await database('bprof');
    cpuProfile = await profileLevels({ ...levelOptions(dbProfile, 'bprof'), keep: settings.keep });
    await drop(dbProfile);
  }

  const dbC = await database('c');
  designs.push(
    await inProcess('C', naiveDesign(await perTickCollection(dbC.designDb, true)), dbC, true),
  );
  await drop(dbC);

  const dbD = await database('d');
  designs.push(
    await inProcess('D', insertManyDesign(await perTickCollection(dbD.designDb, true)), dbD),
  );

  logger.info('measuring reads');
  const reads = await measureReads({
    rollups: dbB.rollups,
    sketched: dbS.rollups,
    perTick: perTickReads(dbD.designDb),
    shape,
    runs: settings.readRuns,
    rawBudgetMs: settings.rawReadBudgetMs,
  });
  await drop(dbD);
  await drop(dbB);
  await drop(dbS);

  const dbE = await database('e');
  const keyed = await perTickCollection<KeyedTickDocument>(dbE.designDb, false);
  designs.push(await inProcess('E', sinkDesign(keyed), dbE));
  await drop(dbE);

  const dbF = await database('f');
  logger.info('preallocating shells');
  const shellsStarted = performance.now();
  let shellDocuments = 0;
  for (const { level, shells } of allShells(shape)) {
    shellDocuments += await dbF.rollups.insertShells(level, shells);
  }
  const shellSeconds = (performance.now() - shellsStarted) / 1000;
  const f = await workers('F', dbF);
  designs.push({ ...f, shells: { documents: shellDocuments, seconds: shellSeconds } });
  await drop(dbF);
  designs.push(s);

  // Where B's time went: the guarded upsert vs an `_id`-only one, on a collection of B's size.
  logger.info('probing the server');
  const dbProbe = await database('probe');
  const probe = await probeServer(dbProbe.designDb, b.stored?.documents ?? 0);
  await drop(dbProbe);

  return { designs, b, reads, probe, ...(cpuProfile === undefined ? {} : { cpuProfile }) };
}
