/**
 * The docs' runnable examples: the fenced block after an `<!-- example -->` line. In a
 * `console` block each `$ ` line is a command (continued by a line ending in `\` or `|`), the
 * lines up to the next command its shown output, and a last `[exit N]` line the exit code shown
 * (0 when none is). An `http` block is one `GET` request. What a test compares is the shape of the
 * shown output, never its values: the demo's numbers and times change with every run.
 */

export interface DocCommand {
  /** The command as bash runs it, continuation lines included. */
  command: string;
  /** The output the doc shows for it, `[exit N]` left out. */
  shown: string[];
  exitCode: number;
}

export type DocExample =
  | { doc: string; line: number; kind: 'console'; commands: DocCommand[] }
  | { doc: string; line: number; kind: 'http'; path: string };

export const EXAMPLE_MARK = '<!-- example -->';

/** The docs a new user reads in turn: README → querying.md → analysts.md. */
export const EXAMPLE_DOCS = ['README.md', 'docs/querying.md', 'docs/analysts.md'];

/** Every marked block of a Markdown text; a mark without a runnable block right after it throws. */
export function parseExamples(doc: string, text: string): DocExample[] {
  const lines = text.split('\n');
  const examples: DocExample[] = [];
  lines.forEach((mark, index) => {
    if (mark.trim() !== EXAMPLE_MARK) return;
    // Prettier puts a blank line between the mark and its block.
    let open = index + 1;
    while (lines[open]?.trim() === '') open += 1;
    const line = open + 1;
    const fence = /^```(\w*)$/.exec(lines[open] ?? '');
    const close = lines.indexOf('```', open + 1);
    if (!fence || close < 0)
      throw new Error(`${doc}:${line}: ${EXAMPLE_MARK} needs a fenced block`);
    const body = lines.slice(open + 1, close);
    if (fence[1] === 'http') {
      const request = /^GET (\/\S+)$/.exec(body[0] ?? '');
      if (!request) throw new Error(`${doc}:${line}: an http example is one GET line`);
      examples.push({ doc, line, kind: 'http', path: request[1]! });
      return;
    }
    if (fence[1] !== 'console')
      throw new Error(`${doc}:${line}: an example is a console or http block`);
    examples.push({ doc, line, kind: 'console', commands: parseSession(doc, line, body) });
  });
  return examples;
}

function parseSession(doc: string, line: number, body: string[]): DocCommand[] {
  const commands: DocCommand[] = [];
  let i = 0;
  if (!body[0]?.startsWith('$ ')) throw new Error(`${doc}:${line}: a console block starts with $`);
  while (i < body.length) {
    const parts = [body[i]!.slice(2)];
    while (/[\\|]$/.test(parts[parts.length - 1]!) && i + 1 < body.length) parts.push(body[++i]!);
    const shown: string[] = [];
    while (i + 1 < body.length && !body[i + 1]!.startsWith('$ ')) shown.push(body[++i]!);
    i += 1;
    const exit = /^\[exit (\d+)\]$/.exec(shown[shown.length - 1] ?? '');
    if (exit) shown.pop();
    commands.push({
      command: parts.join('\n'),
      shown,
      exitCode: exit ? Number(exit[1]) : 0,
    });
  }
  return commands;
}

/**
 * What must match between the shown output and a real run: a table's column names, a CSV
 * header, a JSON object's keys, a refusal's code — or, for other text, its first line with
 * numbers and quoted text masked.
 */
export type Shape =
  | { kind: 'table' | 'csv' | 'json'; columns: string[] }
  | { kind: 'refusal' | 'text'; head: string };

/** The shape of output lines (the doc's `…` rows left out); `undefined` for no output. */
export function shapeOf(lines: readonly string[]): Shape | undefined {
  const first = lines.find((l) => l.trim() !== '' && l.trim() !== '…');
  if (first === undefined) return undefined;
  const refusal = /^(tickertape: [A-Z_]+|error: \w+ '[^']*')/.exec(first);
  if (refusal) return { kind: 'refusal', head: refusal[1]! };
  const text = {
    kind: 'text',
    head: first.replace(/"[^"]*"/g, '""').replace(/\d+(\.\d+)?/g, '0'),
  } as const;
  if (first.startsWith('{')) {
    const value = parsed(first);
    // Not a JSON object: promtool's `{label="…"} =>` and the like.
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return text;
    return { kind: 'json', columns: Object.keys(value) };
  }
  if (first.includes(',') && !/\s{2}/.test(first))
    return { kind: 'csv', columns: first.split(',') };
  if (/^\S+( \S+)*( {2,}\S+( \S+)*)*$/.test(first.trim()))
    return { kind: 'table', columns: first.trim().split(/\s{2,}/) };
  return text;
}

function parsed(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The rows of a JSON answer that has them (`rows`, `points`, `candles`, `series`), else undefined. */
export function answerRows(text: string): unknown[] | undefined {
  const value = parsed(text);
  if (typeof value !== 'object' || value === null) return undefined;
  for (const key of ['rows', 'points', 'candles', 'series']) {
    const rows = (value as Record<string, unknown>)[key];
    if (Array.isArray(rows)) return rows as unknown[];
  }
  return undefined;
}

export interface ExampleRun {
  code: number;
  stdout: string;
  stderr: string;
}

const lineList = (text: string) => text.split(/\r?\n/).filter((line) => line.trim() !== '');
const same = (a: Shape | undefined, b: Shape | undefined) =>
  JSON.stringify(a) === JSON.stringify(b);

/**
 * What is wrong with a run of a documented command, or `undefined`: the exit code the doc shows;
 * for a refusal its code on stderr; otherwise no stack trace, output with data (a JSON answer
 * with rows; a table or CSV with a row under its header) and the shape the doc shows. An
 * assignment or an export prints nothing and only has to succeed.
 */
export function exampleProblem(command: DocCommand, run: ExampleRun): string | undefined {
  if (run.code !== command.exitCode) return `exit ${run.code}, the doc shows ${command.exitCode}`;
  if (/^\s+at .*:\d+:\d+\)?$/m.test(run.stderr)) return 'a stack trace on stderr';
  const shown = shapeOf(command.shown);
  if (command.exitCode !== 0) {
    const got = shapeOf(lineList(run.stderr));
    return same(got, shown)
      ? undefined
      : `refused as ${JSON.stringify(got)}, the doc shows ${JSON.stringify(shown)}`;
  }
  if (/^(export |[A-Za-z_]+=)/.test(command.command)) return undefined;
  const lines = lineList(run.stdout);
  if (lines.length === 0) return 'no output';
  if (answerRows(run.stdout)?.length === 0) return 'an answer without rows';
  if (shown === undefined) return undefined;
  const got = shapeOf(lines);
  if (!same(got, shown))
    return `shape ${JSON.stringify(got)}, the doc shows ${JSON.stringify(shown)}`;
  if ((got?.kind === 'table' || got?.kind === 'csv') && lines.length < 2)
    return 'a header without rows';
  return undefined;
}
