import { createMemoryStore } from '../../src/index.js';
import { describeRollupStoreContract } from '../contract/rollup-store.contract.js';

describeRollupStoreContract(
  'memory',
  () => Promise.resolve({ store: createMemoryStore(), close: () => Promise.resolve() }),
  { propertyRuns: 60 },
);
