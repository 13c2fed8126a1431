import { describe, expect, it } from '@jest/globals';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseBenchEnv } from '../../src/env.js';
import { processCpuSection } from '../../src/process-cpu-markdown.js';
import { boundSentence } from '../../src/process-cpu.js';
import { listeningInodes, parseMachineTicks, parseProcStat } from '../../src/proc-stat.js';
import type { BenchReport } from '../../src/bench-report.js';
import { StackMeter, stackAddresses, type StackCpu } from '../../src/stack-cpu.js';

describe('/proc parsing', () => {
  it('reads utime, stime and starttime after a command name with spaces and parentheses', () => {
    const stat =
      '2696 (java (x) y) S 1 2696 2696 0 -1 4194304 660789 0 2 0 60456 1222 0 0 20 0 29 0 1955764 3766288384 253215';
    expect(parseProcStat(stat)).toEqual({
      utimeTicks: 60456,
      stimeTicks: 1222,
      startTicks: 1955764,
    });
  });

  it('finds the inodes listening on a port in tcp and tcp6 tables', () => {
    const table = [
      '  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode',
      '   0: 0100007F:6A1C 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 327174 1',
      '   1: 0100007F:6A1C 0100007F:9C40 01 00000000:00000000 00:00000000 00000000     0        0 327175 1',
      '   2: 0000000000000000FFFF00000100007F:4A94 00000000000000000000000000000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 328092 1',
    ].join('\n');
    expect([...listeningInodes(table, 27164)]).toEqual(['327174']);
    expect([...listeningInodes(table, 19092)]).toEqual(['328092']);
  });

  it('counts busy and all ticks of the machine', () => {
    expect(parseMachineTicks('cpu  10 1 5 80 4 1 2 3 0 0\ncpu0 5 0 2 40 2 0 1 1 0 0\n')).toEqual({
      busy: 22,
      total: 106,
    });
  });
});

const env = (overrides: Record<string, string>) =>
  parseBenchEnv({
    KAFKA_BROKERS: '127.0.0.1:19092',
    SCHEMA_REGISTRY_URL: 'http://127.0.0.1:18081/apis/ccompat/v7',
    MONGODB_URI: 'mongodb://127.0.0.1:27117',
    ...overrides,
  });

describe('StackMeter', () => {
  it('reads the addresses the harness uses', () => {
    expect(
      stackAddresses(env({ MONGODB_URI: 'mongodb://u:p@db.example:27018/x?authSource=admin' })),
    ).toEqual({
      mongo: { host: 'db.example', port: 27018 },
      kafka: { host: '127.0.0.1', port: 19092 },
      registry: { host: '127.0.0.1', port: 18081 },
    });
    expect(stackAddresses(env({ MONGODB_URI: 'mongodb://a:1,b:2/x' })).mongo).toBeUndefined();
  });

  it('measures a process named by its pid file only if it listens on the address', async () => {
    const stackDir = await mkdtemp(join(tmpdir(), 'bench-stack-'));
    const run = join(stackDir, 'run');
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const stackEnv = env({ TT_STACK_DIR: stackDir, MONGODB_URI: `mongodb://127.0.0.1:${port}` });
    try {
      // A stack from docker-compose: no pid files, no figures.
      expect(StackMeter.locate(stackEnv).lookup.parts.mongo).toEqual({
        reason: expect.stringContaining('no pid file'),
      });

      await mkdir(run);
      await writeFile(join(run, 'mongo.pid'), `${process.pid}\n`);
      await writeFile(join(run, 'kafka.pid'), `${process.pid}\n`);
      const meter = StackMeter.locate(stackEnv);
      expect(meter.lookup.parts.mongo).toEqual({ pid: process.pid });
      // This process does not listen on the broker's port: it is not the broker.
      expect(meter.lookup.parts.kafka).toEqual({
        reason: expect.stringContaining('does not listen on port 19092'),
      });

      const window = meter.window();
      window.start();
      for (const end = Date.now() + 50; Date.now() < end;);
      window.stop();
      const { stackCpu, machineBusy } = window.result();
      expect(stackCpu.mongo).toEqual({
        measured: true,
        pid: process.pid,
        cpuSeconds: expect.any(Number),
      });
      expect(stackCpu.kafka.measured).toBe(false);
      expect(stackCpu.registry.measured).toBe(false);
      expect(machineBusy).toBeGreaterThan(0);
    } finally {
      server.close();
      await rm(stackDir, { recursive: true, force: true });
    }
  });
});

const FIXTURE = new URL('../fixtures/benchmarks.json', import.meta.url);

const measured = (mongo: number, kafka: number, registry: number): StackCpu => ({
  mongo: { measured: true, pid: 1, cpuSeconds: mongo },
  kafka: { measured: true, pid: 2, cpuSeconds: kafka },
  registry: { measured: true, pid: 3, cpuSeconds: registry },
});

/** The smoke fixture with B's run set to `seconds`, its workers and the stack's CPU given. */
async function reportWith(
  seconds: number,
  workers: [number, number],
  stackCpu: StackCpu,
  machineBusy?: number,
): Promise<BenchReport> {
  const report = JSON.parse(await readFile(FIXTURE, 'utf8')) as BenchReport;
  for (const run of report.designs) run.stackCpu = measured(0.1, 0.1, 0);
  const b = report.designs.find((d) => d.key === 'B')!;
  b.seconds = seconds;
  b.levels = b.levels!.map((level, i) => ({ ...level, cpuSeconds: workers[i]! }));
  b.stackCpu = stackCpu;
  if (machineBusy === undefined) delete b.machineBusy;
  else b.machineBusy = machineBusy;
  return report;
}

describe('boundSentence', () => {
  it('names a part busy for nearly a whole core', async () => {
    const report = await reportWith(2, [0.4, 0.2], measured(1.9, 0.1, 0), 0.7);
    expect(boundSentence(report)).toMatch(
      /went to the database server: it was busy nearly all the time, so the database server bounds B on this machine\.$/,
    );
  });

  it('says the machine bounds B when others saturate it', async () => {
    const report = await reportWith(2, [0.2, 0.1], measured(0.3, 0.1, 0), 0.98);
    expect(boundSentence(report)).toContain("bound by the machine's load");
  });

  it('says no part bounds B when none is near a core', async () => {
    const report = await reportWith(2, [0.5, 0.2], measured(0.6, 0.1, 0), 0.4);
    expect(boundSentence(report)).toContain('bound by the waits between its parts');
  });

  it('refuses to say when a part was not measured', async () => {
    const stack = measured(1, 1, 1);
    stack.mongo = { measured: false, reason: 'no pid file' };
    const report = await reportWith(2, [0.5, 0.2], stack);
    expect(boundSentence(report)).toBe(
      'Not every part of B was measured (database server), so this run cannot say which part bounds B.',
    );
    expect(processCpuSection(report).join('\n')).toContain(
      'Not measured: database server: no pid file.',
    );
  });
});

describe('processCpuSection', () => {
  it('gives every design a row of CPU seconds per million ticks by process', async () => {
    const report = await reportWith(2, [0.5, 0.25], measured(1, 0.5, 0), 0.4);
    const ticks = report.designs.find((d) => d.key === 'B')!.ticks;
    const section = processCpuSection(report).join('\n');
    const perMillion = (s: number) => ((s * 1e6) / ticks).toFixed(1);
    expect(section).toContain(
      `| **B** | — | ${perMillion(0.5)} | ${perMillion(0.25)} | ${perMillion(1)} | ${perMillion(0.5)} | 0.0 | ${perMillion(2.25)} | 40 % |`,
    );
    expect(section).toContain('## CPU per million ticks by process');
  });

  it('is left out of reports from before the stack was measured', async () => {
    const report = JSON.parse(await readFile(FIXTURE, 'utf8')) as BenchReport;
    expect(processCpuSection(report)).toEqual([]);
  });
});
