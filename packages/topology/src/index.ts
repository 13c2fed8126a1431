export {
  STORES,
  ROLLUP_GROUP_PREFIX,
  SEGMENT_GROUP,
  groupIdOf,
  isStore,
  type Store,
} from './stores.js';
export { TICK_TOPIC, DEAD_LETTER_TOPIC } from './topics.js';
export {
  TIME_WINDOW_DEFAULTS,
  FETCH_DEFAULTS,
  HOLD_DEFAULTS,
  FRESHNESS_BUDGET_DEFAULTS,
  LEVEL_FRESHNESS_BUDGETS,
} from './worker-defaults.js';
