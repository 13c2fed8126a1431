import { RE2JS } from 're2js';
import type { Matcher } from './ast.js';
import { PromQLError, PromQLErrorCode } from './promql-error.js';
import { cut } from './cut.js';

/** A compiled matcher regex: `test` is a full match, in time linear in the value's length. */
export interface PromRegex {
  test(value: string): boolean;
}

/**
 * Compiled patterns by source: a query's matchers are tested against every series of a catalog,
 * and the same dashboard queries come back every refresh. Bounded, oldest out first.
 */
const compiled = new Map<string, PromRegex>();
const COMPILED_KEPT = 1000;

/**
 * A Prometheus regex matcher, with Prometheus' own dialect and guarantees: RE2 syntax
 * (`(?i)acme`, `[[:alpha:]]{3}`, `\pL`), anchored at both ends, `.` matching a newline as in
 * Prometheus 3, and no lookaround or backreference (RE2 refuses them, so Prometheus does). RE2's
 * automaton never backtracks: `a{4}(a+)+` on a 31-character value takes microseconds, where
 * JavaScript's RegExp took 1.8 s and doubled with each character (issue 37).
 */
export function anchored(pattern: string): PromRegex {
  const kept = compiled.get(pattern);
  if (kept) return kept;
  let re: RE2JS;
  try {
    re = RE2JS.compile(`^(?s:${pattern})$`);
  } catch (err) {
    // Prometheus' words for the same refusal: `error parsing regexp: invalid or unsupported Perl syntax: ...`.
    throw new PromQLError(
      PromQLErrorCode.BadParameter,
      `invalid regular expression ${JSON.stringify(cut(pattern))}: ${cut((err as Error).message)}`,
    );
  }
  const regex: PromRegex = { test: (value) => re.matches(value) };
  if (compiled.size >= COMPILED_KEPT) compiled.delete(compiled.keys().next().value!);
  compiled.set(pattern, regex);
  return regex;
}

/** Whether a label's value satisfies a matcher; an absent label is the empty string, as in Prometheus. */
export function matchesValue(matcher: Matcher, value: string): boolean {
  switch (matcher.op) {
    case '=':
      return value === matcher.value;
    case '!=':
      return value !== matcher.value;
    case '=~':
      return anchored(matcher.value).test(value);
    case '!~':
      return !anchored(matcher.value).test(value);
  }
}

/** Whether a series with these labels satisfies every matcher. */
export function matchesAll(
  matchers: readonly Matcher[],
  labels: Readonly<Record<string, string>>,
): boolean {
  return matchers.every((m) => matchesValue(m, labels[m.label] ?? ''));
}
