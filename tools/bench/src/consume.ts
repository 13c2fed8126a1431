import { isTransientKafkaError } from '@tickertape/clients';
import { TickertapeError } from '@tickertape/errors';
import type { Logger } from '@tickertape/logger';
import type { Tick, TickCodec } from '@tickertape/tick';
import type { EachBatchPayload, Kafka } from 'kafkajs';
import type { RunMeter } from './stack-cpu.js';

/** What a design sent to the database for one fetched batch. */
export interface Handled {
  /** Ticks it dealt with: all of them, unless it was told to stop. */
  ticks: number;
  /** Document-level writes (an insert, an upsert, a bucket update). */
  ops: number;
  /** Round trips: one per insertOne, one per bulk or insertMany call. */
  requests: number;
}

/** One in-process design: gets each fetched partition batch decoded, writes it its own way. */
export interface Design {
  /** `stop(n)`, asked before each write with the batch's ticks handled so far: true = stop now. */
  handle(
    ticks: readonly Tick[],
    partition: number,
    stop: (handledInBatch: number) => boolean,
  ): Promise<Handled>;
}

export interface Cap {
  ms: number;
  ticks: number;
}

export interface ConsumeResult {
  ticks: number;
  seconds: number;
  /** This process's CPU (user + system) over the same window. */
  cpuSeconds: number;
  ops: number;
  requests: number;
  /** Set when the cap stopped the run before the end of the topic. */
  cappedBy?: 'time' | 'ticks';
}

/**
 * Fetch settings of the rollup workers at their defaults (FLUSH_MIN_BYTES 64 KiB,
 * FLUSH_MAX_WAIT_MS 500 ms, 16 × min bytes or 1 MiB per partition): every design fetches
 * alike, so only what it does with a batch differs.
 */
export const WORKER_FETCH = {
  minBytes: 64 * 1024,
  maxWaitTimeInMs: 500,
  maxBytesPerPartition: 1024 * 1024,
} as const;

/**
 * One fetched batch the way every in-process design takes it, as the workers do: each record
 * decoded with the TickCodec, the batch handed to the design, the offset after the last tick it
 * handled committed once it returned. Returns what the design did and the decoded ticks.
 */
export async function writeBatch(
  payload: EachBatchPayload,
  codec: TickCodec,
  design: Design,
  topic: string,
  stop: (handledInBatch: number) => boolean,
): Promise<Handled & { decoded: Tick[] }> {
  const { batch } = payload;
  const decoded: Tick[] = [];
  for (const message of batch.messages) {
    if (message.value === null) throw new Error(`record ${message.offset} has no value`);
    decoded.push(await codec.decode(message.value));
  }
  // The design asks `stop` tick by tick, so a capped run stops at an exact count.
  const handled = await design.handle(decoded, batch.partition, stop);
  const last = batch.messages[handled.ticks - 1];
  if (last !== undefined) {
    payload.resolveOffset(last.offset);
    await payload.commitOffsetsIfNecessary({
      topics: [
        {
          topic,
          partitions: [
            { partition: batch.partition, offset: (BigInt(last.offset) + 1n).toString() },
          ],
        },
      ],
    });
  }
  return { ...handled, decoded };
}

/**
 * A commit refused because the group moved on (a rebalance, or the coordinator forgot this
 * member, as on a loaded machine once, seconds into a run): KafkaJS re-joins when eachBatch throws it.
 */
function rejoins(err: unknown): boolean {
  return (
    isTransientKafkaError(err) || (err as { type?: unknown } | null)?.type === 'UNKNOWN_MEMBER_ID'
  );
}

/** A run that has not finished after this long has stalled: fail rather than hang the harness. */
const STALL_MS = 15 * 60_000;

/**
 * Consumes the whole topic with a kafkajs `eachBatch` consumer in this process: decodes each
 * record with the TickCodec (as the workers do), hands the batch to `design`, commits the
 * batch's offsets after it returns (as the workers do). The clock and the CPU meter start when
 * the group is joined and stop after the commit that completes the topic, or when `cap` runs out.
 */
export async function consumeInProcess(options: {
  kafka: Kafka;
  codec: TickCodec;
  topic: string;
  groupId: string;
  total: number;
  design: Design;
  cap?: Cap;
  /** Started with the clock at the group join, stopped with it (the stack's /proc CPU). */
  meter?: RunMeter;
  logger: Logger;
}): Promise<ConsumeResult> {
  const { kafka, codec, topic, design, total, cap } = options;
  const consumer = kafka.consumer({ groupId: options.groupId, ...WORKER_FETCH });
  let joinedAt: number | undefined;
  let cpuAtJoin: NodeJS.CpuUsage | undefined;
  consumer.on(consumer.events.GROUP_JOIN, () => {
    if (joinedAt !== undefined) return;
    joinedAt = performance.now();
    cpuAtJoin = process.cpuUsage();
    options.meter?.start();
  });
  const counts = { ticks: 0, ops: 0, requests: 0 };
  let cappedBy: ConsumeResult['cappedBy'];
  let settle!: (result: ConsumeResult | Error) => void;
  const finished = new Promise<ConsumeResult | Error>((resolve) => (settle = resolve));
  let done = false;
  const finish = (outcome: ConsumeResult | Error) => {
    if (done) return;
    done = true;
    settle(outcome);
  };
  const stop = (handledInBatch: number) => {
    if (cap === undefined || joinedAt === undefined) return false;
    if (performance.now() - joinedAt >= cap.ms) cappedBy = 'time';
    else if (counts.ticks + handledInBatch >= cap.ticks) cappedBy = 'ticks';
    return cappedBy !== undefined;
  };

  await consumer.connect();
  try {
    await consumer.subscribe({ topic, fromBeginning: true });
    await consumer.run({
      autoCommit: false,
      eachBatchAutoResolve: false,
      eachBatch: async (payload) => {
        const { batch } = payload;
        if (done || batch.messages.length === 0) return;
        try {
          const handled = await writeBatch(payload, codec, design, topic, stop);
          counts.ticks += handled.ticks;
          counts.ops += handled.ops;
          counts.requests += handled.requests;
          await payload.heartbeat();
          if (counts.ticks >= total || cappedBy !== undefined) {
            const seconds = (performance.now() - (joinedAt ?? 0)) / 1000;
            const cpu = process.cpuUsage(cpuAtJoin);
            options.meter?.stop();
            finish({
              ...counts,
              seconds,
              cpuSeconds: (cpu.user + cpu.system) / 1e6,
              ...(cappedBy === undefined ? {} : { cappedBy }),
            });
          }
        } catch (err) {
          // The batch's offsets were not committed and it is not counted: KafkaJS re-joins and
          // fetches it again, as the workers ride out a rebalance. Anything else ends the run.
          if (rejoins(err)) throw err;
          finish(err instanceof Error ? err : new Error(String(err)));
        }
      },
    });
    const timer = setTimeout(
      () =>
        finish(
          new TickertapeError(
            'BENCH_STALLED',
            `${options.groupId}: ${counts.ticks} of ${total} ticks after ${STALL_MS} ms`,
          ),
        ),
      STALL_MS,
    );
    const outcome = await finished;
    clearTimeout(timer);
    if (outcome instanceof Error) throw outcome;
    options.logger.debug({ groupId: options.groupId, ...outcome }, 'consumed');
    return outcome;
  } finally {
    await consumer.disconnect();
  }
}
