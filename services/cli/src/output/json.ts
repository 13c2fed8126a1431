/**
 * A result as one JSON document on one line, the same for every command's `--format json`:
 * 64-bit offsets (bigint) and the infinities of open ranges as strings, maps as objects, sets as
 * arrays, so any JSON parser reads it and `jq` can take it line by line.
 */
export function jsonDocument(value: unknown): string {
  return `${JSON.stringify(value, (_key, item: unknown) => {
    if (typeof item === 'bigint') return item.toString();
    if (typeof item === 'number' && !Number.isFinite(item)) return String(item);
    if (item instanceof Map) return Object.fromEntries(item as Map<unknown, unknown>) as unknown;
    if (item instanceof Set) return [...(item as Set<unknown>)];
    return item;
  })}\n`;
}
