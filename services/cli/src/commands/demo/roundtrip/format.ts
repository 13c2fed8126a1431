import type { RoundtripOptions, RoundtripResult } from './run.js';

export function formatRoundtrip(
  result: RoundtripResult,
  options: Pick<RoundtripOptions, 'topic' | 'database'>,
): string {
  const lines = [
    'round trip ok',
    `  published   ${result.tick.metric} ${JSON.stringify(result.tick.fields)} at ${new Date(result.tick.ts).toISOString()}`,
    `  registry    subject ${options.topic}-value, schema id ${result.schemaId}`,
    `  kafka       topic ${options.topic}, partition ${result.partition}, offset ${result.offset}`,
    `  mongodb     ${options.database}.${result.collection}`,
    ...JSON.stringify(result.document, null, 2)
      .split('\n')
      .map((line) => `              ${line}`),
  ];
  return `${lines.join('\n')}\n`;
}
