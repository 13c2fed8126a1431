import type { Series, Tick } from '@tickertape/tick';
import { checkProfileOptions, type LoadProfile, type ProfileOptions } from './profile.js';
import { roundTo, SeededRandom } from './random.js';

export const STOCK_METRIC = 'stock.tick';

const SYMBOLS = [
  'ACME',
  'GLBX',
  'INIT',
  'UMBR',
  'HOOL',
  'STRK',
  'WAYN',
  'WONK',
  'TYRL',
  'SOYL',
  'CYBD',
  'OSCP',
  'VNDL',
  'PIPR',
  'NKTM',
  'MSVD',
] as const;
const EXCHANGES = ['NYSE', 'NASDAQ', 'LSE', 'XETRA'] as const;
/** Per-tick volatility of the log price: about 0.05 % a tick. */
const SIGMA = 0.0005;

interface Quote {
  series: Series;
  /** Unrounded, so the walk does not stick to the cent grid. */
  price: number;
}

/** The symbol of the `index`-th series: ACME, GLBX, …, then ACME2, GLBX2, … */
export function stockSymbol(index: number): string {
  const round = Math.floor(index / SYMBOLS.length);
  const base = SYMBOLS[index % SYMBOLS.length]!;
  return round === 0 ? base : `${base}${round + 1}`;
}

/**
 * Stock ticks: each symbol's price is a geometric random walk from a seeded start between 5 and
 * 500, quoted in cents; volume is log-normal around a 100-share lot.
 */
export function stocksProfile(options: ProfileOptions): LoadProfile {
  checkProfileOptions(options);
  const random = new SeededRandom(options.seed);
  const quotes: Quote[] = Array.from({ length: options.series }, (_, index) => ({
    series: {
      metric: STOCK_METRIC,
      tags: { symbol: stockSymbol(index), exchange: random.pick(EXCHANGES) },
    },
    price: random.between(5, 500),
  }));
  let cursor = 0;
  return {
    name: 'stocks',
    series: quotes.map((quote) => quote.series),
    next(ts: number): Tick {
      const quote = quotes[cursor]!;
      cursor = (cursor + 1) % quotes.length;
      quote.price = Math.max(0.01, quote.price * Math.exp(SIGMA * random.gaussian()));
      const volume = Math.max(1, Math.round(100 * Math.exp(0.8 * random.gaussian())));
      return {
        metric: quote.series.metric,
        tags: { ...quote.series.tags },
        ts,
        fields: { price: roundTo(quote.price, 2), volume },
        strings: {},
      };
    },
  };
}
