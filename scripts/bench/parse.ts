// Parse benchmark (issue 2, "Bad input, speed, memory"): generates a ~200 MB log, then in
// the same process measures
//   floor  what any line reader pays: read 1 MB chunks, decode UTF-8 (streaming
//          TextDecoder), split into lines;
//   parse  LogStreamParser (bundled by esbuild, as it ships) fed the same chunks;
// best of `runs` timed runs each, interleaved. Reports MB/s, requests/s, the ratio
// parse/floor (target >= 0.3), the heap the records take per 100k requests when all are
// kept (target <= 100 MB; exact with --expose-gc), for both field-map representations,
// and the parser's own working set while streaming.
// Run alone: node --expose-gc --import tsx scripts/bench/parse.ts [sizeMB]
import { buildSync } from 'esbuild';
import { closeSync, mkdtempSync, openSync, readSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LogRecord } from '../../server/core/records';
import type * as LogModule from '../../server/core/log';
import type { FieldMapStyle } from '../../server/core/log';
import { generateBenchLog } from './generateLog';

type ParserClass = typeof LogModule.LogStreamParser;

/**
 * The parser as the product runs it: bundled by esbuild into one module, like dist/.
 * (Loaded through tsx file by file, every cross-module call and constant goes through an
 * export getter, which makes the same code markedly slower than what ships.)
 */
function bundledParser(dir: string): ParserClass {
  const out = join(dir, 'log-parser.js');
  const built = buildSync({
    entryPoints: [join(__dirname, '..', '..', 'server', 'core', 'log', 'index.ts')],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    write: false,
    logLevel: 'silent',
  });
  writeFileSync(out, built.outputFiles[0]?.text ?? '');
  return (require(out) as typeof LogModule).LogStreamParser;
}

export interface ParseBenchOptions {
  /** Size of the generated log; default 200 MB. */
  readonly targetBytes?: number;
  /** Timed runs of each measurement; the best is reported. Default 3. */
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
  /** parse throughput / floor throughput (default, plain field maps). */
  readonly ratio: number;
  /** The same with `fieldMaps: 'compact'`. */
  readonly ratioCompact: number;
  /** Heap taken by the kept records per 100k requests, MB (default, plain field maps). */
  readonly heapMBPer100k: number;
  /** The same with `fieldMaps: 'compact'`. */
  readonly heapMBPer100kCompact: number;
  /** Heap the parser itself keeps while streaming the whole log with records dropped as they come, MB. */
  readonly workingSetMB: number;
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

/** Read, decode, split into lines: nothing else. Returns the number of lines. */
function floor(path: string): number {
  const decoder = new TextDecoder('utf-8');
  let carry = '';
  let lines = 0;
  let chars = 0;
  eachChunk(path, (bytes) => {
    const text = decoder.decode(bytes, { stream: true });
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

function parse(path: string, fieldMaps: FieldMapStyle, keep: LogRecord[] | null): number {
  const parser = new LogStreamParser({ fieldMaps });
  let requests = 0;
  const take = (records: LogRecord[]): void => {
    for (const r of records) {
      if (r.kind === 'requestE2E') requests++;
      keep?.push(r);
    }
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

function heapPer100k(path: string, fieldMaps: FieldMapStyle, requests: number): { mb: number; exact: boolean } {
  const exact = gc();
  const before = process.memoryUsage().heapUsed;
  const kept: LogRecord[] = [];
  parse(path, fieldMaps, kept);
  gc();
  const after = process.memoryUsage().heapUsed;
  const mb = ((after - before) / MB) * (100_000 / requests);
  if (kept.length === 0) return { mb: NaN, exact };
  return { mb, exact };
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
  const runs = options.runs ?? 3;
  const dir = mkdtempSync(join(tmpdir(), 'stage-lens-bench-'));
  const path = join(dir, 'server.log');
  try {
    LogStreamParser = bundledParser(dir);
    const t0 = performance.now();
    const generated = generateBenchLog(path, options.targetBytes ?? 200 * MB);
    log(
      `parse bench: generated ${(generated.bytes / MB).toFixed(1)} MB, ${generated.lines.toLocaleString('en-US')} lines, ` +
        `${generated.requests.toLocaleString('en-US')} requests in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
    );
    let requests = 0;
    // Warm both paths once, then interleave the timed runs.
    floor(path);
    requests = parse(path, 'plain', null);
    let floorS = Infinity;
    let parseS = Infinity;
    let compactS = Infinity;
    for (let i = 0; i < runs; i++) {
      floorS = Math.min(floorS, best(1, () => floor(path)));
      parseS = Math.min(parseS, best(1, () => parse(path, 'plain', null)));
      compactS = Math.min(compactS, best(1, () => parse(path, 'compact', null)));
    }
    const plain = heapPer100k(path, 'plain', requests);
    const compact = heapPer100k(path, 'compact', requests);
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
      ratioCompact: floorS / compactS,
      heapMBPer100k: plain.mb,
      heapMBPer100kCompact: compact.mb,
      exactHeap: plain.exact,
      workingSetMB,
    };
    const f = (n: number, d = 1): string => n.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d });
    log(`  floor (read + decode + split lines): ${f(result.floorMBps)} MB/s, ${f(result.floorRequestsPerS, 0)} requests/s`);
    log(`  parse (LogStreamParser):            ${f(result.parseMBps)} MB/s, ${f(result.parseRequestsPerS, 0)} requests/s`);
    log(`  ratio parse/floor: ${f(result.ratio, 2)} (target >= 0.3); with compact field maps ${f(result.ratioCompact, 2)}`);
    log(
      `  heap of kept records per 100k requests: ${f(result.heapMBPer100k)} MB (target <= 100); ` +
        `${f(result.heapMBPer100kCompact)} MB with compact field maps` +
        (result.exactHeap ? '' : '  [approximate: run with --expose-gc for exact figures]'),
    );
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
