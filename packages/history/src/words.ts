/** `1 tick`, `2 ticks`: the engine's refusals are read by people. */
export function plural(count: number, singular: string, pluralForm = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : pluralForm}`;
}

/** `2026-11-21T08:05:00Z`: ISO-8601 UTC, milliseconds only when there are some. */
export function isoTime(ms: number): string {
  return new Date(ms).toISOString().replace('.000Z', 'Z');
}

/** `250 ms`, `4.2 s`, `3 m 05 s`: how long something took or must wait. */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const minutes = Math.floor(ms / 60_000);
  const seconds = Math.round((ms % 60_000) / 1000);
  return `${minutes} m ${String(seconds).padStart(2, '0')} s`;
}
