/**
 * The marks of the docs' runnable examples (infra/test/integration/doc-examples.test.ts runs
 * them on the demo's kind of data): every mark holds a block the runner understands, and the
 * shapes it compares are what a reader sees — column names, a CSV header, JSON keys, a
 * refusal's code.
 */
import { describe, expect, it } from '@jest/globals';
import { readFile } from 'node:fs/promises';
import { EXAMPLE_DOCS, exampleProblem, parseExamples, shapeOf } from '../support/doc-examples.js';
import { repositoryRoot } from '../support/prometheus.js';

describe('the docs’ example marks', () => {
  it.each(EXAMPLE_DOCS)(
    '%s: every marked block parses, and each command shows a shape or none',
    async (doc) => {
      const examples = parseExamples(doc, await readFile(`${repositoryRoot}/${doc}`, 'utf8'));
      expect(examples.length).toBeGreaterThanOrEqual(2);
      for (const example of examples) {
        if (example.kind === 'http') continue;
        for (const { command, shown, exitCode } of example.commands) {
          expect(command).not.toMatch(/^\s*$/);
          // A refusal shows its code; an answer shows columns or nothing.
          if (exitCode !== 0) expect(shapeOf(shown)?.kind).toBe('refusal');
          else expect(shapeOf(shown)?.kind).not.toBe('refusal');
        }
      }
    },
  );

  it.each(EXAMPLE_DOCS)(
    '%s: every block of `$ ` commands is marked, so the test runs it',
    async (doc) => {
      const text = await readFile(`${repositoryRoot}/${doc}`, 'utf8');
      const sessions = [...text.matchAll(/^```\w*\n\$ /gm)].length;
      const marked = parseExamples(doc, text).filter((e) => e.kind === 'console').length;
      expect(marked).toBe(sessions);
    },
  );

  it('reads commands, continuations, outputs and exit codes', () => {
    const text = [
      'intro',
      '<!-- example -->',
      '```console',
      "$ tickertape query points --series 'a|b=1' \\",
      '    --from -1h |',
      '    head -3',
      'time  n  avg',
      '2026-11-27T17:20:00Z  1  2',
      '$ tickertape query points --level week',
      'tickertape: QUERY_UNKNOWN_LEVEL: unknown level "week"',
      '[exit 2]',
      '```',
      '<!-- example -->',
      '',
      '```http',
      'GET /api/v1/window?metric=traffic&last=10m',
      'Authorization: Bearer <token>',
      '```',
    ].join('\n');
    expect(parseExamples('x.md', text)).toEqual([
      {
        doc: 'x.md',
        line: 3,
        kind: 'console',
        commands: [
          {
            command: "tickertape query points --series 'a|b=1' \\\n    --from -1h |\n    head -3",
            shown: ['time  n  avg', '2026-11-27T17:20:00Z  1  2'],
            exitCode: 0,
          },
          {
            command: 'tickertape query points --level week',
            shown: ['tickertape: QUERY_UNKNOWN_LEVEL: unknown level "week"'],
            exitCode: 2,
          },
        ],
      },
      { doc: 'x.md', line: 15, kind: 'http', path: '/api/v1/window?metric=traffic&last=10m' },
    ]);
    expect(() => parseExamples('y.md', '<!-- example -->\ntext')).toThrow('y.md:2');
  });

  it.each([
    [['series  last bucket  n'], { kind: 'table', columns: ['series', 'last bucket', 'n'] }],
    [['…', 'time,time_ms,"x"'], { kind: 'csv', columns: ['time', 'time_ms', '"x"'] }],
    [['{"local":"x","n":null}'], { kind: 'json', columns: ['local', 'n'] }],
    [
      ['{segment="I10_mile12", sensor="900026"} =>'],
      { kind: 'text', head: '{segment="", sensor=""} =>' },
    ],
    [
      ["error: option '--last <duration>' argument '10' is invalid."],
      { kind: 'refusal', head: "error: option '--last <duration>'" },
    ],
    [
      ['tickertape: QUERY_INVALID_RANGE: from (…)'],
      { kind: 'refusal', head: 'tickertape: QUERY_INVALID_RANGE' },
    ],
    [
      ['workers', '  http://127.0.0.1:9401: not answering'],
      { kind: 'table', columns: ['workers'] },
    ],
  ])('the shape of %j', (lines, shape) => {
    expect(shapeOf(lines)).toEqual(shape);
  });

  describe('exampleProblem', () => {
    const table = { command: 'tickertape query series', shown: ['series  n', 'a  1'], exitCode: 0 };
    it.each([
      [
        'the same columns, other values',
        table,
        { code: 0, stdout: 'series  n\nb  22\n', stderr: 'notes' },
        undefined,
      ],
      [
        'CRLF lines (the CSV answers)',
        { ...table, shown: ['a,b'] },
        { code: 0, stdout: 'a,b\r\n1,2\r\n', stderr: '' },
        undefined,
      ],
      [
        'another exit code',
        table,
        { code: 4, stdout: '', stderr: 'tickertape: QUERY_UNKNOWN_NAME: …' },
        'exit 4, the doc shows 0',
      ],
      [
        'other columns',
        table,
        { code: 0, stdout: 'series  m\nb  2\n', stderr: '' },
        'shape {"kind":"table","columns":["series","m"]}, the doc shows {"kind":"table","columns":["series","n"]}',
      ],
      [
        'a header alone',
        table,
        { code: 0, stdout: 'series  n\n', stderr: '' },
        'a header without rows',
      ],
      ['no output', { ...table, shown: [] }, { code: 0, stdout: '\n', stderr: '' }, 'no output'],
      [
        'a JSON answer without rows',
        { ...table, shown: [] },
        { code: 0, stdout: '{"rows":[]}', stderr: '' },
        'an answer without rows',
      ],
      [
        'a stack trace',
        table,
        {
          code: 0,
          stdout: 'series  n\nb  2\n',
          stderr:
            'tickertape: TypeError: fetch failed\n    at node:internal/deps/undici/undici:14976:13\n',
        },
        'a stack trace on stderr',
      ],
      [
        'the refusal shown',
        { command: 'x', shown: ['tickertape: QUERY_INVALID_RANGE: from (1)'], exitCode: 2 },
        { code: 2, stdout: '', stderr: 'tickertape: QUERY_INVALID_RANGE: from (2)\n' },
        undefined,
      ],
      [
        'an assignment',
        { command: 'TOKEN="$(cat t)"', shown: [], exitCode: 0 },
        { code: 0, stdout: '', stderr: '' },
        undefined,
      ],
    ])('%s', (_name, command, run, problem) => {
      expect(exampleProblem(command, run)).toBe(problem);
    });
  });
});
