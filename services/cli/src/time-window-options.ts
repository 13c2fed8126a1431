import { TIME_WINDOW_DEFAULTS } from '@tickertape/topology';
import { Option } from 'commander';
import { nonNegativeInt } from './arguments.js';

/*
 * The workers' time window, for the commands that must judge ticks as the workers did (rebuild
 * from the topic, verify): the same flags, with the workers' defaults.
 */

export function maxLatenessOption(): Option {
  return new Option('--max-lateness-ms <ms>', "the workers' MAX_LATENESS_MS")
    .argParser(nonNegativeInt)
    .default(TIME_WINDOW_DEFAULTS.maxLatenessMs);
}

export function maxFutureOption(): Option {
  return new Option('--max-future-ms <ms>', "the workers' MAX_FUTURE_MS")
    .argParser(nonNegativeInt)
    .default(TIME_WINDOW_DEFAULTS.maxFutureMs);
}
