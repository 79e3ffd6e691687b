// "Why is it slow" benchmark:
//  (a) queries in a live session of 100k requests: the bench log is fed chunk by chunk
//      through the parser, the analysis and the explain index (bundled by esbuild, as the
//      language server ships them); once past 100k requests, while requests keep
//      arriving, tail attribution (the main target, p99), load at arrival and the
//      over-time series are each timed after every few chunks, each time over requests
//      that just arrived (no cached answer). As in a live session with the views open, the
//      three are also asked (untimed) every ~1,000 requests before that, so what they keep
//      follows the session; a first answer at the end (a target not asked about before, a
//      new over-time cache) is timed apart. Also: the index's memory per 100k requests
//      (with the main target's kept tail state) and its cost per arriving request.
//  (b) `explain` against `analyze` on the same ~200 MB log: both as cold processes of
//      dist/cli.js, alternated, best and median of `runs` each; target explain within
//      1.5x of analyze.
// Run alone (after npm run build): node --expose-gc --import tsx scripts/bench/explain.ts [requests] [sizeMB]
import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, readSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type * as Core from './explainCore';
import { generateBenchLogApart } from './generateLog';
import { writeEntryBundle } from './coreBundle';

const ROOT = resolve(__dirname, '..', '..');
const CLI = join(ROOT, 'dist', 'cli.js');

function bundledCore(dir: string): typeof Core {
  return require(writeEntryBundle(join(dir, 'explain-core.js'), join(__dirname, 'explainCore.ts'))) as typeof Core;
}

const pick = (sorted: readonly number[], p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;

export interface QueryFigures {
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly maxMs: number;
  /** CPU time of this process during the query (the machine is shared: wall time includes waiting for a core). */
  readonly cpuP50Ms: number;
  readonly cpuP99Ms: number;
  readonly samples: number;
}

export interface ExplainQueryResult {
  readonly requests: number;
  readonly tail: QueryFigures;
  /** Wall ms of a first answer at the end: a target not asked about before, a new over-time cache. */
  readonly first: { readonly tail: number; readonly load: number; readonly overTime: number };
  readonly load: QueryFigures;
  readonly overTime: QueryFigures;
  readonly indexMbPer100k: number;
  readonly addUsPerRequest: number;
}

interface Timing {
  wall: number[];
  cpu: number[];
}

function timed<T>(into: Timing, run: () => T): T {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const value = run();
  into.wall.push(performance.now() - t0);
  const c = process.cpuUsage(c0);
  into.cpu.push((c.user + c.system) / 1000);
  return value;
}

function figures(t: Timing): QueryFigures {
  const sorted = [...t.wall].sort((a, b) => a - b);
  const cpu = [...t.cpu].sort((a, b) => a - b);
  return {
    p50Ms: pick(sorted, 50),
    p99Ms: pick(sorted, 99),
    maxMs: sorted[sorted.length - 1] ?? NaN,
    cpuP50Ms: pick(cpu, 50),
    cpuP99Ms: pick(cpu, 99),
    samples: sorted.length,
  };
}

/** Query latency at `requests` requests in a live session, while requests keep arriving. */
export function explainQueryBench(requests: number, log: (l: string) => void): ExplainQueryResult {
  const dir = mkdtempSync(join(tmpdir(), 'stage-lens-explain-q-'));
  try {
    const core = bundledCore(dir);
    const file = join(dir, 'log.txt');
    // ~7.8 KB per request in the generated log; a little more than needed so queries run while requests arrive.
    generateBenchLogApart(file, requests * 8600);
    const index = new core.ExplainIndex({ year: 2026, live: true });
    let addNs = 0n;
    const analysis = new core.StreamAnalysis({
      year: 2026,
      onRequest: (r) => {
        const t0 = process.hrtime.bigint();
        index.add(r);
        addNs += process.hrtime.bigint() - t0;
      },
    });
    const parser = new core.LogStreamParser();
    const buffer = Buffer.alloc(64 * 1024);
    const fd = openSync(file, 'r');
    const tail: Timing = { wall: [], cpu: [] };
    const load: Timing = { wall: [], cpu: [] };
    const over: Timing = { wall: [], cpu: [] };
    const steps = new core.OverTimeCache();
    let chunks = 0;
    let target: string | null = null;
    const ask = (timing: { tail: Timing; load: Timing; over: Timing } | null): void => {
      const t0 = target ?? core.mainTargetOf(index) ?? 'e2e';
      const run = <T>(into: Timing | undefined, f: () => T): T => (into === undefined ? f() : timed(into, f));
      const t = run(timing?.tail, () => core.tailAttribution(index, { target: t0, quantile: 'p99', scope: {} }));
      const l = run(timing?.load, () => core.loadAtArrival(index, { target: t0, quantile: 'p99', scope: {} }));
      // As the language server answers it: the steps no new request reaches are kept from the last answer.
      const o = run(timing?.over, () =>
        core.overTime(index, { scope: {} }, core.gaugesOfEngines(analysis.engineSeries()), steps),
      );
      if (t === null || l === null || o.times.length === 0) throw new Error('a query gave no answer');
    };
    for (;;) {
      const n = readSync(fd, buffer, 0, buffer.length, null);
      if (n === 0) break;
      analysis.ingest(parser.push(buffer.subarray(0, n)));
      if (index.length === 0) continue;
      if (analysis.requestCount < requests) {
        // The views are open while the session grows: asked now and then (untimed).
        if (chunks++ % 120 === 0) ask(null);
        continue;
      }
      if (chunks++ % 12 !== 0) continue;
      target ??= core.mainTargetOf(index) ?? 'e2e';
      ask({ tail, load, over });
    }
    closeSync(fd);
    analysis.ingest(parser.end());
    analysis.flush();
    global.gc?.();
    // With the main target's kept state (asked about since the first request).
    const indexBytes = index.bytes;
    // A target first asked about now, and a new over-time answer: each made in one pass over the session.
    const late = index.targets().find((t) => t !== target) ?? 'e2e';
    const first = { tail: { wall: [], cpu: [] }, load: { wall: [], cpu: [] }, over: { wall: [], cpu: [] } };
    timed(first.tail, () => core.tailAttribution(index, { target: late, quantile: 'p99', scope: {} }));
    timed(first.load, () => core.loadAtArrival(index, { target: late, quantile: 'p99', scope: {} }));
    timed(first.over, () => core.overTime(index, { scope: {} }, [], new core.OverTimeCache()));
    const result: ExplainQueryResult = {
      requests: index.length,
      tail: figures(tail),
      first: { tail: first.tail.wall[0]!, load: first.load.wall[0]!, overTime: first.over.wall[0]! },
      load: figures(load),
      overTime: figures(over),
      indexMbPer100k: (indexBytes / 1e6) * (100_000 / index.length),
      addUsPerRequest: Number(addNs) / 1000 / index.length,
    };
    const f = (q: QueryFigures): string =>
      `p50 ${q.p50Ms.toFixed(1)} ms, p99 ${q.p99Ms.toFixed(1)} ms, max ${q.maxMs.toFixed(1)} ms wall; CPU p50 ${q.cpuP50Ms.toFixed(1)} ms, p99 ${q.cpuP99Ms.toFixed(1)} ms`;
    log(
      `at ${index.length.toLocaleString('en-US')} requests, while requests arrive (${result.tail.samples} queries each; main target ${target}; load average ${loadavg()
        .map((x) => x.toFixed(2))
        .join(' ')}):`,
    );
    log(`  tail attribution (p99): ${f(result.tail)} (target < 100 ms)`);
    log(`  load at arrival:        ${f(result.load)} (target < 100 ms)`);
    log(`  over-time series:       ${f(result.overTime)} (target < 100 ms)`);
    log(
      `  a first answer at ${index.length.toLocaleString('en-US')} requests (a target not asked about before: ${late}; a new over-time cache): tail ${result.first.tail.toFixed(0)} ms, load ${result.first.load.toFixed(0)} ms, over time ${result.first.overTime.toFixed(0)} ms wall`,
    );
    log(
      `  explain index: ${result.indexMbPer100k.toFixed(1)} MB per 100k requests; ${result.addUsPerRequest.toFixed(1)} µs per arriving request (its breakdown and columns)`,
    );
    return result;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export interface ExplainVsAnalyzeResult {
  readonly bytes: number;
  readonly analyzeS: readonly number[];
  readonly explainS: readonly number[];
  readonly ratioOfMedians: number;
  readonly ratioOfBests: number;
}

function timeCli(args: string[]): number {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(process.execPath, [CLI, ...args], { stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
  const s = Number(process.hrtime.bigint() - t0) / 1e9;
  if (r.status !== 0) throw new Error(`${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  return s;
}

/** `explain` and `analyze` on the same log, cold processes, alternated. */
export function explainVsAnalyzeBench(
  targetBytes: number,
  runs: number,
  log: (l: string) => void,
): ExplainVsAnalyzeResult {
  if (!existsSync(CLI)) throw new Error('dist/cli.js is missing: run npm run build first');
  const dir = mkdtempSync(join(tmpdir(), 'stage-lens-explain-cli-'));
  try {
    const file = join(dir, 'server.log');
    const generated = generateBenchLogApart(file, targetBytes);
    const bytes = statSync(file).size;
    log(
      `log: ${(bytes / 1e6).toFixed(0)} MB, ${generated.requests.toLocaleString('en-US')} requests; load average ${loadavg()
        .map((x) => x.toFixed(2))
        .join(' ')}`,
    );
    const analyze: number[] = [];
    const explain: number[] = [];
    for (let i = 0; i < runs; i++) {
      // Alternate which goes first, so a slow minute of the shared machine hits both.
      if (i % 2 === 0) {
        analyze.push(timeCli(['analyze', file]));
        explain.push(timeCli(['explain', file]));
      } else {
        explain.push(timeCli(['explain', file]));
        analyze.push(timeCli(['analyze', file]));
      }
      log(`  run ${i + 1}: analyze ${analyze[i]!.toFixed(2)} s, explain ${explain[i]!.toFixed(2)} s`);
    }
    const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1] ?? NaN;
    const result = {
      bytes,
      analyzeS: analyze,
      explainS: explain,
      ratioOfMedians: median(explain) / median(analyze),
      ratioOfBests: Math.min(...explain) / Math.min(...analyze),
    };
    log(
      `explain / analyze: ${result.ratioOfMedians.toFixed(2)} (medians ${median(explain).toFixed(2)} / ${median(analyze).toFixed(2)} s), ${result.ratioOfBests.toFixed(2)} (bests) (target <= 1.5)`,
    );
    return result;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (require.main === module) {
  const requests = Number(process.argv[2] ?? 100_000);
  const mb = Number(process.argv[3] ?? 200);
  if (requests > 0) explainQueryBench(requests, console.log);
  if (mb > 0) explainVsAnalyzeBench(mb * 1e6, 5, console.log);
}
