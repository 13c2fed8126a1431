/**
 * Plain aligned columns for terminal output: text left, numbers right, two spaces between.
 * No borders, so the output greps and pastes cleanly.
 */
export function formatTable(
  header: readonly string[],
  rows: readonly (string | number)[][],
): string {
  const cells = [header, ...rows.map((row) => row.map(String))];
  const numeric = header.map(
    (_, column) => rows.length > 0 && rows.every((row) => typeof row[column] === 'number'),
  );
  const widths = header.map((_, column) =>
    Math.max(...cells.map((row) => (row[column] ?? '').length)),
  );
  const lines = cells.map((row) =>
    row
      .map((cell, column) =>
        numeric[column] ? cell.padStart(widths[column]!) : cell.padEnd(widths[column]!),
      )
      .join('  ')
      .trimEnd(),
  );
  return `${lines.join('\n')}\n`;
}
