/**
 * A long run's progress, drawn by the caller (the CLI draws a bar on a terminal, or lines): the
 * port every long library run (a topic read, a backfill, a rebuild, a redrive) reports through.
 */
export interface Progress {
  /** How many units are done so far (not an increment). */
  update(done: number): void;
  stop(): void;
}

/** Starts showing a run of `total` units (`ticks`, `records`, `buckets`). */
export type StartProgress = (run: { total: number; unit: string; label: string }) => Progress;

export const NO_PROGRESS: StartProgress = () => ({
  update: () => undefined,
  stop: () => undefined,
});
