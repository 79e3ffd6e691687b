// Live-session figures: (a) ingest of the simulator at a high request rate for
// a fixed time through the real capture path (child process -> LaunchSource -> parser ->
// analysis), reporting whether the simulator holds its schedule (requests printed per
// second, lag behind the seed's schedule) and whether the analysis keeps up (backlog =
// requests the simulator printed but the analysis has not finalized); (b) the summary
// query at 100k requests.
import { closeSync, mkdtempSync, openSync, readFileSync, readSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { LaunchSource } from '../../server/capture/launchSource';
import { LogStreamParser } from '../../server/core/log';
import { StreamAnalysis } from '../../server/core/analysis/streamAnalysis';
import { parseSimulateArgs } from '../../server/simulate/options';
import { statsSchedule } from '../../server/simulate/schedule';
import { generateBenchLog } from './generateLog';

const ROOT = path.resolve(__dirname, '..', '..');
const MARKER = Buffer.from('[OmniTiming]');
/** Seconds of the run not counted in the steady-state rate: start-up, first arrival at 0.5 s, the first requests finishing. */
const RAMP_S = 5;

export interface LiveIngestResult {
  readonly seconds: number;
  readonly printed: number;
  /** Requests the seed's schedule prints in the run's simulated time; `printed` must equal it. */
  readonly scheduled: number;
  readonly analysed: number;
  /** Requests printed per wall second after the ramp (RAMP_S to the end). */
  readonly steadyPrintedPerS: number;
  /** The same window of the seed's schedule: what a simulator that never falls behind prints. */
  readonly steadyScheduledPerS: number;
  readonly printedPerSecond: readonly number[];
  /** How late each request's record reached us, against its scheduled simulated time. */
  readonly lagMs: { readonly p50: number; readonly p99: number; readonly max: number };
  /** Simulator CPU time over the run, per wall second (1 = one core), or null without /proc. */
  readonly simulatorCpu: number | null;
  readonly simulatorPeakRssMb: number | null;
  /** This process's CPU (parser + analysis + counting) per wall second. */
  readonly ingestCpu: number;
  readonly maxBacklog: number;
  readonly finalBacklog: number;
  readonly backlogTrend: readonly number[];
}

/** utime + stime of a process in seconds, from /proc (Linux); null elsewhere or once it is gone. */
function procCpuSeconds(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100; // USER_HZ is 100 on Linux
  } catch {
    return null;
  }
}

function procPeakRssMb(pid: number): number | null {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m === null ? null : Number(m[1]) / 1024;
  } catch {
    return null;
  }
}

const percentile = (sorted: readonly number[], p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;

/**
 * Runs the simulator at `rps` for `seconds` of wall time and samples the backlog every
 * second. With `speed` > 1 simulated time runs faster, so the wall-clock rate is
 * rps x speed on the same pipeline (whose replicas would saturate at a higher --rps).
 */
export async function liveIngestBench(
  rps: number,
  seconds: number,
  log: (l: string) => void,
  speed = 1,
): Promise<LiveIngestResult> {
  const deploy = path.join(ROOT, 'test/fixtures/sim/deploy/sim_tts_bench.yaml');
  const simSeconds = seconds * speed;
  const simArgs = [
    '--deploy-config',
    deploy,
    '--debug-tables',
    '--rps',
    String(rps),
    '--duration',
    String(simSeconds),
    '--speed',
    String(speed),
    '--port',
    '0',
    '--seed',
    '3',
  ];
  const options = parseSimulateArgs(simArgs)!;
  // Print times of the seed's schedule: request k is due k-th, printAt[k] µs of simulated time after the simulator's start.
  const schedule = statsSchedule(options, Math.round(simSeconds * 1e6));
  const argv = [process.execPath, path.join(ROOT, 'dist/cli.js'), 'simulate', ...simArgs];
  const analysis = new StreamAnalysis();
  const parser = new LogStreamParser();
  let printed = 0;
  let carry = Buffer.alloc(0);
  let t0: number | null = null; // wall time of the start-up lines, written just before the simulated clock starts
  const lags: number[] = [];
  const printedAt: number[] = [];
  const source = new LaunchSource({ argv, cwd: ROOT });
  const trend: number[] = [];
  const cpuSamples: { at: number; cpu: number }[] = [];
  let peakRss: number | null = null;
  const load = loadavg();
  const started = performance.now();
  const ingestCpu0 = process.cpuUsage();
  await new Promise<void>((resolve) => {
    const timer = setInterval(() => {
      trend.push(printed - analysis.requestCount);
      const pid = source.pid;
      const cpu = pid === null ? null : procCpuSeconds(pid);
      if (pid !== null && cpu !== null) {
        cpuSamples.push({ at: performance.now(), cpu });
        peakRss = procPeakRssMb(pid) ?? peakRss;
      }
    }, 1000);
    source.start({
      onData: (bytes, stream) => {
        if (stream !== 'stdout') return;
        const now = performance.now();
        t0 ??= now;
        // Count the simulator's own request records (one [OmniTiming] line each) independently of our parser,
        // keeping a marker that straddles two chunks.
        const text = carry.length === 0 ? bytes : Buffer.concat([carry, bytes]);
        let at = 0;
        for (;;) {
          at = text.indexOf(MARKER, at);
          if (at < 0) break;
          const due = schedule.printAt[printed];
          if (due !== undefined) lags.push(now - (t0 + due / 1000 / speed));
          printedAt.push(now);
          printed += 1;
          at += MARKER.length;
        }
        carry = Buffer.from(text.subarray(Math.max(0, text.length - (MARKER.length - 1))));
        analysis.ingest(parser.push(bytes));
      },
      onStatus: (status) => {
        if (status === 'exited' || status === 'crashed' || status === 'error') {
          clearInterval(timer);
          resolve();
        }
      },
      onNotice: () => undefined,
    });
  });
  const elapsed = (performance.now() - started) / 1000;
  const ingestCpuUs = process.cpuUsage(ingestCpu0);
  const finalBacklog = printed - analysis.requestCount;
  analysis.ingest(parser.end());
  analysis.flush();

  const start = t0 ?? started;
  const perSecond: number[] = [];
  for (const at of printedAt) {
    const s = Math.floor((at - start) / 1000);
    while (perSecond.length <= s) perSecond.push(0);
    perSecond[s]! += 1;
  }
  const steadyEnd = Math.max(RAMP_S + 1, seconds);
  const inWindow = (sec: number): boolean => sec >= RAMP_S && sec < steadyEnd;
  const steadyPrinted = printedAt.filter((at) => inWindow((at - start) / 1000)).length;
  const steadyScheduled = schedule.printAt.filter((us) => inWindow(us / 1e6 / speed)).length;
  const sortedLags = [...lags].sort((a, b) => a - b);
  const first = cpuSamples[0];
  const last = cpuSamples[cpuSamples.length - 1];
  const simulatorCpu =
    first !== undefined && last !== undefined && last.at > first.at
      ? (last.cpu - first.cpu) / ((last.at - first.at) / 1000)
      : null;
  const result: LiveIngestResult = {
    seconds: elapsed,
    printed,
    scheduled: schedule.printAt.length,
    analysed: analysis.requestCount,
    steadyPrintedPerS: steadyPrinted / (steadyEnd - RAMP_S),
    steadyScheduledPerS: steadyScheduled / (steadyEnd - RAMP_S),
    printedPerSecond: perSecond,
    lagMs: {
      p50: percentile(sortedLags, 50),
      p99: percentile(sortedLags, 99),
      max: sortedLags[sortedLags.length - 1] ?? NaN,
    },
    simulatorCpu,
    simulatorPeakRssMb: peakRss,
    ingestCpu: (ingestCpuUs.user + ingestCpuUs.system) / 1e6 / elapsed,
    maxBacklog: Math.max(0, ...trend),
    finalBacklog,
    backlogTrend: trend,
  };
  const pct = (x: number | null): string => (x === null ? 'n/a' : `${(100 * x).toFixed(0)}% of a core`);
  const speedArg = speed === 1 ? '' : ` --speed ${speed}`;
  log(
    `simulator --rps ${rps} --duration ${simSeconds}${speedArg} (sim_tts_bench.yaml, --debug-tables, seed 3): ${rps * speed} requests/s of wall time; load average before: ${load.map((l) => l.toFixed(2)).join(' ')}`,
  );
  log(
    `  arrivals: ${schedule.arrivals} in ${(simSeconds - 0.5).toFixed(1)} s of simulated time (${(schedule.arrivals / (simSeconds - 0.5)).toFixed(0)}/s)`,
  );
  log(
    `  printed ${printed} request records of the ${result.scheduled} the seed schedules; run took ${elapsed.toFixed(1)} s wall`,
  );
  log(
    `  steady rate (wall seconds ${RAMP_S}-${steadyEnd}): ${result.steadyPrintedPerS.toFixed(0)}/s printed, ${result.steadyScheduledPerS.toFixed(0)}/s scheduled`,
  );
  log(`  printed per second: ${perSecond.join(',')}`);
  log(
    `  lag behind schedule: p50 ${result.lagMs.p50.toFixed(1)} ms, p99 ${result.lagMs.p99.toFixed(1)} ms, max ${result.lagMs.max.toFixed(1)} ms`,
  );
  log(
    `  simulator CPU ${pct(simulatorCpu)}, peak RSS ${result.simulatorPeakRssMb === null ? 'n/a' : `${result.simulatorPeakRssMb.toFixed(0)} MB`}`,
  );
  log(
    `live ingest: analysed ${analysis.requestCount} of ${printed}; backlog sampled per second ${trend.join(',')} (max ${result.maxBacklog}, at exit ${finalBacklog}); ingest CPU ${pct(result.ingestCpu)}`,
  );
  return result;
}

export interface SummaryQueryResult {
  readonly requests: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly maxMs: number;
}

/** Summary query latency with 100k requests in a session, while requests keep arriving. */
export function summaryQueryBench(requests: number, log: (l: string) => void): SummaryQueryResult {
  const dir = mkdtempSync(path.join(tmpdir(), 'stage-lens-summary-'));
  try {
    const file = path.join(dir, 'log.txt');
    // The generated log holds about 7.8 KB per request; a little more than needed.
    generateBenchLog(file, requests * 8300);
    const parser = new LogStreamParser();
    const analysis = new StreamAnalysis();
    const buffer = Buffer.alloc(64 * 1024);
    const fd = openSync(file, 'r');
    const times: number[] = [];
    for (;;) {
      const n = readSync(fd, buffer, 0, buffer.length, null);
      if (n === 0) break;
      analysis.ingest(parser.push(buffer.subarray(0, n)));
      // Once past 100k requests, time a summary query after every chunk (a few new requests each).
      if (analysis.requestCount >= requests) {
        const t0 = performance.now();
        const summary = analysis.summary();
        void summary.stages.length;
        times.push(performance.now() - t0);
      }
    }
    closeSync(fd);
    analysis.ingest(parser.end());
    analysis.flush();
    times.sort((a, b) => a - b);
    const pick = (p: number): number => times[Math.min(times.length - 1, Math.floor((p / 100) * times.length))] ?? NaN;
    const result = {
      requests: analysis.requestCount,
      p50Ms: pick(50),
      p99Ms: pick(99),
      maxMs: times[times.length - 1] ?? NaN,
    };
    log(
      `summary query at ${analysis.requestCount} requests: p50 ${result.p50Ms.toFixed(2)} ms, p99 ${result.p99Ms.toFixed(2)} ms, max ${result.maxMs.toFixed(2)} ms over ${times.length} queries (target < 20 ms)`,
    );
    return result;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
