/**
 * A connection string safe to log: the password (and a token passed as a query parameter) are
 * replaced. Addresses are logged at start, and MongoDB/Redis/Kafka URLs carry credentials.
 */
export function redactUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    // Not a single URL (e.g. a MongoDB seed list `mongodb://u:p@h1,h2`): censor userinfo by hand.
    return text.replace(/\/\/([^:/@]+):[^@/]*@/, '//$1:[redacted]@');
  }
  if (url.password !== '') url.password = '[redacted]';
  for (const key of [...url.searchParams.keys()]) {
    if (/pass|secret|token|key/i.test(key)) url.searchParams.set(key, '[redacted]');
  }
  return url.toString();
}
