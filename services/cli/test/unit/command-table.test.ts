import { describe, expect, it } from '@jest/globals';
import type { Command } from 'commander';
import type { CommandDefinition } from '../../src/commands/command.js';
import { COMMANDS } from '../../src/commands/index.js';
import { offlineProgram } from '../support/offline-program.js';

function program() {
  const { program: built, printed } = offlineProgram();
  return { built, output: () => printed.stdout };
}

/** A command, its arguments and flags on one line: `query points --series <key> …: summary`. */
const line = (path: string, words: readonly string[], summary: string) =>
  `${[path, ...words].join(' ')}: ${summary}`;

/** A line for each definition and each of its subcommands, depth first. */
function fromTable(definitions: readonly CommandDefinition[], parent = 'tickertape'): string[] {
  return definitions.flatMap((d) => [
    line(
      `${parent} ${d.name}`,
      [...(d.arguments ?? []).map((a) => a.name()), ...(d.options ?? []).map((o) => o.flags)],
      d.summary,
    ),
    ...fromTable(d.subcommands ?? [], `${parent} ${d.name}`),
  ]);
}

/** The same lines for the commands commander holds. */
function fromProgram(commands: readonly Command[], parent = 'tickertape'): string[] {
  return commands.flatMap((c) => [
    line(
      `${parent} ${c.name()}`,
      [...c.registeredArguments.map((a) => a.name()), ...c.options.map((o) => o.flags)],
      c.description(),
    ),
    ...fromProgram(c.commands, `${parent} ${c.name()}`),
  ]);
}

/** The `--help` of `args`, as `[heading, names listed under it]` for every commands heading. */
async function headings(args: string[]): Promise<[string, string[]][]> {
  const { built, output } = program();
  await expect(built.parseAsync(['node', 'tickertape', ...args])).rejects.toMatchObject({
    code: 'commander.helpDisplayed',
  });
  return output()
    .split('\n\n')
    .map((block) => block.split('\n'))
    .filter(([heading]) => heading !== undefined && /commands:$/i.test(heading))
    .map(([heading, ...lines]) => [
      heading!,
      lines.flatMap((line) => /^ {2}(\S+)/.exec(line)?.[1] ?? []),
    ]);
}

/** The command names `--help` lists, in its order, commander's own `help` left out. */
async function listed(args: string[]): Promise<string[]> {
  return (await headings(args)).flatMap(([, names]) => names).filter((name) => name !== 'help');
}

describe('the command table', () => {
  it('registers every command of COMMANDS with its arguments and flags, and nothing else', () => {
    expect(fromProgram(program().built.commands)).toEqual(fromTable(COMMANDS));
  });

  it('lists the commands in --help in the order of the table', async () => {
    expect(await listed(['--help'])).toEqual(COMMANDS.map((definition) => definition.name));
  });

  it.each(COMMANDS.filter((definition) => definition.subcommands !== undefined))(
    'lists the subcommands of $name in the order of the table',
    async ({ name, subcommands }) => {
      expect(await listed([name, '--help'])).toEqual(
        subcommands!.map((definition) => definition.name),
      );
    },
  );

  it('lists the demo commands under their own heading, after the others', async () => {
    const demo = COMMANDS.filter((definition) => definition.group !== undefined);
    expect(demo.map((definition) => definition.name)).toEqual(['roundtrip', 'summary']);
    expect((await headings(['--help'])).at(-1)).toEqual([demo[0]!.group, ['roundtrip', 'summary']]);
  });
});
