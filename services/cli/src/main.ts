#!/usr/bin/env node
import { loadCliEnv } from './env.js';
import { describeFailure } from './failure.js';
import { logFormatFor, stderrLogger } from './log-output.js';
import { buildProgram } from './program.js';

const program = buildProgram({
  loadEnv: loadCliEnv,
  makeLogger: ({ level, format }) => {
    const terminal = process.stderr.isTTY;
    return stderrLogger(level, logFormatFor(format, terminal), terminal);
  },
  stdin: process.stdin,
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  progress: process.stderr,
  setExitCode: (code) => {
    process.exitCode = code;
  },
});

program.parseAsync(process.argv).catch((err: unknown) => {
  const failure = describeFailure(err);
  process.stderr.write(failure.message);
  process.exitCode = failure.exitCode;
});
