// Export Session writes its three formats in chunks; joined, the chunks must be exactly what
// `stage-lens analyze --format json|csv|trace` prints (same functions, same bytes), also
// across chunk and batch boundaries.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { LogStreamParser } from '../../server/core/log';
import { StreamAnalysis } from '../../server/core/analysis/streamAnalysis';
import { analysisJson } from '../../server/core/report/jsonReport';
import { csvRows } from './support/csvRows';
import { jsonChunks } from '../../server/core/report/jsonChunks';
import { traceText } from '../../server/core/report/trace';
import { exportChunks, writeExport, type ExportInput } from '../../server/capture/sessionExport';
import type { HistogramSummary } from '../../server/protocol';

const SAMPLE = path.resolve(__dirname, '..', '..', 'samples/qwen3-tts-first-audio-cold-start.log');

function sampleAnalysis(): StreamAnalysis {
  const analysis = new StreamAnalysis();
  const parser = new LogStreamParser();
  analysis.ingest(parser.push(readFileSync(SAMPLE)));
  analysis.ingest(parser.end());
  analysis.flush();
  return analysis;
}

const joined = (chunks: Iterable<string | Uint8Array>): string => {
  const decoder = new TextDecoder();
  let out = '';
  for (const c of chunks) out += typeof c === 'string' ? c : decoder.decode(c, { stream: true });
  return out + decoder.decode();
};

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

test('jsonChunks: indented is JSON.stringify(value, null, 2); compact is JSON.stringify(value) broken before each top-level member and element; whatever the chunk size', () => {
  const value = {
    a: 1,
    empty: [],
    list: [{ x: [1, 2, { y: 'z\n"q"' }], u: undefined }, null, 'é', 3.5],
    nested: { k: [] },
    skip: undefined,
    last: [[]],
  };
  for (const size of [1, 7, 1 << 20]) {
    assert.equal([...jsonChunks(value, 'indented', size)].join(''), JSON.stringify(value, null, 2));
    assert.equal(
      [...jsonChunks(value, 'compact', size)].join(''),
      '{\n"a":1,\n"empty":[],\n"list":[\n{"x":[1,2,{"y":"z\\n\\"q\\""}]},\nnull,\n"é",\n3.5\n],\n"nested":{"k":[]},\n"last":[\n[]\n]\n}',
    );
  }
  assert.equal([...jsonChunks({}, 'indented')].join(''), '{}');
  assert.equal([...jsonChunks({}, 'compact')].join(''), '{}');
});

test('JSON, CSV and trace exports equal the analyze output', () => {
  const analysis = sampleAnalysis();
  const input: ExportInput = {
    requests: analysis.requests,
    snapshot: () => analysis.snapshot(),
    histograms,
    source: 'sample',
  };
  const snapshot = analysis.snapshot();
  const json = joined(exportChunks('json', input));
  // analyze's JSON, with what a session's export adds: the roles are the session's, no deploy config given.
  const expected = {
    ...analysisJson(snapshot, histograms),
    stageRolesFrom: 'session',
    deployConfig: { path: null, from: 'none', cited: false, problem: null },
  };
  assert.equal(json, [...jsonChunks(expected, 'compact')].join('') + '\n');
  assert.equal(json.replaceAll('\n', ''), JSON.stringify(expected));
  assert.equal((JSON.parse(json) as { histograms: unknown[] }).histograms.length, 1);
  assert.equal(joined(exportChunks('csv', input)), csvRows(snapshot.requests).join('\n') + '\n');
  assert.equal(joined(exportChunks('trace', input)), traceText(analysis.requests, { source: 'sample' }));
});

test('CSV across its batches of requests: one header, every row once, in order', async () => {
  const requests = [...sampleAnalysis().requests];
  // 25 x 250 requests: more than one batch of 5,000.
  const many = Array.from({ length: 250 }, () => requests).flat();
  const input: ExportInput = {
    requests: many,
    snapshot: () => assert.fail('CSV needs no summaries'),
    histograms: [],
    source: 'x',
  };
  const text = joined(exportChunks('csv', input));
  assert.equal(text, csvRows(many).join('\n') + '\n');
  assert.equal(text.split('\n').filter((l) => l.startsWith('request_id,')).length, 1);
  // Written to a real file chunk after chunk (one write in flight while the next is made).
  const dir = mkdtempSync(path.join(tmpdir(), 'stage-lens-export-unit-'));
  try {
    const file = path.join(dir, 'many.csv');
    const bytes = await writeExport(file, 'csv', input);
    assert.equal(readFileSync(file, 'utf8'), text);
    assert.equal(bytes, Buffer.byteLength(text));
    await assert.rejects(writeExport(path.join(dir, 'x'), 'xml' as 'csv', input), /unknown export format 'xml'/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const empty = joined(exportChunks('csv', { ...input, requests: [] }));
  assert.equal(empty, csvRows([]).join('\n') + '\n', 'no requests: the header alone');
});
