// `analyze --format json|csv` are written as the requests are read, with no request kept
// (StreamAnalysis keepRequests: false): the text must be exactly what the whole-document
// writers make from an analysis that keeps every request (packed, read back), on real and
// generated logs, with and without --exclude-cold, across batch boundaries; so must the table
// of an analysis that summarizes only what the table shows. Per-replica
// summaries, kept as requests arrive in that mode, must equal those computed afterwards.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { LogStreamParser } from '../../server/core/log';
import { StreamAnalysis, type StreamAnalysisOptions } from '../../server/core/analysis/streamAnalysis';
import type { AnalyzedRequest } from '../../server/core/analysis/types';
import { analysisJson, analysisJsonRest } from '../../server/core/report/jsonReport';
import { AnalysisJsonWriter } from '../../server/core/report/jsonStream';
import { CSV_HEADER, csvRequestRows, csvRows } from '../../server/core/report/csvReport';
import { TABLE_SUMMARY_FIELDS, tableReport } from '../../server/core/report/tableReport';
import type { LogRecord, StageColumn } from '../../server/core/records';
import { measured, NOT_MEASURED, type FieldMap } from '../../server/core/values';
import type { HistogramSummary } from '../../server/protocol';
import { generateBenchLog } from '../../scripts/bench/generateLog';

const ROOT = path.resolve(__dirname, '..', '..');
const FIXTURES = path.join(ROOT, 'test', 'fixtures', 'upstream-rendered');
const histograms: HistogramSummary[] = [
  {
    family: 'vllm:time_to_first_token_seconds',
    labels: { stage: '0', replica: '0' },
    count: 25,
    sum: 30.5,
    p50: 1.1,
    p90: null,
    p99: 8.6,
  },
];

function analyse(bytes: Buffer, options: StreamAnalysisOptions): StreamAnalysis {
  const analysis = new StreamAnalysis(options);
  const parser = new LogStreamParser();
  // 64 KB pushes: requests end across chunk boundaries, as when a file is read.
  for (let at = 0; at < bytes.length; at += 65_536) analysis.ingest(parser.push(bytes.subarray(at, at + 65_536)));
  analysis.ingest(parser.end());
  analysis.flush();
  return analysis;
}

/** The streamed JSON and CSV of a log, and the analysis that produced them (no request kept). */
function streamed(
  bytes: Buffer,
  excludeCold: boolean,
  batchSize: number,
): { json: string; csv: string; analysis: StreamAnalysis } {
  let json = '';
  const writer = new AnalysisJsonWriter((text) => (json += text), batchSize);
  let csv = CSV_HEADER.join(',') + '\n';
  const onRequest = (r: AnalyzedRequest): void => {
    writer.request(r);
    for (const row of csvRequestRows(r)) csv += row + '\n';
  };
  const analysis = analyse(bytes, { excludeCold, keepRequests: false, onRequest });
  writer.end(analysisJsonRest(analysis.snapshot(), histograms));
  return { json: json + '\n', csv, analysis };
}

function sameAsWhole(name: string, bytes: Buffer): void {
  for (const excludeCold of [false, true]) {
    const whole = analyse(bytes, { excludeCold });
    const snapshot = whole.snapshot();
    const wantJson = JSON.stringify(analysisJson(snapshot, histograms), null, 2) + '\n';
    const wantCsv = csvRows(snapshot.requests).join('\n') + '\n';
    for (const batchSize of [1, 3, 128]) {
      const got = streamed(bytes, excludeCold, batchSize);
      assert.deepEqual(
        JSON.parse(got.json),
        JSON.parse(wantJson),
        `${name}: parsed JSON (excludeCold ${excludeCold}, batch ${batchSize})`,
      );
      assert.equal(got.json, wantJson, `${name}: JSON text (excludeCold ${excludeCold}, batch ${batchSize})`);
      assert.equal(got.csv, wantCsv, `${name}: CSV (excludeCold ${excludeCold})`);
      assert.equal(got.analysis.requestCount, snapshot.requests.length);
      assert.equal(got.analysis.requests.length, 0, 'no request kept');
      assert.deepEqual(
        tableReport(got.analysis.snapshot(), { source: name }),
        tableReport(snapshot, { source: name }),
        `${name}: table`,
      );
    }
    // The CSV as analyze writes it: no request kept, nothing summarized; the same rows.
    let csvOnly = CSV_HEADER.join(',') + '\n';
    const rowsOnly = analyse(bytes, {
      excludeCold,
      keepRequests: false,
      summarize: false,
      onRequest: (r) => {
        for (const row of csvRequestRows(r)) csvOnly += row + '\n';
      },
    });
    assert.equal(csvOnly, wantCsv, `${name}: CSV of an analysis that summarizes nothing (excludeCold ${excludeCold})`);
    assert.equal(rowsOnly.requestCount, snapshot.requests.length);
    const nothing = rowsOnly.snapshot();
    assert.deepEqual(
      [nothing.stages, nothing.findings, nothing.endToEnd],
      [[], [], null],
      `${name}: nothing summarized`,
    );
    // The table as analyze prints it: no request kept, only the fields it shows summarized (and the edges).
    const tableOnly = analyse(bytes, { excludeCold, keepRequests: false, summaryFields: TABLE_SUMMARY_FIELDS });
    assert.deepEqual(
      tableReport(tableOnly.snapshot(), { source: name }),
      tableReport(snapshot, { source: name }),
      `${name}: table-only analysis (excludeCold ${excludeCold})`,
    );
  }
}

test('streamed JSON and CSV equal the whole-document writers: sample and upstream-rendered logs', () => {
  sameAsWhole('sample', readFileSync(path.join(ROOT, 'samples', 'qwen3-tts-first-audio-cold-start.log')));
  for (const file of readdirSync(FIXTURES).filter((f) => f.endsWith('.log')))
    sameAsWhole(file, readFileSync(path.join(FIXTURES, file)));
});

test('streamed JSON and CSV equal the whole-document writers: a generated log (boots, colours, interleaved lines, three pipelines)', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'stage-lens-json-stream-'));
  try {
    const file = path.join(dir, 'bench.log');
    generateBenchLog(file, 1_500_000, 7);
    sameAsWhole('generated', readFileSync(file));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('no input read, nothing written until the end; an empty log is an empty report', () => {
  let text = '';
  const writer = new AnalysisJsonWriter((t) => (text += t));
  assert.equal(text, '');
  const analysis = analyse(Buffer.alloc(0), { keepRequests: false, onRequest: (r) => writer.request(r) });
  writer.end(analysisJsonRest(analysis.snapshot(), []));
  assert.equal(text, JSON.stringify(analysisJson(analyse(Buffer.alloc(0), {}).snapshot(), []), null, 2));
  assert.throws(() => analysis.snapshot().requests, /keeps no requests/);
});

// ------------------------------------------------------------ per-replica summaries

function stageRecord(id: string, line: number, replicas: readonly number[]): LogRecord {
  const columns: StageColumn[] = replicas.map((replica, i) => {
    const fields: FieldMap = {
      replica_id: measured(replica),
      vllm_queued_ms: measured(0.25 + ((line * 7 + i) % 13) / 8),
      vllm_prefill_ms: measured(30 + ((line * 11 + i) % 17)),
      vllm_decode_ms: line % 5 === 0 ? NOT_MEASURED : measured(900 + (line % 29)),
      vllm_ttft_ms: measured(40 + (line % 7)),
      serving_time_to_first_output_ms: measured(90 + i * 40 + (line % 11)),
      stage_gen_time_ms: measured(1200 + line),
    };
    if (i > 0 && line % 3 !== 0) fields['vllm_input_wait_ms'] = measured(100 + (line % 19));
    return { column: String(i), stageId: i, segment: 1, fields };
  });
  return {
    kind: 'stageTable',
    requestId: id,
    identity: { request_id: id },
    columns,
    rows: [],
    complete: true,
    line,
    header: null,
  };
}

test('per-replica summaries kept as requests arrive equal those computed from the kept requests', () => {
  // Stage 0 on one replica throughout; stage 1 on replica 0 for 40 requests, then on 0 and 1
  // (and 5 later), so its first replica's samples start as a copy of the stage's.
  const records: LogRecord[] = [];
  records.push({
    kind: 'bootMarker',
    marker: 'api-server-version',
    text: 'vLLM API server version 0.11.0',
    line: 1,
    header: null,
  });
  for (let i = 0; i < 120; i++) {
    const second = i < 40 ? 0 : i > 90 ? (i % 3 === 0 ? 5 : i % 2) : i % 2;
    records.push(stageRecord(`r${i}`, 10 + i * 10, [0, second]));
  }
  for (const excludeCold of [false, true]) {
    const kept = new StreamAnalysis({ excludeCold });
    const streaming = new StreamAnalysis({ excludeCold, keepRequests: false });
    for (const a of [kept, streaming]) {
      a.ingest({ records, problems: [] });
      a.flush();
    }
    const want = kept.snapshot();
    const got = streaming.snapshot();
    assert.equal(want.replicas.length, 3, 'stage 1 on replicas 0, 1 and 5');
    assert.deepEqual(got.replicas, want.replicas);
    assert.deepEqual(got.stages, want.stages);
    assert.deepEqual(got.findings, want.findings);
    assert.deepEqual(analysisJsonRest(got), analysisJsonRest(want));
  }
});
