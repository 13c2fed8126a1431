/** One of the benchmark's targets, as the report lists it: what was asked, what was measured. */
export interface Target {
  target: string;
  measured: string;
  met: boolean;
}
