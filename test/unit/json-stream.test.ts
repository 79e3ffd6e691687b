// `analyze --format json|csv` are written as the requests are read, with no request kept
// (StreamAnalysis keepRequests: false): the text must be exactly what the whole-document
// writers make from an analysis that keeps every request (packed, read back), on real and
// generated logs, with and without --exclude-cold, across chunk boundaries; so must the table
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
import { analysisJson, analysisJsonRest, requestJson } from '../../server/core/report/jsonReport';
import { ByteChunks, Piece } from '../../server/core/report/byteChunks';
import { JsonBytes, MemberName } from '../../server/core/report/jsonBytes';
import { KeptRuns, MAX_KEPT_RUNS, MemberRun } from '../../server/core/report/memberRun';
import { jsonChunks, type JsonLayout } from '../../server/core/report/jsonChunks';
import { writeRequestJson } from '../../server/core/report/requestJsonBytes';
import { AnalysisJsonWriter } from '../../server/core/report/jsonStream';
import { CsvWriter } from '../../server/core/report/csvReport';
import { csvRows } from './support/csvRows';
import { HOSTILE_REQUEST_ID, hostileNamesLog } from './support/hostileNamesLog';
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
  chunkBytes: number,
  layout: JsonLayout = 'compact',
): { json: string; csv: string; analysis: StreamAnalysis } {
  // As stdout takes them: each chunk is out (here: decoded) before the next is made, and its
  // memory is then written again.
  const chunks: string[] = [];
  const writer = new AnalysisJsonWriter(
    (chunk, written) => {
      chunks.push(decodedChunks([chunk]));
      written();
    },
    layout,
    chunkBytes,
  );
  const csvChunks: string[] = [];
  const csvWriter = new CsvWriter((chunk, written) => {
    csvChunks.push(decodedChunks([chunk]));
    written();
  }, chunkBytes);
  const onRequest = (r: AnalyzedRequest): void => {
    writer.request(r);
    csvWriter.request(r);
  };
  const analysis = analyse(bytes, { excludeCold, keepRequests: false, onRequest });
  writer.end(analysisJsonRest(analysis.snapshot(), histograms));
  csvWriter.end();
  return { json: chunks.join('') + '\n', csv: csvChunks.join(''), analysis };
}

/** Chunks end between two pieces of text: each decodes alone, none splits a character. */
function decodedChunks(chunks: readonly Uint8Array[]): string {
  return chunks.map((chunk) => new TextDecoder('utf-8', { fatal: true }).decode(chunk)).join('');
}

function sameAsWhole(name: string, bytes: Buffer): void {
  for (const excludeCold of [false, true]) {
    const whole = analyse(bytes, { excludeCold });
    const snapshot = whole.snapshot();
    const document = analysisJson(snapshot, histograms);
    const wantJson: Record<JsonLayout, string> = {
      indented: JSON.stringify(document, null, 2) + '\n',
      compact: [...jsonChunks(document, 'compact')].join('') + '\n',
    };
    // Compact is JSON.stringify's text with line breaks between requests and members only.
    assert.equal(wantJson.compact.replaceAll('\n', ''), JSON.stringify(document));
    const requestLines = wantJson.compact.split('\n').filter((line) => line.startsWith('{"requestId":'));
    assert.equal(requestLines.length, snapshot.requests.length, `${name}: one line per request`);
    const wantCsv = csvRows(snapshot.requests).join('\n') + '\n';
    const cases: [number, JsonLayout][] = [
      [1, 'compact'],
      [3000, 'indented'],
      // Chunks larger than a request's text: their memory is used again.
      [64 << 10, 'compact'],
      [64 << 10, 'indented'],
      [1 << 20, 'compact'],
      [1 << 20, 'indented'],
    ];
    for (const [chunkBytes, layout] of cases) {
      const got = streamed(bytes, excludeCold, chunkBytes, layout);
      assert.deepEqual(
        JSON.parse(got.json),
        JSON.parse(wantJson.indented),
        `${name}: parsed JSON (excludeCold ${excludeCold}, chunks of ${chunkBytes} bytes)`,
      );
      assert.equal(
        got.json,
        wantJson[layout],
        `${name}: ${layout} JSON text (excludeCold ${excludeCold}, chunks of ${chunkBytes} bytes)`,
      );
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
    const csvChunks: Uint8Array[] = [];
    const csvWriter = new CsvWriter((chunk) => csvChunks.push(chunk));
    const rowsOnly = analyse(bytes, {
      excludeCold,
      keepRequests: false,
      summarize: false,
      onRequest: (r) => csvWriter.request(r),
    });
    csvWriter.end();
    assert.equal(
      decodedChunks(csvChunks),
      wantCsv,
      `${name}: CSV of an analysis that summarizes nothing (excludeCold ${excludeCold})`,
    );
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
  // A merged log of two servers: each request names its server.
  sameAsWhole(
    'merged',
    readFileSync(path.join(ROOT, 'test', 'fixtures', 'logs', 'merged-kubectl-two-servers-restart.log')),
  );
});

test('streamed JSON equals the whole-document writer: real logs of [Overall Summary] tables (no request, or requests cut off)', () => {
  const real = path.join(ROOT, 'test', 'fixtures', 'real-logs');
  for (const file of readdirSync(real).filter((f) => /^0[1-5]-.*\.log$/.test(f))) {
    const bytes = readFileSync(path.join(real, file));
    sameAsWhole(file, bytes);
    assert.notEqual(analysisJsonRest(analyse(bytes, {}).snapshot()).overallSummaries, null, file);
  }
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

test('streamed JSON equals the whole-document writer for hostile names: quotes, escapes, non-ASCII, integer-like and __proto__', () => {
  const text = hostileNamesLog();
  sameAsWhole('hostile names', Buffer.from(text));
  // The names reached the JSON (a test of the writer, not of a log the parser dropped).
  const got = streamed(Buffer.from(text), false, 1 << 20).json;
  const request = (JSON.parse(got) as { requests: { requestId: string; stages: Record<string, { fields: object }> }[] })
    .requests[0];
  assert.equal(request?.requestId, HOSTILE_REQUEST_ID);
  assert.deepEqual(
    Object.keys(request?.stages['0']?.fields ?? {}).filter((k) => !k.includes('_')),
    ['2', '10', 'toJSON', '"quoted"', 'na\u00efve\u{1f600}', 'tab\there'],
  );
  // The parser keeps no `__proto__` name; a request made otherwise (a field map with one of its
  // own) is written as requestJson's object holds it, without that name.
  const [parsed] = analyse(Buffer.from(text), {}).snapshot().requests;
  assert.ok(parsed !== undefined);
  const withProto = (fields: FieldMap): FieldMap =>
    Object.defineProperty({ ...fields }, '__proto__', { value: measured(1), enumerable: true, writable: true });
  const odd: AnalyzedRequest = {
    ...parsed,
    e2e: withProto(parsed.e2e),
    stages: parsed.stages.map((stage) => ({ ...stage, fields: withProto(stage.fields) })),
  };
  for (const r of [parsed, odd]) {
    const chunks = new ByteChunks(64);
    writeRequestJson(new JsonBytes(chunks, 'indented'), r);
    assert.equal(Buffer.from(chunks.take()).toString('utf8'), JSON.stringify(requestJson(r), null, 2));
    writeRequestJson(new JsonBytes(chunks, 'compact'), r);
    assert.equal(Buffer.from(chunks.take()).toString('utf8'), JSON.stringify(requestJson(r)));
  }
  assert.ok(Object.keys(odd.e2e).includes('__proto__'));
});

test('no input read, nothing written until the end; an empty log is an empty report', () => {
  let text = '';
  const writer = new AnalysisJsonWriter((chunk) => (text += Buffer.from(chunk).toString('utf8')));
  assert.equal(text, '');
  const analysis = analyse(Buffer.alloc(0), { keepRequests: false, onRequest: (r) => writer.request(r) });
  writer.end(analysisJsonRest(analysis.snapshot(), []));
  const empty = analysisJson(analyse(Buffer.alloc(0), {}).snapshot(), []);
  assert.equal(text, [...jsonChunks(empty, 'compact')].join(''));
  assert.equal(text.replaceAll('\n', ''), JSON.stringify(empty));
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

test("a chunk's memory is used again once it is written, and only then", () => {
  const text = (chunk: Uint8Array): string => Buffer.from(chunk).toString('latin1');
  const put = (bytes: ByteChunks, s: string): void => bytes.raw(new Piece(Buffer.from(s, 'latin1')));
  const bytes = new ByteChunks(8);
  put(bytes, 'abcdefgh');
  const first = bytes.take();
  put(bytes, '12345678');
  const second = bytes.take();
  // Not recycled: nothing written later touches them.
  put(bytes, 'ABCDEFGH');
  assert.deepEqual([text(first), text(second)], ['abcdefgh', '12345678']);
  assert.notEqual(second.buffer, first.buffer);
  bytes.recycle(first);
  bytes.recycle(second); // one spare is kept
  const third = bytes.take();
  assert.equal(text(third), 'ABCDEFGH');
  put(bytes, 'zz');
  const fourth = bytes.take();
  assert.equal(fourth.buffer, first.buffer, 'the recycled memory holds the next chunk');
  assert.equal(text(fourth), 'zz');
  put(bytes, 'yy');
  assert.notEqual(bytes.take().buffer, second.buffer, 'the second was not kept');
  // A chunk grown past the chunk size is not taken back.
  put(bytes, '0123456789abcdef');
  const grown = bytes.take();
  assert.equal(text(grown), '0123456789abcdef');
  bytes.recycle(grown);
  put(bytes, 'q');
  assert.notEqual(bytes.take().buffer, grown.buffer);
});

test('kept runs of members: the text of each member written alone, for every item, kept or past the limit', () => {
  const NAME = new MemberName('name');
  const ID = new MemberName('id');
  const runs = new KeptRuns<{ name: string; id: number | null }, number | null>(
    (item) => item.id,
    (id, item) => id === item.id,
    (item) => new MemberRun([NAME, ID], [item.name, item.id]),
  );
  const written = (layout: JsonLayout, item: { name: string; id: number | null }, alone: boolean): string => {
    const chunks = new ByteChunks(64);
    const w = new JsonBytes(chunks, layout, 1);
    w.openObject();
    if (alone) {
      w.stringMember(NAME, item.name);
      w.numberMember(ID, item.id);
    } else w.members(runs.of(item.name, item));
    w.numberMember(new MemberName('after'), 1);
    w.closeObject();
    return Buffer.from(chunks.take()).toString('utf8');
  };
  // Same key, another id: a run of its own, not the first one's text.
  const items = [
    { name: 'a"\u00e9', id: 0 },
    { name: 'a"\u00e9', id: 1.5 },
    { name: 'b', id: null },
    { name: 'c', id: -0 },
    ...Array.from({ length: MAX_KEPT_RUNS + 10 }, (_, i) => ({ name: `k${i}`, id: i })),
  ];
  for (const layout of ['compact', 'indented'] as const)
    for (const item of items)
      assert.equal(written(layout, item, false), written(layout, item, true), JSON.stringify(item));
});

test('members by names read from the input: the text of JSON.stringify whether the order repeats, changes or runs past the kept names', () => {
  // Objects whose names repeat in one order (each name found after the one before it), then
  // change order, lose and gain names, and finally exceed the names a writer keeps encoded.
  const objects: Record<string, number>[] = [];
  for (let i = 0; i < 3; i++) objects.push({ a: i, b: 1, c: 2 });
  objects.push({ c: 0, a: 1, b: 2 }, { a: 5 }, { b: 1, a: 2, d: 3 }, { a: 1, b: 2, c: 3 });
  objects.push(Object.fromEntries(Array.from({ length: 4200 }, (_, i) => [`n${i}`, i])));
  objects.push({ a: 1, n4199: 2, b: 3 });
  for (const layout of ['compact', 'indented'] as const) {
    const chunks = new ByteChunks(1 << 16);
    const w = new JsonBytes(chunks, layout);
    const parts: Uint8Array[] = [];
    w.openArray();
    for (const object of objects) {
      w.element();
      w.openObject();
      for (const [name, v] of Object.entries(object)) {
        w.named(name);
        w.number(v);
      }
      w.closeObject();
      parts.push(chunks.take());
    }
    w.closeArray();
    parts.push(chunks.take());
    const text = Buffer.concat(parts).toString('utf8');
    assert.equal(text, layout === 'compact' ? JSON.stringify(objects) : JSON.stringify(objects, null, 2), layout);
  }
});

test("numbers: JSON.stringify's text for every thousandth, each digit count, the Int32 edges and values with more decimals", () => {
  const values: number[] = [];
  // Every 3-decimal ending, after whole parts of each length (digits written in pairs).
  for (const whole of [0, 7, 42, 905, 1000, 65536, 999999, 123456789, 2147483, 2147484, 99999999999])
    for (let k = 0; k < 1000; k++) values.push(whole + k / 1000, -(whole + k / 1000));
  for (let n = 1; n <= 1e10; n *= 10) values.push(n - 1, n, n + 1, -n, n * 3 + 0.5);
  values.push(0, -0, 2 ** 31 - 1, -(2 ** 31), 2 ** 31, 2 ** 31 + 0.25, 2 ** 32 + 0.125, -(2 ** 31) - 0.5);
  values.push(999999999999.999, 1e12, 1e15, 1e21, 1 / 3, 1e-7, 0.0005, 2430.913, Number.MAX_SAFE_INTEGER);
  values.push(NaN, Infinity, -Infinity);
  const chunks = new ByteChunks(64);
  const w = new JsonBytes(chunks, 'compact');
  w.openArray();
  for (const v of values) {
    w.element();
    w.number(v);
  }
  w.closeArray();
  assert.equal(Buffer.from(chunks.take()).toString('utf8'), JSON.stringify(values));
});

test('constant pieces, ASCII (copied a word at a time) or not, of every length at every offset and across chunk ends', () => {
  const texts: string[] = [];
  for (let n = 0; n <= 40; n++) texts.push('abcdefghijklmnopqrstuvwxyz0123456789"{}:,'.slice(0, n));
  texts.push('é', 'naïve_name', '名前', '\u0000\u007f~');
  const pieces = texts.map((t) => ByteChunks.constant(t));
  assert.deepEqual(
    pieces.map((p) => p.words === null),
    texts.map((t) => /[^\x00-\x7f]/.test(t)),
  );
  for (const chunkBytes of [8, 61, 1 << 12]) {
    const chunks = new ByteChunks(chunkBytes);
    const parts: Uint8Array[] = [];
    let want = '';
    for (let shift = 0; shift < 8; shift++) {
      chunks.text('x'.repeat(shift));
      want += 'x'.repeat(shift);
      for (let i = 0; i < pieces.length; i++) {
        chunks.raw(pieces[i] as Piece);
        want += texts[i];
        // A chunk ends where a piece ends: what a word wrote past it is never handed out.
        if (chunks.length >= chunkBytes) parts.push(chunks.take().slice());
      }
    }
    parts.push(chunks.take().slice());
    assert.equal(Buffer.concat(parts).toString('utf8'), want, `chunks of ${chunkBytes}`);
  }
});

test('stages, edges and [OmniTiming] stages by name: the order and the last of a repeated name, as JSON.stringify of an object', () => {
  const text = readFileSync(path.join(FIXTURES, 'qwen3-omni-three-stage-transfers.log'), 'utf8');
  const [parsed] = analyse(Buffer.from(text), {}).snapshot().requests;
  assert.ok(
    parsed !== undefined && parsed.stages.length >= 2 && parsed.transfers.length >= 1 && parsed.timing !== null,
  );
  const stage = parsed.stages[0] as AnalyzedRequest['stages'][number];
  const transfer = parsed.transfers[0] as AnalyzedRequest['transfers'][number];
  const timingStage = parsed.timing.stages[0] as NonNullable<AnalyzedRequest['timing']>['stages'][number];
  const nameLists = [
    ['0', '1', '2'],
    ['2', '0', '1'],
    ['1', '1', '0'],
    ['1_2', '0', '1'],
    ['a', 'b', 'a'],
    ['01', '1', '10'],
    ['01', '2'],
    ['-1', '0'],
    ['4294967294', '4294967295', '7'],
    ['__proto__', '0'],
    [],
    Array.from({ length: 20 }, (_, i) => String(i)),
  ];
  for (const names of nameLists) {
    const r: AnalyzedRequest = {
      ...parsed,
      stages: names.map((stageKey, i) => ({ ...stage, stageKey, segment: i + 1 })),
      transfers: names.map((edge, i) => ({ ...transfer, edge, fromStage: i })),
      timing: { ...parsed.timing, stages: names.map((id, i) => ({ ...timingStage, stageId: Number(id), seconds: i })) },
    };
    for (const layout of ['compact', 'indented'] as const) {
      const chunks = new ByteChunks(64);
      writeRequestJson(new JsonBytes(chunks, layout), r);
      const want = layout === 'compact' ? JSON.stringify(requestJson(r)) : JSON.stringify(requestJson(r), null, 2);
      assert.equal(Buffer.from(chunks.take()).toString('utf8'), want, `${names.join(',')} ${layout}`);
    }
  }
});
