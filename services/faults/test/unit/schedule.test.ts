import { describe, expect, it } from '@jest/globals';
import { countByKind, faultSchedule, PROFILES, STACK_PARTS } from '../../src/schedule.js';

describe('faultSchedule', () => {
  it.each(Object.values(PROFILES))(
    '$name: every fault the issue names, in time order, within the load',
    (profile) => {
      let i = 0;
      const events = faultSchedule(profile, (below) => i++ % below);
      expect(events.map((e) => e.atMs)).toEqual(
        [...events.map((e) => e.atMs)].sort((a, b) => a - b),
      );
      expect(events.every((e) => e.atMs > 0 && e.atMs < profile.loadMs)).toBe(true);
      const counts = countByKind(events);
      expect(counts['kill-worker']).toBe(Math.ceil(profile.loadMs / profile.killEveryMs) - 1);
      expect(counts.replay).toBeGreaterThanOrEqual(1);
      expect(counts['bad-input']).toBeGreaterThanOrEqual(1);
      // Each stack part restarted at least once; a level scaled to three workers and back to one.
      for (const part of STACK_PARTS)
        expect(events.some((e) => e.kind === 'restart' && e.part === part)).toBe(true);
      const scales = events.filter((e) => e.kind === 'scale');
      expect(scales.some((e) => e.replicas === 3)).toBe(true);
      expect(scales.at(-1)?.replicas).toBe(1);
    },
  );

  it('spreads the kills over the stores as the seeded pick says', () => {
    const events = faultSchedule(PROFILES.short, () => 2);
    expect(
      new Set(events.filter((e) => e.kind === 'kill-worker').map((e) => 'store' in e && e.store)),
    ).toEqual(new Set(['day']));
  });
});
