import { describe, expect, it } from '@jest/globals';
import { exactlyOnceContract } from './exactly-once.contract.js';
import { historyContract } from './history.contract.js';
import { partitionsContract } from './partitions.contract.js';
import { readsContract } from './reads.contract.js';
import { signalContract } from './signal.contract.js';
import { upkeepContract } from './upkeep.contract.js';
import { storesFor, type ContractOptions, type OpenStore } from './open-store.js';

export type { ContractOptions, OpenedStore, OpenStore } from './open-store.js';

/**
 * What every RollupStore must do, stated through the port alone: the memory store runs it in the
 * unit project, the Mongo store on the stand-in in the integration project and on FerretDB in
 * scripts/test.sh. A store that passes it can take the place of any other.
 */
export function describeRollupStoreContract(
  name: string,
  open: OpenStore,
  options: ContractOptions = {},
): void {
  describe(`RollupStore contract: ${name}`, () => {
    const stores = storesFor(open);

    it('states its capabilities and answers a ping', async () => {
      const store = await stores.use();
      expect(store.capabilities.server).toEqual(expect.any(String));
      expect(store.capabilities.server.length).toBeGreaterThan(0);
      expect(typeof store.capabilities.renamesSafely).toBe('boolean');
      expect(typeof store.capabilities.causalReads).toBe('boolean');
      expect(typeof store.capabilities.shells).toBe('boolean');
      await expect(store.ping()).resolves.toBeUndefined();
    });

    exactlyOnceContract(open, options);
    readsContract(open);
    signalContract(open);
    partitionsContract(open);
    upkeepContract(open);
    historyContract(open);
  });
}
