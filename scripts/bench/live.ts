// Live-session figures (issue 3): (a) ingest of the simulator at a high request rate for
// a fixed time through the real capture path (child process -> LaunchSource -> parser ->
// analysis), reporting whether the analysis keeps up (backlog = requests the simulator
// printed but the analysis has not finalized); (b) the summary query at 100k requests.
import { closeSync, mkdtempSync, openSync, readSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { LaunchSource } from '../../server/capture/launchSource';
import { LogStreamParser } from '../../server/core/log';
import { StreamAnalysis } from '../../server/core/analysis/streamAnalysis';
import { generateBenchLog } from './generateLog';

const ROOT = path.resolve(__dirname, '..', '..');

export interface LiveIngestResult {
  readonly seconds: number;
  readonly printed: number;
  readonly analysed: number;
  readonly requestsPerS: number;
  readonly maxBacklog: number;
  readonly finalBacklog: number;
  readonly backlogTrend: readonly number[];
}

/** Runs the simulator at `rps` for `seconds` and samples the backlog every second. */
export async function liveIngestBench(rps: number, seconds: number, log: (l: string) => void): Promise<LiveIngestResult> {
  const deploy = path.join(ROOT, 'test/fixtures/sim/deploy/sim_tts_bench.yaml');
  const argv = [process.execPath, path.join(ROOT, 'dist/cli.js'), 'simulate', '--deploy-config', deploy, '--debug-tables', '--rps', String(rps), '--duration', String(seconds), '--port', '0', '--seed', '3'];
  const analysis = new StreamAnalysis();
  const parser = new LogStreamParser();
  let printed = 0;
  const source = new LaunchSource({ argv, cwd: ROOT });
  const trend: number[] = [];
  const started = Date.now();
  await new Promise<void>((resolve) => {
    const timer = setInterval(() => trend.push(printed - analysis.requestCount), 1000);
    source.start({
      onData: (bytes, stream) => {
        if (stream !== 'stdout') return;
        // Count the simulator's own request records (one [OmniTiming] line each) independently of our parser.
        let at = 0;
        for (;;) {
          at = bytes.indexOf('[OmniTiming]', at);
          if (at < 0) break;
          printed += 1;
          at += 12;
        }
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
  const elapsed = (Date.now() - started) / 1000;
  const finalBacklog = printed - analysis.requestCount;
  analysis.ingest(parser.end());
  analysis.flush();
  const result = { seconds: elapsed, printed, analysed: analysis.requestCount, requestsPerS: analysis.requestCount / elapsed, maxBacklog: Math.max(0, ...trend), finalBacklog, backlogTrend: trend };
  log(`live ingest: ${printed} requests printed in ${elapsed.toFixed(1)} s (${(printed / elapsed).toFixed(0)}/s); analysed ${analysis.requestCount}; backlog per second ${trend.join(',')} (max ${result.maxBacklog}, at exit ${finalBacklog})`);
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
    const result = { requests: analysis.requestCount, p50Ms: pick(50), p99Ms: pick(99), maxMs: times[times.length - 1] ?? NaN };
    log(`summary query at ${analysis.requestCount} requests: p50 ${result.p50Ms.toFixed(2)} ms, p99 ${result.p99Ms.toFixed(2)} ms, max ${result.maxMs.toFixed(2)} ms over ${times.length} queries (target < 20 ms)`);
    return result;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
