import { createMemoryStore } from '@tickertape/store';
import { describeWindowByMetric } from '../support/window-by-metric-suite.js';

describeWindowByMetric('memory', () =>
  Promise.resolve({ store: createMemoryStore(), close: () => Promise.resolve() }),
);
