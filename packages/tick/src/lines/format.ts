export const INPUT_FORMATS = ['jsonl', 'csv'] as const;
export type InputFormat = (typeof INPUT_FORMATS)[number];

/** The format named, or the one the file's extension suggests. */
export function inputFormat(explicit: InputFormat | undefined, file: string): InputFormat {
  if (explicit !== undefined) return explicit;
  return file.toLowerCase().endsWith('.csv') ? 'csv' : 'jsonl';
}
