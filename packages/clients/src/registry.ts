import { SchemaRegistry } from '@kafkajs/confluent-schema-registry';

export interface RegistryOptions {
  /** Base URL of the Confluent-compatible API, e.g. http://host:8080/apis/ccompat/v7. */
  url: string;
  username?: string;
  password?: string;
}

export function createRegistry(options: RegistryOptions): SchemaRegistry {
  const auth =
    options.username === undefined
      ? undefined
      : { username: options.username, password: options.password ?? '' };
  return new SchemaRegistry({ host: options.url, auth });
}
