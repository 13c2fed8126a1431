import { InvalidArgumentError } from 'commander';

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
const DURATION = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/;

/** `500ms`, `30s`, `2m`, `1.5h`; a bare number is seconds. Whole milliseconds. */
export function parseDuration(text: string): number {
  const match = DURATION.exec(text.trim());
  if (!match) throw new InvalidArgumentError('must be a duration such as 500ms, 30s, 2m or 1h');
  const ms = Math.round(Number(match[1]) * UNIT_MS[match[2] ?? 's']!);
  if (ms <= 0) throw new InvalidArgumentError('must be longer than 0');
  return ms;
}

/** `1.2 s`, `850 ms`, `2 m 05 s`: for summaries. */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const minutes = Math.floor(ms / 60_000);
  const seconds = Math.round((ms % 60_000) / 1000);
  return `${minutes} m ${String(seconds).padStart(2, '0')} s`;
}
