import { TickertapeError } from '@tickertape/errors';

export const ShadowErrorCode = {
  /** The shadow to swap in is gone and no record says it was swapped already. */
  ShadowMissing: 'SHADOW_MISSING',
  /** A run id or a range that cannot name or bound a shadow. */
  InvalidShadow: 'SHADOW_INVALID',
} as const;

export class ShadowError extends TickertapeError {
  override readonly name = 'ShadowError';
}
