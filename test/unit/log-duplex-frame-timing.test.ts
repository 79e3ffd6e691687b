// vLLM-Omni's opt-in DUPLEX_FRAME_TIMING lines (`duplex_frame_timing.py`, VLLM_OMNI_DUPLEX_FRAME_TIMING=1,
// printed by its own log function) spliced into the upstream-rendered DEBUG log: between one
// request's records in its process, and from another process between table rows. They are passed
// by: every request reads as in the log without them, with no problem.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { analysedLog } from './support/analysedLog';
import { requestJson } from '../../server/core/report/jsonReport';
import type { AnalysisSnapshot } from '../../server/core/analysis/streamAnalysis';

const FIXTURES = path.resolve(__dirname, '..', 'fixtures');
const PLAIN = path.join(FIXTURES, 'upstream-rendered', 'qwen3tts-talker-first-audio-after-fix.log');
const WITH_FRAME_TIMING = path.join(FIXTURES, 'logs', 'duplex-frame-timing-interleaved.log');

/** Each request as JSON without its line number (the spliced lines move them). */
function requestsOf(snapshot: AnalysisSnapshot): unknown[] {
  return snapshot.requests.map((r) => {
    const json: Record<string, unknown> = { ...requestJson(r) };
    delete json['line'];
    const overall = json['overallSummary'] as Record<string, unknown> | null;
    if (overall !== null) json['overallSummary'] = { ...overall, line: null };
    return json;
  });
}

test('DUPLEX_FRAME_TIMING lines change no number read and raise no problem', () => {
  const plain = analysedLog(PLAIN);
  const spliced = analysedLog(WITH_FRAME_TIMING);
  assert.equal(spliced.requestCount, 6);
  assert.deepEqual(spliced.problems, []);
  assert.deepEqual(requestsOf(spliced), requestsOf(plain));
  assert.deepEqual(spliced.stages, plain.stages);
  assert.deepEqual(
    spliced.findings.map((f) => f.code),
    plain.findings.map((f) => f.code),
  );
});
