/**
 * Plain aligned columns for terminal output: text left, numbers right, two spaces between.
 * No borders, so the output greps and pastes cleanly. A `null` cell (missing data) is left
 * empty, and does not stop its column from aligning as numbers.
 */
export function formatTable(
  header: readonly string[],
  rows: readonly (readonly (string | number | null)[])[],
): string {
  const cells = [
    header,
    ...rows.map((row) => row.map((cell) => (cell === null ? '' : String(cell)))),
  ];
  const numeric = header.map(
    (_, column) =>
      rows.some((row) => typeof row[column] === 'number') &&
      rows.every((row) => typeof row[column] === 'number' || row[column] === null),
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
