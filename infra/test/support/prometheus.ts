import { waitFor } from '@tickertape/testing';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { parse, stringify } from 'yaml';

export const repositoryRoot = fileURLToPath(new URL('../../..', import.meta.url));

/** One alert as Prometheus's /api/v1/alerts lists it. */
export interface ActiveAlert {
  labels: Record<string, string>;
  state: 'pending' | 'firing';
}

/**
 * The local stack's Prometheus (stack.sh up prometheus): the files it reads targets and rules
 * from, under the stack's state directory, and its HTTP API. Each test writes files named after
 * itself and removes them, so runs side by side do not see each other's processes.
 */
export class LocalPrometheus {
  readonly targetsFile: string;
  readonly rulesFile: string;

  constructor(
    readonly url: string,
    stateDir: string,
    name: string,
  ) {
    this.targetsFile = `${stateDir}/prometheus/targets/${name}.json`;
    this.rulesFile = `${stateDir}/prometheus/rules/${name}.yml`;
  }

  static fromEnvironment(name: string): LocalPrometheus {
    const url = process.env.PROMETHEUS_URL;
    if (url === undefined || url === '')
      throw new Error(
        'PROMETHEUS_URL is not set: start the optional part with `bash infra/local/stack.sh up prometheus` (scripts/test.sh does)',
      );
    return new LocalPrometheus(url, process.env.TT_STACK_DIR ?? `${repositoryRoot}/.stack`, name);
  }

  async scrape(groups: { targets: string[]; labels: Record<string, string> }[]): Promise<void> {
    await mkdir(this.targetsFile.replace(/\/[^/]+$/, ''), { recursive: true });
    await writeFile(this.targetsFile, JSON.stringify(groups));
  }

  async loadRules(yamlText: string): Promise<void> {
    await mkdir(this.rulesFile.replace(/\/[^/]+$/, ''), { recursive: true });
    await writeFile(this.rulesFile, yamlText);
    await this.reload();
  }

  async reload(): Promise<void> {
    const response = await fetch(`${this.url}/-/reload`, { method: 'POST' });
    if (!response.ok) throw new Error(`reload: ${response.status} ${await response.text()}`);
  }

  async forget(): Promise<void> {
    await rm(this.targetsFile, { force: true });
    await rm(this.rulesFile, { force: true });
    await this.reload();
  }

  /** The instant vector `expr` evaluates to now; throws on a query error. */
  async query(
    expr: string,
  ): Promise<{ metric: Record<string, string>; value: [number, string] }[]> {
    const response = await fetch(`${this.url}/api/v1/query?query=${encodeURIComponent(expr)}`);
    const body = (await response.json()) as {
      status: string;
      error?: string;
      data?: { result: { metric: Record<string, string>; value: [number, string] }[] };
    };
    if (body.status !== 'success') throw new Error(`${expr}: ${body.error ?? response.status}`);
    return body.data?.result ?? [];
  }

  async alerts(): Promise<ActiveAlert[]> {
    const body = (await (await fetch(`${this.url}/api/v1/alerts`)).json()) as {
      data: { alerts: ActiveAlert[] };
    };
    return body.data.alerts;
  }

  /** Waits until the rules are loaded: the rule group names appear in /api/v1/rules. */
  async waitForRules(names: readonly string[]): Promise<void> {
    await waitFor(
      async () => {
        const body = (await (await fetch(`${this.url}/api/v1/rules`)).json()) as {
          data: { groups: { rules: { name: string }[] }[] };
        };
        const loaded = new Set(body.data.groups.flatMap((g) => g.rules.map((r) => r.name)));
        return names.every((name) => loaded.has(name));
      },
      { description: 'the rules to be loaded', timeoutMs: 20_000 },
    );
  }
}

interface RuleFile {
  groups: { name: string; rules: { alert?: string; expr: string; for?: string }[] }[];
}

/**
 * The real rule file with the waits and thresholds a test can reach in seconds: every `for:`
 * becomes `forSeconds`, and the alerts named in `thresholds` get their `> N` comparison
 * replaced. The expressions are otherwise the real ones.
 */
export function rulesForTest(
  text: string,
  forDuration: string,
  thresholds: Record<string, number>,
): { yaml: string; alerts: string[] } {
  const file = parse(text) as RuleFile;
  const alerts: string[] = [];
  for (const group of file.groups) {
    for (const rule of group.rules) {
      if (rule.alert === undefined) continue;
      alerts.push(rule.alert);
      if (rule.for !== undefined) rule.for = forDuration;
      const threshold = thresholds[rule.alert];
      if (threshold !== undefined) {
        const replaced = rule.expr.replace(/>\s*[\d.e+]+(?![\s\S]*>\s*[\d.e+]+)/, `> ${threshold}`);
        if (replaced === rule.expr)
          throw new Error(`${rule.alert}: no "> N" to replace in ${rule.expr}`);
        rule.expr = replaced;
      }
    }
  }
  return { yaml: stringify(file), alerts };
}
