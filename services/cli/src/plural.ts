/** `1 tick`, `2 ticks`: summaries are read by people (one helper with the history engine's refusals). */
export { plural } from '@tickertape/history';
