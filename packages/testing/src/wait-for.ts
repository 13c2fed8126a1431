export interface WaitForOptions {
  /** What is awaited, for the timeout message. */
  description: string;
  timeoutMs?: number;
  intervalMs?: number;
}

/**
 * Polls until `probe` returns something other than `undefined`/`null`/`false` without throwing, and
 * returns it. Tests wait on conditions, never on fixed sleeps; on timeout the message says what
 * was awaited and the last thing seen.
 */
export async function waitFor<T>(
  probe: () => T | Promise<T>,
  options: WaitForOptions,
): Promise<Exclude<T, undefined | null | false>> {
  const timeoutMs = options.timeoutMs ?? 20_000;
  const intervalMs = options.intervalMs ?? 100;
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined && value !== null && value !== false) {
        return value as Exclude<T, undefined | null | false>;
      }
      last = value;
    } catch (err) {
      last = err;
    }
    if (Date.now() >= deadline) {
      const seen = last instanceof Error ? last.message : JSON.stringify(last);
      throw new Error(
        `timed out after ${timeoutMs} ms waiting for ${options.description} (last: ${seen})`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
