// What `explain` reads: a server log or a /metrics scrape (told apart by content) from a
// file or a stream, or a saved session folder (its captured bytes replayed chunk by chunk
// and stream by stream, with their capture times as the finish time of requests whose
// lines carry no timestamp; an imported /metrics scrape's as the scrape it is). A log goes
// through the parser into an analysis and the explain index in one pass; a scrape gives its
// metric-not-reporting findings only.
import { pushInPieces } from '../core/log/pushInPieces';
import * as fsp from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { LogStreamParser } from '../core/log';
import { StreamAnalysis, type AnalysisSnapshot } from '../core/analysis/streamAnalysis';
import type { BootCounts, ServerCounts } from '../core/analysis/types';
import { noStageStatsAdvice } from '../core/analysis/noStageStats';
import type { Finding } from '../core/analysis/types';
import { ExplainIndex } from '../core/explain/explainIndex';
import { gaugesOfEngines } from '../core/explain/explainReport';
import { metricNotReportingInScrape, scrapeChecksDone } from '../core/explain/metricNotReporting';
import { scrapeCutFinding, WHOLE_INPUT, type ScrapeEnd } from '../core/metricsText/scrapeCut';
import type { GaugeSamples } from '../core/explain/types';
import type { ClockWindow, WindowSpec } from '../core/explain/timeWindow';
import { parseExposition } from '../core/metricsText';
import { ioMessage } from './compareInput';
import { MAX_SCRAPE_BYTES, readByKind } from './inputByKind';
import { fileChunks } from './fileChunks';
import { joinedName, type JoinedFiles } from './joinedFiles';
import { SessionFiles } from './sessionFiles';
import type { ChunkStream } from './source';
import {
  cliInputNames,
  sessionPipelineNames,
  stageRolesFromOf,
  stageRolesOfNamesOrRecorded,
  type StageRolesFrom,
} from '../core/stageRoles';
import type { ParseProblem } from '../core/records';
import {
  scrapeGzipDamagedFinding,
  scrapeGzipDamagedFindingOf,
  storedGzipDamage,
  type GzipDamageProblem,
} from '../core/gzipInput';
import type { SessionMeta } from './storage/storedMeta';

export interface ExplainInput {
  readonly kind: 'log' | 'scrape' | 'session';
  readonly index: ExplainIndex;
  readonly findings: readonly Finding[];
  readonly gauges: readonly GaugeSamples[];
  readonly problemCount: number;
  /**
   * Stage id -> role as analyze names them on the same input (StreamAnalysis.stageRoles): the
   * findings already name stages so; {} for a scrape.
   */
  readonly stageRoles: Readonly<Record<string, string>>;
  /** Where `stageRoles` came from (a saved session's recorded roles, the served model, the names); 'none' for a scrape. */
  readonly stageRolesFrom: StageRolesFrom;
  /** The deploy config a saved session recorded (launched with, or matched to in the editor); absent for another input. */
  readonly sessionDeployConfig?: string | null;
  /** A scrape's metric-not-reporting checks: what was checked and what was left alone (scrapeChecksDone). */
  readonly scrapeChecks?: readonly string[];
  /** The input had no byte at all (an empty file, stdin or session): nothing was read. */
  readonly empty: boolean;
  /** [Overall Summary] tables read while the log had no per-request stage table: run totals explain cannot use; 0 for a scrape. */
  readonly overallSummaryTables: number;
  /** Of those, the tables the input cut off before their end (OverallSummaries.cutOffTables); 0 for a scrape. */
  readonly overallSummaryCutOff: number;
  /** The log has a line at DEBUG (AnalysisSnapshot.debugLines); false for a scrape. */
  readonly debugLines: boolean;
  /** A stats table was printed at DEBUG (AnalysisSnapshot.statsTablesAtDebug); false for a scrape. */
  readonly statsTablesAtDebug: boolean;
  /** analyze's words for a log with no per-request stage statistics (noStageStatsAdvice); null otherwise, and for a scrape. */
  readonly noStageStats: string | null;
  /** The stages of the log's analysis (a deploy config of other stages did not serve it: deployEvidence.ts); none for a scrape. */
  readonly stages: AnalysisSnapshot['stages'];
  /** Read for one server boot (ExplainReadOptions.boot): the other boots' requests left out, and the boots the log has. */
  readonly bootCounts?: BootCounts | null;
  /** Read for one server of a merged log (ExplainReadOptions.server): the other servers' requests left out, and the servers the log has. */
  readonly serverCounts?: ServerCounts | null;
  /** 'gzip' when the file or stream was gzip data, read as the log inside it; null otherwise. */
  readonly compression: 'gzip' | null;
  /** Where the gzip data broke off (the report's input-gzip-damaged finding says it too); null when it did not. */
  readonly gzipDamage: GzipDamageProblem | null;
  /** A --since/--until window on the log's clock, placed as analyze places it (StreamAnalysis.windowOn); null when the log printed no time, or a scrape. */
  readonly windowOn: (spec: WindowSpec) => ClockWindow | null;
  /**
   * `findings` with the KV-cache usage of the `Engine NNN:` lines judged over those in `window`
   * (placed on the log clock) and the boot read, as analyze judges them with the same window and
   * boot (metric-not-reporting, "1 of 1 lines in the window"); a scrape's findings as they are.
   */
  readonly findingsInWindow: (window: ClockWindow) => readonly Finding[];
}

export interface ExplainReadOptions {
  /** Only the requests of this server boot: the index, the findings and the stage roles are over it alone. */
  readonly boot?: number;
  /** Only the requests of this server of a log that merges several servers' (its lines' tag), as for `boot`. */
  readonly server?: string;
}

/** One pass of a log (several streams for a session) into an analysis and its explain index. */
class LogExplainReader {
  readonly index: ExplainIndex;
  private readonly analysis: StreamAnalysis;
  private readonly parsers = new Map<ChunkStream, LogStreamParser>();
  private capturedAt = Number.NaN;
  private bytes = 0;

  private readonly rolesFromSession: boolean;
  /** The server boot read alone (ExplainReadOptions.boot); undefined for every boot. */
  private readonly boot: number | undefined;

  /**
   * `names`: what names the pipeline (the source's path, a deploy config's), as analyze takes it;
   * `recorded`: a saved session's roles, taken instead.
   */
  constructor(
    year: number,
    names: string,
    options: ExplainReadOptions = {},
    recorded?: Readonly<Record<string, string>>,
  ) {
    this.index = new ExplainIndex({ year });
    const roles = stageRolesOfNamesOrRecorded(names, recorded);
    this.rolesFromSession = recorded !== undefined;
    this.boot = options.boot;
    // The index takes every request as it comes; the analysis keeps none and summarizes no
    // field (explain reports neither), only its findings, stage roles and engine series are read.
    this.analysis = new StreamAnalysis({
      year,
      stageRoles: () => roles,
      keepRequests: false,
      summaryFields: new Set(),
      onRequest: (r) => this.index.add(r, this.capturedAt),
      ...(options.boot === undefined ? {} : { boot: options.boot }),
      ...(options.server === undefined ? {} : { server: options.server }),
    });
  }

  push(bytes: Buffer, stream: ChunkStream = 'file', capturedAt = Number.NaN): void {
    this.capturedAt = capturedAt;
    this.bytes += bytes.length;
    let parser = this.parsers.get(stream);
    // The [Overall Summary] rows are read: a request's preprocess part is its input_preprocess_time_ms
    // (3 decimals) where one covers it alone, not [OmniTiming]'s 10 ms steps (docs/breakdown.md).
    if (parser === undefined) this.parsers.set(stream, (parser = new LogStreamParser()));
    const analysis = this.analysis;
    pushInPieces(parser, bytes, (output) => analysis.ingest(output));
  }

  /** The log read so far is all there is: the gzip data broke off after it (placed at the last line read). */
  brokeOff(damage: ParseProblem): void {
    const parser = this.parsers.get('file');
    this.analysis.ingest({ records: [], problems: [{ ...damage, line: parser?.lastLine ?? 1 }] });
  }

  end(kind: ExplainInput['kind']): ExplainInput {
    for (const parser of this.parsers.values()) this.analysis.ingest(parser.end());
    this.analysis.flush();
    const snapshot = this.analysis.snapshot();
    const stageRoles = this.analysis.stageRoles();
    return {
      kind,
      index: this.index,
      findings: snapshot.findings,
      gauges: gaugesOfEngines(snapshot.engineSeries),
      problemCount: snapshot.problems.length,
      stageRoles,
      stageRolesFrom: stageRolesFromOf(
        stageRoles,
        this.analysis.servedModel(),
        this.rolesFromSession,
        this.analysis.stageRolesFromLabels(),
      ),
      empty: this.bytes === 0,
      overallSummaryTables: snapshot.overallSummaries?.tables ?? 0,
      overallSummaryCutOff: snapshot.overallSummaries?.cutOffTables ?? 0,
      debugLines: snapshot.debugLines,
      statsTablesAtDebug: snapshot.statsTablesAtDebug,
      noStageStats: noStageStatsAdvice(
        snapshot.stages.length,
        snapshot.overallSummaries?.tables ?? 0,
        snapshot.findings,
        snapshot.debugLines,
      ),
      stages: snapshot.stages,
      bootCounts: this.analysis.bootCounts(),
      serverCounts: this.analysis.serverCounts(),
      compression: null,
      gzipDamage: null,
      windowOn: (spec) => this.analysis.windowOn(spec),
      findingsInWindow: (window) =>
        this.analysis.findingsOver({ ...(this.boot === undefined ? {} : { boot: this.boot }), window }),
    };
  }
}

/** `end`: how the input ended (its gzip data broke off): a scrape cut short is not judged where it was cut. */
function scrapeInput(text: string, end: ScrapeEnd = WHOLE_INPUT): ExplainInput {
  const exposition = parseExposition(text, end);
  const cut = scrapeCutFinding(exposition, end);
  const findings = [...metricNotReportingInScrape(exposition, null, end), ...(cut === null ? [] : [cut])];
  return {
    kind: 'scrape',
    index: new ExplainIndex(),
    findings,
    gauges: [],
    problemCount: exposition.problems.length,
    stageRoles: {},
    stageRolesFrom: 'none',
    scrapeChecks: scrapeChecksDone(exposition, end),
    empty: text.length === 0,
    overallSummaryTables: 0,
    overallSummaryCutOff: 0,
    debugLines: false,
    statsTablesAtDebug: false,
    noStageStats: null,
    stages: [],
    compression: null,
    gzipDamage: null,
    windowOn: () => null,
    findingsInWindow: () => findings,
  };
}

/** Reads a log or a scrape from a stream (stdin, a file); `names` as for LogExplainReader. */
export async function explainFromStream(
  input: Readable | AsyncIterable<unknown> | Iterable<Buffer> | JoinedFiles,
  year: number,
  names: string,
  options: ExplainReadOptions = {},
): Promise<ExplainInput> {
  let log: LogExplainReader | null = null;
  const scrape: Buffer[] = [];
  let scrapeBytes = 0;
  const reader = await readByKind(input, (kind, encoding) =>
    kind === 'log'
      ? { kind, encoding, push: (b: Buffer) => (log ??= new LogExplainReader(year, names, options)).push(b) }
      : {
          kind,
          encoding,
          push: (b: Buffer) => {
            scrapeBytes += b.length;
            if (scrapeBytes > MAX_SCRAPE_BYTES)
              throw new Error(`the input looks like a /metrics scrape but is more than ${MAX_SCRAPE_BYTES / 1e6} MB`);
            scrape.push(b);
          },
        },
  );
  const { compression, damage } = reader.encoding;
  const gzip = { compression, gzipDamage: damage };
  if (reader.kind === 'scrape') {
    const input = scrapeInput(Buffer.concat(scrape).toString('utf8'), { gzipBroke: damage !== null });
    // Its series before the break are read: a finding says so, in the report's JSON as in its table.
    const findings = damage === null ? input.findings : [...input.findings, scrapeGzipDamagedFinding(damage)];
    return { ...input, ...gzip, findings, findingsInWindow: () => findings };
  }
  const logReader = log ?? new LogExplainReader(year, names, options);
  if (damage !== null) logReader.brokeOff(damage);
  const read = logReader.end('log');
  // A gzip input that broke off before any log is damaged, not empty.
  return { ...read, ...gzip, empty: read.empty && damage === null };
}

/**
 * A session folder of an imported /metrics scrape: its stored bytes are the scrape's text, read as
 * `explain` reads the scrape file, with where its gzip data broke off after the scrape's findings.
 */
function importedScrapeInput(files: SessionFiles, meta: SessionMeta, source: string): ExplainInput {
  const text = files.storedText('file', MAX_SCRAPE_BYTES);
  if (text === null) throw new Error(`${source}: the /metrics scrape this session imported cannot be read`);
  const damage = meta.inputDamage;
  const input = scrapeInput(text, { gzipBroke: damage !== undefined });
  if (damage === undefined) return input;
  const findings = [...input.findings, scrapeGzipDamagedFindingOf(damage.message)];
  return {
    ...input,
    findings,
    findingsInWindow: () => findings,
    gzipDamage: storedGzipDamage(damage.message, damage.gzipDamaged.logBytes),
  };
}

/**
 * Replays a saved session folder (in storage or a copy anywhere). Its deploy file and
 * description name its pipeline, as the editor names its stages (stageRolesOfNames), with
 * `deployConfigOption` (explain's --deploy-config) where given; the folder's path does not: a
 * stored session's folder is its id, a copy's is whatever it was copied to, and neither says
 * more of the pipeline than the session's own names (a copy under `qwen3-omni-runs/` of a
 * Qwen3-TTS session must not get Qwen3-Omni's roles). With `recordedRoles`, the stage roles its
 * metadata recorded (SessionInfo.stageRoles, as the editor judged them against its stages) name
 * them instead, where it recorded some.
 */
export async function explainFromSessionFolder(
  dir: string,
  source: string,
  deployConfigOption: string | null,
  options: ExplainReadOptions = {},
  recordedRoles = false,
): Promise<ExplainInput> {
  const files = SessionFiles.atFolder(dir);
  const meta = files.readMeta();
  if (meta === null) throw new Error(`${source}: session.json cannot be read as a Stage Lens session`);
  if (meta.info.importedScrape === true) return importedScrapeInput(files, meta, source);
  const { deployConfig, description, startedAt, stageRoles } = meta.info;
  const reader = new LogExplainReader(
    new Date(startedAt).getUTCFullYear(),
    `${deployConfigOption ?? ''} ${sessionPipelineNames({ deployConfig, description })}`,
    options,
    recordedRoles ? stageRoles : undefined,
  );
  for await (const chunk of files.chunkReader(startedAt).read(true))
    reader.push(chunk.bytes, chunk.stream, chunk.capturedAt);
  // An import whose gzip data broke off is the log before the break, as the file's explain says.
  const damage =
    meta.inputDamage === undefined
      ? null
      : storedGzipDamage(meta.inputDamage.message, meta.inputDamage.gzipDamaged.logBytes);
  if (damage !== null) reader.brokeOff(damage);
  return { ...reader.end('session'), sessionDeployConfig: deployConfig, gzipDamage: damage };
}

/**
 * A path (file or session folder) or '-' (stdin); rejects with a message a user can act on.
 * The stage roles come from the input's name and `deployConfig`'s, as analyze takes them; a
 * saved session's from its own names instead of its folder's (explainFromSessionFolder), and
 * its recorded roles name its stages unless a `deployConfig` is given.
 */
export async function readExplainInput(
  source: string,
  stdin: Readable,
  deployConfig: string | null = null,
  options: ExplainReadOptions = {},
): Promise<ExplainInput> {
  const year = new Date().getUTCFullYear();
  const names = cliInputNames(source === '-' ? 'stdin' : source, deployConfig);
  if (source === '-') return explainFromStream(stdin, year, names, options);
  let stat;
  try {
    stat = await fsp.stat(source);
  } catch (err) {
    throw new Error(ioMessage(source, err));
  }
  if (stat.isDirectory()) {
    const hasMeta = await fsp.stat(path.join(source, 'session.json')).then(
      () => true,
      () => false,
    );
    if (!hasMeta)
      throw new Error(
        `${source} is a folder without a session.json: give a log file, a /metrics scrape, or a saved session folder`,
      );
    return explainFromSessionFolder(path.resolve(source), source, deployConfig, options, deployConfig === null);
  }
  try {
    // A regular file in large prefetched reads (as analyze reads it); a FIFO or device as a stream.
    return await explainFromStream(fileChunks(source), year, names, options);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== undefined) throw new Error(ioMessage(source, err));
    throw err;
  }
}

/** Several files read as one log (a log and its rotations, in `joined`'s order), named by them all as analyze names them. */
export async function readExplainFiles(
  joined: JoinedFiles,
  deployConfig: string | null = null,
  options: ExplainReadOptions = {},
): Promise<ExplainInput> {
  const names = cliInputNames(joinedName(joined.files), deployConfig);
  try {
    return await explainFromStream(joined, new Date().getUTCFullYear(), names, options);
  } catch (err) {
    const file = (err as NodeJS.ErrnoException).path ?? joinedName(joined.files);
    if ((err as NodeJS.ErrnoException).code !== undefined) throw new Error(ioMessage(file, err));
    throw err;
  }
}
