/**
 * A small universe full of near misses for series keys: parts that are fragments of keys, where
 * a join without escaping collides ('a|b=a' without tags and 'a' with b=a). Random pairs rarely
 * land on such inputs, so tests enumerate this one whole.
 */
export const KEY_FRAGMENTS = ['', 'a', 'b', 'a|b', 'b=a', 'a|b=a', 'a,b=a', 'a\\', 'b:a'];

/** Every tag set of up to two tags with distinct keys and values from KEY_FRAGMENTS. */
export function fragmentTagSets(): Record<string, string>[] {
  const tagSets: Record<string, string>[] = [{}];
  for (const [i, k1] of KEY_FRAGMENTS.entries()) {
    for (const v1 of KEY_FRAGMENTS) {
      tagSets.push({ [k1]: v1 });
      for (const k2 of KEY_FRAGMENTS.slice(i + 1)) {
        for (const v2 of KEY_FRAGMENTS) tagSets.push({ [k1]: v1, [k2]: v2 });
      }
    }
  }
  return tagSets;
}
