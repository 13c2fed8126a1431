/**
 * The round trip's own small tick schema. It shows the path Kafka → registry → MongoDB works on
 * the stack; the real tick schema arrives with the ingest pipeline (@tickertape/tick).
 */
export const ROUNDTRIP_SCHEMA = {
  type: 'record',
  name: 'RoundtripTick',
  namespace: 'dev.tickertape.demo',
  fields: [
    { name: 'metric', type: 'string' },
    { name: 'tags', type: { type: 'map', values: 'string' } },
    { name: 'ts', type: { type: 'long', logicalType: 'timestamp-millis' } },
    { name: 'fields', type: { type: 'map', values: 'double' } },
  ],
} as const;

export interface RoundtripTick {
  metric: string;
  tags: Record<string, string>;
  ts: number;
  fields: Record<string, number>;
}
