// One run of a comparison read from disk: a server log, a /metrics scrape (told apart by
// content, as `analyze` does) or a saved session folder (<storage>/sessions/<id> or a copy
// of one anywhere, as SessionFiles writes it: its captured bytes are replayed through the parser, chunk by
// chunk and stream by stream, as a reopened session does). A path that is not a regular file (a
// FIFO, `<(…)`) is read as a stream.
import { createReadStream } from 'node:fs';
import * as fsp from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { looksLikePrometheus } from '../core/inputKind';
import { KIND_HEAD_BYTES, MAX_SCRAPE_BYTES, readByKind, type ChunkReader, type InputKind } from './inputByKind';
import { histogramRowsOfScrape, histogramRowsOfSummaries, LogRunReader, runStageRolesOf } from '../core/compare';
import type { RunData } from '../core/compare';
import { fileReads, readChunkAt } from './importFile';
import { SessionFiles } from './sessionFiles';
import type { SessionMeta } from './storage/storedMeta';
import { fileChunks } from './fileChunks';
import { JoinedFiles, joinedName } from './joinedFiles';
import type { InputEncoding } from './gunzipInput';
import { compressedFormatOf } from '../core/log/compressedInput';
import {
  encodedSourceName,
  scrapeGzipDamagedFinding,
  scrapeGzipDamagedFindingOf,
  type GzipDamageProblem,
} from '../core/gzipInput';
import { sessionPipelineNames } from '../core/stageRoles';

export interface LoadRunOptions {
  readonly excludeCold: boolean;
  /** Only the requests of this server boot of a log or session (the run says which boots it has); absent: every boot. */
  readonly boot?: number | null;
  /** Only the requests of this server of a log that merges several servers' (its lines' tag); absent: every server. */
  readonly server?: string | null;
}

/** A message a user can act on, for a path that cannot be read. */
export function ioMessage(source: string, err: unknown): string {
  const e = err as NodeJS.ErrnoException;
  const why =
    e.code === 'ENOENT'
      ? 'no such file or folder'
      : e.code === 'EACCES'
        ? 'permission denied'
        : e.code === 'EISDIR'
          ? 'is a folder'
          : (e.message ?? String(err));
  return `cannot read ${source}: ${why}`;
}

/** A gzip input's name in the report ("a.log.gz (gzip)"); its damage goes to the run's findings and marks it partial. */
function gzipRun(run: StreamRun, encoding: InputEncoding, source: string): RunData {
  if (encoding.damage !== null) run.brokeOff(encoding.damage);
  const data = run.end();
  const logBytes = encoding.damage?.gzipDamaged?.logBytes;
  return {
    ...data,
    source: encodedSourceName(source, encoding),
    ...(logBytes === undefined ? {} : { partialLogBytes: logBytes }),
  };
}

function logRun(reader: LogRunReader, source: string): RunData {
  // Its findings name its stages by the roles its tables will (the model it serves, its file's name).
  const samples = reader.end((read) => runStageRolesOf({ source, samples: read }));
  return {
    source,
    kind: 'log',
    samples,
    histograms: null,
    problemCount: reader.problemCount,
    ...bootOf(reader),
    ...serverOf(reader),
  };
}

function readerOf(options: LoadRunOptions): LogRunReader {
  return new LogRunReader(options.excludeCold, options.boot ?? null, options.server ?? null);
}

/** The server selected, with what it left out and the servers the log has, when one was. */
function serverOf(reader: LogRunReader): Pick<RunData, 'serverCounts'> {
  const counts = reader.serverCounts();
  return counts === null ? {} : { serverCounts: counts };
}

/** The boots and servers the run has, and the boot selected (with what it left out) when one was. */
function bootOf(reader: LogRunReader): Pick<RunData, 'bootCounts' | 'boots' | 'servers' | 'untaggedRequests'> {
  const counts = reader.bootCounts();
  const { servers, untagged } = reader.servers();
  return {
    ...(counts === null ? {} : { bootCounts: counts }),
    boots: reader.boots(),
    servers,
    untaggedRequests: untagged,
  };
}

/**
 * A /metrics scrape's run; `gzipBreak`: where its gzip data broke off (the series before it are
 * read). A text that ends inside a line was cut there, and says so in the same place.
 */
export function scrapeRun(text: string, source: string, gzipBreak?: string): RunData {
  const { rows, problemCount, findings, exposed, cutShort, scrapeCut } = histogramRowsOfScrape(text, {
    gzipBroke: gzipBreak !== undefined,
  });
  const scrapeBreak = gzipBreak ?? cutShort ?? undefined;
  return {
    source,
    kind: 'scrape',
    samples: null,
    histograms: rows,
    problemCount,
    scrapeFindings: findings,
    exposedHistogramSeries: exposed,
    ...(scrapeBreak === undefined ? {} : { scrapeBreak }),
    // Cut short: a family it did not read whole is unknown in it, not absent, and a finding read from one could not show.
    ...(scrapeCut === null ? {} : { scrapeCut }),
  };
}

/**
 * A session folder of an imported /metrics scrape: its stored bytes are the scrape's text, read as
 * the scrape file is (its histograms added over replicas, its findings), not as a log of 0 requests.
 */
function importedScrapeRun(files: SessionFiles, meta: SessionMeta, source: string): RunData {
  const text = files.storedText('file', MAX_SCRAPE_BYTES);
  if (text === null) throw new Error(`${source}: the /metrics scrape this session imported cannot be read`);
  const damage = meta.inputDamage;
  const run = scrapeRun(
    text,
    source,
    damage === undefined ? undefined : scrapeGzipDamagedFindingOf(damage.message).message,
  );
  return {
    ...namedAsSession(run, meta),
    ...(damage === undefined ? {} : { partialLogBytes: damage.gzipDamaged.logBytes }),
  };
}

/**
 * A session folder of a session attached to a /metrics URL, with its last scrape's text: read as
 * `compare` reads a saved copy of that scrape (its histograms added over replicas, its findings, a cut said).
 */
function attachedScrapeRun(files: SessionFiles, meta: SessionMeta, source: string): RunData | null {
  if (meta.info.kind !== 'scrape') return null;
  const text = files.lastScrapeText(MAX_SCRAPE_BYTES);
  return text === null ? null : namedAsSession(scrapeRun(text, source), meta);
}

/** A session's run named as the editor names its stages (its deploy file and source), with the roles it recorded. */
function namedAsSession(run: RunData, meta: SessionMeta): RunData {
  const roles = meta.info.stageRoles;
  return {
    ...run,
    pipelineNames: sessionPipelineNames(meta.info),
    // Roles recorded for it name its stages instead; a scrape without a log records none.
    ...(roles === undefined || Object.keys(roles).length === 0 ? {} : { recordedStageRoles: roles }),
  };
}

export type LogSessionScrape = Pick<RunData, 'histograms'> &
  Partial<Pick<RunData, 'scrapeFindings' | 'exposedHistogramSeries' | 'scrapeBreak' | 'scrapeCut' | 'problemCount'>>;

/**
 * What a session with a log says of its /metrics endpoint: its last scrape's text read as a saved copy
 * of it is (a stage's replicas added, the scrape's findings, a cut said); the stored rows where no text
 * was kept (an older build's session, or a Prometheus server's, whose rows are over a window).
 */
export function scrapeOfLogSession(files: SessionFiles, source: string): LogSessionScrape {
  const text = files.lastScrapeText(MAX_SCRAPE_BYTES);
  if (text !== null) {
    const run = scrapeRun(text, source);
    return {
      histograms: run.histograms,
      scrapeFindings: run.scrapeFindings,
      exposedHistogramSeries: run.exposedHistogramSeries,
      scrapeBreak: run.scrapeBreak,
      scrapeCut: run.scrapeCut,
      // Its unreadable lines, counted as a saved copy of the scrape counts them.
      problemCount: run.problemCount,
    };
  }
  const rows = files.lastScrape();
  // A series without a count (unknown) is left out, never compared as 0 observations.
  return {
    histograms:
      rows === null || rows.length === 0
        ? null
        : histogramRowsOfSummaries(rows.filter((h): h is typeof h & { count: number } => h.count !== null)),
  };
}

async function loadLogFile(file: string, source: string, options: LoadRunOptions): Promise<RunData> {
  const reader = readerOf(options);
  // A plain log (a gzip file is read as a stream, through gunzip): its bytes as they are.
  for await (const chunk of fileReads(file)) reader.push(chunk);
  return logRun(reader, source);
}

async function loadScrapeFile(file: string, source: string, size: number): Promise<RunData> {
  if (size > MAX_SCRAPE_BYTES)
    throw new Error(
      `${source} looks like a /metrics scrape but is ${Math.round(size / 1e6)} MB (more than ${MAX_SCRAPE_BYTES / 1e6} MB)`,
    );
  return scrapeRun(await fsp.readFile(file, 'utf8'), source);
}

async function loadSessionFolder(dir: string, source: string, options: LoadRunOptions): Promise<RunData> {
  // In storage (<storage>/sessions/<id>) or copied anywhere: the folder holds all it needs.
  const files = SessionFiles.atFolder(dir);
  const checked = files.checkMeta();
  if (!checked.ok) throw new Error(`${source}: not a Stage Lens session folder: ${checked.problem}`);
  if (checked.meta.info.importedScrape === true) return importedScrapeRun(files, checked.meta, source);
  // A scrape has no server boots: with one selected, it is refused as a scrape file is.
  const scraped = attachedScrapeRun(files, checked.meta, source);
  if (scraped !== null) return scraped;
  const reader = readerOf(options);
  let chunks = 0;
  for await (const chunk of files.chunkReader(checked.meta.info.startedAt).read(true)) {
    reader.push(chunk.bytes, chunk.stream);
    chunks++;
  }
  const names = {
    // Its stages are named from its deploy file and source, as the editor names them, not from its folder's path.
    pipelineNames: sessionPipelineNames(checked.meta.info),
    // The roles it recorded (as the editor judged them) name its stages instead, as explain takes them.
    ...(checked.meta.info.stageRoles === undefined ? {} : { recordedStageRoles: checked.meta.info.stageRoles }),
  };
  const samples = reader.end((read) => runStageRolesOf({ source, ...names, samples: read }));
  // A scrape's histograms count every request since the server last started, not one boot's nor
  // one server's of a merged log: with a boot or a server selected they are left out.
  const whole = (options.boot ?? null) === null && (options.server ?? null) === null;
  const scrape: LogSessionScrape = whole ? scrapeOfLogSession(files, source) : { histograms: null };
  // A scrape-only session has no captured log: it has no per-request data, not "0 requests".
  return {
    source,
    ...names,
    kind: 'session',
    samples: chunks === 0 ? null : samples,
    ...scrape,
    problemCount: reader.problemCount + (scrape.problemCount ?? 0),
    ...bootOf(reader),
    ...serverOf(reader),
  };
}

/** A run being read from a stream, once its kind is known. */
interface StreamRun extends ChunkReader {
  /** The input's gzip data broke off here: what was read is the run. */
  brokeOff(damage: GzipDamageProblem): void;
  end(): RunData;
}

function streamRunOf(kind: InputKind, source: string, options: LoadRunOptions): StreamRun {
  if (kind === 'scrape') {
    const parts: Buffer[] = [];
    let size = 0;
    let scrapeBreak: string | undefined;
    return {
      push(bytes) {
        size += bytes.length;
        if (size > MAX_SCRAPE_BYTES)
          throw new Error(`${source} looks like a /metrics scrape but is more than ${MAX_SCRAPE_BYTES / 1e6} MB`);
        parts.push(bytes);
      },
      // A scrape cut short is parsed as far as it goes (its problems count the cut), and says where it broke off.
      brokeOff(damage) {
        scrapeBreak = scrapeGzipDamagedFinding(damage).message;
      },
      end: () => scrapeRun(Buffer.concat(parts).toString('utf8'), source, scrapeBreak),
    };
  }
  const reader = readerOf(options);
  return {
    push: (bytes) => reader.push(bytes),
    brokeOff: (damage) => reader.brokeOff(damage),
    end: () => logRun(reader, source),
  };
}

/**
 * Reads one run from a stream (stdin), told apart by content as `analyze` does: a log is
 * parsed chunk by chunk as it arrives, a scrape read whole (at most MAX_SCRAPE_BYTES).
 */
export async function loadRunFromStream(
  input: Readable | AsyncIterable<Buffer> | JoinedFiles,
  source: string,
  options: LoadRunOptions,
): Promise<RunData> {
  let run: StreamRun & { encoding: InputEncoding };
  try {
    run = await readByKind(input, (kind, encoding) => ({ ...streamRunOf(kind, source, options), encoding }));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== undefined) throw new Error(ioMessage(source, err));
    throw err;
  }
  return gzipRun(run, run.encoding, source);
}

/** Reads several log files as one run's log (a log and its rotations), in the order given: oldest first. */
export function loadJoinedRun(files: readonly string[], options: LoadRunOptions): Promise<RunData> {
  return loadRunFromStream(new JoinedFiles(files), joinedName(files), options);
}

/** Reads one run; rejects with a readable message when the path cannot be used. */
export async function loadRun(source: string, options: LoadRunOptions): Promise<RunData> {
  let stat;
  try {
    stat = await fsp.stat(source);
  } catch (err) {
    throw new Error(ioMessage(source, err));
  }
  try {
    if (stat.isDirectory()) {
      const meta = path.join(source, 'session.json');
      const hasMeta = await fsp.stat(meta).then(
        () => true,
        () => false,
      );
      if (!hasMeta)
        throw new Error(
          `${source} is a folder without a session.json: give a log file, a /metrics scrape, or a saved session folder`,
        );
      return await loadSessionFolder(path.resolve(source), source, options);
    }
    // A FIFO or a process substitution (`compare <(zcat a.gz) <(zcat b.gz)`) cannot be read at an
    // offset, nor twice: it is read once, as a stream, as stdin is.
    if (!stat.isFile()) return await loadRunFromStream(createReadStream(source), source, options);
    const handle = await fsp.open(source, 'r');
    let head: Buffer;
    try {
      head = await readChunkAt(handle, 0, KIND_HEAD_BYTES);
    } finally {
      await handle.close();
    }
    // A gzip file's kind is that of the text inside: it is read as a stream, through gunzip.
    if (compressedFormatOf(head) === 'gzip') return await loadRunFromStream(fileChunks(source), source, options);
    if (looksLikePrometheus(head.toString('utf8'))) return await loadScrapeFile(source, source, stat.size);
    return await loadLogFile(source, source, options);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== undefined) throw new Error(ioMessage(source, err));
    throw err;
  }
}
