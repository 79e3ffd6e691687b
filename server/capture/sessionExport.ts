// Export Session...: JSON (the schema of `stage-lens analyze --format json`), CSV (that of
// `--format csv`) or a Chrome trace (`--format trace`, opens in Perfetto). All three are
// written to the file in chunks, so a 100k-request session never becomes one string.
import { open, rm } from 'node:fs/promises';
import type { AnalysisSnapshot } from '../core/analysis/streamAnalysis';
import type { TraceRequests } from '../core/report/trace';
import { analysisJsonRest, problemsJson } from '../core/report/jsonReport';
import type { FileLines } from '../core/joinedLines';
import { AnalysisJsonWriter } from '../core/report/jsonStream';
import { CsvWriter } from '../core/report/csvReport';
import { traceChunks } from '../core/report/trace';
import { stageRolesOfSession } from '../core/stageRoles';
import type { ExportFormat, ExportResult, HistogramSummary } from '../protocol';
import type { Session } from './session';
import type { ScrapeCounters } from './storage/storedScrapeCounters';
import { deployConfigMismatchOf, deployConfigProblem, snapshotWithDeployEvidence } from './deployEvidence';
import { deployConfigJson, type DeployConfigJson } from '../core/deployConfigUsed';
import { snapshotWithFindings } from '../core/analysis/snapshotWithFindings';
import { scrapeFindingsOf } from './sessionQueries';

export const EXPORT_FORMATS: readonly ExportFormat[] = ['json', 'csv', 'trace'];

export interface ExportInput {
  readonly requests: TraceRequests;
  /** The whole analysis (summaries, findings): JSON only, computed on demand. */
  readonly snapshot: () => AnalysisSnapshot;
  /** Histogram rows of the last /metrics scrape (JSON only). */
  readonly histograms: readonly HistogramSummary[];
  /** Its preemption and speech stream counters (JSON only); absent: none (unknown, not 0). */
  readonly scrapeCounters?: ScrapeCounters;
  /** Where the data came from, for the trace's metadata. */
  readonly source: string;
  /** When each request was completed in a live capture (ms since epoch): the trace's clock when the log has no timestamps. */
  readonly captureTimesMs?: readonly number[];
  /** Stage id -> role: the trace's tracks are named with them ("stage 1 · code2wav"). */
  readonly stageRoles?: Readonly<Record<string, string>>;
  /** The session's deploy config, as the JSON names it (analyze's `deployConfig`), of the snapshot taken (JSON only). */
  readonly deployConfig?: (snapshot: AnalysisSnapshot) => DeployConfigJson;
  /** Several files imported as one log: where each file's lines are, for the JSON's `inputFiles` and its problems' places (JSON only). */
  readonly fileLines?: readonly FileLines[] | null;
}

/** The export as text chunks; joined, they are exactly what `analyze --format <format>` prints. */
export function* exportChunks(
  format: ExportFormat,
  input: ExportInput,
): Generator<string | Uint8Array, void, undefined> {
  if (format === 'json') {
    // Request by request (never the whole document as objects), in chunks of about 1 MB.
    // The summaries are taken first: a live session keeps growing while the export is written.
    const snapshot = input.snapshot();
    const fileLines = input.fileLines ?? undefined;
    const rest = {
      ...analysisJsonRest(
        snapshot,
        [...input.histograms],
        [...(input.scrapeCounters?.speechStreams ?? [])],
        input.stageRoles,
        input.scrapeCounters?.preemptions ?? null,
      ),
      // The session's roles, as its views name stages.
      stageRolesFrom: 'session' as const,
      deployConfig: input.deployConfig?.(snapshot) ?? deployConfigJson(null, 'none', null),
      // As `analyze` of the same files gives them.
      ...(fileLines === undefined
        ? {}
        : { problems: problemsJson(snapshot.problems, fileLines), inputFiles: fileLines }),
    };
    // The writer hands out chunks of about 1 MB; they are yielded between requests.
    let chunks: Uint8Array[] = [];
    const writer = new AnalysisJsonWriter((chunk) => chunks.push(chunk));
    const n = Math.min(snapshot.requestCount, input.requests.length);
    for (let i = 0; i < n; i++) {
      const request = input.requests.at(i);
      if (request !== undefined) writer.request(request);
      if (chunks.length > 0) {
        yield* chunks;
        chunks = [];
      }
    }
    writer.end(rest);
    yield* chunks;
    yield '\n';
  } else if (format === 'csv') {
    // Request by request (a packed store materializes each request once), in chunks of about 1 MB.
    let chunks: Uint8Array[] = [];
    const writer = new CsvWriter((chunk) => chunks.push(chunk));
    const n = input.requests.length;
    for (let i = 0; i < n; i++) {
      const request = input.requests.at(i);
      if (request !== undefined) writer.request(request);
      if (chunks.length > 0) {
        yield* chunks;
        chunks = [];
      }
    }
    writer.end();
    yield* chunks;
  } else {
    yield* traceChunks(input.requests, {
      source: input.source,
      captureTimesMs: input.captureTimesMs,
      stageRoles: input.stageRoles,
    });
  }
}

/** Writes the export to `path` (replacing it); returns the bytes written. */
export async function writeExport(path: string, format: ExportFormat, input: ExportInput): Promise<number> {
  if (!EXPORT_FORMATS.includes(format))
    throw new Error(`unknown export format '${String(format)}' (expected json, csv or trace)`);
  const file = await open(path, 'w');
  let bytes = 0;
  let done = false;
  // One write in flight while the next chunk is made: the disk and the CPU work at once.
  // (writeFile appends at the handle's position and loops until the whole chunk is written.)
  let pending: Promise<void> | null = null;
  try {
    for (const chunk of exportChunks(format, input)) {
      if (pending !== null) await pending;
      bytes += typeof chunk === 'string' ? Buffer.byteLength(chunk) : chunk.length;
      pending = file.writeFile(chunk);
    }
    if (pending !== null) await pending;
    done = true;
  } finally {
    await pending?.catch(() => undefined);
    await file.close();
    // A half-written export would pass for a whole one: remove it (the error goes to the caller).
    if (!done) await rm(path, { force: true });
  }
  return bytes;
}

export async function exportSession(session: Session, format: ExportFormat, path: string): Promise<ExportResult> {
  const info = session.info;
  const requests = session.requests();
  // A live session keeps growing; the export holds the requests there were when it started.
  const requestCount = requests.length;
  // A /metrics-only session has histograms and no request: a CSV or a trace of it would be a bare header.
  if (format !== 'json' && requestCount === 0 && info.kind === 'scrape')
    throw new Error(
      `this session reads only /metrics: it has no per-request log, so a ${format === 'csv' ? 'CSV' : 'trace'} would be empty. Export it as JSON, which holds the /metrics histograms.`,
    );
  // Capture times are a clock only for live output; an import or a tail read from the start receives old lines all at once.
  const live = info.kind === 'launch';
  const bytes = await writeExport(path, format, {
    requests,
    // Its findings, its scrapes' after its requests' as `analyze` prints them, cite the session's deploy config,
    // as the views show them and `analyze --deploy-config` prints them.
    snapshot: () =>
      snapshotWithDeployEvidence(
        snapshotWithFindings(session.snapshot(), scrapeFindingsOf(session)),
        info.deployConfig,
      ),
    histograms: session.histograms(),
    scrapeCounters: session.scrapeCounters(),
    source: `${info.kind}: ${info.description}`,
    captureTimesMs: live ? session.requestTimes() : undefined,
    stageRoles: stageRolesOfSession(info),
    deployConfig: (snapshot) => sessionDeployConfigJson(info.deployConfig, snapshot),
    fileLines: session.fileLines(),
  });
  return { path, bytes, requestCount };
}

/** The session's deploy config in the JSON: cited, or why not (not a deploy config to read now, or its stages are not the session's). */
function sessionDeployConfigJson(file: string | null, snapshot: AnalysisSnapshot): DeployConfigJson {
  if (file === null) return deployConfigJson(null, 'none', null);
  const problem = deployConfigProblem(file);
  return deployConfigJson(
    file,
    'session',
    problem === null ? deployConfigMismatchOf(file, snapshot) : `The deploy config ${file} ${problem}.`,
  );
}
