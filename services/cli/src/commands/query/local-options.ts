import { FILL_MODES } from '@tickertape/query';
import { Option } from 'commander';

/* The options of local time and filling (issue 36), as the API's tz= and fill= parameters. */

/** `--tz <zone>`: steps in the zone's local calendar; an unknown zone is a refused query (exit 2). */
export const tzOption = () =>
  new Option(
    '--tz <zone>',
    "IANA time zone: days from local midnight (23 or 25 hours across DST), hours on the local clock; rows name each step's UTC bounds; --from/--to without an offset (2026-03-08, 2026-03-08T06:00) are its wall time",
  );

/** `--fill <mode>`: answer the steps without data too, each marked filled. */
export const fillOption = () =>
  new Option(
    '--fill <mode>',
    'fill the steps without data, marked filled: null, previous (carry forward) or linear (interpolate between points)',
  ).choices(FILL_MODES);
