/**
 * The `--help` heading of the commands that show the demo stack at work (they assume its topics,
 * databases and worker ports) rather than serve an operator.
 */
export const DEMO_COMMANDS = 'Demo commands:';
