export interface TickLimits {
  /** Largest encoded message (wire header included) a worker will decode. */
  maxMessageBytes: number;
  /** Most numeric plus string fields one tick may carry. */
  maxFields: number;
  maxTags: number;
}

export const DEFAULT_TICK_LIMITS: Readonly<TickLimits> = Object.freeze({
  maxMessageBytes: 64 * 1024,
  maxFields: 64,
  maxTags: 32,
});

/**
 * Event times outside this range are producer bugs (seconds for milliseconds, a zero clock), not
 * data: they would create partitions decades away. Both ends are accepted.
 */
export const MIN_TICK_TS = Date.UTC(1970, 0, 1);
export const MAX_TICK_TS = Date.UTC(2100, 0, 1);

/** Defaults for whatever `partial` leaves out (or sets to undefined). */
export function resolveLimits(partial: Partial<TickLimits> = {}): TickLimits {
  return {
    maxMessageBytes: partial.maxMessageBytes ?? DEFAULT_TICK_LIMITS.maxMessageBytes,
    maxFields: partial.maxFields ?? DEFAULT_TICK_LIMITS.maxFields,
    maxTags: partial.maxTags ?? DEFAULT_TICK_LIMITS.maxTags,
  };
}
