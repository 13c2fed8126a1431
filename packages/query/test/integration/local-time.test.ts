import { describeLocalTime } from '../support/local-time-suite.js';
import { openTestStores } from './stores.js';

describeLocalTime('mongo', () => openTestStores('query-local-time'));
