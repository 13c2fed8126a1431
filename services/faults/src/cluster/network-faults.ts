import { TickertapeError } from '@tickertape/errors';
import { setTimeout as delay } from 'node:timers/promises';
import type { NetworkTarget, NetworkToxic } from '../schedule.js';

export class ToxiproxyError extends TickertapeError {
  override readonly name = 'ToxiproxyError';
  constructor(detail: string) {
    super('FAULT_TOXIPROXY_FAILED', `toxiproxy: ${detail}`, { retriable: false });
  }
}

/** Toxiproxy's toxic for each kind of network fault (none for `cut`: the proxy is disabled). */
const TOXICS: Record<Exclude<NetworkToxic, 'cut'>, { type: string; attributes: object }> = {
  // Every packet late by 300 ms ± 150 ms: slow fetches, slow commits, slow heartbeats.
  latency: { type: 'latency', attributes: { latency: 300, jitter: 150 } },
  // 32 KB/s: a fetch of a few thousand ticks takes seconds.
  bandwidth: { type: 'bandwidth', attributes: { rate: 32 } },
  // Every connection reset by the peer as soon as data arrives.
  reset: { type: 'reset_peer', attributes: { timeout: 0 } },
  // Data dropped and the connection left open: a half-open socket nothing answers on.
  'half-open': { type: 'timeout', attributes: { timeout: 0 } },
};

/** The proxies in front of a part (infra/local/parts/toxiproxy.sh names them). */
export function proxiesOf(target: NetworkTarget, brokers: number): string[] {
  return target === 'kafka'
    ? Array.from({ length: brokers }, (_, i) => `kafka-${i + 1}`)
    : [target];
}

/** Longer than Toxiproxy's own 25 s, after which it answers 503 itself. */
const API_TIMEOUT_MS = 30_000;

/** How a network fault was undone. */
export type Healed = 'api' | 'restart';

/**
 * Talks to Toxiproxy's HTTP API (docs: github.com/Shopify/toxiproxy, "HTTP API"). `restart`
 * starts the server again from its configuration (every proxy enabled, no toxic): the way out
 * when removing a toxic hangs, which Toxiproxy does under heavy traffic (Shopify/toxiproxy#558,
 * open: a latency toxic on a Kafka listener, its DELETE answered 503 after 25 s, the proxy's
 * toxics locked from then on).
 */
export class Toxiproxy {
  constructor(
    private readonly url: string,
    private readonly restart: () => Promise<void>,
  ) {}

  private async call(method: string, path: string, body?: object): Promise<void> {
    const response = await fetch(`${this.url}${path}`, {
      method,
      headers: { 'content-type': 'application/json' },
      signal: AbortSignal.timeout(API_TIMEOUT_MS),
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    if (!response.ok)
      throw new ToxiproxyError(`${method} ${path}: ${response.status} ${await response.text()}`);
  }

  /**
   * Puts `toxic` on every proxy named, in both directions, for `forMs`, then takes it off again;
   * says how it was taken off. A cut disables the proxies: open connections close and new ones
   * are refused. Whatever fails part way, every proxy is left healthy.
   */
  async inflict(toxic: NetworkToxic, proxies: readonly string[], forMs: number): Promise<Healed> {
    let heal: () => Promise<void>;
    try {
      heal = await this.apply(toxic, proxies);
    } catch (err) {
      await this.restart();
      throw err;
    }
    await delay(forMs);
    try {
      await heal();
      return 'api';
    } catch {
      await this.restart();
      return 'restart';
    }
  }

  private async apply(
    toxic: NetworkToxic,
    proxies: readonly string[],
  ): Promise<() => Promise<void>> {
    if (toxic === 'cut') {
      for (const proxy of proxies) await this.call('POST', `/proxies/${proxy}`, { enabled: false });
      return async () => {
        for (const proxy of proxies)
          await this.call('POST', `/proxies/${proxy}`, { enabled: true });
      };
    }
    const added: [string, string][] = [];
    for (const proxy of proxies)
      for (const stream of ['upstream', 'downstream'] as const) {
        const name = `${toxic}-${stream}`;
        await this.call('POST', `/proxies/${proxy}/toxics`, {
          name,
          stream,
          toxicity: 1,
          ...TOXICS[toxic],
        });
        added.push([proxy, name]);
      }
    return async () => {
      for (const [proxy, name] of added)
        await this.call('DELETE', `/proxies/${proxy}/toxics/${name}`);
    };
  }
}
