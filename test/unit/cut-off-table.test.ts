// A stage table cut off (end of input, an interrupted write): the rows it never reached are
// unknown, not hidden. The table sorts its rows by name, so every absent row named after the
// last one read was never reached; absent rows before it were hidden by the server as usual.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { analysedLog } from './support/analysedLog';
import { StreamAnalysis } from '../../server/core/analysis/streamAnalysis';
import { LogStreamParser } from '../../server/core/log';
import type { AnalyzedRequest } from '../../server/core/analysis/types';

const LOG = fs.readFileSync(
  path.resolve(__dirname, '..', 'fixtures', 'upstream-rendered', 'qwen3tts-talker-first-audio-before-fix.log'),
  'utf8',
);

/** The log up to and including the first stage table's `vllm_itls_ms` row: the end of input cuts it there. */
function cutAfterItlsRow(): string {
  const table = LOG.indexOf('[StageRequestStats');
  const row = LOG.indexOf('| vllm_itls_ms', table);
  return LOG.slice(0, LOG.indexOf('\n', row) + 1);
}

const statesOf = (r: AnalyzedRequest): Record<string, Record<string, string>> =>
  Object.fromEntries(r.stages.map((s) => [s.stageKey, { ...s.split.states }]));

test('rows after the last one read are not recorded, rows before it hidden; no codec TTFT signature from them', () => {
  const text = cutAfterItlsRow();
  const snapshot = analysedLog(Buffer.from(text));
  assert.equal(snapshot.requestCount, 1);
  const [request] = snapshot.requests;
  assert.ok(request !== undefined);
  assert.equal(request.stageTableCut, true);
  assert.equal(request.complete, false);
  // vllm_decode_ms and vllm_input_wait_ms sort before vllm_itls_ms: hidden by the server (the
  // whole log has no such rows). vllm_prefill_ms, vllm_queued_ms, vllm_ready_queued_ms and
  // vllm_ttft_ms sort after it: never reached.
  for (const states of Object.values(statesOf(request))) {
    assert.equal(states['decodeMs'], 'hidden');
    assert.equal(states['inputWaitMs'], 'hidden');
    for (const name of ['queuedMs', 'readyQueuedMs', 'prefillMs', 'ttftMs'])
      assert.equal(states[name], 'notRecorded', name);
  }
  // Counted with why, where the values left out are listed.
  const stage1 = snapshot.stages.find((s) => s.stageKey === '1');
  assert.deepEqual(stage1?.fieldsNotRecorded['vllm_ttft_ms'], { unread: 1 });
  assert.deepEqual(stage1?.fieldsNotRecorded['vllm_decode_ms'], undefined);
  const codes = snapshot.findings.map((f) => f.code);
  assert.ok(codes.includes('truncated-record'), codes.join());
  assert.ok(!codes.includes('ttft-not-recorded'), codes.join());
  // The whole log, for contrast: the codec's TTFT is the signature there, on every request.
  const whole = analysedLog(Buffer.from(LOG));
  assert.equal(whole.findings.find((f) => f.code === 'ttft-not-recorded')?.requestCount, 6);
});

test('the stored request and one stage read from the store keep the cut', () => {
  const analysis = new StreamAnalysis();
  const parser = new LogStreamParser();
  analysis.ingest(parser.push(cutAfterItlsRow()));
  analysis.ingest(parser.end());
  const fresh = analysis.flush();
  assert.equal(fresh.length, 1);
  const stored = analysis.requests.at(0);
  assert.ok(stored !== undefined && fresh[0] !== undefined);
  assert.equal(stored.stageTableCut, true);
  assert.deepEqual(statesOf(stored), statesOf(fresh[0]));
  assert.equal(analysis.requests.stageAt(0, '1')?.split.states.ttftMs, 'notRecorded');
  assert.equal(analysis.requests.stageAt(0, '1')?.split.states.prefillMs, 'notRecorded');
});

test('a whole table keeps its absent rows hidden', () => {
  const [request] = analysedLog(Buffer.from(LOG)).requests;
  assert.ok(request !== undefined);
  assert.equal(request.stageTableCut, false);
  // No vllm_decode_ms row: a measured 0 on the talker and None on the codec, which the server hides.
  assert.equal(request.stages[0]?.split.states.decodeMs, 'hidden');
  assert.equal(request.stages[1]?.split.states.ttftMs, 'notRecorded');
});
