import { randomBytes } from 'node:crypto';

let counter = 0;

/**
 * A name no other test, run or worker uses: safe as a Kafka topic, consumer group, MongoDB
 * database (≤ 38 chars, no dots) and BullMQ queue or prefix.
 */
export function uniqueName(prefix: string): string {
  counter += 1;
  const safePrefix = prefix
    .toLowerCase()
    .replace(/[^a-z0-9-]/g, '-')
    .slice(0, 16);
  const stamp = Date.now().toString(36).slice(-5);
  return `tt-${safePrefix}-${stamp}${counter.toString(36)}${randomBytes(3).toString('hex')}`;
}
