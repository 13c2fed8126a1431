/** Why a dead letter was not redriven. */
export const SKIP_CAUSES = ['duplicate', 'filtered', 'overMax', 'noSourceTopic'] as const;
export type SkipCause = (typeof SKIP_CAUSES)[number];

/** What the plan needs to know of one DLQ record, headers already read as text. */
export interface DeadLetterRecord {
  reason: string | undefined;
  sourceTopic: string | undefined;
  sourcePartition: string | undefined;
  sourceOffset: string | undefined;
}

export type RedriveDecision =
  { redrive: true; topic: string } | { redrive: false; cause: SkipCause };

export interface RedrivePolicy {
  /** Only records with one of these reasons; all when empty or absent. */
  reasons?: readonly string[];
  /** Republish here instead of the `tickertape-source-topic` header's topic. */
  topic?: string;
  /** At most this many records redriven. */
  max?: number;
  /** Topics that exist; a record bound elsewhere is skipped as `noSourceTopic`. */
  existingTopics?: ReadonlySet<string>;
}

export interface ReasonTally {
  reason: string;
  seen: number;
  redriven: number;
  skipped: number;
}

export interface RedriveTally {
  /** One row per reason seen, sorted by reason. */
  byReason: ReasonTally[];
  total: ReasonTally;
  skipped: Record<SkipCause, number>;
}

/** How a record without a reason header is listed. */
export const NO_REASON = '(none)';

/**
 * Decides, record by record in DLQ order, what a redrive does, and keeps the tally. Pure: the
 * redrive command feeds it what it reads. A replayed worker can dead-letter the same source
 * record twice; only its first appearance counts (identity: source topic, partition, offset).
 */
export class RedrivePlan {
  private readonly reasons: ReadonlySet<string> | undefined;
  private readonly seenSources = new Set<string>();
  private readonly rows = new Map<string, ReasonTally>();
  private readonly causes: Record<SkipCause, number> = {
    duplicate: 0,
    filtered: 0,
    overMax: 0,
    noSourceTopic: 0,
  };
  private redriven = 0;

  constructor(private readonly policy: RedrivePolicy = {}) {
    this.reasons =
      policy.reasons === undefined || policy.reasons.length === 0
        ? undefined
        : new Set(policy.reasons);
    if (policy.max !== undefined && !(Number.isInteger(policy.max) && policy.max >= 0)) {
      throw new RangeError(`max must be a non-negative integer, not ${policy.max}`);
    }
  }

  decide(record: DeadLetterRecord): RedriveDecision {
    const reason = record.reason ?? NO_REASON;
    let row = this.rows.get(reason);
    if (row === undefined) {
      row = { reason, seen: 0, redriven: 0, skipped: 0 };
      this.rows.set(reason, row);
    }
    row.seen += 1;
    const decision = this.decideFor(record, reason);
    if (decision.redrive) {
      row.redriven += 1;
      this.redriven += 1;
    } else {
      row.skipped += 1;
      this.causes[decision.cause] += 1;
    }
    return decision;
  }

  tally(): RedriveTally {
    const byReason = [...this.rows.values()]
      .map((row) => ({ ...row }))
      .sort((a, b) => (a.reason < b.reason ? -1 : a.reason > b.reason ? 1 : 0));
    const total = byReason.reduce(
      (sum, row) => ({
        reason: 'total',
        seen: sum.seen + row.seen,
        redriven: sum.redriven + row.redriven,
        skipped: sum.skipped + row.skipped,
      }),
      { reason: 'total', seen: 0, redriven: 0, skipped: 0 },
    );
    return { byReason, total, skipped: { ...this.causes } };
  }

  private decideFor(record: DeadLetterRecord, reason: string): RedriveDecision {
    if (record.sourcePartition !== undefined && record.sourceOffset !== undefined) {
      const identity = `${record.sourceTopic ?? ''}\u0000${record.sourcePartition}\u0000${record.sourceOffset}`;
      if (this.seenSources.has(identity)) return { redrive: false, cause: 'duplicate' };
      this.seenSources.add(identity);
    }
    if (this.reasons !== undefined && !this.reasons.has(reason)) {
      return { redrive: false, cause: 'filtered' };
    }
    const topic = this.policy.topic ?? record.sourceTopic;
    if (
      topic === undefined ||
      topic === '' ||
      (this.policy.existingTopics !== undefined && !this.policy.existingTopics.has(topic))
    ) {
      return { redrive: false, cause: 'noSourceTopic' };
    }
    if (this.policy.max !== undefined && this.redriven >= this.policy.max) {
      return { redrive: false, cause: 'overMax' };
    }
    return { redrive: true, topic };
  }
}
