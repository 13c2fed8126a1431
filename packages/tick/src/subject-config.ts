import { RegistryRequestError } from './registry-error.js';

const CONTENT_TYPE = 'application/vnd.schemaregistry.v1+json';

export interface RegistryEndpoint {
  /** Base URL of the Confluent-compatible API, e.g. http://host:8080/apis/ccompat/v7. */
  url: string;
  username?: string;
  password?: string;
  /** Per request; default 10 s. */
  timeoutMs?: number;
}

/** The Authorization header for the endpoint's basic auth, if it has credentials. */
export function registryAuthHeaders(endpoint: RegistryEndpoint): Record<string, string> {
  if (endpoint.username === undefined) return {};
  const credentials = `${endpoint.username}:${endpoint.password ?? ''}`;
  return { Authorization: `Basic ${Buffer.from(credentials).toString('base64')}` };
}

export type Compatibility = 'BACKWARD' | 'BACKWARD_TRANSITIVE' | 'FORWARD' | 'FULL' | 'NONE';

/**
 * `PUT /config/{subject}`. Apicurio reports the global level (NONE) for a subject without its
 * own setting where Confluent answers 404, and the registry client's `register()` then refuses
 * the subject ("BACKWARD != NONE"); setting the level first works on both (docs/local-stack.md).
 * The answer's body differs too (`compatibilityLevel` vs `compatibility`), so only the status
 * is read.
 *
 * Apicurio creates the subject's rule on the first PUT and answers 409 ("A rule named
 * 'COMPATIBILITY' already exists") to a PUT that raced another one creating it — as the demo's
 * four workers starting together did on a fresh registry. The rule exists then, so the PUT is
 * sent again and updates it.
 */
export async function setSubjectCompatibility(
  endpoint: RegistryEndpoint,
  subject: string,
  compatibility: Compatibility,
): Promise<void> {
  const url = `${endpoint.url.replace(/\/+$/, '')}/config/${encodeURIComponent(subject)}`;
  const headers = {
    'Content-Type': CONTENT_TYPE,
    Accept: CONTENT_TYPE,
    ...registryAuthHeaders(endpoint),
  };
  const what = `PUT /config/${subject}`;
  for (let attempt = 1; ; attempt++) {
    let response: Response;
    try {
      response = await fetch(url, {
        method: 'PUT',
        headers,
        body: JSON.stringify({ compatibility }),
        signal: AbortSignal.timeout(endpoint.timeoutMs ?? 10_000),
      });
    } catch (err) {
      throw new RegistryRequestError(what, undefined, err);
    }
    if (response.ok) return;
    const body = await response.text().catch(() => '');
    if (response.status !== CREATE_RACE_STATUS || attempt === CREATE_RACE_ATTEMPTS)
      throw new RegistryRequestError(what, response.status, body);
  }
}

const CREATE_RACE_STATUS = 409;
const CREATE_RACE_ATTEMPTS = 3;
