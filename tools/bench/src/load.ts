import { InFlight, TickProducer } from '@tickertape/producer';
import type { Tick, TickCodec } from '@tickertape/tick';
import type { Kafka } from 'kafkajs';

export interface LoadResult {
  ticks: number;
  seconds: number;
  ticksPerSec: number;
  bytes: number;
}

/** Ticks handed to the producer and not yet acknowledged: enough to keep batches full. */
const MAX_PENDING = 20_000;

/**
 * Publishes the tick set as fast as the producer SDK goes (keyed by series, idempotent, one
 * request in flight, batches of 2,000): the topic is full before any consumer starts, so every
 * design reads the same records from the same offsets.
 */
export async function produceAll(
  kafka: Kafka,
  codec: TickCodec,
  topic: string,
  ticks: Iterable<Tick>,
): Promise<LoadResult> {
  const producer = await TickProducer.connect(kafka, codec, {
    topic,
    maxBatchTicks: 2000,
    lingerMs: 5,
    source: 'bench',
  });
  const inFlight = new InFlight();
  let failure: unknown;
  const asError = (err: unknown) =>
    err instanceof Error ? err : new Error(`produce failed: ${JSON.stringify(err)}`);
  const started = performance.now();
  try {
    for (const tick of ticks) {
      inFlight.track(
        producer.send(tick).catch((err: unknown) => {
          failure ??= err;
        }),
      );
      if (inFlight.size >= MAX_PENDING) await inFlight.atMost(MAX_PENDING / 2);
    }
    await producer.flush();
    await inFlight.atMost(0);
  } finally {
    await producer.close();
  }
  if (failure !== undefined) throw asError(failure);
  const seconds = (performance.now() - started) / 1000;
  const { sent, bytes } = producer.stats;
  return { ticks: sent, seconds, ticksPerSec: sent / seconds, bytes };
}
