import { createMemoryStore } from '@tickertape/store';
import { describeLevelPolicyReads } from '../support/level-policy-suite.js';

describeLevelPolicyReads('memory', () =>
  Promise.resolve({ store: createMemoryStore(), close: () => Promise.resolve() }),
);
