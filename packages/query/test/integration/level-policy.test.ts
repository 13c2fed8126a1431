import { describeLevelPolicyReads } from '../support/level-policy-suite.js';
import { openTestStores } from './stores.js';

describeLevelPolicyReads('mongo', () => openTestStores('query-level-policy'));
