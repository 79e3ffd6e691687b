// `stage-lens analyze <file...|-> [--format table|json|csv|trace] [--pretty] [--exclude-cold]`
// Reads a server log or a /metrics scrape (told apart by content) from a file or stdin,
// in chunks, and prints the per-stage phase split and findings.
import { createReadStream, type ReadStream } from 'node:fs';
import type { Readable } from 'node:stream';
import { StreamAnalysis } from '../core/analysis/streamAnalysis';
import { LogStreamParser } from '../core/log';
import { analysisJsonRest, problemsJson, type HistogramSummaryJson } from '../core/report/jsonReport';
import { fileLinesText, type FileLines } from '../core/joinedLines';
import { snapshotWithFindings } from '../core/analysis/snapshotWithFindings';
import { AnalysisJsonWriter } from '../core/report/jsonStream';
import type { JsonLayout } from '../core/report/jsonChunks';
import { CsvWriter } from '../core/report/csvReport';
import { RepeatTally } from '../core/analysis/requestRepeats';
import { runSummaryCsvNote } from '../core/analysis/runSummaries';
import { overallSummaryCsvNote } from '../core/analysis/overallSummaries';
import { TABLE_SUMMARY_FIELDS, tableReport } from '../core/report/tableReport';
import { traceChunks } from '../core/report/trace';
import type { AnalyzedRequest, Finding } from '../core/analysis/types';
import {
  summarizeParsedScrape,
  type PreemptionCount,
  type SpeechStreamCounts,
} from '../core/metricsText/scrapeSummary';
import { parseExposition } from '../core/metricsText/exposition';
import { nonFiniteSampleText } from '../core/metricsText/sampleLine';
import { metricNotReportingInScrape } from '../core/explain/metricNotReporting';
import { caveatBesidesCut, cutSeriesCaveat, scrapeCutFinding } from '../core/metricsText/scrapeCut';
import { terminalText, textTable, withVisibleControls } from '../core/textTable';
import { groupedNumber } from '../core/numberText';
import { boundSign } from '../core/metricsText/quantileBounds';
import type { Percentile } from '../core/reportedPercentiles';
import { MAX_SCRAPE_BYTES, readByKind } from '../capture/inputByKind';
import { fileChunks } from '../capture/fileChunks';
import { followOneMessage, inputDamageNote, inputsToRead, readOrderNote, unreadFilesStatus } from './severalInputs';
import { JoinedFiles } from '../capture/joinedFiles';
import { WorkerParsedInput, workerParsedInput } from './parseInWorker';
import { parseCommandArgs } from './commandArgs';
import { pushInPieces } from '../core/log/pushInPieces';
import { markFullRun } from '../codeCacheRun';
import { sentenceCase } from '../core/sentenceCase';
import { emptyWindowProblem, windowJsonOf, windowNoteOf, windowOption } from './windowOption';
import { scrapeSelectionProblem } from './scrapeSelection';
import { bootNoteOf, bootOption, unknownBootProblem } from './bootOption';
import { serverNoteOf, serverOption, unknownServerProblem } from './serverOption';
import type { WindowSpec } from '../core/explain/timeWindow';
import { readProgress, type ProgressLine } from './progress';
import { maxOf, pushAll } from '../core/arrays';
import { writeOut } from './stdoutWrite';
import { Interrupts } from './interrupts';
import { cliInputNames, stageRolesFromOf, stageRolesOf } from '../core/stageRoles';
import { deployConfigJson } from '../core/deployConfigUsed';
import type { ParseOutput, ParseProblem } from '../core/records';
import { unreadableInputProblem } from '../core/analysis/unreadableInput';
import { deployConfigOptionProblem, deployConfigReport, readErrorWords } from './deployConfigOption';
import { isGzipFile, type InputEncoding } from '../capture/gunzipInput';
import { encodedSourceName, gzipNotFollowedText, headerSourceName, scrapeGzipDamagedFinding } from '../core/gzipInput';

const HELP = `Usage: stage-lens analyze <file...|-> [options]

Reads a vLLM-Omni server log (--log-stats) or a /metrics scrape, from a file or from
stdin ('-'), and prints the per-stage phase split (queued = input wait + ready queued,
prefill, decode, TTFT) with p50/p90/p99 and the findings. A gzip-compressed input (a
rotated server.log.1.gz, told by its first bytes) is read as the text inside it, streaming.
Several files (a log and its rotations: stage-lens analyze server.log*) are read as one log,
oldest first by their rotation number or date, each .gz decompressed on its own; line numbers
count through them, and the report places them back in their files. A log kept as JSON lines
(Docker's <id>-json.log, journalctl -o json, Loki, a JSON log formatter) is read as the lines
it wraps. A log that merges several servers' (kubectl logs --prefix, docker compose logs,
stern) is read per server, by each line's tag, with each server's end to end beside the whole.

Options:
  --format table|json|csv|trace
                            output format (default: table); trace: a Chrome trace (JSON) of
                            every request's stages and phases, for Perfetto (ui.perfetto.dev)
  --pretty                  with --format json: indent the JSON (2 spaces); without it, the JSON
                            has no whitespace but a line break before each request and each
                            top-level member (one request per line, ~45% smaller)
  --exclude-cold            leave the first request after each server start out of the percentiles
                            and findings
  --since <time>            only requests that finished at or after <time>: 'MM-DD HH:MM[:SS]' as
                            the log prints it, or 'HH:MM[:SS]' on the log's first day
  --until <time>            only requests that finished at or before <time> (the same forms)
  --boot <n>                only requests of server boot n (1: the log's first server start; 0:
                            requests before any), for a log whose boots served different
                            pipelines (finding boots-differ-in-pipeline)
  --server <name>           only requests of one server of a log that merges several servers'
                            (findings slow-server, servers-differ-in-pipeline), named as the
                            report lists it: pod/<pod>/<container> (kubectl logs --prefix), the
                            container (docker compose logs), <pod>/<container> (stern)
  --deploy-config <yaml>    the deploy YAML the server ran with (base_config overlays resolved):
                            findings name what it sets that explains them (e.g. model_runner
                            v2 + async_chunk for a stage whose prefill covers its decode); the
                            JSON's deployConfig names it and whether its settings are cited
  -f, --follow              follow a growing log file (appends, truncation, rotation) with a
                            live table; Ctrl-C or --duration <s> ends it with a final summary;
                            a .gz (a rotated log, done growing) is read whole instead
  --duration <s>            with --follow: stop after s seconds (without --follow: a usage error;
                            with a .gz, read whole, it does not apply)
  -h, --help                this text

Exit status: 0 when the input was read (findings are data, not failures);
2 for usage or I/O errors, an empty input (0 bytes; a gzip of nothing too), a window
(--since/--until) no request finished in, a --boot or --server the log does not have (the
message lists its boots or servers), a /metrics scrape given --since/--until, --boot or --server
(it has no requests to select: nothing is printed), or an input that is not a text log (zstd, xz or bzip2 data, binary data:
nothing in it was read; the report says why, and how to read a compressed log). Gzip data that breaks off (a
.gz cut short or damaged): the report covers the log before the break, and it and stderr say
where it broke ("the gzip data ends after N MB of log: ..."); exit 0, or 2 when no request came
before it; 130 after Ctrl-C (143 after SIGTERM) ended a read of stdin, whose report covers what
was read before it; 1 when a .gz among several files broke off before the last file (the files
after it were not read; stderr names them). A URL is not read: pipe a scrape in (curl -s URL |
stage-lens analyze -).`;

type Format = 'table' | 'json' | 'csv' | 'trace';

/** What analyze reads, as its usage errors say it. */
const INPUT_EXPECTED = "an input file (several: read as one log), or '-' for stdin";

/** What analyze reads: a stream, a file's chunks, or a file parsed in a worker thread. */
type AnalyzeInput = Readable | AsyncIterable<Buffer> | WorkerParsedInput | JoinedFiles;

export async function runAnalyze(argv: string[]): Promise<number> {
  const parsed = parseCommandArgs(
    argv,
    {
      follow: { type: 'boolean', short: 'f', default: false },
      duration: { type: 'string' },
      'deploy-config': { type: 'string' },
      pretty: { type: 'boolean', default: false },
      since: { type: 'string' },
      until: { type: 'string' },
      boot: { type: 'string' },
      server: { type: 'string' },
    },
    HELP,
    (message) => {
      process.stderr.write(`stage-lens analyze: ${message}\n\n${HELP}\n`);
      return 2;
    },
  );
  if (typeof parsed === 'number') return parsed;
  const format = parsed.values.format as string;
  if (format !== 'table' && format !== 'json' && format !== 'csv' && format !== 'trace') {
    process.stderr.write(`stage-lens analyze: --format must be table, json, csv or trace (got '${format}')\n`);
    return 2;
  }
  const window = windowOption(parsed.values.since, parsed.values.until);
  if (typeof window === 'string') {
    process.stderr.write(`stage-lens analyze: ${window}\n`);
    return 2;
  }
  const boot = bootOption(parsed.values.boot);
  if (typeof boot === 'string') {
    process.stderr.write(`stage-lens analyze: ${boot}\n`);
    return 2;
  }
  const server = serverOption(parsed.values.server);
  if (server !== null && server.problem !== null) {
    process.stderr.write(terminalText(`stage-lens analyze: ${server.problem}\n`));
    return 2;
  }
  const serverName = server?.name ?? null;
  if (boot !== null && parsed.values.follow === true) {
    process.stderr.write(
      'stage-lens analyze: --boot selects from a whole log; --follow shows it as it grows (run analyze without --follow)\n',
    );
    return 2;
  }
  if (window !== null && parsed.values.follow === true) {
    process.stderr.write(
      'stage-lens analyze: --since/--until select from a whole log; --follow shows it as it grows (run analyze without --follow)\n',
    );
    return 2;
  }
  const layout: JsonLayout = parsed.values.pretty === true ? 'indented' : 'compact';
  if (layout === 'indented' && format !== 'json') {
    process.stderr.write(`stage-lens analyze: --pretty applies to --format json (the format is ${format})\n`);
    return 2;
  }
  const { positionals } = parsed;
  if (positionals.length > 1 && parsed.values.follow === true) {
    process.stderr.write(terminalText(`stage-lens analyze: ${followOneMessage(positionals)}\n`));
    return 2;
  }
  if (positionals.length === 0) {
    process.stderr.write(`stage-lens analyze: expected ${INPUT_EXPECTED}, got 0\n\n${HELP}\n`);
    return 2;
  }
  // Several files (a log and its rotations) are read as one log, oldest first.
  const inputs = inputsToRead('analyze', positionals);
  if (typeof inputs === 'string') {
    process.stderr.write(terminalText(`stage-lens analyze: ${inputs}\n`));
    return 2;
  }
  const { source, files } = inputs;
  const deployConfig = parsed.values['deploy-config'] ?? null;
  const configProblem = deployConfig === null ? null : deployConfigOptionProblem(deployConfig);
  if (configProblem !== null) {
    process.stderr.write(`stage-lens analyze: ${configProblem}\n`);
    return 2;
  }
  if (parsed.values.duration !== undefined && parsed.values.follow !== true) {
    process.stderr.write(
      'stage-lens analyze: --duration needs --follow (it ends a followed log; a file is read once to its end)\n',
    );
    return 2;
  }
  const duration = parsed.values.duration === undefined ? null : Number(parsed.values.duration);
  if (duration !== null && !(duration > 0)) {
    process.stderr.write('stage-lens analyze: --duration must be a positive number of seconds\n');
    return 2;
  }
  // A gzip file is a rotated log, done growing: read whole, as without --follow, and said so.
  const follow =
    parsed.values.follow === true && !(source !== '-' && gzipNotFollowed(source, parsed.values.duration ?? null));
  if (follow) {
    if (format !== 'table') {
      process.stderr.write(
        `stage-lens analyze: --follow shows a live table; --format ${format} is written from a whole log (run analyze without --follow once the log is complete)\n`,
      );
      return 2;
    }
    if (source === '-') {
      process.stderr.write('stage-lens analyze: --follow needs a file, not stdin\n');
      return 2;
    }
    const { TailSource } = await import('../capture/tailSource');
    const { runLive } = await import('./live');
    return runLive({
      source: new TailSource({ path: source, fromStart: true }),
      title: `following ${source}`,
      excludeCold: parsed.values['exclude-cold'] === true,
      deployConfig,
      server: serverName,
      durationSeconds: duration,
      refreshMs: 1000,
      out: process.stdout,
      err: process.stderr,
      command: 'analyze',
    });
  }
  if (files !== null) process.stderr.write(terminalText(`stage-lens analyze: ${readOrderNote(files)}\n`));
  let progress: ProgressLine | null = null;
  // Stdin may never end (`tail -f server.log | stage-lens analyze -`): Ctrl-C or SIGTERM ends
  // the read, and the report of what was read is printed, as `--follow` prints its final summary.
  const interrupts = source === '-' ? new Interrupts(['SIGINT', 'SIGTERM']) : null;
  try {
    // A large log file is parsed in a worker thread beside the analysis and the JSON writer
    // (parseInWorker.ts). Else, on a terminal the file is streamed so that its progress can be
    // shown; otherwise it is read in large reads, each next one running while the last is parsed
    // (faster, and nobody watches).
    const joined = files === null ? null : new JoinedFiles(files);
    const inWorker = source === '-' || joined !== null ? null : workerParsedInput(source, format === 'json');
    const stream =
      source === '-'
        ? process.stdin
        : inWorker === null && joined === null && process.stderr.isTTY === true
          ? createReadStream(source)
          : null;
    if (source !== '-') {
      const read = inWorker ?? (stream as ReadStream | null);
      if (read !== null) progress = readProgress(read, source);
    }
    const whole = inWorker ?? stream ?? joined ?? fileChunks(source);
    const input: AnalyzeInput =
      interrupts === null || whole instanceof WorkerParsedInput || whole instanceof JoinedFiles
        ? whole
        : interrupts.until(whole, () => process.stdin.destroy());
    const sourceName = source === '-' ? 'stdin' : source;
    // Stages are named with their roles where the model the log serves, the file's name or the deploy config says the
    // pipeline, in the table, its findings, the JSON and the trace (as explain does).
    const roles = stageRolesOf(cliInputNames(sourceName, deployConfig));
    const excludeCold = parsed.values['exclude-cold'] === true;
    if (format === 'trace') {
      // Written chunk by chunk: a large log's trace is hundreds of MB. The trace places
      // requests with what it learns from all of them, so they are kept (packed).
      const { analysis, kind, empty, unreadable, encoding } = await readAnalysis(input, {
        excludeCold,
        keepRequests: true,
        stageRoles: () => roles,
        ...(window === null ? {} : { window }),
        ...(boot === null ? {} : { boot }),
        ...(serverName === null ? {} : { server: serverName }),
      });
      if (kind === 'scrape' && (window !== null || boot !== null || serverName !== null))
        return scrapeSelectionStatus(sourceName, window, boot, serverName);
      const stageRoles = analysis.stageRoles();
      for (const chunk of traceChunks(analysis.requests, { source: sourceName, stageRoles })) await writeOut(chunk);
      if (kind === 'scrape')
        process.stderr.write(terminalText(`stage-lens analyze: ${scrapeRowsNote(sourceName, 'trace')}\n`));
      return (
        interruptedStatus(interrupts) ??
        unreadableStatus({ analysis, kind, empty, unreadable, encoding }, sourceName, joined)
      );
    }
    const read = await analyzeStream(
      input,
      format,
      { excludeCold, window, boot, server: serverName },
      sourceName,
      roles,
      deployConfig,
      layout,
    );
    if (read.kind === 'scrape' && (window !== null || boot !== null || serverName !== null))
      return scrapeSelectionStatus(sourceName, window, boot, serverName);
    return interruptedStatus(interrupts) ?? unreadableStatus(read, sourceName, joined);
  } catch (err) {
    process.stderr.write(
      `stage-lens analyze: cannot read ${source}: ${readErrorWords(err as NodeJS.ErrnoException)}\n`,
    );
    return 2;
  } finally {
    progress?.stop();
    interrupts?.dispose();
  }
}

/**
 * Whether `source` is gzip data given to --follow: said on stderr (it is read whole instead), with
 * the --duration given (`duration`, as typed) said not to apply: the read ends at the file's end.
 */
function gzipNotFollowed(source: string, duration: string | null): boolean {
  if (!isGzipFile(source)) return false;
  const unused =
    duration === null ? '' : `, and --duration ${duration} does not apply (the read ends at the file's end)`;
  process.stderr.write(
    terminalText(
      `stage-lens analyze: ${gzipNotFollowedText(source, 'read whole (as without --follow)')}${unused}; to watch a server's log grow, follow the file it writes now\n`,
    ),
  );
  return true;
}

/** A /metrics scrape read with --since/--until or --boot: said as a usage problem (nothing was printed), status 2. */
/** Why a CSV or a trace of a /metrics scrape has no request in it, and which format has what it holds. */
function scrapeRowsNote(source: string, format: 'csv' | 'trace'): string {
  const what = format === 'csv' ? 'the CSV has its header and no row' : 'the trace has no request on it';
  return `${source} is a /metrics scrape: it has no per-request log, so ${what}; --format json or the table holds its histograms`;
}

function scrapeSelectionStatus(
  source: string,
  window: WindowSpec | null,
  boot: number | null,
  server: string | null,
): number {
  const problem = scrapeSelectionProblem(source, 'analyze', {
    window: window !== null,
    boot: boot !== null,
    server: server !== null,
  });
  process.stderr.write(terminalText(`stage-lens analyze: ${problem ?? ''}\n`));
  return 2;
}

/** After a signal ended the read: says that the report printed covers only what came before it, and its status. */
function interruptedStatus(interrupts: Interrupts | null): number | null {
  const note = interrupts?.note() ?? null;
  if (interrupts === null || note === null) return null;
  process.stderr.write(`stage-lens analyze: ${note}\n`);
  return interrupts.exitStatus();
}

/**
 * 2 when the input was empty, or not a text log and gave no request (the report, printed, says
 * why; stderr says it for a script or CI job, which the exit status fails); 1 when some of several
 * files were not read (a gzip file before them broke off: the report is not of the whole log); else 0.
 */
function unreadableStatus(
  { analysis, kind, empty, unreadable, encoding }: AnalyzeRead,
  source: string,
  joined: JoinedFiles | null,
): number {
  const requests = analysis.snapshot().requestCount;
  // Said on stderr too, for a script: the report covers the log (or scrape) before the gzip data broke off.
  if (encoding.damage !== null && (unreadable?.gzipDamaged === undefined || requests > 0 || joined !== null))
    process.stderr.write(
      terminalText(`stage-lens analyze: ${inputDamageNote(encoding.damage, kind, source, joined)}\n`),
    );
  if (empty) {
    process.stderr.write(`stage-lens analyze: nothing in ${source} was read: it is empty (0 bytes)\n`);
    return 2;
  }
  const bootProblem = unknownBootProblem(analysis.bootCounts());
  if (bootProblem !== null) {
    process.stderr.write(`stage-lens analyze: ${bootProblem}\n`);
    return 2;
  }
  const serverProblem = unknownServerProblem(analysis.serverCounts());
  if (serverProblem !== null) {
    process.stderr.write(terminalText(`stage-lens analyze: ${serverProblem}\n`));
    return 2;
  }
  const windowProblem = windowProblemOf({ analysis, kind, unreadable });
  if (windowProblem !== null) {
    process.stderr.write(`stage-lens analyze: ${windowProblem}\n`);
    return 2;
  }
  if (unreadable === null || requests > 0) return unreadFilesStatus(joined);
  process.stderr.write(terminalText(`stage-lens analyze: nothing in ${source} was read: ${unreadable.message}\n`));
  return 2;
}

/**
 * Text for stdout in writes of about 1 MB (a write per request would cost more than the
 * request); `drained` waits while stdout's buffer is full (never on Linux, where writes
 * to files and pipes are synchronous).
 */
class StdoutText {
  private parts: string[] = [];
  private size = 0;

  readonly add = (text: string): void => {
    this.parts.push(text);
    this.size += text.length;
    if (this.size >= 1 << 20) this.flush();
  };

  /** UTF-8 text made as bytes (JSON, CSV), written after the text added before it; `written` once it is out. */
  readonly addBytes = (bytes: Uint8Array, written: () => void): void => {
    this.flush();
    process.stdout.write(bytes, () => written());
  };

  flush(): void {
    if (this.size === 0) return;
    process.stdout.write(this.parts.join(''));
    this.parts = [];
    this.size = 0;
  }

  drained(): Promise<void> | undefined {
    return process.stdout.writableNeedDrain
      ? new Promise((resolve) => process.stdout.once('drain', () => resolve()))
      : undefined;
  }
}

/** What a report says of an input without a byte (explain says it too). */
export const EMPTY_INPUT_TEXT =
  'The input is empty (0 bytes): nothing was read. Check that the capture wrote the server output to it (the redirect, or the pipe into stdin).';

/**
 * Why a window left the report without a request (emptyWindowProblem). Only a text log is said to
 * print no time: a scrape has no log clock, and an input that is no text log says why nothing was read.
 */
function windowProblemOf({
  analysis,
  kind,
  unreadable,
}: Pick<AnalyzeRead, 'analysis' | 'kind' | 'unreadable'>): string | null {
  return emptyWindowProblem(analysis.windowCounts(), analysis.requestCount, kind === 'log' && unreadable === null);
}

interface AnalyzeRead {
  analysis: StreamAnalysis;
  /** The input had no byte (nothing was read: exit status 2, as for an input that is not a text log). */
  empty: boolean;
  unreadable: ParseProblem | null;
  encoding: InputEncoding;
  /** A log or a /metrics scrape (told apart by content). */
  kind: 'log' | 'scrape';
}

/**
 * Streams the input through the log parser, or (for a scrape) reads it whole, and prints
 * the report. JSON and CSV are written as the requests are read, none of them kept: the
 * output of a large log is never held whole (nor as objects), and memory does not grow
 * with the log. The table needs the summaries alone.
 */
export async function analyzeStream(
  input: AnalyzeInput,
  format: Exclude<Format, 'trace'>,
  scope: {
    readonly excludeCold: boolean;
    readonly window: WindowSpec | null;
    readonly boot: number | null;
    readonly server: string | null;
  },
  sourceName: string,
  roles: Readonly<Record<string, string>>,
  deployConfig: string | null = null,
  layout: JsonLayout = 'compact',
): Promise<AnalyzeRead> {
  const out = new StdoutText();
  let read: AnalyzeRead;
  const { excludeCold } = scope;
  // A scrape has no requests for these to select: nothing is printed (the caller says why, scrapeSelection.ts).
  const refusedOnScrape = (kind: AnalyzeRead['kind']): boolean =>
    kind === 'scrape' && (scope.window !== null || scope.boot !== null || scope.server !== null);
  const window = {
    ...(scope.window === null ? {} : { window: scope.window }),
    ...(scope.boot === null ? {} : { boot: scope.boot }),
    ...(scope.server === null ? {} : { server: scope.server }),
  };
  const stageRoles = (): Readonly<Record<string, string>> => roles;
  // A config whose stages are not the log's is said to be so once, for the whole report; its
  // settings are then no evidence, so no finding cites them.
  const { mismatchOf, withEvidence } = deployConfigReport(deployConfig);
  if (format === 'json') {
    const writer = new AnalysisJsonWriter(out.addBytes, layout);
    const { analysis, histograms, speechStreams, preemptions, kind, scrapeFindings, empty, unreadable, encoding } =
      await readAnalysis(input, {
        excludeCold,
        stageRoles,
        keepRequests: false,
        onRequest: (r) => writer.request(r),
        drained: () => out.drained(),
        ...window,
      });
    if (refusedOnScrape(kind)) return { analysis, kind, empty, unreadable, encoding };
    const whole = snapshotWithFindings(analysis.snapshot(), scrapeFindings);
    const mismatch = mismatchOf(whole);
    // The JSON has no place for a sentence about the input: said on stderr, as a note.
    if (mismatch !== null) process.stderr.write(terminalText(`stage-lens analyze: ${mismatch}\n`));
    const snapshot = withEvidence(whole, mismatch);
    const windowJson = windowJsonOf(analysis.windowCounts());
    const boots = analysis.bootCounts();
    const servers = analysis.serverCounts();
    const judgedRoles = analysis.stageRoles();
    const fileLines = fileLinesOf(input);
    writer.end({
      ...analysisJsonRest(snapshot, histograms, speechStreams, judgedRoles, preemptions),
      ...(fileLines === null ? {} : { problems: problemsJson(snapshot.problems, fileLines) }),
      stageRolesFrom: stageRolesFromOf(judgedRoles, analysis.servedModel(), false, analysis.stageRolesFromLabels()),
      deployConfig: deployConfigJson(deployConfig, deployConfig === null ? 'none' : 'flag', mismatch),
      ...(windowJson === null ? {} : { window: windowJson }),
      ...(boots === null ? {} : { boot: { selected: boots.boot, requestsOutside: boots.outside, boots: boots.boots } }),
      ...(servers === null
        ? {}
        : {
            server: {
              selected: servers.server,
              requestsOutside: servers.outside,
              untaggedRequests: servers.untagged,
              servers: servers.servers,
            },
          }),
      ...(fileLines === null ? {} : { inputFiles: fileLines }),
    });
    out.add('\n');
    read = { analysis, kind, empty, unreadable, encoding };
  } else if (format === 'csv') {
    const writer = new CsvWriter(out.addBytes);
    const repeats = new RepeatTally();
    // The CSV is the requests' rows alone: nothing of the whole is summarized.
    const { analysis, kind, empty, unreadable, encoding } = await readAnalysis(input, {
      excludeCold,
      keepRequests: false,
      summarize: false,
      onRequest: (r) => {
        repeats.add(r);
        writer.request(r);
      },
      drained: () => out.drained(),
      ...window,
    });
    if (refusedOnScrape(kind)) return { analysis, kind, empty, unreadable, encoding };
    writer.end();
    if (kind === 'scrape')
      process.stderr.write(terminalText(`stage-lens analyze: ${scrapeRowsNote(sourceName, 'csv')}\n`));
    const fileLines = fileLinesOf(input);
    if (fileLines !== null)
      process.stderr.write(
        terminalText(
          `stage-lens analyze: the CSV's line column counts through the files as read: ${fileLinesText(fileLines)}\n`,
        ),
      );
    // The CSV is rows only: what the window left out is said on stderr.
    for (const note of [
      bootNoteOf(analysis.bootCounts()),
      serverNoteOf(analysis.serverCounts()),
      windowNoteOf(analysis.windowCounts()),
    ])
      if (note !== null) process.stderr.write(terminalText(`stage-lens analyze: ${note}\n`));
    // The CSV has no findings: why a log of legacy dicts has empty split columns, or no rows,
    // and what a log of Engine lines alone holds instead of rows.
    const snapshot = analysis.snapshot();
    const note = analysis.legacyNote();
    if (note !== null) process.stderr.write(terminalText(`stage-lens analyze: ${note}\n`));
    if (snapshot.runSummaries !== null)
      process.stderr.write(
        terminalText(`stage-lens analyze: ${runSummaryCsvNote(snapshot.runSummaries, writer.wroteRows)}\n`),
      );
    if (snapshot.overallSummaries !== null)
      process.stderr.write(
        terminalText(`stage-lens analyze: ${overallSummaryCsvNote(snapshot.overallSummaries, writer.wroteRows)}\n`),
      );
    const engineOnly = snapshot.findings.find((f) => f.code === 'engine-stats-only');
    if (engineOnly !== undefined) process.stderr.write(terminalText(`stage-lens analyze: ${engineOnly.message}\n`));
    // Nor the repeated-request-ids finding: its rows are in the CSV, as <id>#2.
    const repeatNote = repeats.message(analysis.requestCount);
    if (repeatNote !== null) process.stderr.write(terminalText(`stage-lens analyze: ${repeatNote}\n`));
    read = { analysis, kind, empty, unreadable, encoding };
  } else {
    // The table prints the split and a few fields per stage: only those are summarized.
    const { analysis, histograms, speechStreams, preemptions, kind, scrapeFindings, empty, unreadable, encoding } =
      await readAnalysis(input, {
        excludeCold,
        stageRoles,
        keepRequests: false,
        summaryFields: TABLE_SUMMARY_FIELDS,
        ...window,
      });
    if (refusedOnScrape(kind)) return { analysis, kind, empty, unreadable, encoding };
    const notes = [
      bootNoteOf(analysis.bootCounts()),
      serverNoteOf(analysis.serverCounts()),
      windowNoteOf(analysis.windowCounts()),
    ].filter((n) => n !== null);
    const windowNote = notes.length === 0 ? null : notes.join(' ');
    // A boot the log lacks, or a window that held no request, says so where the table would otherwise say "no stats".
    const windowProblem =
      unknownBootProblem(analysis.bootCounts()) ??
      unknownServerProblem(analysis.serverCounts()) ??
      windowProblemOf({ analysis, kind, unreadable });
    const whole = kind === 'scrape' ? null : analysis.snapshot();
    const mismatch = whole === null ? null : mismatchOf(whole);
    const fileLines = fileLinesOf(input);
    const lines =
      whole === null
        ? scrapeTable(
            histograms,
            speechStreams,
            preemptions,
            scrapeFindings,
            headerSourceName(encodedSourceName(sourceName, encoding), encoding.damage),
          )
        : tableReport(withEvidence(whole, mismatch), {
            source: headerSourceName(encodedSourceName(sourceName, encoding), encoding.damage),
            stageRoles: analysis.stageRoles(),
            ...(mismatch === null ? {} : { inputNote: mismatch }),
            ...(windowNote === null ? {} : { windowNote }),
            ...(fileLines === null ? {} : { fileLines }),
            // Not "no stats: turn on DEBUG": an empty capture holds no line at all.
            ...(empty
              ? { noRequestYet: [EMPTY_INPUT_TEXT] }
              : windowProblem !== null
                ? { noRequestYet: [`${sentenceCase(windowProblem)}.`] }
                : {}),
          });
    out.add(terminalText(lines.join('\n')) + '\n');
    read = { analysis, kind, empty, unreadable, encoding };
  }
  out.flush();
  return read;
}

/** Of several files read as one log, where each file's lines are in the line numbers the report gives; else null. */
function fileLinesOf(input: AnalyzeInput): FileLines[] | null {
  return input instanceof JoinedFiles ? input.fileLines() : null;
}

interface ReadOptions {
  readonly excludeCold: boolean;
  readonly stageRoles?: () => Readonly<Record<string, string>>;
  readonly keepRequests: boolean;
  readonly onRequest?: (request: AnalyzedRequest) => void;
  readonly summaryFields?: ReadonlySet<string>;
  readonly edgeSummaries?: boolean;
  readonly summarize?: boolean;
  readonly window?: WindowSpec;
  readonly boot?: number;
  readonly server?: string;
  /** Awaited after each chunk: output backpressure. */
  readonly drained?: () => Promise<void> | undefined;
}

/** The analysis of a log, or the histograms of a /metrics scrape (told apart by content). */
async function readAnalysis(
  input: AnalyzeInput,
  options: ReadOptions,
): Promise<{
  analysis: StreamAnalysis;
  histograms: HistogramSummaryJson[];
  speechStreams: SpeechStreamCounts[];
  /** A scrape's preemption counters; null for a log, or a scrape without the family. */
  preemptions: PreemptionCount[] | null;
  kind: 'log' | 'scrape';
  /** The input had no byte at all (an empty file or stdin). */
  empty: boolean;
  /** A scrape's findings (metric-not-reporting: families stuck at 0); empty for a log. */
  scrapeFindings: Finding[];
  /** The parser's word that the input is not a text log (compressed, binary), or a gzip input's damage, if one said so. */
  unreadable: ParseProblem | null;
  /** Whether the input was gzip, and where its data broke off if it did. */
  encoding: InputEncoding;
}> {
  const { drained, ...analysisOptions } = options;
  const analysis = new StreamAnalysis(analysisOptions);
  const parser = new LogStreamParser();
  const scrapeChunks: Buffer[] = [];
  let scrapeBytes = 0;
  let empty = true;
  let unreadable: ParseProblem | null = null;
  const ingest = (output: ParseOutput): void => {
    unreadable ??= unreadableInputProblem(output.problems) ?? null;
    analysis.ingest(output);
  };
  const { kind, encoding } =
    input instanceof WorkerParsedInput
      ? await readInWorker(input, ingest, drained, () => (empty = false))
      : await readByKind(input, (kind, encoding) => ({
          kind,
          encoding,
          push:
            kind === 'log'
              ? (buf: Buffer) => {
                  if (buf.length > 0) empty = false;
                  pushInPieces(parser, buf, ingest);
                  return drained?.();
                }
              : (buf: Buffer) => {
                  if (buf.length > 0) empty = false;
                  if (scrapeBytes >= MAX_SCRAPE_BYTES) return;
                  scrapeChunks.push(Buffer.from(buf));
                  scrapeBytes += buf.length;
                },
        }));

  let histograms: HistogramSummaryJson[] = [];
  let speechStreams: SpeechStreamCounts[] = [];
  let preemptions: PreemptionCount[] | null = null;
  let scrapeFindings: Finding[] = [];
  if (kind === 'log') {
    // The worker's last batch held the parser's end.
    if (!(input instanceof WorkerParsedInput)) ingest(parser.end());
    // What the gzip data gave before it broke off was read: the report says where it did.
    if (encoding.damage !== null) ingest({ records: [], problems: [{ ...encoding.damage, line: parser.lastLine }] });
    analysis.flush();
  } else {
    const end = { gzipBroke: encoding.damage !== null };
    const parsed = parseExposition(Buffer.concat(scrapeChunks).toString('utf8'), end);
    // A family stuck at 0 is a finding, and its rows say so (marked !) rather than show a count of 0.
    scrapeFindings = metricNotReportingInScrape(parsed, null, end);
    const scrape = summarizeParsedScrape(parsed, scrapeFindings);
    // Its series before the break (or the cut) are read: a finding says so, in the JSON as in the table.
    const cut = scrapeCutFinding(parsed, end);
    if (cut !== null) scrapeFindings = [...scrapeFindings, cut];
    if (encoding.damage !== null) scrapeFindings = [...scrapeFindings, scrapeGzipDamagedFinding(encoding.damage)];
    histograms = scrape.histograms;
    speechStreams = scrape.speechStreams;
    preemptions = scrape.preemptions;
    analysis.ingest({ records: [], problems: scrape.problems });
  }
  // A gzip input that broke off before any log is not empty: it is damaged (unreadable).
  if (encoding.damage !== null) empty = false;
  // A file parsed in the worker thread did not run the parser here: this run's code cache lacks
  // it, and is kept as partial for a run that parses on this thread to replace.
  if (!empty && !(input instanceof WorkerParsedInput)) markFullRun();
  return { analysis, histograms, speechStreams, preemptions, kind, empty, scrapeFindings, unreadable, encoding };
}

/** A log file parsed in a worker thread: a log (told by its head), read as it is (not gzip). */
async function readInWorker(
  input: WorkerParsedInput,
  ingest: (output: ParseOutput) => void,
  drained: (() => Promise<void> | undefined) | undefined,
  notEmpty: () => void,
): Promise<{ kind: 'log'; encoding: InputEncoding }> {
  // The file has bytes (the worker is used for none that is empty).
  notEmpty();
  await input.read(ingest, () => drained?.());
  return { kind: 'log', encoding: { compression: null, logBytes: 0, damage: null } };
}

/** Why a series is known to mislead, besides a cut (which makes it unknown, not wrong); null: no lie known. */
function misleadsBy(h: HistogramSummaryJson): string | null {
  return caveatBesidesCut(h.caveat);
}

/** The row's marks after its family name: `~` cut short (unknown), `!` known to mislead. */
function rowMarks(h: HistogramSummaryJson): string {
  return `${h.cut === true ? ' ~' : ''}${misleadsBy(h) === null ? '' : ' !'}`;
}

function scrapeTable(
  histograms: readonly HistogramSummaryJson[],
  speechStreams: readonly SpeechStreamCounts[],
  preemptions: readonly PreemptionCount[] | null,
  findings: readonly Finding[],
  source: string,
): string[] {
  const out = [`Stage Lens: /metrics scrape from ${source}: ${histograms.length} histogram series`, ''];
  const fmt = (v: number | null): string => (v === null || Number.isNaN(v) ? '-' : v.toPrecision(4));
  // A bound reads as one: "≤ 0.3000" (rank in the lowest bucket: the bucket's bound, not PromQL's interpolation from 0), "≥ 80.00" (+Inf).
  const cell = (h: HistogramSummaryJson, p: Percentile): string => {
    const bound = h.bounds?.[p];
    if (bound === undefined || h[p] === null) return fmt(h[p]);
    return `${boundSign(bound)} ${fmt(bound.kind === 'atMost' ? bound.le : h[p])}`;
  };
  // A series known to mislead (the codec TTFT signature, pre-processing zeros) is marked, and why is said below the
  // table; a series the scrape was cut in is marked apart: its numbers are unknown, not wrong.
  const rows = histograms.map((h) => [
    // As the scrape exposed it (an older build's `vllm:omni_...`): the name to paste into PromQL against that server.
    `${h.exposedName ?? h.family}${rowMarks(h)}`,
    h.labels['stage'] ?? '',
    h.labels['replica'] ?? '',
    h.count === null ? '-' : (nonFiniteSampleText(h.count) ?? String(h.count)),
    cell(h, 'p50'),
    cell(h, 'p90'),
    cell(h, 'p99'),
  ]);
  const widths = ['family', 'stage', 'replica', 'count', 'p50', 'p90', 'p99'].map((t, i) =>
    maxOf(
      t.length,
      rows.map((r) => (r[i] ?? '').length),
    ),
  );
  const line = (cells: string[]): string =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join('  ');
  out.push(line(['family', 'stage', 'replica', 'count', 'p50', 'p90', 'p99']));
  pushAll(out, rows.map(line));
  out.push(
    '',
    'Quantiles as PromQL histogram_quantile (linear within a bucket), in the family unit (seconds for *_seconds and *_s).',
  );
  out.push(
    '≤ x: the rank fell into the lowest bucket, so only its bound x is known (PromQL would interpolate from 0); ≥ x: into the +Inf bucket, at least the highest finite bound.',
  );
  const cut = histograms.filter((h) => h.cut === true);
  if (cut.length > 0) {
    out.push('', `Cut short (marked ~): ${cut.length} series, unknown, not measured:`);
    out.push(`  ${cutSeriesCaveat('series')}`);
  }
  const knownWrong = histograms.filter((h) => misleadsBy(h) !== null);
  if (knownWrong.length > 0) {
    out.push('', `Known to mislead (marked !): ${knownWrong.length} series:`);
    for (const caveat of new Set(knownWrong.map(misleadsBy))) out.push(`  ${withVisibleControls(caveat ?? '')}`);
  }
  if (findings.length > 0) {
    out.push('', 'Findings:');
    for (const f of findings)
      out.push(
        `  [${f.severity}] ${f.code}${f.stageId === null ? '' : ` (stage ${f.stageId})`}: ${withVisibleControls(f.message)}`,
      );
  }
  // Absent is said as absent: a scrape without the counter tells nothing about preemptions.
  if (preemptions === null) out.push('', 'Preemptions: vllm:num_preemptions_total is not exposed (unknown, not 0).');
  else if (preemptions.length > 0)
    out.push(
      '',
      'Preemptions (vllm:num_preemptions_total, since the server started):',
      ...textTable(
        ['stage', 'replica', 'preemptions'],
        preemptions.map((p) => [
          withVisibleControls(p.stage ?? '-'),
          withVisibleControls(p.replica ?? '-'),
          groupedNumber(p.count, 0, 3),
        ]),
      ),
    );
  if (speechStreams.length > 0) {
    // Counters since the server started; "-" where the server exposes no such series (unknown, not 0).
    const reasons = [...new Set(speechStreams.flatMap((s) => Object.keys(s.aborted)))].sort();
    const count = (v: number | null | undefined): string => (v === null || v === undefined ? '-' : String(v));
    const header = ['model', 'completed', 'aborted', ...reasons.map((r) => `aborted: ${withVisibleControls(r)}`)];
    const streamRows = speechStreams.map((s) => [
      s.modelName === null ? '(no model_name)' : withVisibleControls(s.modelName),
      count(s.completed),
      count(s.abortedTotal),
      ...reasons.map((r) => count(s.aborted[r])),
    ]);
    out.push(
      '',
      'Speech streams (vllm_omni:speech_stream_completed_total, vllm_omni:speech_stream_aborted_total by reason; "-" = not exposed):',
      ...textTable(header, streamRows),
    );
  }
  return out;
}
