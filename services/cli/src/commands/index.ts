import { addBackfillCommand } from './backfill/register.js';
import type { CommandContext, Registration } from './context.js';
import { registerRoundtrip } from './demo/roundtrip/register.js';
import { registerSummary } from './demo/summary/register.js';
import { registerGroups } from './groups/register.js';
import { addLevelsCommand } from './levels/run.js';
import { registerLoadgen } from './loadgen/register.js';
import { registerPublish } from './publish/register.js';
import { addQueryCommands } from './query/run.js';
import { addRebuildCommand } from './rebuild/register.js';
import { registerRedrive } from './redrive/register.js';
import { registerReplay } from './replay/register.js';
import { registerTopics } from './topics/register.js';
import { registerVerify } from './verify/register.js';

/** What the history commands (backfill, rebuild) report through. */
function historyIo({ ready, io, now }: CommandContext) {
  return {
    ready,
    stdout: io.stdout,
    ...(io.progress === undefined ? {} : { progress: io.progress }),
    setExitCode: io.setExitCode,
    now,
  };
}

/** Every command, in the order `--help` lists them (the demo's under their own heading). */
export const COMMANDS: readonly Registration[] = [
  registerTopics,
  registerPublish,
  registerLoadgen,
  (program, ctx) => addBackfillCommand(program, { ...historyIo(ctx), stdin: ctx.io.stdin }),
  (program, ctx) => addRebuildCommand(program, { ...historyIo(ctx), stderr: ctx.io.stderr }),
  (program, { ready, io, now }) => addLevelsCommand(program, { ready, now, stdout: io.stdout }),
  (program, { ready, io, now }) =>
    addQueryCommands(program, { ready, now, stdout: io.stdout, stderr: io.stderr }),
  registerRedrive,
  registerReplay,
  registerGroups,
  registerVerify,
  registerRoundtrip,
  registerSummary,
];
