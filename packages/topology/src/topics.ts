/** The topic producers publish ticks to, and every store's workers consume. */
export const TICK_TOPIC = 'raw-ticks';

/** Where the workers put records they cannot roll up, each with its reason. */
export const DEAD_LETTER_TOPIC = 'raw-ticks-dlq';
