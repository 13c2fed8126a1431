import { backfillDefinition } from './backfill/command.js';
import type { CommandDefinition } from './command.js';
import { roundtripDefinition } from './demo/roundtrip/command.js';
import { summaryDefinition } from './demo/summary/command.js';
import { groupsDefinition } from './groups/command.js';
import { levelsDefinition } from './levels/command.js';
import { loadgenDefinition } from './loadgen/command.js';
import { publishDefinition } from './publish/command.js';
import { queryDefinition } from './query/command.js';
import { tailDefinition } from './tail/command.js';
import { rebuildDefinition } from './rebuild/command.js';
import { redriveDefinition } from './redrive/command.js';
import { replayDefinition } from './replay/command.js';
import { topicsDefinition } from './topics/command.js';
import { verifyDefinition } from './verify/command.js';

/**
 * Every `tickertape` command, in the order `--help` lists them (the demo's under their own
 * heading, last). `program.ts` wires each into commander; nothing else adds a command.
 */
export const COMMANDS: readonly CommandDefinition[] = [
  topicsDefinition,
  publishDefinition,
  tailDefinition,
  loadgenDefinition,
  backfillDefinition,
  rebuildDefinition,
  levelsDefinition,
  queryDefinition,
  redriveDefinition,
  replayDefinition,
  groupsDefinition,
  verifyDefinition,
  roundtripDefinition,
  summaryDefinition,
];
