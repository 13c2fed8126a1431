import { describeReader } from '../support/reader-suite.js';
import { openTestStores } from './stores.js';

describeReader('mongo', () => openTestStores('query-reader'));
