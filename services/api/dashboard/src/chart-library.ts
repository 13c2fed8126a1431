// lightweight-charts as the page loads it: the standalone build (vendor/lightweight-charts.js,
// a plain script before the modules) sets the global `LightweightCharts`. Only its types are
// imported here, so the browser needs no bundler and no import map.

import type * as Charts from 'lightweight-charts';

declare global {
  // `var`: a global the script defines, read as globalThis.LightweightCharts.
  var LightweightCharts: typeof Charts | undefined;
}

export function chartLibrary(): typeof Charts {
  const library = globalThis.LightweightCharts;
  if (!library) throw new Error('the chart library (vendor/lightweight-charts.js) did not load');
  return library;
}
