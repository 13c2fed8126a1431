import type { RollupStore } from '@tickertape/store';
import { cpus, platform, release, totalmem } from 'node:os';

export interface Machine {
  cores: number;
  cpuModel: string;
  memoryGiB: number;
  node: string;
  os: string;
  database: string;
  /** The database is mongo-java-server, not mongod. */
  standIn: boolean;
}

/**
 * The machine and database the figures come from: the store names its server (probed once when
 * it opened), `mongo-java-server, reporting MongoDB <version>` for the local stack's stand-in.
 */
export function describeMachine(store: RollupStore): Machine {
  const { server } = store.capabilities;
  const standIn = server.startsWith('mongo-java-server');
  const reporting = /reporting (MongoDB .+)$/.exec(server)?.[1] ?? 'MongoDB';
  return {
    cores: cpus().length,
    cpuModel: cpus()[0]?.model.trim() ?? 'unknown',
    memoryGiB: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    node: process.version,
    os: `${platform()} ${release()}`,
    database: standIn
      ? `mongo-java-server 1.47 with its H2 backend (the local stack's stand-in, reporting ${reporting}), not mongod`
      : server.replace(/^mongodb /, 'MongoDB ').replace(/^ferretdb /, 'FerretDB '),
    standIn,
  };
}
