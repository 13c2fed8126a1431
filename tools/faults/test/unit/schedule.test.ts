import { describe, expect, it } from '@jest/globals';
import {
  countByKind,
  faultSchedule,
  NETWORK_TARGETS,
  NETWORK_TOXICS,
  PROFILES,
  STACK_PARTS,
  type FaultEvent,
} from '../../src/schedule.js';

describe('faultSchedule', () => {
  const single = Object.values(PROFILES).filter((p) => p.stack === 'single');
  const clusters = Object.values(PROFILES).filter((p) => p.stack === 'cluster');

  it.each(Object.values(PROFILES))('$name: in time order, within the load', (profile) => {
    let i = 0;
    const events = faultSchedule(profile, (below) => i++ % below);
    expect(events.map((e) => e.atMs)).toEqual([...events.map((e) => e.atMs)].sort((a, b) => a - b));
    expect(events.every((e) => e.atMs > 0 && e.atMs < profile.loadMs)).toBe(true);
    expect(countByKind(events)['bad-input']).toBeGreaterThanOrEqual(2);
  });

  it.each(clusters)(
    '$name: the leader killed and the controller restarted, a broker paused past the session timeouts, a network fault on each part, a clock step',
    (profile) => {
      const events = faultSchedule(profile, () => 0);
      const has = (match: (e: FaultEvent) => boolean) => events.some(match);
      expect(has((e) => e.kind === 'broker' && e.action === 'kill' && e.target === 'leader')).toBe(
        true,
      );
      expect(has((e) => e.kind === 'broker' && e.target === 'controller')).toBe(true);
      // Past the workers' session timeout (6 s) and the brokers' (9 s).
      expect(has((e) => e.kind === 'pause-broker' && e.pauseMs > 9000)).toBe(true);
      for (const target of NETWORK_TARGETS)
        expect(has((e) => e.kind === 'network' && e.target === target)).toBe(true);
      expect(has((e) => e.kind === 'clock-step')).toBe(true);
    },
  );

  it('cluster: everything the issue asks for, five leader kills and restarts in a row, every network fault', () => {
    const events = faultSchedule(PROFILES.cluster, () => 0);
    const broker = events.filter((e) => e.kind === 'broker');
    for (const action of ['kill', 'restart'] as const) {
      expect(broker.find((e) => e.action === action && e.target === 'leader')?.times).toBe(5);
      expect(broker.some((e) => e.action === action && e.target === 'controller')).toBe(true);
    }
    expect(countByKind(events)['rolling-restart']).toBe(1);
    expect(new Set(events.flatMap((e) => (e.kind === 'network' ? [e.toxic] : [])))).toEqual(
      new Set(NETWORK_TOXICS),
    );
    const steps = events.flatMap((e) => (e.kind === 'clock-step' ? [e.stepMs] : []));
    expect(steps.some((ms) => ms > 0) && steps.some((ms) => ms < 0)).toBe(true);
  });

  it.each(single)(
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
