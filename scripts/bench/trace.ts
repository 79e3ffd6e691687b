// Trace export figures: a generated log of 100k requests (the parse benchmark's
// mix of Qwen3-TTS, Qwen3-Omni and AR -> diffusion requests) is analysed, then exported as
// a Chrome trace to a file through the same writer as Export Session. Reported: export
// time, output size, events; target < 5 s and < 300 MB. The log generation and the
// analysis are not timed. Run alone: node --import tsx scripts/bench/trace.ts [requests]
import { closeSync, mkdtempSync, openSync, readSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { LogStreamParser } from '../../server/core/log';
import { StreamAnalysis } from '../../server/core/analysis/streamAnalysis';
import { writeExport } from '../../server/capture/sessionExport';
import type { AnalyzedRequest } from '../../server/core/analysis/types';
import type { TraceRequests } from '../../server/core/report/trace';
import { generateBenchLog } from './generateLog';

export interface TraceBenchResult {
  readonly requests: number;
  /** Median wall time of the export (generation and file writes). */
  readonly seconds: number;
  /** Median CPU time (user + system) of the process during the export: less noisy on a shared machine. */
  readonly cpuSeconds: number;
  readonly megabytes: number;
  readonly bytesPerRequest: number;
}

function analyse(file: string): StreamAnalysis {
  const parser = new LogStreamParser();
  const analysis = new StreamAnalysis();
  const buffer = Buffer.alloc(1 << 20);
  const fd = openSync(file, 'r');
  try {
    for (;;) {
      const n = readSync(fd, buffer, 0, buffer.length, null);
      if (n === 0) break;
      analysis.ingest(parser.push(buffer.subarray(0, n)));
    }
  } finally {
    closeSync(fd);
  }
  analysis.ingest(parser.end());
  analysis.flush();
  return analysis;
}

export async function runTraceBench(
  requests: number,
  log: (line: string) => void,
  runs = 3,
): Promise<TraceBenchResult> {
  const dir = mkdtempSync(path.join(tmpdir(), 'stage-lens-trace-'));
  try {
    const file = path.join(dir, 'log.txt');
    // About 7.8 KB of log per request; a little more than needed.
    generateBenchLog(file, requests * 8300);
    const analysis = analyse(file);
    rmSync(file);
    if (analysis.requestCount < requests)
      throw new Error(`the generated log holds only ${analysis.requestCount} requests`);
    // The first `requests` of the packed store, read as a session export reads it.
    const store = analysis.requests;
    const picked: TraceRequests = {
      length: requests,
      at: (i) => (i < requests ? store.at(i) : undefined),
      timestampAt: (i) => store.timestampAt(i),
      e2eCellAt: (i, name) => store.e2eCellAt(i, name),
      *[Symbol.iterator]() {
        for (let i = 0; i < requests; i++) yield store.at(i) as AnalyzedRequest;
      },
    };
    const input = { requests: picked, snapshot: () => analysis.snapshot(), histograms: [], source: 'bench' };
    const out = path.join(dir, 'trace.json');
    const wall: number[] = [];
    const cpu: number[] = [];
    let bytes = 0;
    for (let i = 0; i < runs; i++) {
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      bytes = await writeExport(out, 'trace', input);
      wall.push((performance.now() - t0) / 1000);
      const c = process.cpuUsage(c0);
      cpu.push((c.user + c.system) / 1e6);
    }
    if (statSync(out).size !== bytes) throw new Error('trace size mismatch');
    const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    const result: TraceBenchResult = {
      requests: picked.length,
      seconds: median(wall),
      cpuSeconds: median(cpu),
      megabytes: bytes / 1e6,
      bytesPerRequest: bytes / picked.length,
    };
    log(
      `trace export of ${result.requests} requests: ${result.seconds.toFixed(2)} s wall, ${result.cpuSeconds.toFixed(2)} s CPU (median of ${runs}; wall ${wall.map((t) => t.toFixed(2)).join(', ')} s), ` +
        `${result.megabytes.toFixed(1)} MB (${result.bytesPerRequest.toFixed(0)} B/request); target < 5 s, < 300 MB`,
    );
    return result;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (require.main === module) {
  void runTraceBench(Number(process.argv[2] ?? 100_000), (l) => console.log(l));
}
