#!/usr/bin/env node
import { createLogger } from '@tickertape/logger';
import { pino } from 'pino';
import { loadCliEnv } from './env.js';
import { describeFailure } from './failure.js';
import { buildProgram } from './program.js';

const program = buildProgram({
  loadEnv: loadCliEnv,
  // Diagnostics go to stderr so stdout stays the command's answer (pipeable).
  makeLogger: (level) =>
    createLogger({ name: 'tickertape', level, destination: pino.destination(2) }),
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
