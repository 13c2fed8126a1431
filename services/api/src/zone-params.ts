import { FILL_MODES, isTimeZone } from '@tickertape/query';
import { z } from 'zod';

/*
 * The query-string parameters of local time and filling (issue 36), shared by the points,
 * candles and window schemas. Like every parameter they check shape and syntax; an unknown zone
 * is refused here with a 400 naming `tz`, and by the reader (QUERY_INVALID_TIME_ZONE) for the
 * CLI and any other caller.
 */

export const timeZoneParam = () =>
  z
    .string({ error: () => 'give it once (it is not repeatable)' })
    .refine(isTimeZone, {
      error: (issue) =>
        `${JSON.stringify(String(issue.input).slice(0, 64))} is not a time zone; give an IANA zone such as America/Los_Angeles or Asia/Kolkata`,
    })
    .optional()
    .meta({
      description:
        "IANA time zone: steps of an hour or more (and minutes where the zone's offset is not whole steps) follow its local calendar — days from local midnight to midnight (23 or 25 hours across a DST change); each point then carries its step's UTC `end` and its `local` start. The window names the zone and its bounds in local time. With tz, `from` and `to` without an offset (2026-03-08, 2026-03-08T06:00) are the zone's wall time (without tz, UTC)",
      examples: ['America/Los_Angeles', 'Asia/Kolkata'],
    });

export const fillParam = () =>
  z
    .enum(FILL_MODES, { error: () => `must be ${FILL_MODES.join(', ')}, given once` })
    .optional()
    .meta({
      description:
        'Answer the steps without data too, each marked `filled: true` (n and sum null): `null` with null values, `previous` with the last values carried forward, `linear` interpolated between the points on each side (none before the first point or, for linear, after the last). Default: no fill, a missing step is a gap',
      examples: ['previous'],
    });
