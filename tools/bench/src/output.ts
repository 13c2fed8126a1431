/** Where the report goes: stdout, so it pipes; progress and diagnostics go to stderr. */
export function printReport(text: string): void {
  process.stdout.write(text);
}
