// Parse benchmark (parser throughput and session memory): generates a ~200 MB log (in a
// child process, see generateBenchLogApart), then in one process measures
//   floor  what any line reader pays: read 1 MB chunks, decode UTF-8 64 KB at a time (the
//          parser's own ChunkDecoder: ASCII pieces copied as Latin-1), split into lines;
//   parse  LogStreamParser (bundled by esbuild, as it ships) fed the same chunks;
// best of `runs` timed runs each, interleaved. Reports MB/s, requests/s, the ratio
// parse/floor (target >= 0.3); the memory per 100k requests of what a session keeps once
// the log is read (parser + StreamAnalysis: the packed request store, the per-stage
// summaries and findings; V8 heap plus typed-array backing stores, target <= 100 MB,
// exact with --expose-gc) and the time that full ingest takes; and the parser's own
// working set while streaming.
// Run alone: node --expose-gc --import tsx scripts/bench/parse.ts [sizeMB]
import { closeSync, mkdtempSync, openSync, readSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LogRecord } from '../../server/core/records';
import type * as LogModule from '../../server/core/log';
import type * as AnalysisModule from '../../server/core/analysis/streamAnalysis';
import { ChunkDecoder, eachDecodePiece } from '../../server/core/log/lines';
import { generateBenchLogApart } from './generateLog';
import { writeCoreBundle } from './coreBundle';

type ParserClass = typeof LogModule.LogStreamParser;
type AnalysisClass = typeof AnalysisModule.StreamAnalysis;

/** The parser as the product runs it: bundled into one module, like dist/ (coreBundle.ts). */
function bundledCore(dir: string): { parser: ParserClass; analysis: AnalysisClass } {
  const mod = require(writeCoreBundle(join(dir, 'log-parser.js'))) as {
    LogStreamParser: ParserClass;
    StreamAnalysis: AnalysisClass;
  };
  return { parser: mod.LogStreamParser, analysis: mod.StreamAnalysis };
}

export interface ParseBenchOptions {
  /** Size of the generated log; default 200 MB. */
  readonly targetBytes?: number;
  /** Timed runs of each measurement; the best is reported. Default 5 (this VM varies by ±8% from run to run). */
  readonly runs?: number;
  readonly log?: (line: string) => void;
}

export interface ParseBenchResult {
  readonly bytes: number;
  readonly requests: number;
  readonly lines: number;
  readonly floorMBps: number;
  readonly floorRequestsPerS: number;
  readonly parseMBps: number;
  readonly parseRequestsPerS: number;
  /** parse throughput / floor throughput (the floor decoding as the parser does). */
  readonly ratio: number;
  /** parse throughput / the throughput of the same line reader with the standard TextDecoder. */
  readonly ratioTextDecoderFloor: number;
  /** Throughput of that reader (the standard TextDecoder), MB/s. */
  readonly floorTextDecoderMBps: number;
  /** Memory a session keeps per 100k requests (parser + analysis; heap + typed arrays), MB. */
  readonly sessionMBPer100k: number;
  /** Parse + analysis throughput (what an import of a log takes), MB/s. */
  readonly ingestMBps: number;
  /** Heap the parser itself keeps while streaming the whole log with records dropped as they come, MB. */
  readonly workingSetMB: number;
  /** Parse throughput of the same log with a tqdm bar line (non-ASCII) every MIXED_EVERY lines, MB/s. */
  readonly mixedParseMBps: number;
  /** Whether the heap figures come from a forced GC (--expose-gc) rather than memoryUsage deltas. */
  readonly exactHeap: boolean;
}

const CHUNK = 1 << 20;
const MB = 1e6;

function eachChunk(path: string, onChunk: (bytes: Uint8Array) => void): void {
  const fd = openSync(path, 'r');
  const buffer = new Uint8Array(CHUNK);
  try {
    for (;;) {
      const n = readSync(fd, buffer, 0, CHUNK, null);
      if (n === 0) break;
      onChunk(n === CHUNK ? buffer : buffer.subarray(0, n));
    }
  } finally {
    closeSync(fd);
  }
}

/**
 * The chunks cut into the pieces the parser decodes at a time (lines.ts: 64 KB, below V8's
 * large-object size, measurably faster): the floors get the same advantage, so the ratio
 * compares parsing with splitting, not two ways of feeding the decoder.
 */
function eachPiece(path: string, onPiece: (bytes: Uint8Array) => void): void {
  eachChunk(path, (bytes) => eachDecodePiece(bytes, onPiece));
}

/** The same line reader with the standard streaming TextDecoder: the floor a typical reader pays. */
function floorTextDecoder(path: string): number {
  const decoder = new TextDecoder('utf-8');
  let carry = '';
  let lines = 0;
  eachPiece(path, (bytes) => {
    const text = decoder.decode(bytes, { stream: true });
    let pos = 0;
    for (let nl = text.indexOf('\n'); nl !== -1; nl = text.indexOf('\n', pos)) {
      const line = pos === 0 && carry !== '' ? carry + text.slice(0, nl) : text.slice(pos, nl);
      carry = '';
      if (line.length >= 0) lines++;
      pos = nl + 1;
    }
    carry += text.slice(pos);
  });
  return carry !== '' ? lines + 1 : lines;
}

function floor(path: string): number {
  // The same decoding as the parser's (ASCII chunks copied as Latin-1, the rest through the
  // UTF-8 decoder), so the ratio compares the parsing, not two ways of decoding.
  const decoder = new ChunkDecoder();
  let carry = '';
  let lines = 0;
  let chars = 0;
  eachPiece(path, (bytes) => {
    const text = decoder.decode(bytes);
    let pos = 0;
    for (let nl = text.indexOf('\n'); nl !== -1; nl = text.indexOf('\n', pos)) {
      const line = pos === 0 && carry !== '' ? carry + text.slice(0, nl) : text.slice(pos, nl);
      carry = '';
      lines++;
      chars += line.length;
      pos = nl + 1;
    }
    carry += text.slice(pos);
  });
  if (carry !== '') lines++;
  return chars >= 0 ? lines : -1;
}

let LogStreamParser: ParserClass;
let StreamAnalysis: AnalysisClass;

function parse(path: string): number {
  const parser = new LogStreamParser();
  let requests = 0;
  const take = (records: LogRecord[]): void => {
    for (const r of records) if (r.kind === 'requestE2E') requests++;
  };
  eachChunk(path, (bytes) => take(parser.push(bytes).records));
  take(parser.end().records);
  return requests;
}

function gc(): boolean {
  const g = (globalThis as { gc?: () => void }).gc;
  if (g === undefined) return false;
  g();
  g();
  return true;
}

function best(runs: number, fn: () => void): number {
  let min = Infinity;
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    fn();
    min = Math.min(min, (performance.now() - t0) / 1000);
  }
  return min;
}

function memoryInUse(): number {
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
}

/** Reads the whole log into a StreamAnalysis, as a session does; its memory per 100k requests and the time taken. */
function sessionMemory(path: string): { mb: number; seconds: number; exact: boolean } {
  const exact = gc();
  const before = memoryInUse();
  const t0 = performance.now();
  const parser = new LogStreamParser();
  const analysis = new StreamAnalysis();
  eachChunk(path, (bytes) => void analysis.ingest(parser.push(bytes)));
  analysis.ingest(parser.end());
  analysis.flush();
  const seconds = (performance.now() - t0) / 1000;
  gc();
  const held = memoryInUse() - before;
  const count = analysis.requestCount;
  return { mb: count === 0 ? NaN : (held / MB) * (100_000 / count), seconds, exact };
}

const MIXED_EVERY = 400;
const BAR_LINE = new TextEncoder().encode(
  'Processed prompts: 100%|\u2588\u2588\u2588\u2588| 1/1 [00:01<00:00,  1.00it/s]\n',
);

/**
 * A copy of the log with a tqdm progress-bar line (█, not ASCII) after every MIXED_EVERY
 * lines: nearly every 64 KB piece then holds a few non-ASCII bytes, as a log with bars does.
 */
function writeMixedCopy(path: string, out: string): number {
  const fd = openSync(out, 'w');
  let bytes = 0;
  let lines = 0;
  try {
    eachChunk(path, (chunk) => {
      let from = 0;
      for (let nl = chunk.indexOf(10); nl !== -1; nl = chunk.indexOf(10, nl + 1)) {
        if (++lines % MIXED_EVERY !== 0) continue;
        bytes += writeSync(fd, chunk.subarray(from, nl + 1));
        bytes += writeSync(fd, BAR_LINE);
        from = nl + 1;
      }
      bytes += writeSync(fd, chunk.subarray(from));
    });
  } finally {
    closeSync(fd);
  }
  return bytes;
}

/** Heap held by a parser that has read the whole log, its records dropped as they came. */
function workingSet(path: string): number {
  gc();
  const before = process.memoryUsage().heapUsed;
  const parser = new LogStreamParser();
  eachChunk(path, (bytes) => void parser.push(bytes));
  gc();
  const held = process.memoryUsage().heapUsed - before;
  parser.end();
  return held / MB;
}

export function runParseBench(options: ParseBenchOptions = {}): ParseBenchResult {
  const log = options.log ?? ((line: string) => console.log(line));
  const runs = options.runs ?? 5;
  const dir = mkdtempSync(join(tmpdir(), 'stage-lens-bench-'));
  const path = join(dir, 'server.log');
  try {
    ({ parser: LogStreamParser, analysis: StreamAnalysis } = bundledCore(dir));
    const t0 = performance.now();
    const generated = generateBenchLogApart(path, options.targetBytes ?? 200 * MB);
    log(
      `parse bench: generated ${(generated.bytes / MB).toFixed(1)} MB, ${generated.lines.toLocaleString('en-US')} lines, ` +
        `${generated.requests.toLocaleString('en-US')} requests in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
    );
    let requests = 0;
    // Warm both paths once, then interleave the timed runs.
    floor(path);
    requests = parse(path);
    let floorS = Infinity;
    let floorTextDecoderS = Infinity;
    let parseS = Infinity;
    for (let i = 0; i < runs; i++) {
      floorS = Math.min(
        floorS,
        best(1, () => floor(path)),
      );
      floorTextDecoderS = Math.min(
        floorTextDecoderS,
        best(1, () => floorTextDecoder(path)),
      );
      parseS = Math.min(
        parseS,
        best(1, () => parse(path)),
      );
    }
    const mixedPath = join(dir, 'server-mixed.log');
    const mixedBytes = writeMixedCopy(path, mixedPath);
    parse(mixedPath);
    const mixedS = best(runs, () => parse(mixedPath));
    rmSync(mixedPath);
    const session = sessionMemory(path);
    const workingSetMB = workingSet(path);
    const result: ParseBenchResult = {
      bytes: generated.bytes,
      requests,
      lines: generated.lines,
      floorMBps: generated.bytes / MB / floorS,
      floorRequestsPerS: requests / floorS,
      parseMBps: generated.bytes / MB / parseS,
      parseRequestsPerS: requests / parseS,
      ratio: floorS / parseS,
      ratioTextDecoderFloor: floorTextDecoderS / parseS,
      floorTextDecoderMBps: generated.bytes / MB / floorTextDecoderS,
      sessionMBPer100k: session.mb,
      ingestMBps: generated.bytes / MB / session.seconds,
      exactHeap: session.exact,
      workingSetMB,
      mixedParseMBps: mixedBytes / MB / mixedS,
    };
    const f = (n: number, d = 1): string =>
      n.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d });
    log(
      `  floor (read + decode + split lines): ${f(result.floorMBps)} MB/s, ${f(result.floorRequestsPerS, 0)} requests/s`,
    );
    log(
      `  parse (LogStreamParser):            ${f(result.parseMBps)} MB/s, ${f(result.parseRequestsPerS, 0)} requests/s`,
    );
    log(
      `  ratio parse/floor: ${f(result.ratio, 2)} (target >= 0.3); against a reader using the standard TextDecoder (${f(result.floorTextDecoderMBps)} MB/s): ${f(result.ratioTextDecoderFloor, 3)}`,
    );
    log(
      `  memory a session keeps per 100k requests (packed store + summaries + findings; heap + typed arrays): ${f(result.sessionMBPer100k)} MB (target <= 100)` +
        (result.exactHeap ? '' : '  [approximate: run with --expose-gc for exact figures]'),
    );
    log(
      `  parse of the same log with a tqdm bar line every ${MIXED_EVERY} lines (pieces not all ASCII): ${f(result.mixedParseMBps)} MB/s`,
    );
    log(`  full ingest (parse + analysis, one pass): ${f(result.ingestMBps)} MB/s`);
    log(`  parser working set while streaming (records not kept): ${f(result.workingSetMB)} MB`);
    return result;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (require.main === module) {
  const sizeMB = Number(process.argv[2] ?? '200');
  runParseBench({ targetBytes: (Number.isFinite(sizeMB) && sizeMB > 0 ? sizeMB : 200) * MB });
}
