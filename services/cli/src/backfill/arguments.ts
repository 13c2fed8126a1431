import { InvalidArgumentError } from 'commander';
import { durationMs } from '../duration.js';
import { BACKFILL_STORES, isBackfillStore, type BackfillStore } from './time-rules.js';

/** `--levels minute,hour,day,segments`: which stores to fill, in that order, each once. */
export function levelsArgument(text: string): BackfillStore[] {
  const named = text.split(',').map((part) => part.trim());
  for (const store of named)
    if (!isBackfillStore(store))
      throw new InvalidArgumentError(`"${store}" is not one of ${BACKFILL_STORES.join(', ')}`);
  return BACKFILL_STORES.filter((store) => named.includes(store));
}

/** `--retention minute=14d`, repeatable: a store's retention when the scheduler's is not the default. */
export function retentionArgument(
  text: string,
  previous: Partial<Record<BackfillStore, number>> = {},
): Partial<Record<BackfillStore, number>> {
  const at = text.indexOf('=');
  const store = text.slice(0, at);
  const ms = durationMs(text.slice(at + 1));
  if (at <= 0 || !isBackfillStore(store) || ms === undefined || ms <= 0)
    throw new InvalidArgumentError(
      `must be <${BACKFILL_STORES.join('|')}>=<duration>, e.g. minute=14d or hour=2160h`,
    );
  return { ...previous, [store]: ms };
}
