import { InvalidArgumentError } from 'commander';
import { STORES, isStore, type Store } from '@tickertape/topology';
import { durationMs } from '../../duration.js';

/** `--levels minute,hour,day,segments`: which stores to fill, in that order, each once. */
export function levelsArgument(text: string): Store[] {
  const named = text.split(',').map((part) => part.trim());
  for (const store of named)
    if (!isStore(store))
      throw new InvalidArgumentError(`"${store}" is not one of ${STORES.join(', ')}`);
  return STORES.filter((store) => named.includes(store));
}

/** `--retention minute=14d`, repeatable: a store's retention when the scheduler's is not the default. */
export function retentionArgument(
  text: string,
  previous: Partial<Record<Store, number>> = {},
): Partial<Record<Store, number>> {
  const at = text.indexOf('=');
  const store = text.slice(0, at);
  const ms = durationMs(text.slice(at + 1));
  if (at <= 0 || !isStore(store) || ms === undefined || ms <= 0)
    throw new InvalidArgumentError(
      `must be <${STORES.join('|')}>=<duration>, e.g. minute=14d or hour=2160h`,
    );
  return { ...previous, [store]: ms };
}
