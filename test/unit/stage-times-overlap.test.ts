// Stages that ran at the same time, within one request: their [OmniTiming] times add up to more
// than the engine time (async chunk feeds a downstream stage while the stages upstream work). A
// finding says so, with the number of such requests and the largest excess; printing (10 ms per
// value) is not taken for overlap.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { analysedLog } from './support/analysedLog';
import type { AnalysisSnapshot } from '../../server/core/analysis/streamAnalysis';
import type { Finding } from '../../server/core/analysis/types';
import { tableReport } from '../../server/core/report/tableReport';
import { withDeployEvidence } from '../../server/capture/deployEvidence';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';

const FIXTURES = path.join(__dirname, '..', 'fixtures');

function overlapFinding(snapshot: AnalysisSnapshot): Finding | undefined {
  return snapshot.findings.find((f) => f.code === 'stage-times-overlap');
}

/** A log of [OmniTiming] lines as an INFO-level server prints them. */
function omniTimingLog(lines: readonly string[]): Uint8Array {
  return Buffer.from(
    lines.map((l) => `(APIServer pid=5151) INFO 10-19 07:12:05 [stats.py:910] [OmniTiming] ${l}\n`).join(''),
  );
}

describe('stage-times-overlap', () => {
  test('an INFO-level Qwen3-TTS log under async chunk: every request, the largest excess named', () => {
    const snapshot = analysedLog(path.join(FIXTURES, 'upstream-rendered', 'qwen3tts-info-level-omnitiming-only.log'));
    const f = overlapFinding(snapshot);
    assert.ok(f !== undefined);
    assert.deepEqual([f.severity, f.stageId, f.requestCount], ['info', null, 6]);
    // speech-628f…: stages=[0:4.32s,1:4.46s], engine=4.46s.
    assert.match(
      f.message,
      /^On 6 of 6 requests with an \[OmniTiming\] line the stage times add up to more than the engine time \(by up to 4,320 ms, on speech-628f17161fc5a104a9aeb486cbfaa141\): the stages ran at the same time\./,
    );
    // The CLI's table of stage times has it among its findings.
    const table = tableReport(snapshot, { source: 'x' }).join('\n');
    assert.match(table, /\[info\] stage-times-overlap, 6 requests: On 6 of 6 requests/);
  });

  test('a real Qwen3-Omni line (vllm-omni#3042): thinker, talker and code2wav add up to 2.94 s of a 1.39 s engine', () => {
    const snapshot = analysedLog(path.join(FIXTURES, 'real-logs', '05-pr3042-omnitiming-and-overall.log'));
    assert.match(
      overlapFinding(snapshot)?.message ?? '',
      /^On 1 of 1 requests .*by up to 1,550 ms, on chatcmpl-ac59cea85b422f04/,
    );
  });

  test('stages one after another (Qwen3-Omni without async chunk): no finding', () => {
    const snapshot = analysedLog(path.join(FIXTURES, 'upstream-rendered', 'qwen3-omni-three-stage-transfers.log'));
    assert.ok(snapshot.requestCount > 0);
    assert.equal(overlapFinding(snapshot), undefined);
  });

  test('what the 10 ms printing explains is no overlap; a line without an engine time or a second stage is not counted', () => {
    const snapshot = analysedLog(
      omniTimingLog([
        // 0.50 + 0.51 - 1.00 = 10 ms: within 5 ms for each of three printed values.
        'req=a total=1.01s preprocess=0.01s engine=1.00s stages=[0:0.50s,1:0.51s]',
        // 30 ms over: more than printing explains.
        'req=b total=1.01s preprocess=0.01s engine=1.00s stages=[0:0.50s,1:0.53s]',
        'req=c total=1.01s preprocess=0.01s engine=1.00s stages=[0:1.00s]',
        'req=d stages=[0:0.90s,1:0.90s]',
      ]),
    );
    const f = overlapFinding(snapshot);
    assert.deepEqual(f?.requestIds, ['b']);
    assert.match(f?.message ?? '', /^On 1 of 2 requests with an \[OmniTiming\] line .*\(by up to 30 ms, on b\)/);
  });

  test('a deploy config adds what it sets for async_chunk: agreeing, or contradicting the numbers', (t) => {
    const snapshot = analysedLog(path.join(FIXTURES, 'upstream-rendered', 'qwen3tts-info-level-omnitiming-only.log'));
    const tts = path.join(FIXTURES, 'deploy', 'qwen3_tts.yaml');
    const agreed = withDeployEvidence(snapshot.findings, tts).find((f) => f.code === 'stage-times-overlap');
    assert.match(
      agreed?.message ?? '',
      /counts that time twice\. The deploy config qwen3_tts\.yaml agrees: async_chunk: true \(qwen3_tts\.yaml line 15\)\.$/,
    );
    const offDir = mkdtempSync(path.join(tmpdir(), 'stage-lens-overlap-'));
    t.after(() => rmSync(offDir, { recursive: true, force: true }));
    const off = path.join(offDir, 'qwen3_tts_sync.yaml');
    writeFileSync(off, readFileSync(tts, 'utf8').replace('async_chunk: true', 'async_chunk: false'));
    const contradicted = withDeployEvidence(snapshot.findings, off).find((f) => f.code === 'stage-times-overlap');
    assert.match(
      contradicted?.message ?? '',
      / The deploy config qwen3_tts_sync\.yaml sets async_chunk: false \(qwen3_tts_sync\.yaml line 15\), while stage times that overlap come with async chunk: check that the session ran this config \(or a command-line override of it\)\.$/,
    );
  });
});
