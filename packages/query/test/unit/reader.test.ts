import { createMemoryStore } from '@tickertape/store';
import { describeReader } from '../support/reader-suite.js';

describeReader('memory', () =>
  Promise.resolve({ store: createMemoryStore(), close: () => Promise.resolve() }),
);
