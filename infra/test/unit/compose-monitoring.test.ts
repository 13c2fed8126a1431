/**
 * docker-compose's `monitoring` profile cannot run here (no Docker engine), so what can be
 * checked without it is: its Prometheus configuration is valid to promtool, it scrapes every
 * tickertape process of the compose file on the port that process listens on, with the `level`
 * label the alert rules and the dashboard group by, and every file the profile mounts exists.
 */
import { describe, expect, it } from '@jest/globals';
import { runProcess } from '@tickertape/testing';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

const root = fileURLToPath(new URL('../../..', import.meta.url));
// merge: compose's services share settings through `<<: *anchor` keys.
const read = (path: string): unknown =>
  parse(readFileSync(`${root}/${path}`, 'utf8'), { merge: true });

interface ComposeService {
  command?: string[];
  environment?: Record<string, string | number>;
  volumes?: string[];
  profiles?: string[];
}
interface ScrapeConfig {
  job_name: string;
  static_configs: { targets: string[]; labels?: Record<string, string> }[];
}

const compose = read('docker-compose.yml') as { services: Record<string, ComposeService> };
const prometheus = read('infra/compose/prometheus.yml') as { scrape_configs: ScrapeConfig[] };

describe("docker-compose's monitoring profile", () => {
  it('has a Prometheus configuration promtool accepts', async () => {
    const run = await runProcess('promtool', ['check', 'config', 'infra/compose/prometheus.yml'], {
      cwd: root,
      env: process.env,
    });
    expect(`${run.stdout}${run.stderr}`).toContain('SUCCESS');
    expect(run.code).toBe(0);
  });

  it('scrapes every long-running tickertape process on its HTTP_PORT, workers with their level', () => {
    const targets = prometheus.scrape_configs.flatMap((job) =>
      job.static_configs.flatMap((group) =>
        group.targets.map((target) => ({ job: job.job_name, target, labels: group.labels ?? {} })),
      ),
    );
    const processes = Object.entries(compose.services).filter(
      ([, service]) => service.environment?.HTTP_PORT !== undefined,
    );
    expect(processes.map(([name]) => name).sort()).toEqual(
      ['api', 'rollup-day', 'rollup-hour', 'rollup-minute', 'scheduler', 'segment-worker'].sort(),
    );
    for (const [name, service] of processes) {
      const scraped = targets.find((t) => t.target === `${name}:${service.environment!.HTTP_PORT}`);
      expect({ name, scraped: scraped !== undefined }).toEqual({ name, scraped: true });
      const level = service.environment!.ROLLUP_LEVEL;
      if (level !== undefined) expect(scraped!.labels.level).toBe(level);
    }
  });

  it('mounts files that exist, and only runs with the profile', () => {
    for (const name of ['prometheus', 'grafana']) {
      const service = compose.services[name]!;
      expect(service.profiles).toEqual(['monitoring']);
      for (const volume of service.volumes ?? []) {
        const source = volume.split(':')[0]!;
        expect({ volume, exists: existsSync(`${root}/${source}`) }).toEqual({
          volume,
          exists: true,
        });
      }
    }
  });
});
