import { POLICY_REFRESH_MS, type LevelPolicy } from '@tickertape/buckets';
import type { PolicySource } from './port/bucket-writes.js';
import type { Upkeep } from './port/upkeep.js';

/**
 * The policy as a writer (or a reader) sees it: read at the first flush and again once it is
 * `refreshMs` old, so a change reaches running workers without a restart. Which flush is the
 * first to follow a change is not defined: set a metric's policy before its producers start, or
 * rebuild the range afterwards (docs/data-layout.md).
 */
export class LevelPolicySource implements PolicySource {
  private policy: LevelPolicy | undefined;
  private readAt = 0;

  constructor(
    private readonly store: Pick<Upkeep, 'readLevelPolicy'>,
    private readonly refreshMs = POLICY_REFRESH_MS,
    private readonly now: () => number = Date.now,
  ) {}

  async current(): Promise<LevelPolicy> {
    const t = this.now();
    if (this.policy === undefined || t - this.readAt >= this.refreshMs) {
      this.policy = await this.store.readLevelPolicy();
      this.readAt = t;
    }
    return this.policy;
  }
}
