import { TickertapeError } from '@tickertape/errors';

export const BackfillErrorCode = {
  /** A tick in a final slot with no shadow planned for it: the planning pass and the writing pass disagree. */
  Unplanned: 'BACKFILL_UNPLANNED',
} as const;

export class BackfillError extends TickertapeError {
  override readonly name = 'BackfillError';
}
