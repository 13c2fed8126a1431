export { startOpsServer } from './ops-server.js';
export { startFailure, stopOnSignals } from './shutdown.js';
