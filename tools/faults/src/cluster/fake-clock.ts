import { writeFile } from 'node:fs/promises';

/**
 * A wall clock libfaketime reads from a file at every call (FAKETIME_NO_CACHE), so the processes
 * started with `env()` see it step when `step` rewrites the file. Only the wall clock: timers and
 * timeouts run on the monotonic clock, as after an NTP step.
 */
export class FakeClock {
  private offsetMs = 0;

  private constructor(private readonly file: string) {}

  static async create(file: string): Promise<FakeClock> {
    const clock = new FakeClock(file);
    await clock.write();
    return clock;
  }

  /** What a process needs to run on this clock, given libfaketime's library. */
  env(library: string): Record<string, string> {
    return {
      LD_PRELOAD: library,
      FAKETIME_TIMESTAMP_FILE: this.file,
      FAKETIME_NO_CACHE: '1',
      FAKETIME_DONT_FAKE_MONOTONIC: '1',
    };
  }

  /** Moves the clock by `ms` (rounded to seconds, libfaketime's unit); returns the new offset. */
  async step(ms: number): Promise<number> {
    this.offsetMs += Math.round(ms / 1000) * 1000;
    await this.write();
    return this.offsetMs;
  }

  private write(): Promise<void> {
    const seconds = this.offsetMs / 1000;
    return writeFile(this.file, `${seconds < 0 ? '' : '+'}${seconds}\n`);
  }
}
