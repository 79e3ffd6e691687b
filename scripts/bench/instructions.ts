// Instructions instead of seconds, for changes too small for this project's 2-core machine to
// time: wall-clock medians of the same code move by 10% and more from minute to minute there,
// and a change that timed 14% faster over 14 alternated rounds counted 0.8% fewer instructions.
// Each child runs under valgrind's cachegrind (counting instructions only) with
// `node --predictable` (no concurrent compiler or GC threads, fixed hash and random seeds, no
// timer-driven GC), so the same code on the same log counts the same to a few parts per
// million (`--single-threaded` alone moved by up to 10% between runs). It counts all the work,
// compiles and GC included, not what a user waits for (V8 normally compiles on another
// thread); confirm a real gain with the timed benchmarks.
//
// For the parser and for the parser with the analysis (bundled as dist/ ships them), and for
// the floor's line reader: one pass over the log in a fresh process (start-up, the interpreter,
// the compiles), and what each further pass in that process adds (the optimized code's work).
// Needs valgrind (Debian: `apt install valgrind`); runs ~30x slower than natively: give it a
// 10-20 MB log.
//   node --import tsx scripts/bench/instructions.ts <log> [<core bundle to compare>]
//   node --import tsx scripts/bench/instructions.ts --write-bundle <out.cjs>   (this tree's core)
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { writeCoreBundle } from './coreBundle';

const FLOOR = resolve(__dirname, 'lineFloor.cjs');

/** The child: `passes` passes over the log, each with a new parser (`parse`), a new parser and analysis (`analysis`), or the floor's reader (`floor`: `code` is lineFloor.cjs). */
const CHILD = `
const [code, log, passes, what] = process.argv.slice(2);
const fs = require('node:fs');
if (what === 'floor') {
  const { readLines } = require(code);
  for (let p = 0; p < Number(passes); p++) readLines(log);
} else {
  const { LogStreamParser, StreamAnalysis } = require(code);
  const bytes = fs.readFileSync(log);
  for (let p = 0; p < Number(passes); p++) {
    const parser = new LogStreamParser();
    const analysis = what === 'analysis' ? new StreamAnalysis({ keepRequests: false }) : null;
    for (let i = 0; i < bytes.length; i += 1 << 20) {
      const read = parser.push(bytes.subarray(i, i + (1 << 20)));
      if (analysis !== null) analysis.ingest(read);
    }
    const rest = parser.end();
    if (analysis !== null) {
      analysis.ingest(rest);
      analysis.flush();
    }
  }
}
`;

/** Instructions of one child run, from cachegrind's summary. */
function instructions(child: string, code: string, log: string, passes: number, what: string): number {
  const run = spawnSync(
    'valgrind',
    [
      '--tool=cachegrind',
      '--cache-sim=no',
      // V8 writes and rewrites machine code: valgrind must see the new code.
      '--smc-check=all-non-file',
      '--cachegrind-out-file=/dev/null',
      process.execPath,
      '--predictable',
      child,
      code,
      log,
      String(passes),
      what,
    ],
    { encoding: 'utf8', maxBuffer: 1 << 26 },
  );
  if (run.error !== undefined)
    throw new Error(`valgrind did not run (${run.error.message}); Debian: apt install valgrind`);
  const refs = /I\s+refs:\s+([\d,]+)/.exec(run.stderr);
  if (run.status !== 0 || refs === null) throw new Error(`the counted run failed:\n${run.stderr.slice(-2000)}`);
  return Number((refs[1] as string).replaceAll(',', ''));
}

function main(): void {
  const args = process.argv.slice(2);
  if (args[0] === '--write-bundle' && args[1] !== undefined) {
    process.stdout.write(`${writeCoreBundle(resolve(args[1]))}\n`);
    return;
  }
  const log = args[0];
  if (log === undefined) {
    process.stderr.write(
      'usage: instructions.ts <log> [<core bundle to compare>] | instructions.ts --write-bundle <out.cjs>\n',
    );
    process.exitCode = 2;
    return;
  }
  const dir = mkdtempSync(join(tmpdir(), 'stage-lens-instructions-'));
  try {
    const child = join(dir, 'child.cjs');
    writeFileSync(child, CHILD);
    const cores = [writeCoreBundle(join(dir, 'core.cjs')), ...(args[1] === undefined ? [] : [resolve(args[1])])];
    const M = (n: number): string => `${(n / 1e6).toFixed(0)}M`;
    const count = (core: string, what: string): string => {
      const one = instructions(child, core, log, 1, what);
      const three = instructions(child, core, log, 3, what);
      return `one pass ${M(one)}, each further pass ${M((three - one) / 2)}`;
    };
    process.stdout.write(`instructions on ${log} (valgrind, node --predictable)\n`);
    process.stdout.write(`  floor's line reader: ${count(FLOOR, 'floor')}\n`);
    for (const core of cores) {
      const name = core.startsWith(dir) ? 'this tree' : basename(core);
      process.stdout.write(`  ${name}: parser ${count(core, 'parse')}\n`);
      process.stdout.write(`  ${name}: parser + analysis ${count(core, 'analysis')}\n`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

try {
  main();
} catch (err) {
  process.stderr.write(`instructions.ts: ${(err as Error).message}\n`);
  process.exitCode = 1;
}
