import type { LoadProfile, ProfileName, ProfileOptions } from './profile.js';
import { stocksProfile } from './stocks.js';
import { trafficProfile } from './traffic.js';

/** A sensible series count per profile when none is given. */
export const DEFAULT_SERIES: Readonly<Record<ProfileName, number>> = Object.freeze({
  stocks: 50,
  traffic: 500,
});

const FACTORIES: Readonly<Record<ProfileName, (options: ProfileOptions) => LoadProfile>> = {
  stocks: stocksProfile,
  traffic: trafficProfile,
};

export function createProfile(name: ProfileName, options: ProfileOptions): LoadProfile {
  return FACTORIES[name](options);
}
