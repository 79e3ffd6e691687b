// After the codec stats fix, under talker first audio, a codec's TTFT is taken when its held
// outputs are replayed after the talker's first-audio frame: it includes that wait, while its
// queued and prefill do not (metric-semantics, seed 000). Said once per stage, with the request
// and the size of the gap; not said where TTFT is queued + prefill (the other stages, the
// other fixtures).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { readFileSync } from 'node:fs';
import { analysedLog } from './support/analysedLog';
import { tableReport } from '../../server/core/report/tableReport';

const UPSTREAM = path.join(__dirname, '../fixtures/upstream-rendered');
const findingsOf = (name: string) =>
  analysedLog(path.join(UPSTREAM, `${name}.log`)).findings.filter((f) => f.code === 'ttft-includes-upstream-wait');

test("the after-fix codec request whose TTFT waited 3.25 s for the talker's first frame", () => {
  const [finding, ...rest] = findingsOf('qwen3tts-talker-first-audio-after-fix');
  assert.equal(rest.length, 0);
  assert.equal(finding?.stageId, 1);
  assert.deepEqual(finding?.requestIds, ['speech-628f17161fc5a104a9aeb486cbfaa141']);
  // TTFT 4,000 ms against queued 250 + prefill 500 (the fix's worked case).
  assert.match(
    finding?.message ?? '',
    /on 1 of 6 requests \(by up to 3,250 ms, on speech-628f17161fc5a104a9aeb486cbfaa141\)/,
  );
  assert.match(finding?.message ?? '', /includes the wait for that frame/);
});

test('not said where TTFT is queued + prefill, nor on a one-output stage', () => {
  for (const name of [
    'qwen3-omni-three-stage-transfers',
    'qwen3tts-talker-first-audio-before-fix',
    'qwen3tts-info-level-omnitiming-only',
  ])
    assert.deepEqual(findingsOf(name), [], name);
});

test('a negative queued time (no measurement) leaves the gap unknown: that request is not said to have waited', () => {
  const log = readFileSync(path.join(UPSTREAM, 'qwen3tts-talker-first-audio-after-fix.log'), 'utf8');
  // The codec's queued time of one request printed negative: a server clock bug, not -88 ms.
  const row = '| vllm_queued_ms                  |   0.251 |        88.402 |';
  assert.ok(log.includes(row));
  const snapshot = analysedLog(Buffer.from(log.replace(row, row.replace('  88.402', ' -88.402'))));
  assert.equal(snapshot.findings.find((f) => f.code === 'negative-interval')?.requestCount, 1);
  const waited = snapshot.findings.filter((f) => f.code === 'ttft-includes-upstream-wait');
  assert.deepEqual(
    waited.map((f) => f.requestIds),
    [['speech-628f17161fc5a104a9aeb486cbfaa141']],
  );
});

test("the table marks that stage's TTFT cells † and says why under it; the other stages' carry no mark", () => {
  const lines = tableReport(analysedLog(path.join(UPSTREAM, 'qwen3tts-talker-first-audio-after-fix.log')), {
    source: 'x',
    stageRoles: { '0': 'talker', '1': 'code2wav' },
  });
  // The phase split's six rows (the transfer table's come after).
  const rows = lines.filter((l) => / p(50|90|99) /.test(l)).slice(0, 6);
  assert.deepEqual(
    rows.map((l) => l.includes('†')),
    [false, false, false, true, true, true],
  );
  assert.match(rows[3] ?? '', / 148\.1† /);
  assert.ok(
    lines.includes(
      "† TTFT includes a wait for upstream output on stage 1 · code2wav (1 of 6 requests): time to first output from the stage's arrival, not its own queueing and prefill (finding ttft-includes-upstream-wait).",
    ),
  );
  const other = tableReport(analysedLog(path.join(UPSTREAM, 'qwen3-omni-three-stage-transfers.log')), { source: 'x' });
  assert.equal(
    other.some((l) => l.includes('†')),
    false,
  );
});
