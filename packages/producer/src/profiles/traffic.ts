import type { Series, Tick } from '@tickertape/tick';
import { checkProfileOptions, type LoadProfile, type ProfileOptions } from './profile.js';
import { roundTo, SeededRandom } from './random.js';

export const TRAFFIC_METRIC = 'traffic';

export const CONDITIONS = ['clear', 'rain', 'fog', 'snow'] as const;
export type Condition = (typeof CONDITIONS)[number];

const HIGHWAYS = ['I80', 'I5', 'I10', 'I90', 'I95', 'I35', 'I40', 'I70'] as const;
const SPEED_LIMITS = [55, 65, 70, 75] as const;
/** How often each condition is drawn when the weather changes. */
const CONDITION_WEIGHTS: Record<Condition, number> = {
  clear: 0.6,
  rain: 0.25,
  fog: 0.1,
  snow: 0.05,
};
/** How much each condition slows traffic. */
const CONDITION_FACTOR: Record<Condition, number> = { clear: 1, rain: 0.85, fog: 0.75, snow: 0.6 };
/** Chance that the weather at a sensor changes between two readings. */
const CONDITION_CHANGE = 0.02;

interface Sensor {
  series: Series;
  limit: number;
  lengthMiles: number;
  conditions: Condition;
  /** 1 = free flow; drifts down in jams and back. */
  flow: number;
}

function drawCondition(random: SeededRandom): Condition {
  let roll = random.next();
  for (const condition of CONDITIONS) {
    roll -= CONDITION_WEIGHTS[condition];
    if (roll < 0) return condition;
  }
  return 'clear';
}

/**
 * Interstate traffic sensors after seed 001 (segments like `I80_mile34`, ids like `900006`):
 * speed in mph and travel time over the segment in seconds, with the conditions as a string
 * field. Each sensor has a speed limit and segment length; its flow drifts as a bounded random
 * walk and its weather changes now and then, so readings are plausible and vary.
 */
export function trafficProfile(options: ProfileOptions): LoadProfile {
  checkProfileOptions(options);
  const random = new SeededRandom(options.seed);
  const sensors: Sensor[] = Array.from({ length: options.series }, (_, index) => {
    const highway = HIGHWAYS[index % HIGHWAYS.length]!;
    // Three miles apart along each highway, so no two sensors share a segment.
    const mile = 1 + Math.floor(index / HIGHWAYS.length) * 3 + random.int(0, 2);
    return {
      series: {
        metric: TRAFFIC_METRIC,
        tags: { sensor: String(900_000 + index), segment: `${highway}_mile${mile}` },
      },
      limit: random.pick(SPEED_LIMITS),
      lengthMiles: random.between(0.5, 2),
      conditions: drawCondition(random),
      flow: random.between(0.7, 1),
    };
  });
  let cursor = 0;
  return {
    name: 'traffic',
    series: sensors.map((sensor) => sensor.series),
    next(ts: number): Tick {
      const sensor = sensors[cursor]!;
      cursor = (cursor + 1) % sensors.length;
      if (random.next() < CONDITION_CHANGE) sensor.conditions = drawCondition(random);
      sensor.flow = Math.min(1.05, Math.max(0.15, sensor.flow + 0.03 * random.gaussian()));
      const ideal = sensor.limit * CONDITION_FACTOR[sensor.conditions] * sensor.flow;
      const speed = Math.max(3, roundTo(ideal + 1.5 * random.gaussian(), 1));
      return {
        metric: sensor.series.metric,
        tags: { ...sensor.series.tags },
        ts,
        fields: { speed, travel_time: Math.round((sensor.lengthMiles / speed) * 3600) },
        strings: { conditions: sensor.conditions },
      };
    },
  };
}
