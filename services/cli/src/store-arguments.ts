import { InvalidArgumentError } from 'commander';
import { STORES, isStore, type Store } from '@tickertape/topology';
import { durationMs } from './duration.js';

/** `minute,hour`: stores named by a comma list, each one of the topology's. */
function namedStores(text: string): string[] {
  const named = text.split(',').map((part) => part.trim());
  for (const store of named)
    if (!isStore(store))
      throw new InvalidArgumentError(`"${store}" is not one of ${STORES.join(', ')}`);
  return named;
}

/** `--stores minute,segments`: a subset of the levels and the segment store, as given. */
export function storesArgument(text: string): Store[] {
  return namedStores(text) as Store[];
}

/** `--levels minute,hour,day,segments`: which stores to fill, in the topology's order, each once. */
export function levelsArgument(text: string): Store[] {
  const named = namedStores(text);
  return STORES.filter((store) => named.includes(store));
}

/**
 * `<store>=<value>`, repeatable (`--group hour=g`, `--retention minute=14d`): the value parsed
 * (undefined when it does not parse) added to the earlier ones.
 */
function storeAssignment<T>(
  text: string,
  previous: Partial<Record<Store, T>>,
  parse: (value: string) => T | undefined,
  shape: string,
): Partial<Record<Store, T>> {
  const at = text.indexOf('=');
  const store = text.slice(0, at);
  const value = at > 0 && at < text.length - 1 ? parse(text.slice(at + 1)) : undefined;
  if (!isStore(store) || value === undefined)
    throw new InvalidArgumentError(`must be <${STORES.join('|')}>=${shape}`);
  return { ...previous, [store]: value };
}

/** `--group hour=my-hour-group`, repeatable. */
export function groupArgument(
  text: string,
  previous: Partial<Record<Store, string>> = {},
): Partial<Record<Store, string>> {
  return storeAssignment(text, previous, (group) => group, '<consumer group>');
}

/** `--retention minute=14d`, repeatable: a store's retention when the scheduler's is not the default. */
export function retentionArgument(
  text: string,
  previous: Partial<Record<Store, number>> = {},
): Partial<Record<Store, number>> {
  return storeAssignment(
    text,
    previous,
    (duration) => {
      const ms = durationMs(duration);
      return ms !== undefined && ms > 0 ? ms : undefined;
    },
    '<duration>, e.g. minute=14d or hour=2160h',
  );
}
