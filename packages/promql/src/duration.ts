import { cut } from './cut.js';
import { PromQLError, PromQLErrorCode } from './promql-error.js';

const UNIT_MS: Readonly<Record<string, number>> = {
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
  w: 7 * 86_400_000,
  y: 365 * 86_400_000,
};

const DURATION = /^(?:(\d+)y)?(?:(\d+)w)?(?:(\d+)d)?(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s)?(?:(\d+)ms)?$/;
const UNITS_IN_ORDER = ['y', 'w', 'd', 'h', 'm', 's', 'ms'] as const;

/**
 * Milliseconds of a Prometheus duration (`10m`, `1h30m`, `1d`) or of a number of seconds (`300`,
 * `1.5`), as the HTTP API's `step`, `timeout` and PromQL's ranges accept. Whole milliseconds only.
 */
export function parseDurationMs(text: string, what: string): number {
  const trimmed = text.trim();
  const match = DURATION.exec(trimmed);
  if (match && trimmed !== '') {
    let ms = 0;
    UNITS_IN_ORDER.forEach((unit, i) => {
      const count = match[i + 1];
      if (count !== undefined) ms += Number(count) * UNIT_MS[unit]!;
    });
    return ms;
  }
  const seconds = Number(trimmed);
  if (trimmed !== '' && Number.isFinite(seconds)) {
    const ms = Math.round(seconds * 1000);
    if (Math.abs(ms - seconds * 1000) < 1e-6) return ms;
  }
  throw new PromQLError(
    PromQLErrorCode.BadParameter,
    `invalid ${what} ${JSON.stringify(cut(text))}: give a duration such as 30s, 5m, 1h30m or a number of seconds`,
  );
}

/** A duration as Prometheus prints it (`1h30m`, `10m`, `0s`). */
export function formatDurationMs(ms: number): string {
  if (ms === 0) return '0s';
  let left = Math.abs(ms);
  let text = ms < 0 ? '-' : '';
  for (const unit of UNITS_IN_ORDER) {
    const size = UNIT_MS[unit]!;
    if (left >= size) {
      text += `${Math.floor(left / size)}${unit}`;
      left %= size;
    }
  }
  return text;
}
