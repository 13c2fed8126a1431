import { STORES } from '@tickertape/topology';
import { Option } from 'commander';
import { groupArgument, storesArgument } from '../store-arguments.js';

/** `--stores`: which of the levels and the segment store a command covers. */
export const storesOption = (verb: string) =>
  new Option('--stores <list>', `what to ${verb}, comma-separated (${STORES.join(',')})`)
    .argParser(storesArgument)
    .default([...STORES]);

/** `--group store=group`, repeatable: a store's group when it is not the workers' default. */
export const groupOption = () =>
  new Option(
    '--group <store=group>',
    "a store's consumer group when it is not the workers' default (repeatable)",
  ).argParser(groupArgument);
