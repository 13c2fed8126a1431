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
 * Produce → visible, live: a marker tick every `everyMs` on the cell's topic. A store with a
 * lookup (a level's buckets, by `_id`) is polled for which markers it shows; a store without one
 * (D's and E's tick documents: on the stand-in, finding a document by series scans the
 * collection, and a poll every 50 ms would load the server the design is measured on) is told by
 * its writer when the write holding a marker was acknowledged (`written`). Latency runs from the
 * marker's `send` to that moment.
 */
export class MarkerProbe {
  private readonly markers: Marker[] = [];
  private readonly byKey = new Map<string, Marker>();
  private sending = true;
  private sender: Promise<void> | undefined;
  private poller: Promise<void> | undefined;
  private polling = true;

  private constructor(
    private readonly producer: TickProducer,
    private readonly stores: readonly string[],
    private readonly lookups: ReadonlyMap<string, MarkerLookup>,
    private readonly everyMs: number,
  ) {}

  static async start(options: {
    kafka: Kafka;
    codec: TickCodec;
    topic: string;
    everyMs: number;
    /** Every store latency is reported for; those in `lookups` are polled, the rest told. */
    stores: readonly string[];
    lookups: ReadonlyMap<string, MarkerLookup>;
  }): Promise<MarkerProbe> {
    const producer = await TickProducer.connect(options.kafka, options.codec, {
      topic: options.topic,
      source: 'bench-live-markers',
    });
    const probe = new MarkerProbe(producer, options.stores, options.lookups, options.everyMs);
    probe.sender = probe.send();
    probe.poller = probe.poll();
    return probe;
  }

  private async send(): Promise<void> {
    while (this.sending) {
      const ts = Date.now();
      const tags = { marker: `${ts}-${this.markers.length}` };
      const marker = {
        key: seriesKey(MARKER_METRIC, tags),
        ts,
        sentAt: performance.now(),
        visibleAt: new Map<string, number>(),
      };
      this.markers.push(marker);
      this.byKey.set(marker.key, marker);
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

  /** A writer's acknowledgement: `store` now holds the markers among these series keys. */
  written(store: string, keys: Iterable<string>): void {
    const now = performance.now();
    for (const key of keys) {
      const marker = this.byKey.get(key);
      if (marker !== undefined && !marker.visibleAt.has(store)) marker.visibleAt.set(store, now);
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
    for (const store of this.stores) {
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

  /** Stops everything, whatever state it is in (a failed run's cleanup); safe after finish. */
  async abort(): Promise<void> {
    this.sending = false;
    this.polling = false;
    await Promise.allSettled([this.sender, this.poller]);
    await this.producer.close().catch(() => undefined);
  }

  private allVisible(): boolean {
    return this.markers.every((m) => m.visibleAt.size === this.stores.length);
  }
}
