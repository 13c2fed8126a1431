import { TickertapeError } from '@tickertape/errors';
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

/** The proxies in front of a part (stack.sh start_toxiproxy names them). */
export function proxiesOf(target: NetworkTarget, brokers: number): string[] {
  return target === 'kafka'
    ? Array.from({ length: brokers }, (_, i) => `kafka-${i + 1}`)
    : [target];
}

/** Talks to Toxiproxy's HTTP API (docs: github.com/Shopify/toxiproxy, "HTTP API"). */
export class Toxiproxy {
  constructor(private readonly url: string) {}

  private async call(method: string, path: string, body?: object): Promise<void> {
    const response = await fetch(`${this.url}${path}`, {
      method,
      headers: { 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    if (!response.ok)
      throw new ToxiproxyError(`${method} ${path}: ${response.status} ${await response.text()}`);
  }

  /**
   * Puts `toxic` on every proxy named, in both directions, and returns what undoes it. A cut
   * disables the proxies: open connections close and new ones are refused.
   */
  async apply(toxic: NetworkToxic, proxies: readonly string[]): Promise<() => Promise<void>> {
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
