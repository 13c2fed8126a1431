import type { Matcher } from './ast.js';
import { PromQLError, PromQLErrorCode } from './promql-error.js';

/** A Prometheus regex matcher: fully anchored, as RE2 matching in Prometheus is. */
export function anchored(pattern: string): RegExp {
  try {
    return new RegExp(`^(?:${pattern})$`, 'su');
  } catch (err) {
    throw new PromQLError(
      PromQLErrorCode.BadParameter,
      `invalid regular expression ${JSON.stringify(pattern)}: ${(err as Error).message}`,
    );
  }
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
