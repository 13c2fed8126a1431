/**
 * The alert rules (infra/prometheus/tickertape-alerts.yml) are valid to promtool, pass their unit
 * tests (tickertape-alerts.test.yml), and every alert is shown firing by at least one of them.
 */
import { describe, expect, it } from '@jest/globals';
import { runProcess } from '@tickertape/testing';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

const dir = fileURLToPath(new URL('../../prometheus', import.meta.url));
const promtool = (...args: string[]) =>
  runProcess('promtool', args, { cwd: dir, env: process.env });

interface RuleFile {
  groups: { rules: { alert?: string; for?: string; labels?: Record<string, string> }[] }[];
}
interface RuleTests {
  tests: { alert_rule_test?: { alertname: string; exp_alerts: unknown[] }[] }[];
}

const rules = parse(readFileSync(`${dir}/tickertape-alerts.yml`, 'utf8')) as RuleFile;
const tests = parse(readFileSync(`${dir}/tickertape-alerts.test.yml`, 'utf8')) as RuleTests;
const alerts = rules.groups.flatMap((g) => g.rules).filter((r) => r.alert !== undefined);

describe('the alert rules', () => {
  it('pass promtool check rules', async () => {
    const run = await promtool('check', 'rules', 'tickertape-alerts.yml');
    expect(run.stdout).toContain(`SUCCESS: ${alerts.length} rules found`);
    expect(run.code).toBe(0);
  });

  it('pass their promtool unit tests', async () => {
    const run = await promtool('test', 'rules', 'tickertape-alerts.test.yml');
    expect(`${run.stdout}${run.stderr}`).toContain('SUCCESS');
    expect(run.code).toBe(0);
  });

  it('each fire in a test case and stay quiet in another, and carry a severity', () => {
    const cases = tests.tests.flatMap((t) => t.alert_rule_test ?? []);
    const firing = new Set(cases.filter((c) => c.exp_alerts.length > 0).map((c) => c.alertname));
    const quiet = new Set(cases.filter((c) => c.exp_alerts.length === 0).map((c) => c.alertname));
    const names = alerts.map((a) => a.alert!);
    expect(names.length).toBeGreaterThanOrEqual(10);
    expect(names.filter((name) => !firing.has(name))).toEqual([]);
    expect(names.filter((name) => !quiet.has(name))).toEqual([]);
    for (const alert of alerts) expect(['page', 'warning']).toContain(alert.labels?.severity);
  });
});
