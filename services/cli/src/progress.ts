import cliProgress from 'cli-progress';
import { formatDuration } from './duration.js';

export interface ProgressOptions {
  /** How many units the whole run is (0 is allowed: the run is then done at once). */
  total: number;
  /** What is counted, plural: `ticks`, `buckets`. */
  unit: string;
  /** What runs, at the start of the bar or line: `backfill`. */
  label?: string;
  /** Where it is drawn; nothing is drawn without one (tests, --no-progress). */
  stream?: NodeJS.WritableStream;
  /** Off a terminal: at most one line this often (default 5 s). */
  everyMs?: number;
  /** The clock; tests fix it. */
  now?: () => number;
}

export interface Progress {
  /** How many units are done so far (not an increment). */
  update(done: number): void;
  /** Takes the bar off the terminal; safe to call more than once. */
  stop(): void;
}

export const NOTHING: Progress = { update: () => undefined, stop: () => undefined };

function isTerminal(stream: NodeJS.WritableStream): boolean {
  return (stream as { isTTY?: boolean }).isTTY === true;
}

/** `12,345`: progress is read by people. */
function grouped(value: number): string {
  return Math.round(value).toLocaleString('en-US');
}

/** Units per second over the whole run so far, and how long the rest takes at that rate. */
export function pace(
  done: number,
  total: number,
  elapsedMs: number,
): { rate: number; etaMs: number | undefined } {
  const rate = elapsedMs > 0 ? (done * 1000) / elapsedMs : 0;
  const etaMs = rate > 0 ? ((total - done) / rate) * 1000 : undefined;
  return { rate, etaMs };
}

/** One line of progress, for logs: `backfill: 31% (12,345/40,000 ticks), 5,400 ticks/s, ETA 5.1 s`. */
export function progressLine(
  label: string,
  unit: string,
  done: number,
  total: number,
  elapsedMs: number,
): string {
  const { rate, etaMs } = pace(done, total, elapsedMs);
  const percent = total > 0 ? Math.floor((done * 100) / total) : 100;
  const eta = etaMs === undefined ? 'ETA unknown' : `ETA ${formatDuration(etaMs)}`;
  return `${label}: ${percent}% (${grouped(done)}/${grouped(total)} ${unit}), ${grouped(rate)} ${unit}/s, ${eta}\n`;
}

/**
 * Shows how a long run advances, with its rate and ETA: a bar redrawn in place on a terminal,
 * and off one (a pipe, a CI log, a supervisor's log file) a plain line every few seconds and one
 * at the end, since a bar there is either nothing or thousands of carriage returns. Whether to
 * draw at all is the caller's (`progressStream`: `--progress`, `--no-progress`, the terminal).
 */
export function startProgress(options: ProgressOptions): Progress {
  const { stream, total, unit } = options;
  if (stream === undefined) return NOTHING;
  const label = options.label ?? 'progress';
  const now = options.now ?? Date.now;
  const started = now();

  if (!isTerminal(stream)) {
    const everyMs = options.everyMs ?? 5000;
    let lastLine = started;
    let done = 0;
    let written: number | undefined;
    let stopped = false;
    const write = (at: number) => {
      lastLine = at;
      written = done;
      stream.write(progressLine(label, unit, done, total, at - started));
    };
    return {
      update(count) {
        done = count;
        const at = now();
        if (!stopped && at - lastLine >= everyMs) write(at);
      },
      // The last state, once, so a run shorter than the interval still says how far it got.
      stop() {
        if (stopped) return;
        stopped = true;
        if (written !== done) write(now());
      },
    };
  }

  const bar = new cliProgress.SingleBar(
    {
      stream,
      format: `${label} {bar} {percentage}% | {value}/{total} ${unit} | {speed} ${unit}/s | ETA {remaining}`,
      hideCursor: true,
      // Rate and ETA come from this module (payload tokens: cli-progress' own `eta` would win over
      // a payload of that name), so they mean the same as the lines off a terminal.
      formatValue: (value, _options, type) =>
        type === 'value' || type === 'total' ? grouped(Number(value)) : String(value),
    },
    cliProgress.Presets.shades_classic,
  );
  bar.start(total, 0, { speed: '0', remaining: 'unknown' });
  let stopped = false;
  return {
    update(done) {
      if (stopped) return;
      const { rate, etaMs } = pace(done, total, now() - started);
      bar.update(done, {
        speed: grouped(rate),
        remaining: etaMs === undefined ? 'unknown' : formatDuration(etaMs),
      });
    },
    stop() {
      if (stopped) return;
      stopped = true;
      bar.stop();
    },
  };
}
