import { headerText } from '@tickertape/clients';
import { DEAD_LETTER_REASONS, DLQ_HEADERS } from '@tickertape/tick';
import type { IHeaders } from 'kafkajs';

// Re-exported: the redrive command and the producer SDK's users read DLQ headers with these.
export { DLQ_HEADERS, headerText };

/** Added to a redriven record: where in the DLQ it came from, for tracing a second failure. */
export const REDRIVEN_FROM_HEADER = 'tickertape-redriven-from';

/** Reasons the workers write: the tick's rejection reasons plus their lateness check. */
export const KNOWN_DLQ_REASONS: readonly string[] = DEAD_LETTER_REASONS;

const DLQ_HEADER_NAMES = new Set<string>([...Object.values(DLQ_HEADERS), REDRIVEN_FROM_HEADER]);

/**
 * The headers the record had before it was dead-lettered: the worker copies the original ones
 * and adds its own, so dropping ours gives back the original set.
 */
export function originalHeaders(headers: IHeaders | undefined): IHeaders {
  const kept: IHeaders = {};
  for (const [name, value] of Object.entries(headers ?? {})) {
    if (!DLQ_HEADER_NAMES.has(name) && value !== undefined) kept[name] = value;
  }
  return kept;
}
