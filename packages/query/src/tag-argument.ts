import { cut } from '@tickertape/errors';
import { QueryError, QueryErrorCode } from './query-error.js';

/*
 * The one reading of a tag filter, for the CLI's `--tag` and the API's `tag=` (docs/querying.md,
 * "Times and tags"). `key=value` is the canonical form, as series keys write tags; `key:value`,
 * the API's older form, is read alike. The text is split at its first `=` or `:`, so a value may
 * hold either (`url=http://host:80`), and every given tag must match.
 */

/** The accepted forms, as every refusal states them. */
export const TAG_FORMS = 'key=value (or key:value), repeated for several tags, e.g. sensor=s1';

/** One `key=value` (or `key:value`) added to the tags before it; the same key twice must agree. */
export function parseTagArgument(
  text: string,
  previous: Readonly<Record<string, string>> = {},
  name?: string,
): Record<string, string> {
  const named = name === undefined ? '' : `${name}: `;
  const at = text.search(/[=:]/);
  if (at <= 0)
    throw new QueryError(
      QueryErrorCode.InvalidTag,
      `${named}${JSON.stringify(cut(text, 64))} is not a tag; give ${TAG_FORMS}`,
    );
  const key = text.slice(0, at);
  const value = text.slice(at + 1);
  const earlier = Object.hasOwn(previous, key) ? previous[key] : undefined;
  if (earlier !== undefined && earlier !== value)
    throw new QueryError(
      QueryErrorCode.InvalidTag,
      `${named}tag ${JSON.stringify(cut(key, 64))} is given twice with different values (${JSON.stringify(cut(earlier, 64))}, ${JSON.stringify(cut(value, 64))}); no series has both`,
    );
  // fromEntries defines own properties, so a tag named __proto__ stays a tag.
  return Object.fromEntries([...Object.entries(previous), [key, value]]);
}

/** Every `tag` given, as one filter. */
export function parseTagArguments(texts: readonly string[], name?: string): Record<string, string> {
  return texts.reduce<Record<string, string>>(
    (tags, text) => parseTagArgument(text, tags, name),
    {},
  );
}
