// Why a fresh process parses slower than a warmed-up one: the log parser and the analysis
// (bundled by esbuild, as they ship) fed a log in 1 MB chunks, each chunk timed, in a fresh
// child process; then, in the same process, the same log again from the start with a new
// parser and analysis. The first pass pays for V8 running the code before it is optimized
// (interpreted, then compiled as functions get hot); the second shows the optimized cost of the
// same bytes. Reported per stretch of the log: the first MB, MB 2-8, MB 9-16, the rest.
// Run alone: node --import tsx scripts/bench/coldParse.ts <log> [rounds]
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeCoreBundle } from './coreBundle';

/** A script for the child: two passes over the log, each chunk's push + ingest time in ms, as JSON. */
const CHILD = `
const { LogStreamParser, StreamAnalysis } = require(process.argv[2]);
const fs = require('node:fs');
const passes = [];
for (let pass = 0; pass < 2; pass++) {
  const fd = fs.openSync(process.argv[3], 'r');
  const chunk = Buffer.allocUnsafe(1 << 20);
  const parser = new LogStreamParser();
  const analysis = new StreamAnalysis({ keepRequests: false });
  const times = [];
  for (;;) {
    const n = fs.readSync(fd, chunk, 0, chunk.length, null);
    if (n === 0) break;
    const t0 = performance.now();
    analysis.ingest(parser.push(chunk.subarray(0, n)));
    times.push(performance.now() - t0);
  }
  analysis.ingest(parser.end());
  analysis.flush();
  fs.closeSync(fd);
  passes.push(times);
}
process.stdout.write(JSON.stringify(passes));
`;

export interface ColdParseResult {
  /** Per pass (fresh, then warm): ms per MB over [first MB, MB 2-8, MB 9-16, the rest]. */
  readonly fresh: readonly number[];
  readonly warm: readonly number[];
  readonly totalFreshMs: number;
  readonly totalWarmMs: number;
}

const STRETCHES: readonly [number, number][] = [
  [0, 1],
  [1, 8],
  [8, 16],
  [16, Infinity],
];

const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? NaN : (s[(s.length - 1) >> 1]! + s[s.length >> 1]!) / 2;
};

function perStretch(times: readonly number[]): number[] {
  return STRETCHES.map(([from, to]) => {
    const part = times.slice(from, Math.min(to, times.length));
    return part.length === 0 ? NaN : part.reduce((a, b) => a + b, 0) / part.length;
  });
}

export function runColdParseBench(
  logPath: string,
  rounds = 3,
  log = (line: string) => console.log(line),
): ColdParseResult {
  const dir = mkdtempSync(join(tmpdir(), 'stage-lens-cold-parse-'));
  try {
    const bundle = writeCoreBundle(join(dir, 'core.js'));
    const child = join(dir, 'child.cjs');
    writeFileSync(child, CHILD);
    const runs: { fresh: number[]; warm: number[]; totalFresh: number; totalWarm: number }[] = [];
    for (let r = 0; r < rounds; r++) {
      const run = spawnSync(process.execPath, [child, bundle, logPath], { encoding: 'utf8', maxBuffer: 64 << 20 });
      if (run.status !== 0) throw new Error(`cold parse child failed: ${run.stderr}`);
      const [fresh, warm] = JSON.parse(run.stdout) as [number[], number[]];
      const sum = (xs: number[]): number => xs.reduce((a, b) => a + b, 0);
      runs.push({ fresh: perStretch(fresh), warm: perStretch(warm), totalFresh: sum(fresh), totalWarm: sum(warm) });
    }
    const result: ColdParseResult = {
      fresh: STRETCHES.map((_, i) => median(runs.map((x) => x.fresh[i]!))),
      warm: STRETCHES.map((_, i) => median(runs.map((x) => x.warm[i]!))),
      totalFreshMs: median(runs.map((x) => x.totalFresh)),
      totalWarmMs: median(runs.map((x) => x.totalWarm)),
    };
    const f = (v: number): string => (Number.isNaN(v) ? '-' : v.toFixed(1));
    log(`parse + analysis per 1 MB chunk in a fresh process, then again in it (median of ${rounds}), ms/MB:`);
    log(
      `  MB 1 / 2-8 / 9-16 / rest, fresh: ${result.fresh.map(f).join(' / ')}; total ${result.totalFreshMs.toFixed(0)} ms`,
    );
    log(
      `  MB 1 / 2-8 / 9-16 / rest, again: ${result.warm.map(f).join(' / ')}; total ${result.totalWarmMs.toFixed(0)} ms`,
    );
    return result;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (require.main === module) {
  const [logPath, rounds] = process.argv.slice(2);
  if (logPath === undefined) {
    console.error('usage: node --import tsx scripts/bench/coldParse.ts <log> [rounds]');
    process.exit(2);
  }
  runColdParseBench(logPath, rounds === undefined ? 3 : Number(rounds));
}
