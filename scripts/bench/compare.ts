// Compare benchmark (target: two 100k-request logs compared in under 5 s): writes
// two ~100k-request logs with the parse benchmark's generator (different seeds, so the
// values differ), then times `node dist/cli.js compare <a> <b> --format json` end to end
// as a user runs it (process start, reading both logs, statistics, output), best and
// median of `runs`. Also one run with the worker threads off, to show what they buy.
// Run alone (after npm run build): node --import tsx scripts/bench/compare.ts [requests]
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { generateBenchLog } from './generateLog';

const ROOT = resolve(__dirname, '..', '..');
const CLI = join(ROOT, 'dist', 'cli.js');

export interface CompareBenchOptions {
  /** Requests per log (approximately: the generator writes whole requests up to a byte size). Default 100k. */
  readonly requests?: number;
  readonly runs?: number;
  readonly log?: (line: string) => void;
}

export interface CompareBenchResult {
  readonly requests: readonly [number, number];
  readonly bytes: readonly [number, number];
  readonly bestS: number;
  readonly medianS: number;
  /** One run with STAGE_LENS_COMPARE_WORKERS=0 (both logs read on the main thread, one after the other). */
  readonly sequentialS: number;
}

/** CPU seconds (user + system) of this process's waited-for children, from /proc/self/stat (Linux); null elsewhere. */
function childrenCpuSeconds(): number | null {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // After the command name: state is field 3, so cutime (16) and cstime (17) are at 13 and 14 here.
    return (Number(fields[13]) + Number(fields[14])) / 100;
  } catch {
    return null;
  }
}

interface Timed {
  readonly wallS: number;
  /** CPU time of the compare process (all its threads), when measurable. */
  readonly cpuS: number | null;
}

function timeCompare(a: string, b: string, env: NodeJS.ProcessEnv): Timed {
  const cpu0 = childrenCpuSeconds();
  const t0 = process.hrtime.bigint();
  const r = spawnSync(process.execPath, [CLI, 'compare', a, b, '--format', 'json'], {
    env,
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  const wallS = Number(process.hrtime.bigint() - t0) / 1e9;
  const cpu1 = childrenCpuSeconds();
  if (r.status !== 0) throw new Error(`compare exited ${r.status}: ${r.stderr}`);
  const json = JSON.parse(r.stdout) as { baseline: { requestCount: number }; metrics: unknown[] };
  if (json.metrics.length === 0 || json.baseline.requestCount === 0) throw new Error('compare produced no metrics');
  return { wallS, cpuS: cpu0 === null || cpu1 === null ? null : cpu1 - cpu0 };
}

export function runCompareBench(options: CompareBenchOptions = {}): CompareBenchResult {
  const log = options.log ?? ((line: string) => console.log(line));
  const requests = options.requests ?? 100_000;
  const runs = options.runs ?? 3;
  if (!existsSync(CLI)) throw new Error('dist/cli.js is missing: run npm run build first');
  const dir = mkdtempSync(join(tmpdir(), 'stage-lens-compare-bench-'));
  try {
    // Calibrate bytes per request on a small log, then size both logs for `requests`.
    // The mix of request kinds drifts with the seed and the size, so the first log corrects the estimate once.
    const probe = generateBenchLog(join(dir, 'probe.log'), 40e6, 7);
    rmSync(join(dir, 'probe.log'));
    const a = join(dir, 'baseline.log');
    const b = join(dir, 'candidate.log');
    let ga = generateBenchLog(a, Math.round((probe.bytes / probe.requests) * requests), 20260821);
    const target = Math.round((ga.bytes / ga.requests) * requests);
    if (Math.abs(ga.requests - requests) > requests * 0.01) ga = generateBenchLog(a, target, 20260821);
    const gb = generateBenchLog(b, target, 20260822);
    log(
      `logs: ${ga.requests.toLocaleString('en-US')} and ${gb.requests.toLocaleString('en-US')} requests, ${(statSync(a).size / 1e6).toFixed(0)} MB and ${(statSync(b).size / 1e6).toFixed(0)} MB`,
    );
    const timed: Timed[] = [];
    for (let i = 0; i < runs; i++) timed.push(timeCompare(a, b, process.env));
    timed.sort((x, y) => x.wallS - y.wallS);
    const best = timed[0];
    const median = timed[Math.floor(timed.length / 2)];
    const cpu = (t: Timed): string => (t.cpuS === null ? '' : `, ${t.cpuS.toFixed(2)} s CPU`);
    log(
      `compare end to end (dist/cli.js, --format json): best ${best.wallS.toFixed(2)} s${cpu(best)}, median ${median.wallS.toFixed(2)} s of ${runs} (target < 5 s; 1-minute load average ${loadavg()[0]?.toFixed(1)} on ${availableParallelism()} cores)`,
    );
    const sequential = timeCompare(a, b, { ...process.env, STAGE_LENS_COMPARE_WORKERS: '0' });
    log(
      `same without worker threads (logs read one after the other): ${sequential.wallS.toFixed(2)} s${cpu(sequential)}`,
    );
    return {
      requests: [ga.requests, gb.requests],
      bytes: [ga.bytes, gb.bytes],
      bestS: best.wallS,
      medianS: median.wallS,
      sequentialS: sequential.wallS,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (require.main === module) {
  const n = Number(process.argv[2] ?? 100_000);
  runCompareBench({ requests: Number.isFinite(n) && n > 0 ? n : 100_000 });
}
