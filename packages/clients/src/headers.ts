import type { IHeaders } from 'kafkajs';

/** A header as text: kafkajs hands them over as Buffers (or arrays when repeated; last wins). */
export function headerText(headers: IHeaders | undefined, name: string): string | undefined {
  const raw = headers?.[name];
  const value = Array.isArray(raw) ? raw[raw.length - 1] : raw;
  if (value === undefined) return undefined;
  return typeof value === 'string' ? value : value.toString('utf8');
}
