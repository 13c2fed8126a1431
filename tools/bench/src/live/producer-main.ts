#!/usr/bin/env node
import { createKafka, createRegistry, kafkaSecurity } from '@tickertape/clients';
import { registryEndpoint } from '@tickertape/config';
import { describeError } from '@tickertape/errors';
import { createLogger } from '@tickertape/logger';
import { runLoad, TickProducer, trafficProfile } from '@tickertape/producer';
import { TickCodec, valueSubject } from '@tickertape/tick';
import { pino } from 'pino';
import { loadBenchEnv } from '../env.js';
import { parseLoadgenRun } from './loadgen-process.js';

/**
 * The live grid's producer as a process of its own (so its CPU is nobody's design's): the
 * traffic profile of `tickertape loadgen` — sensors in round robin, two numeric fields and a
 * string per tick, the wall clock as event time — through the producer SDK, at the cell's rate.
 * Arguments: one JSON LoadgenRun. Prints the load summary as JSON on stdout.
 */
async function main(): Promise<void> {
  const run = parseLoadgenRun(process.argv[2] ?? '');
  const env = loadBenchEnv();
  const logger = createLogger({
    name: 'bench-producer',
    level: 'warn',
    destination: pino.destination(2),
  });
  const kafka = createKafka({
    ...kafkaSecurity(env),
    brokers: env.KAFKA_BROKERS,
    clientId: 'tickertape-bench-producer',
    logger,
  });
  const registryAt = registryEndpoint(env);
  const codec = await TickCodec.register(createRegistry(registryAt), {
    registry: registryAt,
    version: 2,
    subject: valueSubject(run.topic),
  });
  const producer = await TickProducer.connect(kafka, codec, {
    topic: run.topic,
    source: 'tickertape-bench/live',
  });
  try {
    const summary = await runLoad(
      producer,
      trafficProfile({ series: run.series, seed: run.seed }),
      {
        ratePerSec: run.rate,
        durationMs: run.durationMs,
      },
    );
    process.stdout.write(`${JSON.stringify(summary)}\n`);
  } finally {
    await producer.close();
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`bench producer: ${describeError(err)}\n`);
  process.exit(1);
});
