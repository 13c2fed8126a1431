import { TickProducer } from '@tickertape/producer';
import { seriesKey, type TickCodec } from '@tickertape/tick';
import type { Kafka } from 'kafkajs';
import { setTimeout as sleep } from 'node:timers/promises';
import { MARKER_METRIC } from '../latency.js';
import { percentile } from '../stats.js';

/** One marker tick: a series of its own, so the first write of any store holding it shows it. */
export interface Marker {
  key: string;
  ts: number;
  sentAt: number;
  /** performance.now() when each store first showed it, by store name. */
  visibleAt: Map<string, number>;
}

/** Which of `pending` a store shows now (one query per store per poll). */
export type MarkerLookup = (pending: readonly Marker[]) => Promise<ReadonlySet<Marker>>;

export interface VisibleLatency {
  markers: number;
  visible: number;
  p50Ms: number;
  p99Ms: number;
}

const POLL_MS = 50;

/**
 * Produce → visible, live: a marker tick every `everyMs` on the cell's topic, and a poller that
 * asks each store (a level's bucket by `_id`, a design's tick document) which markers it shows.
 * Latency runs from the marker's `send` to the first poll that finds it.
 */
export class MarkerProbe {
  private readonly markers: Marker[] = [];
  private sending = true;
  private sender: Promise<void> | undefined;
  private poller: Promise<void> | undefined;
  private polling = true;

  private constructor(
    private readonly producer: TickProducer,
    private readonly lookups: ReadonlyMap<string, MarkerLookup>,
    private readonly everyMs: number,
  ) {}

  static async start(options: {
    kafka: Kafka;
    codec: TickCodec;
    topic: string;
    everyMs: number;
    lookups: ReadonlyMap<string, MarkerLookup>;
  }): Promise<MarkerProbe> {
    const producer = await TickProducer.connect(options.kafka, options.codec, {
      topic: options.topic,
      source: 'bench-live-markers',
    });
    const probe = new MarkerProbe(producer, options.lookups, options.everyMs);
    probe.sender = probe.send();
    probe.poller = probe.poll();
    return probe;
  }

  private async send(): Promise<void> {
    while (this.sending) {
      const ts = Date.now();
      const tags = { marker: `${ts}-${this.markers.length}` };
      this.markers.push({
        key: seriesKey(MARKER_METRIC, tags),
        ts,
        sentAt: performance.now(),
        visibleAt: new Map(),
      });
      await this.producer.send({
        metric: MARKER_METRIC,
        tags,
        ts,
        fields: { seq: 1 },
        strings: {},
      });
      await sleep(this.everyMs);
    }
  }

  private async poll(): Promise<void> {
    while (this.polling) {
      for (const [store, lookup] of this.lookups) {
        const pending = this.markers.filter((m) => !m.visibleAt.has(store));
        if (pending.length === 0) continue;
        const seen = await lookup(pending);
        const now = performance.now();
        for (const marker of seen) marker.visibleAt.set(store, now);
      }
      await sleep(POLL_MS);
    }
  }

  /** Stops sending markers (the producer's end). */
  async stopSending(): Promise<void> {
    this.sending = false;
    await this.sender;
    await this.producer.flush();
  }

  /** Stops polling once every store shows every marker, or after `graceMs`. */
  async finish(graceMs: number): Promise<Map<string, VisibleLatency>> {
    const deadline = performance.now() + graceMs;
    while (performance.now() < deadline && !this.allVisible()) await sleep(POLL_MS);
    this.polling = false;
    await this.poller;
    await this.producer.close();
    const out = new Map<string, VisibleLatency>();
    for (const store of this.lookups.keys()) {
      const latencies = this.markers.flatMap((m) => {
        const at = m.visibleAt.get(store);
        return at === undefined ? [] : [at - m.sentAt];
      });
      out.set(store, {
        markers: this.markers.length,
        visible: latencies.length,
        p50Ms: percentile(latencies, 50),
        p99Ms: percentile(latencies, 99),
      });
    }
    return out;
  }

  private allVisible(): boolean {
    return this.markers.every((m) => m.visibleAt.size === this.lookups.size);
  }
}
