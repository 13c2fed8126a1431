export const TickErrorCode = {
  Rejected: 'TICK_REJECTED',
  InvalidSeriesKey: 'INVALID_SERIES_KEY',
  RegistryRequestFailed: 'REGISTRY_REQUEST_FAILED',
} as const;
export type TickErrorCode = (typeof TickErrorCode)[keyof typeof TickErrorCode];
