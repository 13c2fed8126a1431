/**
 * Grafana cannot run here (no Docker engine, no Debian package), so what can be checked without it:
 * the rollups data source points at the compose API's Prometheus query API with a bearer header
 * Grafana fills from the environment, and every query of the rollups dashboard is PromQL the API
 * evaluates (services/api's prometheus-api test runs each one against the real database).
 */
import { describe, expect, it } from '@jest/globals';
import { parsePromQL, typeOf } from '@tickertape/promql';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const text = (path: string) => readFileSync(`${root}/${path}`, 'utf8');

interface Dashboard {
  uid: string;
  templating: { list: { name: string; query: { query: string } }[] };
  panels: {
    title: string;
    datasource: { uid: string };
    targets: { expr: string; datasource: { uid: string } }[];
  }[];
}

/** Grafana's variables as one value each: what the dashboard sends once they are chosen. */
function substitute(expr: string): string {
  return expr
    .replaceAll('$segment', '.+')
    .replaceAll('$symbol', 'ACME')
    .replaceAll('$__interval', '1m');
}

describe('the rollups dashboard and its data source', () => {
  const source = (
    parse(text('infra/grafana/rollups-datasource.yml')) as {
      datasources: {
        uid: string;
        type: string;
        url: string;
        access: string;
        jsonData: Record<string, string>;
        secureJsonData: Record<string, string>;
      }[];
    }
  ).datasources[0]!;
  const compose = parse(text('docker-compose.yml'), { merge: true }) as {
    services: Record<string, { environment?: Record<string, string>; volumes?: string[] }>;
  };
  const dashboard = JSON.parse(text('infra/grafana/rollups.json')) as Dashboard;

  it("is Grafana's Prometheus data source on the API's /prometheus, with the token from the environment", () => {
    expect(source).toMatchObject({
      type: 'prometheus',
      access: 'proxy',
      uid: 'tickertape-rollups',
    });
    expect(source.url).toBe(
      `http://api:${compose.services.api!.environment!.HTTP_PORT}/prometheus`,
    );
    expect(source.jsonData.httpHeaderName1).toBe('Authorization');
    expect(source.secureJsonData.httpHeaderValue1).toBe('Bearer $TICKERTAPE_API_TOKEN');
    expect(compose.services.grafana!.environment!.TICKERTAPE_API_TOKEN).toContain(
      'TICKERTAPE_API_TOKENS',
    );
    expect(compose.services.grafana!.volumes).toEqual(
      expect.arrayContaining([
        './infra/grafana/rollups-datasource.yml:/etc/grafana/provisioning/datasources/rollups.yml:ro',
        './infra/grafana/rollups.json:/var/lib/grafana/dashboards/rollups.json:ro',
      ]),
    );
  });

  it('asks only PromQL the API evaluates, of that data source', () => {
    const exprs = dashboard.panels.flatMap((panel) => {
      expect(panel.datasource.uid).toBe(source.uid);
      return panel.targets.map((target) => target.expr);
    });
    expect(exprs.length).toBeGreaterThanOrEqual(8);
    for (const expr of exprs)
      expect(['vector', 'scalar']).toContain(typeOf(parsePromQL(substitute(expr))));
    // OHLC as four series, and the seed's 10-minute average.
    expect(exprs).toEqual(
      expect.arrayContaining([expect.stringMatching(/^avg_over_time\(traffic_speed.*\[10m\]\)$/)]),
    );
    for (const fn of ['first', 'max', 'min', 'last'])
      expect(exprs.some((e) => e.startsWith(`${fn}_over_time(stock_tick_price`))).toBe(true);
    for (const variable of dashboard.templating.list)
      expect(variable.query.query).toMatch(/^label_values\(\w+, \w+\)$/);
  });
});
