import { TICK_REJECTION_REASONS, type TickRejectionReason } from './rejection.js';

/**
 * The dead-letter record's contract, shared by the workers that write `raw-ticks-dlq` and the
 * redrive command that reads it: the original key and bytes, plus these headers.
 */
export const DLQ_HEADERS = {
  reason: 'tickertape-dlq-reason',
  detail: 'tickertape-dlq-detail',
  topic: 'tickertape-source-topic',
  partition: 'tickertape-source-partition',
  offset: 'tickertape-source-offset',
  at: 'tickertape-dlq-at',
} as const;

/** Why a record is dead-lettered: it can never be a tick, or it came later than the workers accept. */
export type DeadLetterReason = TickRejectionReason | 'TOO_LATE';

export const DEAD_LETTER_REASONS: readonly DeadLetterReason[] = Object.freeze([
  ...TICK_REJECTION_REASONS,
  'TOO_LATE',
]);
