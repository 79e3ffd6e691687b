// Why a fresh process parses slower than a warmed-up one: the log parser and the analysis
// (bundled by esbuild, as they ship) fed a log in 1 MB chunks, each chunk timed, in a fresh
// child process; then, in the same process, the same log again from the start with a new
// parser and analysis. The first pass pays for V8 running the code before it is optimized
// (interpreted, then compiled as functions get hot); the second shows the optimized cost of the
// same bytes. Reported per stretch of the log: the first MB, MB 2-8, MB 9-16, the rest.
// Then, warmed up (after those two passes, best of WARM_ROUNDS alternated): the floor's loop
// (lineFloor.cjs: TextDecoder and a string per line), the parser alone, and the parser with the
// analysis, in that same process: what the code costs when V8 has nothing left to compile, the
// ceiling of a cold process's ratio to the floor.
// Run alone: node --import tsx scripts/bench/coldParse.ts <log> [rounds]
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeCoreBundle } from './coreBundle';

/** Alternated warm rounds of the floor's loop, the parser and parser + analysis (best of each). */
const WARM_ROUNDS = 4;

/** A script for the child: two passes over the log, each chunk's push + ingest time in ms, then the warm rounds, as JSON. */
const CHILD = `
const { LogStreamParser, StreamAnalysis } = require(process.argv[2]);
const fs = require('node:fs');
/** One pass over the log with a new parser (and analysis, when asked): each chunk's ms into \`times\` when given. */
function readLog(analyze, times) {
  const fd = fs.openSync(process.argv[3], 'r');
  const chunk = Buffer.allocUnsafe(1 << 20);
  const parser = new LogStreamParser();
  const analysis = new StreamAnalysis({ keepRequests: false });
  for (;;) {
    const n = fs.readSync(fd, chunk, 0, chunk.length, null);
    if (n === 0) break;
    const t0 = performance.now();
    const read = parser.push(chunk.subarray(0, n));
    if (analyze) analysis.ingest(read);
    if (times !== null) times.push(performance.now() - t0);
  }
  analysis.ingest(parser.end());
  analysis.flush();
  fs.closeSync(fd);
}
const passes = [];
for (let pass = 0; pass < 2; pass++) {
  const times = [];
  readLog(true, times);
  passes.push(times);
}
const { readLines } = require(process.argv[4]);
const lineFloor = () => readLines(process.argv[3]);
const warm = { floorMs: Infinity, parseMs: Infinity, parseAndAnalysisMs: Infinity };
for (let round = 0; round < ${WARM_ROUNDS}; round++) {
  for (const [name, run] of [['floorMs', lineFloor], ['parseMs', () => readLog(false, null)], ['parseAndAnalysisMs', () => readLog(true, null)]]) {
    const t0 = performance.now();
    run();
    warm[name] = Math.min(warm[name], performance.now() - t0);
  }
}
process.stdout.write(JSON.stringify({ passes, warm }));
`;

export interface ColdParseResult {
  /** Per pass (fresh, then warm): ms per MB over [first MB, MB 2-8, MB 9-16, the rest]. */
  readonly fresh: readonly number[];
  readonly warm: readonly number[];
  readonly totalFreshMs: number;
  readonly totalWarmMs: number;
  /** Warmed up in the same process (medians over rounds of each round's best), ms for the whole log. */
  readonly warmedUp: WarmedUp;
}

export interface WarmedUp {
  /** The floor process's loop: TextDecoder and a string per line. */
  readonly floorMs: number;
  readonly parseMs: number;
  readonly parseAndAnalysisMs: number;
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
    const runs: { fresh: number[]; warm: number[]; totalFresh: number; totalWarm: number; warmedUp: WarmedUp }[] = [];
    for (let r = 0; r < rounds; r++) {
      const run = spawnSync(process.execPath, [child, bundle, logPath, join(__dirname, 'lineFloor.cjs')], {
        encoding: 'utf8',
        maxBuffer: 64 << 20,
      });
      if (run.status !== 0) throw new Error(`cold parse child failed: ${run.stderr}`);
      const out = JSON.parse(run.stdout) as {
        passes: [number[], number[]];
        warm: WarmedUp;
      };
      const [fresh, warm] = out.passes;
      const sum = (xs: number[]): number => xs.reduce((a, b) => a + b, 0);
      runs.push({
        fresh: perStretch(fresh),
        warm: perStretch(warm),
        totalFresh: sum(fresh),
        totalWarm: sum(warm),
        warmedUp: out.warm,
      });
    }
    const result: ColdParseResult = {
      fresh: STRETCHES.map((_, i) => median(runs.map((x) => x.fresh[i]!))),
      warm: STRETCHES.map((_, i) => median(runs.map((x) => x.warm[i]!))),
      totalFreshMs: median(runs.map((x) => x.totalFresh)),
      totalWarmMs: median(runs.map((x) => x.totalWarm)),
      warmedUp: {
        floorMs: median(runs.map((x) => x.warmedUp.floorMs)),
        parseMs: median(runs.map((x) => x.warmedUp.parseMs)),
        parseAndAnalysisMs: median(runs.map((x) => x.warmedUp.parseAndAnalysisMs)),
      },
    };
    const f = (v: number): string => (Number.isNaN(v) ? '-' : v.toFixed(1));
    log(`parse + analysis per 1 MB chunk in a fresh process, then again in it (median of ${rounds}), ms/MB:`);
    log(
      `  MB 1 / 2-8 / 9-16 / rest, fresh: ${result.fresh.map(f).join(' / ')}; total ${result.totalFreshMs.toFixed(0)} ms`,
    );
    log(
      `  MB 1 / 2-8 / 9-16 / rest, again: ${result.warm.map(f).join(' / ')}; total ${result.totalWarmMs.toFixed(0)} ms`,
    );
    const w = result.warmedUp;
    const ratio = (ms: number): string => `${ms.toFixed(0)} ms (${(ms / w.floorMs).toFixed(2)}x)`;
    log(
      `  warmed up in that process (best of ${WARM_ROUNDS}, median of ${rounds}): the floor's loop ${w.floorMs.toFixed(0)} ms;` +
        ` parser ${ratio(w.parseMs)}; parser + analysis ${ratio(w.parseAndAnalysisMs)}`,
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
