// `stage-lens compare <baseline> <candidate> [--format table|json|markdown] [--fail-if RULE]... [--exclude-cold]
//   [--baseline-boot N] [--candidate-boot N] [--baseline-server name] [--candidate-server name]`
// Reads two runs (logs, /metrics scrapes or saved session folders), compares them per
// stage and phase with significance, diffs their findings, and checks CI rules.
// The two inputs are read in parallel, one worker thread each, when running from the
// bundle (dist/cli.js): reading a 100k-request log is the cost, and the two are independent.
import { stat } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import {
  checkRules,
  compareJson,
  compareMarkdown,
  compareRuns,
  compareTable,
  DEFAULT_SIGNIFICANCE,
  emptyRunReason,
  formatRuleError,
  incomparableReason,
  inputBreakOf,
  parseRules,
  RULE_GRAMMAR,
  ruleLines,
  ruleScopeErrors,
  runDataName,
} from '../core/compare';
import type { RunData, SignificanceOptions } from '../core/compare';
import { ioMessage, loadJoinedRun, loadRun, loadRunFromStream, type LoadRunOptions } from '../capture/compareInput';
import { compareSides, type CompareSide } from './compareSides';
import { readOrderNote } from './severalInputs';
import { bootOption, unknownBootProblem } from './bootOption';
import { serverOption, unknownServerProblem } from './serverOption';
import { parseCommandArgs } from './commandArgs';
import { urlInputsMessage } from './urlInput';
import { COMPARE_WORKER_COMMAND } from './workerCommand';
import { countOf } from '../core/numberText';
import { writeOut } from './stdoutWrite';
import { terminalText } from '../core/textTable';
import { markFullRun } from '../codeCacheRun';

const HELP = `Usage: stage-lens compare <baseline> <candidate> [options]
       stage-lens compare <baseline files...> vs <candidate files...> [options]

Compares two runs of a vLLM-Omni server, each a server log (--log-stats), a /metrics
scrape, or a saved Stage Lens session folder (<storage>/sessions/<id>, or a copy of
one anywhere); one of the two
may be '-', a log or scrape read from stdin. A gzip-compressed log or scrape (a rotated
server.log.1.gz, told by its first bytes) is read as the text inside it. A run whose log
was rotated is given as its files, the two runs' parted by 'vs' (stage-lens compare
before/server.log* vs after/server.log*): each run's files are read as one log, oldest
first by their rotation number or date, as analyze reads several. Per stage and
phase (queued, input wait, ready queued, prefill, decode, TTFT, gen time, time to first
output, added time to first output) and end to end: counts, p50/p90/p99 of both runs,
the difference in ms and %, and whether it is beyond noise; findings that appeared or
disappeared. Values that are not measured (None, hidden rows, codec TTFT not recorded)
are counted apart, never as 0; a metric measured in one run only is said so, not diffed.

Significance: a 95% percentile-bootstrap confidence interval of each quantile difference
(candidate - baseline; 2000 resamples, seed 1, every measured value used); "beyond noise"
when it excludes 0. Also a Mann-Whitney U test per metric. A difference is flagged as a
change (*) only when it is beyond noise, larger than the practical threshold (the larger of
0.1 ms and 1% of the baseline; --min-change-ms, --min-change-pct) and each run has enough
values for the quantile (p50 and p90: 10, p99: 100, so that some value lies above it).
"+1st output" is relative to the upstream stage: a change is "shifted", not faster. Scrapes have no per-request
values: their histogram quantiles are compared without significance ("not testable").

Options:
  --format table|json|markdown  output (default table; markdown for a pull-request comment)
  --fail-if <rules>             fail (exit 1) when a rule is crossed; repeat the flag or
                                separate rules with ';' (an empty rule before, between or
                                after them is an error, as an empty --fail-if is)
  --fail-within-noise           a change rule that crosses its threshold fails even when the
                                difference is within noise (default: it is reported, not failed)
  --fail-unevaluated            a rule that cannot be evaluated (its metric measured in
                                neither run, or in the candidate only; its /metrics series
                                cut short in a scrape, or absent from a scrape cut short
                                before it, so unknown) fails (default: reported). A metric
                                measured in the baseline and not in the candidate (e.g. the
                                codec TTFT becomes not recorded) fails without it: the
                                candidate lost a measurement
  --exclude-cold                leave the first request after each server start out
                                (of a log or session; a scrape's histograms hold every request)
  --baseline-boot <n>           only the requests of server boot n of the baseline, a log or
                                session whose server was restarted and logged on (1: its first
                                server start; 0: requests before any); not for a /metrics scrape
  --candidate-boot <n>          ...of the candidate: compare server.log server.log
                                --baseline-boot 1 --candidate-boot 2 is before vs after a restart
  --baseline-server <name>      only the requests of one server of a baseline log that merges
                                several servers' (kubectl logs --prefix, docker compose logs,
                                stern), named as analyze lists it (pod/<pod>/<container>)
  --candidate-server <name>     ...of the candidate: compare merged.log merged.log
                                --baseline-server A --candidate-server B is one pod against
                                another (finding slow-server)
  --confidence <0..1>           confidence level (default 0.95)
  --resamples <n>               bootstrap resamples per quantile (default 2000)
  --seed <n>                    bootstrap seed (default 1)
  --min-change-ms <ms>          practical threshold: a change is flagged only when |Δ| exceeds
                                the larger of this (default 0.1 ms) and --min-change-pct
  --min-change-pct <percent>    ...of the baseline's quantile (default 1)
  -h, --help                    this text

Rules:
${RULE_GRAMMAR}
  Examples: --fail-if "stage1.ttft.p90 > +10%" --fail-if "request.e2e.p99 > +50ms; stage0.queued.p50 > 200ms"
  A change rule fails when the change crosses the threshold AND is beyond noise (the CI
  excludes 0); where significance is not testable (/metrics histograms, fewer than 10
  values) the point estimate decides.

Exit status: 0 compared, no rule failed; 1 a rule failed (listed on stderr);
2 usage error, malformed rule (an empty one too), an input given as a URL (the message
says how to pipe it in), a rule naming a stage neither run has (the stages
they have are listed), a rule on a stage of two runs that are not one pipeline
(different stages, or two roles for it: both are named), a --baseline-boot or --candidate-boot
its run does not have (the boots it has are listed) or given for a /metrics scrape, the same of
a --baseline-server or --candidate-server (the servers it has are listed), or an input
that cannot be read or compared: among them
an input that holds nothing to compare (0 requests read and no /metrics histogram: an
empty log, one without stats, a zstd, xz or bzip2 file, binary data, or gzip data that
broke off before any request), said on stderr with no report. A .gz cut short is compared
on the requests (a scrape's series) before the cut, and says so (stderr and the report's notes).`;

const WORKER_TASK = 'stage-lens/compare-load';

interface WorkerRequest {
  readonly task: typeof WORKER_TASK;
  readonly side: CompareSide;
  readonly options: LoadRunOptions;
}

type WorkerReply = { readonly ok: true; readonly run: RunData } | { readonly ok: false; readonly message: string };

export function isCompareWorker(data: unknown): data is WorkerRequest {
  return typeof data === 'object' && data !== null && (data as { task?: unknown }).task === WORKER_TASK;
}

/** Worker-thread side (the hidden worker command): load one run and post it back (sample arrays transferred, not copied). */
export async function runCompareWorker(): Promise<number> {
  const request: unknown = workerData;
  if (isMainThread || !isCompareWorker(request)) {
    process.stderr.write(`stage-lens: ${COMPARE_WORKER_COMMAND} runs only as a worker thread of compare\n`);
    return 2;
  }
  let reply: WorkerReply;
  const transfer: ArrayBuffer[] = [];
  try {
    const run = await loadSide(request.side, request.options);
    for (const scope of run.samples?.scopes ?? []) {
      for (const m of Object.values(scope.metrics))
        if (m !== undefined && m.values.buffer instanceof ArrayBuffer) transfer.push(m.values.buffer);
    }
    reply = { ok: true, run };
  } catch (err) {
    reply = { ok: false, message: err instanceof Error ? err.message : String(err) };
  }
  parentPort?.postMessage(reply, transfer);
  return 0;
}

/** The CLI's entry file, which a worker thread starts on (the main module: dist/cli.js). */
function cliEntry(): string | undefined {
  return require.main?.filename;
}

/** Workers need the entry to be the bundle (dist/cli.js); under tsx (tests) it is not. */
function workersUsable(): boolean {
  return (
    isMainThread &&
    __filename.endsWith('.js') &&
    (cliEntry()?.endsWith('.js') ?? false) &&
    availableParallelism() > 1 &&
    process.env['STAGE_LENS_COMPARE_WORKERS'] !== '0'
  );
}

/** One run: its input, or its several files read as one log. */
function loadSide(side: CompareSide, options: LoadRunOptions): Promise<RunData> {
  return side.files === null ? loadRun(side.source, options) : loadJoinedRun(side.files, options);
}

function loadInWorker(side: CompareSide, options: LoadRunOptions, workers: Worker[]): Promise<RunData> {
  const source = side.source;
  return new Promise((resolve, reject) => {
    const worker = new Worker(cliEntry() as string, {
      argv: [COMPARE_WORKER_COMMAND],
      workerData: { task: WORKER_TASK, side, options } satisfies WorkerRequest,
    });
    workers.push(worker);
    let settled = false;
    worker.once('message', (reply: WorkerReply) => {
      settled = true;
      if (reply.ok) resolve(reply.run);
      else reject(new Error(reply.message));
    });
    worker.once('error', (err) => {
      if (!settled) reject(err);
      settled = true;
    });
    worker.once('exit', (code) => {
      if (!settled) reject(new Error(`reading ${source} stopped (worker exit ${code})`));
    });
  });
}

/** The input that names stdin. */
const STDIN_SOURCE = '-';

/** Reads both runs, each with its own options (its boot). */
export async function loadRuns(
  baseline: CompareSide,
  candidate: CompareSide,
  baselineOptions: LoadRunOptions,
  candidateOptions: LoadRunOptions,
): Promise<[RunData, RunData]> {
  if (baseline.source === STDIN_SOURCE && candidate.source === STDIN_SOURCE)
    throw new Error("only one of the two inputs can be '-' (stdin)");
  // A missing path is reported at once, not after the other input was read (several files were checked already).
  for (const side of [baseline, candidate]) {
    if (side.source === STDIN_SOURCE || side.files !== null) continue;
    try {
      await stat(side.source);
    } catch (err) {
      throw new Error(ioMessage(side.source, err));
    }
  }
  // stdin is read on this thread; a file in a worker when workers are usable.
  const useWorkers = workersUsable();
  const workers: Worker[] = [];
  const load = (side: CompareSide, options: LoadRunOptions): Promise<RunData> =>
    side.source === STDIN_SOURCE && side.files === null
      ? loadRunFromStream(process.stdin, 'stdin', options)
      : useWorkers
        ? loadInWorker(side, options, workers)
        : loadSide(side, options);
  try {
    return await Promise.all([load(baseline, baselineOptions), load(candidate, candidateOptions)]);
  } catch (err) {
    // The other input is of no use once one failed (and stdin must not keep the program waiting).
    await Promise.all(workers.map((w) => w.terminate()));
    if (baseline.source === STDIN_SOURCE || candidate.source === STDIN_SOURCE) process.stdin.destroy();
    throw err;
  }
}

/**
 * Why a side's boot cannot be read: a /metrics scrape has no boots (its histograms count every
 * request since the server started), or the log has no such boot (the boots it has); null when it can.
 */
function runBootProblem(run: RunData, side: 'baseline' | 'candidate', boot: number | null): string | null {
  if (boot === null) return null;
  if (run.kind === 'scrape')
    return `--${side}-boot ${boot}: the ${side} (${run.source}) is a /metrics scrape, which has no server boots (its histograms count every request since the server started); --${side}-boot selects from a log or a saved session folder`;
  const problem = unknownBootProblem(run.bootCounts ?? null);
  return problem === null ? null : `--${side}-boot ${boot}: the ${side} (${run.source}): ${problem}`;
}

/** Why a side's server cannot be read: a scrape has no server tags, or the log has no request of it (the servers it has); null when it can. */
function runServerProblem(run: RunData, side: 'baseline' | 'candidate', server: string | null): string | null {
  if (server === null) return null;
  if (run.kind === 'scrape')
    return `--${side}-server ${server}: the ${side} (${run.source}) is a /metrics scrape, which has no server tags (its histograms count every request of one server since it started); --${side}-server selects from a log or a saved session folder`;
  const problem = unknownServerProblem(run.serverCounts ?? null);
  return problem === null ? null : `--${side}-server ${server}: the ${side} (${run.source}): ${problem}`;
}

function usage(message: string): number {
  process.stderr.write(
    `stage-lens compare: ${message}\n\nRun 'stage-lens compare --help' for the options and the rule grammar.\n`,
  );
  return 2;
}

function numberOption(
  value: string | undefined,
  name: string,
  fallback: number,
  valid: (n: number) => boolean,
  what: string,
): number | string {
  if (value === undefined) return fallback;
  const n = Number(value);
  return Number.isFinite(n) && valid(n) ? n : `--${name} must be ${what} (got '${value}')`;
}

export async function runCompare(argv: string[]): Promise<number> {
  const parsed = parseCommandArgs(
    argv,
    {
      'fail-if': { type: 'string', multiple: true, default: [] },
      'fail-within-noise': { type: 'boolean', default: false },
      'fail-unevaluated': { type: 'boolean', default: false },
      confidence: { type: 'string' },
      resamples: { type: 'string' },
      seed: { type: 'string' },
      'min-change-ms': { type: 'string' },
      'min-change-pct': { type: 'string' },
      'baseline-boot': { type: 'string' },
      'candidate-boot': { type: 'string' },
      'baseline-server': { type: 'string' },
      'candidate-server': { type: 'string' },
    },
    HELP,
    usage,
  );
  if (typeof parsed === 'number') return parsed;
  const v = parsed.values;
  const format = v.format as string;
  if (format !== 'table' && format !== 'json' && format !== 'markdown')
    return usage(`--format must be table, json or markdown (got '${format}')`);
  const sides = compareSides(parsed.positionals);
  if (typeof sides === 'string') return usage(sides);
  const [baselineSide, candidateSide] = sides;
  const asUrl = urlInputsMessage('compare', [
    ...(baselineSide.files ?? [baselineSide.source]).map((value) => ({ role: 'baseline', value })),
    ...(candidateSide.files ?? [candidateSide.source]).map((value) => ({ role: 'candidate', value })),
  ]);
  if (asUrl !== null) {
    process.stderr.write(`stage-lens compare: ${asUrl}\n`);
    return 2;
  }

  const { rules, errors } = parseRules((v['fail-if'] as string[] | undefined) ?? []);
  if (errors.length > 0) {
    process.stderr.write(
      errors.map((e) => `stage-lens compare: ${formatRuleError(e)}\n`).join('') + `\nRule grammar:\n${RULE_GRAMMAR}\n`,
    );
    return 2;
  }
  const confidence = numberOption(
    v.confidence,
    'confidence',
    DEFAULT_SIGNIFICANCE.confidence,
    (n) => n > 0 && n < 1,
    'between 0 and 1, e.g. 0.95',
  );
  const resamples = numberOption(
    v.resamples,
    'resamples',
    DEFAULT_SIGNIFICANCE.resamples,
    (n) => Number.isInteger(n) && n >= 100 && n <= 1_000_000,
    'an integer from 100 to 1000000',
  );
  const seed = numberOption(
    v.seed,
    'seed',
    DEFAULT_SIGNIFICANCE.seed,
    (n) => Number.isInteger(n) && n >= 0 && n <= 0xffffffff,
    'an integer from 0 to 4294967295',
  );
  const minChangeMs = numberOption(
    v['min-change-ms'],
    'min-change-ms',
    DEFAULT_SIGNIFICANCE.minChangeMs,
    (n) => n >= 0,
    'a number of ms, 0 or more',
  );
  const minChangePct = numberOption(
    v['min-change-pct'],
    'min-change-pct',
    DEFAULT_SIGNIFICANCE.minChangePct,
    (n) => n >= 0,
    'a percentage, 0 or more',
  );
  const baselineBoot = bootOption(v['baseline-boot'], '--baseline-boot');
  const candidateBoot = bootOption(v['candidate-boot'], '--candidate-boot');
  for (const o of [confidence, resamples, seed, minChangeMs, minChangePct, baselineBoot, candidateBoot])
    if (typeof o === 'string') return usage(o);
  const baselineServer = serverOption(v['baseline-server']);
  const candidateServer = serverOption(v['candidate-server']);
  for (const [flag, o] of [
    ['--baseline-server', baselineServer],
    ['--candidate-server', candidateServer],
  ] as const)
    if (o !== null && o.problem !== null) return usage(o.problem.replace('--server', flag));
  const significance: SignificanceOptions = {
    ...DEFAULT_SIGNIFICANCE,
    confidence: confidence as number,
    resamples: resamples as number,
    seed: seed as number,
    minChangeMs: minChangeMs as number,
    minChangePct: minChangePct as number,
  };

  let runs: [RunData, RunData];
  try {
    const excludeCold = v['exclude-cold'] === true;
    for (const [role, side] of [
      ['baseline', baselineSide],
      ['candidate', candidateSide],
    ] as const)
      if (side.files !== null) process.stderr.write(`stage-lens compare: the ${role} ${readOrderNote(side.files)}\n`);
    runs = await loadRuns(
      baselineSide,
      candidateSide,
      { excludeCold, boot: baselineBoot as number | null, server: baselineServer?.name ?? null },
      { excludeCold, boot: candidateBoot as number | null, server: candidateServer?.name ?? null },
    );
  } catch (err) {
    process.stderr.write(`stage-lens compare: ${err instanceof Error ? err.message : String(err)}\n`);
    return 2;
  }
  const [baseline, candidate] = runs;
  markFullRun();
  const selectionProblem =
    runBootProblem(baseline, 'baseline', baselineBoot as number | null) ??
    runBootProblem(candidate, 'candidate', candidateBoot as number | null) ??
    runServerProblem(baseline, 'baseline', baselineServer?.name ?? null) ??
    runServerProblem(candidate, 'candidate', candidateServer?.name ?? null);
  if (selectionProblem !== null) {
    process.stderr.write(terminalText(`stage-lens compare: ${selectionProblem}\n`));
    return 2;
  }
  // A scrape's histograms count every request since the server started, the cold ones too.
  if (v['exclude-cold'] === true) {
    const scrapes = runs.filter((r) => r.samples === null).map(runDataName);
    if (scrapes.length > 0)
      process.stderr.write(
        `stage-lens compare: warning: --exclude-cold does not apply to ${scrapes.join(' and ')}: a /metrics scrape has no per-request values, and its histograms include the cold requests\n`,
      );
  }
  // Before anything is printed: a report against an empty run would read as one, and pass.
  let empty = false;
  for (const [name, run] of [
    ['baseline', baseline],
    ['candidate', candidate],
  ] as const) {
    const reason = emptyRunReason(run);
    const broke = inputBreakOf(run);
    if (reason === null && broke !== undefined)
      process.stderr.write(terminalText(`stage-lens compare: warning: the ${name} (${runDataName(run)}): ${broke}\n`));
    if (reason === null) continue;
    process.stderr.write(`stage-lens compare: the ${name} (${runDataName(run)}) holds nothing to compare: ${reason}\n`);
    empty = true;
  }
  if (empty) return 2;
  const incomparable = incomparableReason(baseline, candidate);
  if (incomparable !== null) {
    process.stderr.write(`stage-lens compare: ${incomparable}\n`);
    return 2;
  }

  const report = compareRuns(baseline, candidate, { significance });
  // Also on stderr: a CI log shows it when the report goes to a file (--format markdown > compare.md).
  if (report.stagesDiffer != null) process.stderr.write(`stage-lens compare: warning: ${report.stagesDiffer}\n`);
  // A rule on a stage neither run has is a typo or the wrong pipeline: a usage error, no report.
  const scopeErrors = ruleScopeErrors(rules, report);
  if (scopeErrors.length > 0) {
    process.stderr.write(scopeErrors.map((e) => `stage-lens compare: ${e}\n`).join(''));
    return 2;
  }
  const results = checkRules(rules, report, {
    noiseFilter: v['fail-within-noise'] !== true,
    failUnevaluated: v['fail-unevaluated'] === true,
  });
  const text =
    format === 'json'
      ? JSON.stringify(compareJson(report, results), null, 2) + '\n'
      : format === 'markdown'
        ? terminalText(compareMarkdown(report, results))
        : terminalText(compareTable(report, results).join('\n')) + '\n';
  await writeOut(text);

  const failed = results.filter((r) => r.failed);
  const unevaluated = results.filter((r) => r.outcome === 'notEvaluated' && !r.failed);
  if (unevaluated.length > 0)
    process.stderr.write(
      `stage-lens compare: ${countOf(unevaluated.length, 'rule')} not evaluated (not failing; --fail-unevaluated makes them fail):\n${ruleLines(unevaluated).join('\n')}\n`,
    );
  if (failed.length > 0) {
    process.stderr.write(
      `stage-lens compare: ${failed.length} of ${countOf(results.length, 'rule')} failed:\n${ruleLines(failed).join('\n')}\n`,
    );
    return 1;
  }
  return 0;
}
