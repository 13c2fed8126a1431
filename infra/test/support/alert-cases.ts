import { scraped, seriesText, type Labels } from './promtool-discovery.js';

/** The targets one pod of each long-running kind of the chart gets, as Prometheus labels them. */
export interface ScrapedPods {
  workers: { level: string; target: Labels }[];
  scheduler: Labels;
  api: Labels;
}

interface Series {
  series: string;
  values: string;
}
interface Expectation {
  eval_time: string;
  alertname: string;
  exp_alerts: { exp_labels: Labels }[];
}
export interface RuleTestGroup {
  interval: string;
  input_series: Series[];
  alert_rule_test: Expectation[];
}

const pick = (labels: Labels, names: string[]) =>
  Object.fromEntries(
    names.flatMap((name) => (labels[name] === undefined ? [] : [[name, labels[name]]])),
  );

/**
 * A promtool rule-test group per alert of infra/prometheus/tickertape-alerts.yml, whose input
 * series carry exactly the labels a scrape of the chart's pods gives them (`scraped`: the
 * target's labels over the process's own), and whose expected alerts carry the labels the rule
 * keeps of them. Values and times are those of tickertape-alerts.test.yml; what is under test
 * here is the labels.
 */
export function alertCases(pods: ScrapedPods): RuleTestGroup[] {
  const { workers, scheduler, api } = pods;
  const perWorker = (
    name: string,
    own: (level: string) => Labels,
    values: string,
    keep: (series: Labels) => Labels,
  ) => {
    const series = workers.map((w) => scraped(w.target, own(w.level)));
    return {
      input_series: series.map((labels) => ({ series: seriesText(name, labels), values })),
      expected: series.map(keep),
    };
  };
  const group = (
    input: { input_series: Series[]; expected: Labels[] },
    alertname: string,
    evalTime: string,
    severity: string,
  ): RuleTestGroup => ({
    interval: '1m',
    input_series: input.input_series,
    alert_rule_test: [
      {
        eval_time: evalTime,
        alertname,
        exp_alerts: input.expected.map((labels) => ({ exp_labels: { severity, ...labels } })),
      },
    ],
  });
  const fromScheduler = (
    name: string,
    own: Labels,
    values: string,
    keep: (s: Labels) => Labels,
  ) => {
    const labels = scraped(scheduler, own);
    return {
      input_series: [{ series: seriesText(name, labels), values }],
      expected: [keep(labels)],
    };
  };
  const all = (labels: Labels) => labels;

  const down = {
    // The scheduler and the API down too: only the workers' job is TickertapeWorkerDown's.
    input_series: [...workers.map((w) => w.target), scheduler, api].map((target) => ({
      series: seriesText('up', target),
      values: '0x5',
    })),
    // Its summary names the level: `up` has only the target's labels to carry it.
    expected: workers.map((w) => ({ ...w.target, level: w.level })),
  };
  const membersAndLag = {
    input_series: [
      ...fromScheduler('tickertape_group_members', { level: 'minute' }, '0x6', all).input_series,
      ...fromScheduler(
        'tickertape_group_lag_records',
        { level: 'minute' },
        '0 0 50 100 150 200 250',
        all,
      ).input_series,
    ],
    expected: [scraped(scheduler, { level: 'minute' })],
  };
  // Only the segment worker counts a series on a second partition.
  const segmentWorker = workers.find((w) => w.level === 'segments');
  const split = segmentWorker && scraped(segmentWorker.target, { level: 'segments' });
  const apiRequests = (status: string, values: string) => ({
    series: seriesText(
      'tickertape_api_requests_total',
      scraped(api, { route: '/api/v1/window', method: 'GET', status }),
    ),
    values,
  });

  return [
    group(down, 'TickertapeWorkerDown', '5m', 'warning'),
    group(
      perWorker(
        'tickertape_flush_failures_total',
        (level) => ({ level }),
        '0+1x15',
        (s) => pick(s, ['level', 'instance']),
      ),
      'TickertapeFlushesFailing',
      '10m',
      'page',
    ),
    group(
      perWorker(
        'tickertape_consumer_crashes_total',
        (level) => ({ level, restart: 'true' }),
        '0+1x20',
        (s) => pick(s, ['level', 'instance']),
      ),
      'TickertapeConsumerRestarting',
      '15m',
      'warning',
    ),
    group(
      perWorker(
        'tickertape_dead_letters_total',
        (level) => ({ level, reason: 'TOO_LATE' }),
        '0+180x20',
        (s) => pick(s, ['level', 'reason']),
      ),
      'TickertapeDeadLetters',
      '15m',
      'warning',
    ),
    ...(split
      ? [
          group(
            {
              input_series: [
                {
                  series: seriesText('tickertape_segment_series_split_total', split),
                  values: '0 0 0 1 1 1 1 1',
                },
              ],
              expected: [pick(split, ['level'])],
            },
            'TickertapeSeriesSplit',
            '5m',
            'warning',
          ),
        ]
      : []),
    group(
      fromScheduler('tickertape_group_lag_seconds', { level: 'minute' }, '0+60x10', (s) =>
        pick(s, ['level']),
      ),
      'TickertapeLevelBehind',
      '6m',
      'page',
    ),
    group(
      fromScheduler('tickertape_group_lag_records', { level: 'minute' }, '2000+600x40', all),
      'TickertapeLagGrowing',
      '30m',
      'warning',
    ),
    group(membersAndLag, 'TickertapeLevelWithoutWorkers', '5m', 'page'),
    group(
      fromScheduler('tickertape_group_lag_failures_total', {}, '0+1x14', all),
      'TickertapeGroupLagUnknown',
      '12m',
      'warning',
    ),
    group(
      fromScheduler('tickertape_finality_watermark_seconds', { level: 'hour' }, '-28800x30', all),
      'TickertapeFinalityStalled',
      '20m',
      'warning',
    ),
    group(
      fromScheduler(
        'tickertape_scheduler_jobs_total',
        { job_name: 'finalize', outcome: 'failed' },
        '0 0 0 1 1 1',
        (s) => pick(s, ['job_name']),
      ),
      'TickertapeSchedulerJobsFailing',
      '4m',
      'warning',
    ),
    group(
      {
        input_series: [apiRequests('200', '0+100x3 300+90x12'), apiRequests('500', '0x3 0+10x12')],
        expected: [{}],
      },
      'TickertapeApiErrors',
      '14m',
      'warning',
    ),
  ];
}
