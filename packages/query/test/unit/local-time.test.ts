import { createMemoryStore } from '@tickertape/store';
import { describeLocalTime } from '../support/local-time-suite.js';

describeLocalTime('memory', () =>
  Promise.resolve({ store: createMemoryStore(), close: () => Promise.resolve() }),
);
