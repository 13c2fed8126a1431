import type { Level } from '@tickertape/buckets';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { summarizeProfile, type CpuProfile, type ProfileSummary } from './cpu-profile.js';
import { runLevels, type WorkerRunOptions } from './workers.js';

/** One level's profiled run: self time per category over its measured window. */
export interface LevelProfile extends ProfileSummary {
  level: Level;
  /** Ticks the level applied in the profiled round. */
  ticks: number;
  /** The window the samples were cut to: both workers joined → this level committed the topic. */
  windowMs: number;
}

/** A level whose profile could not be read (the worker did not exit cleanly, say). */
export interface MissingProfile {
  level: Level;
  missing: string;
}

export interface CpuProfileRun {
  /** How the round was run, for the report's notes. */
  nodeArgs: string[];
  levels: (LevelProfile | MissingProfile)[];
  /** Where the `.cpuprofile` files were left (`--keep`), to open in Chrome's DevTools. */
  keptIn?: string;
}

async function readProfile(dir: string): Promise<CpuProfile | string> {
  let files: string[];
  try {
    files = (await readdir(dir)).filter((name) => name.endsWith('.cpuprofile'));
  } catch {
    return `no profile directory ${dir}`;
  }
  const [file] = files;
  if (file === undefined) return 'the worker wrote no profile (it did not exit cleanly)';
  return JSON.parse(await readFile(join(dir, file), 'utf8')) as CpuProfile;
}

/**
 * One extra round of B's workers under `node --cpu-prof` — never one of the measured rounds,
 * the profiler costs CPU — each level writing its profile to a directory of its own when it
 * exits on SIGTERM. Each profile is cut to that level's measured window and summed by category.
 */
export async function profileLevels(
  options: Omit<WorkerRunOptions, 'levelNodeArgs' | 'meter'> & { keep?: boolean },
): Promise<CpuProfileRun> {
  const dir = await mkdtemp(join(tmpdir(), 'tickertape-bench-cpu-'));
  const profileArgs = (level: Level) => ['--cpu-prof', `--cpu-prof-dir=${join(dir, level)}`];
  try {
    const { runs, windows } = await runLevels({ ...options, levelNodeArgs: profileArgs });
    const levels: CpuProfileRun['levels'] = [];
    for (const window of windows) {
      const profile = await readProfile(join(dir, window.level));
      if (typeof profile === 'string') {
        levels.push({ level: window.level, missing: profile });
        continue;
      }
      const summary = summarizeProfile(profile, window);
      levels.push({
        level: window.level,
        ticks: runs.find((r) => r.level === window.level)?.applied ?? 0,
        windowMs: (window.toUs - window.fromUs) / 1000,
        ...summary,
      });
    }
    return {
      nodeArgs: ['--cpu-prof', '--cpu-prof-dir=<tmp>/<level>'],
      levels,
      ...(options.keep === true ? { keptIn: dir } : {}),
    };
  } finally {
    if (options.keep !== true) await rm(dir, { recursive: true, force: true });
  }
}
