export { TickertapeError, type TickertapeErrorOptions } from './tickertape-error.js';
export {
  ConfigError,
  DependencyAuthError,
  DependencyUnreachableError,
  ErrorCode,
  type ConfigIssue,
} from './kinds.js';
export { describeError, hasCode, isRetriable, isTickertapeError } from './predicates.js';
export { TimeoutError, withDeadline } from './deadline.js';
export { CUT_CHARS, cut } from './cut.js';
