/**
 * Variables whose whole value is a secret (API_TOKENS: each comma-separated part is one, and so
 * is the token before a part's first `:`, the API's scope separator).
 */
const SECRET_NAME = /(PASSWORD|SECRET|TOKENS?|API_KEY)$/;

/** Shorter values would censor common words out of messages; they are guessable anyway. */
const MIN_SECRET_LENGTH = 4;

/** The password of a `scheme://user:password@…` value, raw and percent-decoded. */
function urlPasswords(value: string): string[] {
  const match = /^[a-z][a-z0-9+.-]*:\/\/[^:/@]*:([^@/]*)@/i.exec(value);
  const raw = match?.[1];
  if (raw === undefined || raw === '') return [];
  try {
    return [raw, decodeURIComponent(raw)];
  } catch {
    return [raw];
  }
}

/**
 * Every secret an environment holds: values of secret-named variables and passwords inside
 * connection strings. A config error is printed and logged, so its messages are scrubbed of
 * these whatever produced them (zod, a driver's URI parser).
 */
export function secretValues(source: Readonly<Record<string, string | undefined>>): string[] {
  const found = new Set<string>();
  for (const [name, value] of Object.entries(source)) {
    if (value === undefined) continue;
    const candidates = SECRET_NAME.test(name)
      ? [value, ...value.split(',').flatMap((part) => [part.trim(), part.split(':')[0]!.trim()])]
      : urlPasswords(value);
    for (const candidate of candidates)
      if (candidate.length >= MIN_SECRET_LENGTH) found.add(candidate);
  }
  // Longest first, so a secret containing another is censored whole.
  return [...found].sort((a, b) => b.length - a.length);
}

export function censor(text: string, secrets: readonly string[]): string {
  return secrets.reduce((out, secret) => out.replaceAll(secret, '[redacted]'), text);
}
