import type { MongoClient } from 'mongodb';
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
 * The machine and database the figures come from. mongod answers buildInfo with a gitVersion;
 * mongo-java-server (the local stack's stand-in) answers with a bare version number.
 */
export async function describeMachine(mongo: MongoClient): Promise<Machine> {
  const info = await mongo.db('admin').command({ buildInfo: 1 });
  const standIn = info.gitVersion === undefined;
  return {
    cores: cpus().length,
    cpuModel: cpus()[0]?.model.trim() ?? 'unknown',
    memoryGiB: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    node: process.version,
    os: `${platform()} ${release()}`,
    database: standIn
      ? `mongo-java-server 1.47 with its H2 backend (the local stack's stand-in, reporting MongoDB ${String(info.version)}), not mongod`
      : `MongoDB ${String(info.version)}`,
    standIn,
  };
}
