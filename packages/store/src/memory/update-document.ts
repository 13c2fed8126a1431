import { compareBson, isDate, sameBracket } from './bson-order.js';
import { copy } from './collections.js';

/**
 * The layout's update documents evaluated as a MongoDB server evaluates them: `$inc`, `$min`,
 * `$max` and `$setOnInsert` on dotted paths (missing parents created as embedded documents, a
 * missing field taking the operand), and the exactly-once guard's filter `{ _id, <path>: { $not:
 * { $gte: offset } } }` (a missing mark matches). Only what the layout writes is understood;
 * anything else throws, so a new operator cannot slip past the reference store unnoticed.
 */
export type Document = Record<string, unknown>;

export interface UpdateOperators {
  $inc?: Record<string, number>;
  $min?: Record<string, unknown>;
  $max?: Record<string, unknown>;
  $setOnInsert?: Record<string, unknown>;
}

const KNOWN = new Set(['$inc', '$min', '$max', '$setOnInsert']);

function valueAt(doc: Document, path: string): unknown {
  let node: unknown = doc;
  for (const part of path.split('.')) {
    if (typeof node !== 'object' || node === null || Array.isArray(node)) return undefined;
    node = (node as Document)[part];
  }
  return node;
}

function parentOf(doc: Document, path: string): [Document, string] {
  const parts = path.split('.');
  let node = doc;
  for (const part of parts.slice(0, -1)) {
    const next = node[part];
    if (next === undefined) node[part] = {};
    else if (typeof next !== 'object' || next === null || Array.isArray(next) || isDate(next))
      throw new TypeError(`cannot create field in element ${part} of ${path}`);
    node = node[part] as Document;
  }
  return [node, parts[parts.length - 1]!];
}

/** Whether `doc` matches a guard filter (its `_id` is matched by the caller). */
export function matchesGuard(doc: Document | undefined, filter: Document): boolean {
  for (const [path, condition] of Object.entries(filter)) {
    if (path === '_id') continue;
    const not = (condition as { $not?: { $gte?: unknown } }).$not;
    if (not === undefined || !('$gte' in not) || Object.keys(condition as object).length !== 1)
      throw new TypeError(`filter on ${path}: only { $not: { $gte } } is understood`);
    if (doc === undefined) continue;
    const value = valueAt(doc, path);
    if (value !== undefined && sameBracket(value, not.$gte) && compareBson(value, not.$gte) >= 0)
      return false;
  }
  return true;
}

/** Applies `update` to `doc` in place; `inserting` when the upsert creates it. */
export function applyUpdate(doc: Document, update: UpdateOperators, inserting: boolean): void {
  for (const operator of Object.keys(update))
    if (!KNOWN.has(operator)) throw new TypeError(`update operator ${operator} is not understood`);
  if (inserting)
    for (const [path, value] of Object.entries(update.$setOnInsert ?? {})) {
      const [node, key] = parentOf(doc, path);
      node[key] = copy(value);
    }
  for (const [path, value] of Object.entries(update.$inc ?? {})) {
    const [node, key] = parentOf(doc, path);
    const current = node[key];
    if (current !== undefined && typeof current !== 'number')
      throw new TypeError(`cannot $inc the non-numeric field ${path}`);
    node[key] = (current ?? 0) + value;
  }
  for (const [path, value] of Object.entries(update.$min ?? {})) {
    const [node, key] = parentOf(doc, path);
    if (node[key] === undefined || compareBson(value, node[key]) < 0) node[key] = copy(value);
  }
  for (const [path, value] of Object.entries(update.$max ?? {})) {
    const [node, key] = parentOf(doc, path);
    if (node[key] === undefined || compareBson(value, node[key]) > 0) node[key] = copy(value);
  }
}
