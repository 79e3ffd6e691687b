// `stage-lens analyze <file|-> [--format table|json|csv|trace] [--exclude-cold]`
// Reads a server log or a /metrics scrape (told apart by content) from a file or stdin,
// in chunks, and prints the per-stage phase split and findings.
import { createReadStream, statSync } from 'node:fs';
import type { Readable } from 'node:stream';
import { StreamAnalysis } from '../core/analysis/streamAnalysis';
import { LogStreamParser } from '../core/log';
import { analysisJson } from '../core/report/jsonReport';
import { prettyJsonChunks } from '../core/report/jsonChunks';
import type { HistogramSummaryJson } from '../core/report/jsonReport';
import { csvRows } from '../core/report/csvReport';
import { tableReport } from '../core/report/tableReport';
import { traceChunks, type TraceRequests } from '../core/report/trace';
import type { AnalysisSnapshot } from '../core/analysis/streamAnalysis';
import { summarizeScrape } from '../core/promSummary';
import { boundSign } from '../core/prom/quantileBounds';
import type { Percentile } from '../core/percentiles';
import { MAX_SCRAPE_BYTES, readByKind } from '../capture/inputByKind';
import { parseCommandArgs } from './commandArgs';
import { withDeployEvidence } from '../capture/deployEvidence';

function isReadableFile(filePath: string): boolean {
  try {
    return statSync(filePath).isFile();
  } catch {
    return false;
  }
}

const HELP = `Usage: stage-lens analyze <file|-> [options]

Reads a vLLM-Omni server log (--log-stats) or a /metrics scrape, from a file or from
stdin ('-'), and prints the per-stage phase split (queued = input wait + ready queued,
prefill, decode, TTFT) with p50/p90/p99 and the findings.

Options:
  --format table|json|csv|trace
                            output format (default: table); trace: a Chrome trace (JSON) of
                            every request's stages and phases, for Perfetto (ui.perfetto.dev)
  --exclude-cold            leave the first request after each server start out of the percentiles
  --deploy-config <yaml>    the deploy YAML the server ran with (base_config overlays resolved):
                            findings name what it sets that explains them (e.g. model_runner
                            v2 + async_chunk for a stage whose prefill covers its decode)
  -f, --follow              follow a growing log file (appends, truncation, rotation) with a
                            live table; Ctrl-C or --duration <s> ends it with a final summary
  -h, --help                this text

Exit status: 0 when the input was read (findings are data, not failures);
2 for usage or I/O errors.`;

type Format = 'table' | 'json' | 'csv' | 'trace';

export async function runAnalyze(argv: string[]): Promise<number> {
  const parsed = parseCommandArgs(argv, { follow: { type: 'boolean', short: 'f', default: false }, duration: { type: 'string' }, 'deploy-config': { type: 'string' } }, HELP, (message) => {
    process.stderr.write(`stage-lens analyze: ${message}\n\n${HELP}\n`);
    return 2;
  });
  if (typeof parsed === 'number') return parsed;
  const format = parsed.values.format as string;
  if (format !== 'table' && format !== 'json' && format !== 'csv' && format !== 'trace') {
    process.stderr.write(`stage-lens analyze: --format must be table, json or csv, or trace (got '${format}')\n`);
    return 2;
  }
  if (parsed.positionals.length !== 1) {
    process.stderr.write(`stage-lens analyze: expected one input file (or '-' for stdin), got ${parsed.positionals.length}\n\n${HELP}\n`);
    return 2;
  }
  const source = parsed.positionals[0] as string;
  const deployConfig = (parsed.values['deploy-config'] as string | undefined) ?? null;
  if (deployConfig !== null && !isReadableFile(deployConfig)) {
    process.stderr.write(`stage-lens analyze: cannot read the deploy config ${deployConfig}\n`);
    return 2;
  }
  if (parsed.values.follow === true) {
    if (source === '-') {
      process.stderr.write('stage-lens analyze: --follow needs a file, not stdin\n');
      return 2;
    }
    const duration = parsed.values.duration === undefined ? null : Number(parsed.values.duration);
    if (duration !== null && !(duration > 0)) {
      process.stderr.write('stage-lens analyze: --duration must be a positive number of seconds\n');
      return 2;
    }
    const { TailSource } = await import('../capture/tailSource');
    const { runLive } = await import('./live');
    return runLive({ source: new TailSource({ path: source, fromStart: true }), title: `following ${source}`, durationSeconds: duration, refreshMs: 1000, out: process.stdout });
  }
  const input: Readable = source === '-' ? process.stdin : createReadStream(source);
  try {
    const sourceName = source === '-' ? 'stdin' : source;
    if (format === 'trace') {
      // Written chunk by chunk: a large log's trace is hundreds of MB.
      const { requests } = await readAnalysis(input, parsed.values['exclude-cold'] === true);
      for (const chunk of traceChunks(requests, { source: sourceName })) await writeOut(chunk);
      return 0;
    }
    for (const chunk of await analyzeStream(input, format, parsed.values['exclude-cold'] === true, sourceName, deployConfig)) await writeOut(chunk);
    return 0;
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    const why = e.code === 'ENOENT' ? 'no such file' : e.code === 'EISDIR' ? 'is a directory' : e.code === 'EACCES' ? 'permission denied' : e.message;
    process.stderr.write(`stage-lens analyze: cannot read ${source}: ${why}\n`);
    return 2;
  }
}

function writeOut(text: string | Uint8Array): Promise<void> {
  return new Promise((resolve) => {
    if (process.stdout.write(text)) resolve();
    else process.stdout.once('drain', () => resolve());
  });
}

/**
 * Streams the input through the log parser, or (for a scrape) reads it whole, and renders
 * the report, in chunks: a large log's JSON would not fit in one string (V8 caps a string
 * at ~512 MiB).
 */
export async function analyzeStream(input: Readable, format: Exclude<Format, 'trace'>, excludeCold: boolean, sourceName: string, deployConfig: string | null = null): Promise<Iterable<string>> {
  const read = await readAnalysis(input, excludeCold);
  const { histograms, kind } = read;
  // The snapshot's lazy parts (requests, replicas) stay lazy: only its findings are replaced.
  const snapshot: AnalysisSnapshot = deployConfig === null ? read.snapshot : Object.create(read.snapshot, { findings: { value: withDeployEvidence(read.snapshot.findings, deployConfig) } });
  if (format === 'json') return withNewline(prettyJsonChunks(analysisJson(snapshot, histograms)));
  if (format === 'csv') return [csvRows(snapshot.requests).join('\n') + '\n'];
  const lines = kind === 'scrape' ? scrapeTable(histograms, sourceName) : tableReport(snapshot, { source: sourceName });
  return [lines.join('\n') + '\n'];
}

/** The analysis of a log, or the histograms of a /metrics scrape (told apart by content). */
async function readAnalysis(input: Readable, excludeCold: boolean): Promise<{ snapshot: AnalysisSnapshot; requests: TraceRequests; histograms: HistogramSummaryJson[]; kind: 'log' | 'scrape' }> {
  const analysis = new StreamAnalysis({ excludeCold });
  const parser = new LogStreamParser();
  const scrapeChunks: Buffer[] = [];
  let scrapeBytes = 0;
  const { kind } = await readByKind(input, (kind) => ({
    kind,
    push:
      kind === 'log'
        ? (buf: Buffer) => analysis.ingest(parser.push(buf))
        : (buf: Buffer) => {
            if (scrapeBytes >= MAX_SCRAPE_BYTES) return;
            scrapeChunks.push(buf);
            scrapeBytes += buf.length;
          },
  }));

  let histograms: HistogramSummaryJson[] = [];
  if (kind === 'log') {
    analysis.ingest(parser.end());
    analysis.flush();
  } else {
    const body = Buffer.concat(scrapeChunks).toString('utf8');
    const scrape = summarizeScrape(body);
    histograms = scrape.histograms;
    analysis.ingest({ records: [], problems: scrape.problems });
  }
  return { snapshot: analysis.snapshot(), requests: analysis.requests, histograms, kind };
}

function scrapeTable(histograms: readonly HistogramSummaryJson[], source: string): string[] {
  const out = [`Stage Lens: /metrics scrape from ${source}: ${histograms.length} histogram series`, ''];
  const fmt = (v: number | null): string => (v === null || Number.isNaN(v) ? '-' : v.toPrecision(4));
  // A bound reads as one: "≤ 0.3000" (rank in the lowest bucket: the bucket's bound, not PromQL's interpolation from 0), "≥ 80.00" (+Inf).
  const cell = (h: HistogramSummaryJson, p: Percentile): string => {
    const bound = h.bounds?.[p];
    if (bound === undefined || h[p] === null) return fmt(h[p]);
    return `${boundSign(bound)} ${fmt(bound.kind === 'atMost' ? bound.le : h[p])}`;
  };
  const rows = histograms.map((h) => [h.family, h.labels['stage'] ?? '', h.labels['replica'] ?? '', h.count === null ? '-' : String(h.count), cell(h, 'p50'), cell(h, 'p90'), cell(h, 'p99')]);
  const widths = ['family', 'stage', 'replica', 'count', 'p50', 'p90', 'p99'].map((t, i) => Math.max(t.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]): string => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join('  ');
  out.push(line(['family', 'stage', 'replica', 'count', 'p50', 'p90', 'p99']), ...rows.map(line));
  out.push('', 'Quantiles as PromQL histogram_quantile (linear within a bucket), in the family unit (seconds for *_seconds and *_s).');
  out.push('≤ x: the rank fell into the lowest bucket, so only its bound x is known (PromQL would interpolate from 0); ≥ x: into the +Inf bucket, at least the highest finite bound.');
  return out;
}

function* withNewline(chunks: Iterable<string>): Generator<string, void, undefined> {
  yield* chunks;
  yield '\n';
}
