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
  groups: {
    rules: {
      alert?: string;
      for?: string;
      labels?: Record<string, string>;
      annotations?: Record<string, string>;
    }[];
  }[];
}
interface RuleTests {
  tests: { alert_rule_test?: { alertname: string; exp_alerts: unknown[] }[] }[];
}

const rules = parse(readFileSync(`${dir}/tickertape-alerts.yml`, 'utf8')) as RuleFile;
const tests = parse(readFileSync(`${dir}/tickertape-alerts.test.yml`, 'utf8')) as RuleTests;
const alerts = rules.groups.flatMap((g) => g.rules).filter((r) => r.alert !== undefined);
const runbook = readFileSync(
  fileURLToPath(new URL('../../../docs/runbook.md', import.meta.url)),
  'utf8',
);

/** A heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces to hyphens. */
const anchorOf = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');
const runbookAnchors = new Set(
  [...runbook.matchAll(/^#{1,6} (.+)$/gm)].map((match) => anchorOf(match[1]!)),
);

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

  it('each link their own entry of docs/runbook.md, which exists', () => {
    for (const alert of alerts) {
      const url = alert.annotations?.runbook_url ?? '';
      expect({ alert: alert.alert, url }).toEqual({
        alert: alert.alert,
        url: `docs/runbook.md#${anchorOf(alert.alert!)}`,
      });
      expect({ alert: alert.alert, exists: runbookAnchors.has(anchorOf(alert.alert!)) }).toEqual({
        alert: alert.alert,
        exists: true,
      });
    }
    // The anchors are GitHub's: a section heading with punctuation keeps its words. The entries'
    // links into the runbook's sections lead somewhere too.
    expect(runbookAnchors.has('2-a-level-is-behind-past-the-topics-retention')).toBe(true);
    const links = [...runbook.matchAll(/\]\(#([^)]+)\)/g)].map((match) => match[1]!);
    expect(links.length).toBeGreaterThan(alerts.length);
    expect(links.filter((link) => !runbookAnchors.has(link))).toEqual([]);
  });
});
