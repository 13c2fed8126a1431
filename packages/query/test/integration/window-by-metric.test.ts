import { describeWindowByMetric } from '../support/window-by-metric-suite.js';
import { openTestStores } from './stores.js';

describeWindowByMetric('mongo', () => openTestStores('query-window-by-metric'));
