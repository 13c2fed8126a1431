import { INPUT_FORMATS, type InputFormat } from '@tickertape/tick';
import { InvalidArgumentError, Option } from 'commander';

/**
 * Every output format a command may print: `table` for people (aligned columns and report lines),
 * `csv` (the API's `format=csv`, byte for byte) and `json` (one document on one line).
 */
export const OUTPUT_FORMATS = ['table', 'csv', 'json'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

export const JSON_DEPRECATED = 'tickertape: --json is deprecated: use --format json\n';

/**
 * `--format` of a command, holding the formats it prints (its first the default), so the program
 * can settle `--json` and an input format given the old way against them (`settleFormat`).
 */
export class FormatOption extends Option {
  constructor(
    readonly formats: readonly OutputFormat[],
    /** publish and backfill: `--format jsonl|csv` once named the input, now `--input-format`. */
    readonly legacyInput: boolean,
  ) {
    super('--format <format>', 'output format (json: one document on one line)');
    // The choices show in --help; with legacyInput the parser below also takes jsonl and csv.
    this.default(formats[0]).choices(formats);
    if (legacyInput)
      this.argParser((text) => {
        if ((formats as readonly string[]).includes(text) || isInputFormat(text)) return text;
        throw new InvalidArgumentError(`Allowed choices are ${formats.join(', ')}.`);
      });
  }
}

function isInputFormat(text: string): text is InputFormat {
  return (INPUT_FORMATS as readonly string[]).includes(text);
}

/**
 * `--format` (the one definition every command that prints a result uses) and `--json`, kept
 * hidden so scripts written before `--format` existed still work; each use of it says so once.
 */
export function formatOptions(
  formats: readonly OutputFormat[],
  settings: { legacyInput?: boolean } = {},
): Option[] {
  return [
    new FormatOption(formats, settings.legacyInput ?? false),
    new Option('--json', 'deprecated: --format json').hideHelp(),
  ];
}

export interface GivenFormat {
  /** `--format` as parsed (its default when not given). */
  format: string;
  /** Whether `--format` was on the command line. */
  formatGiven: boolean;
  json: boolean;
}

export interface SettledFormat {
  format: OutputFormat;
  /** An input format given as `--format jsonl|csv` (publish, backfill). */
  inputFormat?: InputFormat;
  /** Deprecation notes for stderr. */
  notes: string[];
  /** Why the flags cannot be taken together (bad usage, exit 2). */
  refused?: string;
}

/** The output format `--format`, `--json` and an old input `--format` mean together. */
export function settleFormat(given: GivenFormat, option: FormatOption): SettledFormat {
  const notes: string[] = [];
  const fallback = option.formats[0] ?? 'table';
  let format = given.format as OutputFormat;
  let inputFormat: InputFormat | undefined;
  if (option.legacyInput && isInputFormat(given.format) && !option.formats.includes(format)) {
    inputFormat = given.format;
    format = fallback;
    notes.push(
      `tickertape: --format ${given.format} for the input is deprecated: use --input-format ${given.format}\n`,
    );
  }
  if (!given.json) return { format, ...(inputFormat === undefined ? {} : { inputFormat }), notes };
  notes.push(JSON_DEPRECATED);
  if (given.formatGiven && inputFormat === undefined && format !== 'json')
    return { format, notes, refused: `--json cannot be used with --format ${format}` };
  return { format: 'json', ...(inputFormat === undefined ? {} : { inputFormat }), notes };
}
