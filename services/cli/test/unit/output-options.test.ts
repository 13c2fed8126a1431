import { describe, expect, it } from '@jest/globals';
import type { CommanderError } from 'commander';
import { PassThrough } from 'node:stream';
import type { CommandDefinition } from '../../src/commands/command.js';
import { COMMANDS } from '../../src/commands/index.js';
import {
  FormatOption,
  JSON_DEPRECATED,
  settleFormat,
  type OutputFormat,
} from '../../src/output/format-option.js';
import { jsonDocument } from '../../src/output/json.js';
import { progressStream } from '../../src/output/progress-option.js';
import { runOffline } from '../support/offline-program.js';

/** Every command that runs (not the ones that only group others), with its path. */
function runnable(
  definitions: readonly CommandDefinition[],
  parent = '',
): [string, CommandDefinition][] {
  return definitions.flatMap((d) => {
    const path = `${parent}${d.name}`;
    return [
      ...(d.run === undefined ? [] : [[path, d] as [string, CommandDefinition]]),
      ...runnable(d.subcommands ?? [], `${path} `),
    ];
  });
}

const formatOf = (definition: CommandDefinition) =>
  (definition.options ?? []).find((o): o is FormatOption => o instanceof FormatOption);

describe('--format everywhere', () => {
  it.each(runnable(COMMANDS))('%s takes --format, json among its formats', (_path, definition) => {
    const format = formatOf(definition);
    expect(format).toBeDefined();
    expect(format!.formats).toContain('json');
    expect(format!.defaultValue).toBe('table');
    expect((definition.options ?? []).filter((o) => o.long === '--json')).toHaveLength(1);
  });

  it.each(runnable(COMMANDS))('%s states its formats in --help, not --json', async (path) => {
    const { stdout, envRead } = await runOffline([...path.split(' '), '--help']);
    expect(stdout).toMatch(/--format <format> +output format/);
    expect(stdout).toMatch(/choices:\s+"table",\s+("csv",\s+)?"json",\s+default:\s+"table"/);
    expect(stdout).not.toContain('--json');
    expect(envRead).toBe(false);
  });

  it.each([
    ['verify', ['table', 'json']],
    ['query points', ['table', 'csv', 'json']],
    ['groups', ['table', 'json']],
  ])('%s prints %j', (path, formats) => {
    const definition = runnable(COMMANDS).find(([p]) => p === path)?.[1];
    expect(formatOf(definition!)?.formats).toEqual(formats);
  });
});

describe('settleFormat', () => {
  const plain = new FormatOption(['table', 'json'], false);
  const publishing = new FormatOption(['table', 'json'], true);
  const given = (format: string, formatGiven: boolean, json: boolean) => ({
    format,
    formatGiven,
    json,
  });

  it.each<[string, ReturnType<typeof given>, FormatOption, OutputFormat, string | undefined]>([
    ['the default', given('table', false, false), plain, 'table', undefined],
    ['--format json', given('json', true, false), plain, 'json', undefined],
    ['--json', given('table', false, true), plain, 'json', undefined],
    ['--json --format json', given('json', true, true), plain, 'json', undefined],
    [
      'publish --format csv (the input, the old way)',
      given('csv', true, false),
      publishing,
      'table',
      'csv',
    ],
    ['backfill --json --format jsonl', given('jsonl', true, true), publishing, 'json', 'jsonl'],
  ])('%s', (_name, input, option, format, inputFormat) => {
    const settled = settleFormat(input, option);
    expect(settled.refused).toBeUndefined();
    expect(settled.format).toBe(format);
    expect(settled.inputFormat).toBe(inputFormat);
    expect(settled.notes.includes(JSON_DEPRECATED)).toBe(input.json);
  });

  it('notes the old input flag', () => {
    expect(settleFormat(given('jsonl', true, false), publishing).notes).toEqual([
      'tickertape: --format jsonl for the input is deprecated: use --input-format jsonl\n',
    ]);
  });

  it('refuses --json with another --format', () => {
    expect(settleFormat(given('table', true, true), plain).refused).toBe(
      '--json cannot be used with --format table',
    );
  });

  it('refuses --json --format table on the command line with exit 2, before any connection', async () => {
    const { stderr, error, envRead } = await runOffline(['verify', '--json', '--format', 'table']);
    expect(stderr).toContain(JSON_DEPRECATED);
    expect(stderr).toContain('error: --json cannot be used with --format table');
    expect((error as CommanderError).exitCode).toBe(2);
    expect(envRead).toBe(false);
  });

  it('takes --json as --format json (a deprecation note on stderr), then runs the command', async () => {
    const { stderr, error, envRead } = await runOffline(['levels', '--json']);
    expect(stderr).toBe(JSON_DEPRECATED);
    // The command then ran: it read the environment (the test's refuses).
    expect(envRead).toBe(true);
    expect((error as Error).message).toBe('no environment in unit tests');
  });
});

describe('jsonDocument', () => {
  it('is one line of JSON any parser reads: bigints, infinities, maps and sets made plain', () => {
    const text = jsonDocument({
      offset: 12n,
      range: { fromMs: Number.NEGATIVE_INFINITY, toMs: 5 },
      perSeries: new Map([['a', 1]]),
      tags: new Set(['x']),
      at: new Date(0),
    });
    expect(text.endsWith('\n')).toBe(true);
    expect(text.trimEnd()).not.toContain('\n');
    expect(JSON.parse(text)).toEqual({
      offset: '12',
      range: { fromMs: '-Infinity', toMs: 5 },
      perSeries: { a: 1 },
      tags: ['x'],
      at: '1970-01-01T00:00:00.000Z',
    });
  });
});

describe('progressStream', () => {
  const pipe = new PassThrough();
  const terminal = Object.assign(new PassThrough(), { isTTY: true });

  it.each<[string, NodeJS.WritableStream | undefined, boolean | undefined, boolean]>([
    ['a terminal, unset', terminal, undefined, true],
    ['a pipe, unset', pipe, undefined, false],
    ['a pipe, --progress', pipe, true, true],
    ['a terminal, --no-progress', terminal, false, false],
    ['a pipe, --no-progress', pipe, false, false],
    ['no stream, --progress', undefined, true, false],
  ])('%s: drawn %s', (_name, stream, wanted, drawn) => {
    expect(progressStream(stream, wanted) !== undefined).toBe(drawn);
  });
});
