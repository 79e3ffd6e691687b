// Cold benchmark ("fast as users run it"): `stage-lens analyze` as users run it,
// one fresh process from start to last byte, measured from outside as a child process.
//   floor   node reading the file, decoding UTF-8 and splitting lines (1 MB reads):
//           scripts/bench/lineFloor.cjs, what any Node program that reads the log pays;
//   table / json / csv / trace   node dist/cli.js analyze <log> [--format ...], output to a file;
//   bytes   the least work that reads the same table values (scripts/bench/byteReader.cjs: bytes,
//           lines, numeric cells into typed columns, no records, no analysis), its sums checked
//           against analyze's JSON: how far the per-byte work is from the floor;
//   python  a naive Python reader of the same tables (scripts/bench/naive_reader.py), JSON out
//           (skipped with a message when python3 is absent).
// Each round runs the floor and every command once, in that order, so every figure comes
// with a floor measured in the same minutes; medians of `rounds` rounds, with the ratio of
// the medians and the median of the per-round ratios (the second follows a load that
// drifts during the run). Logs: the parse bench's 200 MB log (Qwen3-TTS, Qwen3-Omni and
// AR -> diffusion requests) and one of 10,000 two-stage (Qwen3-TTS) requests; then the
// parser and analysis per MB of the two-stage log in a fresh process and again in it
// (scripts/bench/coldParse.ts: what a fresh process pays before V8 optimizes) and V8's
// compiles and deopts in one table run (scripts/bench/v8Work.ts); the
// first 1 MB of the two-stage log against `node -e 0`, with the CLI's code cache (filled by one run
// before the rounds, in a directory of the bench's own) and without it. Peak RSS (GNU time's %M, else VmHWM polled
// from /proc) of each; the growth of analyze's peak RSS per request between the two logs, and
// between the bench log and one twice its size (./memoryAtScale.ts).
// Run alone (after npm run build): node --import tsx scripts/bench/cold.ts [--quick] [--rounds n]
//   [--baseline <another build's dist/cli.js>]: its table, json and csv run in the same rounds
//   (before/after figures measured in the same minutes); [--without-peer] leaves the Python
//   peer out; [--logs two-stage,bench,start-up] measures only those.
import { spawn, spawnSync } from 'node:child_process';
import {
  closeSync,
  existsSync,
  mkdtempSync,
  openSync,
  readFileSync,
  readSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { generateBenchLogApart, type GeneratedLog } from './generateLog';
import { describeV8Work, v8WorkOf } from './v8Work';
import { runColdParseBench } from './coldParse';
import { measureMemoryAtScale } from './memoryAtScale';

const ROOT = resolve(__dirname, '..', '..');
const CLI = join(ROOT, 'dist', 'cli.js');
const FLOOR = join(__dirname, 'lineFloor.cjs');
const PEER = join(__dirname, 'naive_reader.py');
const BYTE_READER = join(__dirname, 'byteReader.cjs');
const GNU_TIME = '/usr/bin/time';
const MB = 1e6;

export interface ColdBenchOptions {
  readonly quick?: boolean;
  /** Rounds per log (each runs the floor and every command once); default 5, at least 5 for figures quoted against a target. */
  readonly rounds?: number;
  readonly log?: (line: string) => void;
  /** Another build's dist/cli.js, measured in the same rounds (its commands are named base-table ...). */
  readonly baselineCli?: string;
  /** Leave out the naive Python peer (it takes the longest of all). */
  readonly withoutPeer?: boolean;
  /** Which logs to measure (default both, then the 1 MB start-up). */
  readonly logs?: readonly ('two-stage' | 'bench' | 'start-up')[];
}

interface Run {
  readonly wallS: number;
  readonly cpuS: number | null;
  readonly peakRssMB: number | null;
  readonly outBytes: number;
}

interface Command {
  readonly name: string;
  readonly argv: readonly string[];
  /** Writes its result to stdout (kept in a file for the checks). */
  readonly output: boolean;
  /** Added to the environment (e.g. STAGE_LENS_CODE_CACHE=0). */
  readonly env?: Readonly<Record<string, string>>;
}

// The CLI keeps V8's code cache of its bundles per user (server/codeCache.ts): the bench
// gives it a directory of its own, filled by one run before the rounds, as a user's second run finds it.
let childEnv: NodeJS.ProcessEnv = process.env;

/** Runs one command as a child process: wall time from spawn to exit, with its stdout in `outFile`. */
function runOnce(
  argv: readonly string[],
  outFile: string | null,
  env: Readonly<Record<string, string>> = {},
): Promise<Run> {
  const timed = existsSync(GNU_TIME);
  const args = timed ? [GNU_TIME, '-f', '@@ %U %S %M', ...argv] : [...argv];
  const out = outFile === null ? 'ignore' : openSync(outFile, 'w');
  return new Promise((resolvePromise, reject) => {
    const t0 = process.hrtime.bigint();
    const child = spawn(args[0], args.slice(1), { stdio: ['ignore', out, 'pipe'], env: { ...childEnv, ...env } });
    let stderr = '';
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (d: string) => (stderr += d));
    // Without GNU time: the child's peak RSS from /proc while it runs (VmHWM is a high-water mark).
    let hwmKB = 0;
    const poll = timed
      ? null
      : setInterval(() => {
          try {
            const m = /VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
            if (m) hwmKB = Math.max(hwmKB, Number(m[1]));
          } catch {
            // gone
          }
        }, 10);
    child.on('error', reject);
    child.on('close', (code) => {
      const wallS = Number(process.hrtime.bigint() - t0) / 1e9;
      if (poll !== null) clearInterval(poll);
      if (typeof out === 'number') closeSync(out);
      const stats = /@@ ([\d.]+) ([\d.]+) (\d+)\s*$/.exec(stderr);
      if (code !== 0) {
        reject(new Error(`${argv.join(' ')} exited ${code}: ${stderr.slice(-2000)}`));
        return;
      }
      resolvePromise({
        wallS,
        cpuS: stats === null ? null : Number(stats[1]) + Number(stats[2]),
        peakRssMB: stats === null ? (hwmKB > 0 ? hwmKB / 1024 : null) : Number(stats[3]) / 1024,
        outBytes: outFile === null ? 0 : statSync(outFile).size,
      });
    });
  });
}

const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const n = s.length;
  return n === 0 ? NaN : n % 2 === 1 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
};
const f = (n: number, d = 2): string =>
  n.toLocaleString('en-US', { minimumFractionDigits: d, maximumFractionDigits: d });

function pythonAvailable(): string | null {
  const r = spawnSync('python3', ['--version'], { encoding: 'utf8' });
  return r.status === 0 ? (r.stdout || r.stderr).trim() : null;
}

interface Measured {
  readonly command: Command;
  readonly runs: Run[];
  /** wall / the floor's wall of the same round. */
  readonly ratios: number[];
}

export interface ColdLogResult {
  readonly label: string;
  readonly bytes: number;
  readonly requests: number;
  readonly floorS: number;
  readonly figures: Record<
    string,
    { wallS: number; ratio: number; pairedRatio: number; cpuS: number | null; peakRssMB: number | null; outMB: number }
  >;
}

/** Rounds of [floor, ...commands] on one log; the checks run on the last round's outputs. */
async function measureLog(
  label: string,
  logPath: string,
  generated: GeneratedLog,
  commands: readonly Command[],
  rounds: number,
  dir: string,
  log: (line: string) => void,
): Promise<ColdLogResult> {
  const floor: Command = { name: 'floor', argv: [process.execPath, FLOOR, logPath], output: false };
  const all = [floor, ...commands];
  const measured: Measured[] = all.map((command) => ({ command, runs: [], ratios: [] }));
  const load0 = loadavg()[0] ?? 0;
  for (let round = 0; round < rounds; round++) {
    let floorWall = NaN;
    for (const m of measured) {
      const out = m.command.output ? join(dir, `${m.command.name}.out`) : null;
      const run = await runOnce(m.command.argv, out, m.command.env);
      if (m.command === floor) floorWall = run.wallS;
      m.runs.push(run);
      m.ratios.push(run.wallS / floorWall);
      if (out !== null && round < rounds - 1) rmSync(out, { force: true });
    }
  }
  const load1 = loadavg()[0] ?? 0;
  const floorRuns = measured[0].runs.map((r) => r.wallS);
  const floorS = median(floorRuns);
  log(
    `${label}: ${f(generated.bytes / MB, 1)} MB, ${generated.requests.toLocaleString('en-US')} requests; ${rounds} rounds; 1-minute load average ${f(load0, 1)} -> ${f(load1, 1)} on ${availableParallelism()} cores; floor ${f(Math.min(...floorRuns))}-${f(Math.max(...floorRuns))} s`,
  );
  const figures: ColdLogResult['figures'] = {};
  for (const m of measured) {
    const wallS = median(m.runs.map((r) => r.wallS));
    const cpu = m.runs.map((r) => r.cpuS).filter((c): c is number => c !== null);
    const rss = m.runs.map((r) => r.peakRssMB).filter((c): c is number => c !== null);
    const outMB = (m.runs[m.runs.length - 1]?.outBytes ?? 0) / MB;
    const figure = {
      wallS,
      ratio: wallS / floorS,
      pairedRatio: median(m.ratios),
      cpuS: cpu.length === 0 ? null : median(cpu),
      peakRssMB: rss.length === 0 ? null : Math.max(...rss),
      outMB,
    };
    figures[m.command.name] = figure;
    const walls = m.runs.map((r) => r.wallS);
    log(
      `  ${m.command.name.padEnd(7)} ${f(wallS)} s (${f(Math.min(...walls))}-${f(Math.max(...walls))})` +
        (m.command === floor ? '' : `  ${f(figure.ratio)}x the floor (per round: ${f(figure.pairedRatio)}x)`) +
        (figure.cpuS === null ? '' : `  CPU ${f(figure.cpuS)} s`) +
        (figure.peakRssMB === null ? '' : `  peak RSS ${f(figure.peakRssMB, 0)} MB`) +
        (m.command.output ? `  output ${f(outMB, 1)} MB` : ''),
    );
  }
  checkOutputs(dir, generated, commands, log);
  return { label, bytes: generated.bytes, requests: generated.requests, floorS, figures };
}

interface AnalysisJsonShape {
  readonly requests: { requestId: string; stages: Record<string, { fields: Record<string, unknown> }> }[];
}

/** The outputs of the last round: JSON parses with every request; the Python peer read the same stage fields. */
function checkOutputs(
  dir: string,
  generated: GeneratedLog,
  commands: readonly Command[],
  log: (line: string) => void,
): void {
  const names = new Set(commands.map((c) => c.name));
  let ours: AnalysisJsonShape | null = null;
  if (names.has('json')) {
    ours = JSON.parse(readFileSync(join(dir, 'json.out'), 'utf8')) as AnalysisJsonShape;
    if (ours.requests.length !== generated.requests)
      throw new Error(`analyze --format json gave ${ours.requests.length} requests, the log has ${generated.requests}`);
  }
  if (names.has('csv')) {
    const rows = countLines(join(dir, 'csv.out')) - 1;
    log(`  checks: csv ${rows.toLocaleString('en-US')} rows (one per request and stage)`);
  }
  if (names.has('python') && ours !== null) {
    const peer = JSON.parse(readFileSync(join(dir, 'python.out'), 'utf8')) as AnalysisJsonShape;
    const byId = new Map(peer.requests.map((r) => [r.requestId, r]));
    let same = 0;
    for (const r of ours.requests) {
      const p = byId.get(r.requestId);
      if (p !== undefined && sameStageFields(r, p)) same++;
    }
    log(
      `  checks: the Python peer read ${peer.requests.length.toLocaleString('en-US')} requests; ${same.toLocaleString('en-US')} of ${ours.requests.length.toLocaleString('en-US')} have exactly Stage Lens's stage fields`,
    );
    if (same !== ours.requests.length)
      throw new Error('the Python peer does not read the same tables: fix it before comparing speed');
  }
  if (names.has('bytes') && ours !== null) {
    // The byte reader's sums of each vllm_* field over every stage column, against the same sums
    // of analyze's JSON: a lower bound is only one if it read the same values.
    const read = JSON.parse(readFileSync(join(dir, 'bytes.out'), 'utf8')) as { sums: Record<string, number> };
    const ourSums = new Map<string, number>();
    for (const r of ours.requests)
      for (const stage of Object.values(r.stages))
        for (const [name, v] of Object.entries(stage.fields))
          if (name.startsWith('vllm_') && typeof v === 'number') ourSums.set(name, (ourSums.get(name) ?? 0) + v);
    const differ = [...ourSums].filter(([name, sum]) => read.sums[name] !== Math.round(sum * 1000) / 1000);
    log(
      `  checks: the byte reader's sums of ${Object.keys(read.sums).length} vllm_* fields ${differ.length === 0 ? 'equal' : 'differ from'} analyze's`,
    );
    if (differ.length > 0 || Object.keys(read.sums).length !== ourSums.size)
      throw new Error(`the byte reader does not read the same values (${differ.map(([n]) => n).join(', ')})`);
  }
  for (const c of commands) rmSync(join(dir, `${c.name}.out`), { force: true });
}

function sameStageFields(a: AnalysisJsonShape['requests'][number], b: AnalysisJsonShape['requests'][number]): boolean {
  const keys = Object.keys(a.stages);
  if (keys.length !== Object.keys(b.stages).length) return false;
  for (const k of keys) {
    const fa = a.stages[k]?.fields ?? {};
    const fb = b.stages[k]?.fields ?? {};
    const names = Object.keys(fa);
    if (names.length !== Object.keys(fb).length) return false;
    for (const n of names) if (fa[n] !== fb[n]) return false;
  }
  return true;
}

function countLines(path: string): number {
  const fd = openSync(path, 'r');
  const buf = Buffer.allocUnsafe(1 << 20);
  let lines = 0;
  try {
    for (let n = readSync(fd, buf, 0, buf.length, null); n > 0; n = readSync(fd, buf, 0, buf.length, null)) {
      for (let i = buf.indexOf(10); i !== -1 && i < n; i = buf.indexOf(10, i + 1)) lines++;
    }
  } finally {
    closeSync(fd);
  }
  return lines;
}

/** The first `bytes` of a log, cut after a line. */
function headOf(path: string, out: string, bytes: number): number {
  const fd = openSync(path, 'r');
  const buf = Buffer.allocUnsafe(bytes);
  const n = readSync(fd, buf, 0, bytes, 0);
  closeSync(fd);
  const end = buf.lastIndexOf(10, n - 1) + 1;
  writeFileSync(out, buf.subarray(0, end));
  return end;
}

/** Peak RSS growth per request between the two logs, and the Python peer against analyze --format json. */
function reportAcross(
  two: ColdLogResult,
  bench: ColdLogResult,
  python: string | null,
  log: (line: string) => void,
): void {
  const tableRss = [two.figures['table']?.peakRssMB, bench.figures['table']?.peakRssMB];
  const jsonRss = [two.figures['json']?.peakRssMB, bench.figures['json']?.peakRssMB];
  const perRequest = (pair: (number | null | undefined)[]): string => {
    const [a, b] = pair;
    return a === null || a === undefined || b === null || b === undefined
      ? 'n/a'
      : `${f(((b - a) * 1024 * 1024) / (bench.requests - two.requests) / 1000, 2)} KB`;
  };
  log(
    `peak RSS growth per request between the two logs: table ${perRequest(tableRss)}, json ${perRequest(jsonRss)} (target: no more than the packed store's ~1 KB)`,
  );
  if (python !== null)
    log(
      `analyze --format json against the Python peer (${python}): ${f((bench.figures['python']?.wallS ?? NaN) / (bench.figures['json']?.wallS ?? NaN), 1)}x faster on the bench log, ${f((two.figures['python']?.wallS ?? NaN) / (two.figures['json']?.wallS ?? NaN), 1)}x on the two-stage log (target >= 10x)`,
    );
}

export async function runColdBench(options: ColdBenchOptions = {}): Promise<ColdLogResult[]> {
  const log = options.log ?? ((line: string) => console.log(line));
  const rounds = Math.max(options.rounds ?? (options.quick === true ? 3 : 5), 1);
  if (!existsSync(CLI)) throw new Error('dist/cli.js is missing: run npm run build first');
  const python = options.withoutPeer === true ? null : pythonAvailable();
  const logs = new Set(options.logs ?? ['two-stage', 'bench', 'start-up']);
  const baseline = options.baselineCli;
  const dir = mkdtempSync(join(tmpdir(), 'stage-lens-cold-bench-'));
  const results: ColdLogResult[] = [];
  try {
    const big = join(dir, 'bench.log');
    const twoStage = join(dir, 'two-stage.log');
    const genBig = logs.has('bench') ? generateBenchLogApart(big, options.quick === true ? 40 * MB : 200 * MB) : null;
    const genTwo = generateBenchLogApart(twoStage, Infinity, {
      kinds: ['tts'],
      maxRequests: options.quick === true ? 2_000 : 10_000,
    });
    if (python === null && options.withoutPeer !== true) log('python3 not found: the naive Python peer is skipped');
    // The 1 MB head: the start-up figures, and the run that fills the code cache first.
    const small = join(dir, 'one-mb.log');
    const smallBytes = headOf(twoStage, small, 1_000_000);
    childEnv = { ...process.env, XDG_CACHE_HOME: join(dir, 'cache') };
    await runOnce([process.execPath, CLI, 'analyze', small], null);
    // The baseline's cache apart: a bundle of the same name but another build replaces the
    // other's cache when it saves its own (codeCache.ts), so sharing one would leave each stale.
    // Its output goes to a file as the measured build's does (writing 270 MB of JSON is part
    // of the run, and its writeback slows whatever runs next).
    const baseEnv = { XDG_CACHE_HOME: join(dir, 'cache-baseline') };
    if (baseline !== undefined) await runOnce([process.execPath, baseline, 'analyze', small], null, baseEnv);
    const commands = (logPath: string): Command[] => [
      { name: 'table', argv: [process.execPath, CLI, 'analyze', logPath], output: true },
      // The JSON on one thread, and with the parse worker (used by itself only on a machine with a
      // core free, which the bench's own processes leave no more: server/cli/parseInWorker.ts).
      {
        name: 'json',
        argv: [process.execPath, CLI, 'analyze', logPath, '--format', 'json'],
        output: true,
        env: { STAGE_LENS_PARSE_WORKER: '0' },
      },
      {
        name: 'json-worker',
        argv: [process.execPath, CLI, 'analyze', logPath, '--format', 'json'],
        output: true,
        env: { STAGE_LENS_PARSE_WORKER: '1' },
      },
      { name: 'csv', argv: [process.execPath, CLI, 'analyze', logPath, '--format', 'csv'], output: true },
      { name: 'trace', argv: [process.execPath, CLI, 'analyze', logPath, '--format', 'trace'], output: true },
      { name: 'bytes', argv: [process.execPath, BYTE_READER, logPath], output: true },
      ...(python === null ? [] : [{ name: 'python', argv: ['python3', PEER, logPath], output: true }]),
      ...(baseline === undefined
        ? []
        : [
            { name: 'base-table', argv: [process.execPath, baseline, 'analyze', logPath], output: true, env: baseEnv },
            {
              name: 'base-json',
              argv: [process.execPath, baseline, 'analyze', logPath, '--format', 'json'],
              output: true,
              env: baseEnv,
            },
            {
              name: 'base-csv',
              argv: [process.execPath, baseline, 'analyze', logPath, '--format', 'csv'],
              output: true,
              env: baseEnv,
            },
          ]),
    ];
    const two = logs.has('two-stage')
      ? await measureLog('two-stage log', twoStage, genTwo, commands(twoStage), rounds, dir, log)
      : null;
    if (two !== null) results.push(two);
    // Where a fresh process's extra time goes: the parser and analysis per MB, fresh and again;
    // and V8's compiles and deopts in one table run.
    if (two !== null) {
      runColdParseBench(twoStage, Math.min(rounds, 3), log);
      log(`  V8 in one table run: ${describeV8Work(v8WorkOf([CLI, 'analyze', twoStage], childEnv))}`);
      if (baseline !== undefined)
        log(
          `  the baseline's: ${describeV8Work(v8WorkOf([baseline, 'analyze', twoStage], { ...childEnv, ...baseEnv }))}`,
        );
    }
    const bench = genBig !== null ? await measureLog('bench log', big, genBig, commands(big), rounds, dir, log) : null;
    if (bench !== null) results.push(bench);
    if (two !== null && bench !== null) reportAcross(two, bench, python, log);
    if (bench !== null && genBig !== null && options.quick !== true) {
      const growth = await measureMemoryAtScale(
        CLI,
        { path: big, bytes: genBig.bytes, requests: genBig.requests },
        dir,
        3,
        async (argv, env) => (await runOnce(argv, null, env)).peakRssMB,
      );
      if (growth !== null)
        log(
          `peak RSS growth per request at scale, the bench log against one twice its size (3 rounds, medians): ${growth
            .map((g) => `${g.format} ${f(g.smallMB, 0)} -> ${f(g.largeMB, 0)} MB, ${f(g.kbPerRequest, 2)} KB`)
            .join('; ')} (target: no more than the packed store's ~1 KB)`,
        );
    }
    if (!logs.has('start-up')) return results;
    // Start-up: the first 1 MB of the two-stage log, against `node -e 0` and the floor.
    const startRounds = options.quick === true ? 5 : 15;
    const startCommands: Command[] = [
      { name: 'node -e 0', argv: [process.execPath, '-e', '0'], output: false },
      { name: 'floor', argv: [process.execPath, FLOOR, small], output: false },
      { name: 'analyze', argv: [process.execPath, CLI, 'analyze', small], output: false },
      {
        name: 'analyze, no code cache',
        argv: [process.execPath, CLI, 'analyze', small],
        output: false,
        env: { STAGE_LENS_CODE_CACHE: '0' },
      },
      {
        name: 'analyze --format json',
        argv: [process.execPath, CLI, 'analyze', small, '--format', 'json'],
        output: false,
      },
      ...(baseline === undefined
        ? []
        : [
            { name: 'base analyze', argv: [process.execPath, baseline, 'analyze', small], output: false, env: baseEnv },
          ]),
    ];
    const walls = startCommands.map(() => [] as number[]);
    for (let round = 0; round < startRounds; round++) {
      for (const [i, c] of startCommands.entries()) walls[i]?.push((await runOnce(c.argv, null, c.env)).wallS);
    }
    log(
      `a 1 MB log (${f(smallBytes / MB, 2)} MB, ${startRounds} rounds; load ${f(loadavg()[0] ?? 0, 1)}), wall medians:`,
    );
    startCommands.forEach((c, i) =>
      log(
        `  ${c.name.padEnd(22)} ${f(median(walls[i] ?? []) * 1000, 0)} ms (${f(Math.min(...(walls[i] ?? [])) * 1000, 0)}-${f(Math.max(...(walls[i] ?? [])) * 1000, 0)})${c.name === 'analyze' ? ' (target <= 100 ms)' : ''}`,
      ),
    );
    return results;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (require.main === module) {
  const args = process.argv.slice(2);
  const at = args.indexOf('--rounds');
  const base = args.indexOf('--baseline');
  const logsAt = args.indexOf('--logs');
  const logs =
    logsAt === -1 ? undefined : ((args[logsAt + 1] ?? '').split(',') as ('two-stage' | 'bench' | 'start-up')[]);
  void runColdBench({
    quick: args.includes('--quick'),
    rounds: at === -1 ? undefined : Number(args[at + 1]),
    baselineCli: base === -1 ? undefined : resolve(args[base + 1] ?? ''),
    withoutPeer: args.includes('--without-peer'),
    logs,
  });
}
