/**
 * A test-only interpreter of the updates `guardedUpdate` produces, with MongoDB's semantics for
 * the operators we use ($inc, $min, $max, $setOnInsert on dotted paths; embedded documents
 * compared field by field). It lets property tests replay thousands of flush sequences without a
 * server; the integration tests run the same updates on the real one.
 */
export type Doc = Record<string, unknown>;

/** What `guardedUpdate` of @tickertape/store returns (structurally: no dependency on it). */
export interface GuardedOperation {
  filter: Record<string, unknown>;
  update: {
    $inc: Record<string, number>;
    $min: Record<string, unknown>;
    $max: Record<string, unknown>;
    $setOnInsert: Record<string, unknown>;
  };
}

function compare(a: unknown, b: unknown): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
  if (a instanceof Date && b instanceof Date) return a.getTime() - b.getTime();
  if (typeof a === 'object' && a !== null && typeof b === 'object' && b !== null) {
    const ak = Object.keys(a);
    const bk = Object.keys(b);
    for (let i = 0; i < Math.min(ak.length, bk.length); i++) {
      const byKey = ak[i]! < bk[i]! ? -1 : ak[i]! > bk[i]! ? 1 : 0;
      if (byKey !== 0) return byKey;
      const byValue = compare((a as Doc)[ak[i]!], (b as Doc)[bk[i]!]);
      if (byValue !== 0) return byValue;
    }
    return ak.length - bk.length;
  }
  throw new Error(`cannot compare ${String(a)} with ${String(b)}`);
}

function parentOf(doc: Doc, path: string): [Doc, string] {
  const parts = path.split('.');
  let node = doc;
  for (const part of parts.slice(0, -1)) {
    if (typeof node[part] !== 'object' || node[part] === null) node[part] = {};
    node = node[part] as Doc;
  }
  return [node, parts[parts.length - 1]!];
}

function get(doc: Doc, path: string): unknown {
  let node: unknown = doc;
  for (const part of path.split('.')) {
    if (typeof node !== 'object' || node === null) return undefined;
    node = (node as Doc)[part];
  }
  return node;
}

export type ApplyResult = 'inserted' | 'updated' | 'duplicate-key';

/** Applies one guarded upsert to the collection (a Map by _id), as MongoDB would. */
export function applyGuarded(collection: Map<string, Doc>, op: GuardedOperation): ApplyResult {
  const id = op.filter._id as string;
  const [guardPath, guard] = Object.entries(op.filter).find(([key]) => key !== '_id')!;
  const minOffset = (guard as { $not: { $gte: number } }).$not.$gte;
  const existing = collection.get(id);
  if (existing) {
    const applied = get(existing, guardPath);
    if (typeof applied === 'number' && applied >= minOffset) return 'duplicate-key';
  }
  const doc: Doc = existing ?? { _id: id };
  const { $inc, $min, $max, $setOnInsert } = op.update;
  if (!existing)
    for (const [path, value] of Object.entries($setOnInsert)) parentOf(doc, path)[0][path] = value;
  for (const [path, value] of Object.entries($inc)) {
    const [node, key] = parentOf(doc, path);
    node[key] = ((node[key] as number | undefined) ?? 0) + value;
  }
  for (const [path, value] of Object.entries($min)) {
    const [node, key] = parentOf(doc, path);
    if (node[key] === undefined || compare(value, node[key]) < 0) node[key] = value;
  }
  for (const [path, value] of Object.entries($max)) {
    const [node, key] = parentOf(doc, path);
    if (node[key] === undefined || compare(value, node[key]) > 0) node[key] = value;
  }
  collection.set(id, doc);
  return existing ? 'updated' : 'inserted';
}
