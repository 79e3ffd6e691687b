// The codec first-audio finding (ttft-not-recorded) with what the deploy config says about
// talker_first_audio: on with that stage as its codec (agrees), off or not set, on but kept
// from taking effect, or a config of other stages. Real fixture configs, and overlays of them
// written to a temporary folder and read back through the same loader a session uses.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AnalysisSnapshot } from '../../server/core/analysis/streamAnalysis';
import { analysedLog } from './support/analysedLog';
import { withDeployEvidence } from '../../server/capture/deployEvidence';
import type { Finding } from '../../server/core/analysis/types';

const LOGS = path.join(__dirname, '..', 'fixtures', 'upstream-rendered');
const DEPLOY = path.join(__dirname, '..', 'fixtures', 'deploy');
const TFA = path.join(DEPLOY, 'qwen3_tts_high_concurrency_mrv2_single_gpu.yaml');

const analyse = (file: string): AnalysisSnapshot => analysedLog(path.join(LOGS, file));

const beforeFix = analyse('qwen3tts-talker-first-audio-before-fix.log');

function ttftFinding(findings: readonly Finding[]): Finding {
  const f = findings.find((x) => x.code === 'ttft-not-recorded');
  assert.ok(f, 'ttft-not-recorded');
  return f;
}

/** The sentence the config added after the finding's own message. */
function evidenceFor(config: string): string {
  const plain = ttftFinding(beforeFix.findings).message;
  const message = ttftFinding(withDeployEvidence(beforeFix.findings, config, [0, 1])).message;
  assert.ok(message.startsWith(`${plain} `), message);
  return message.slice(plain.length + 1);
}

describe('deploy-config evidence for the codec first-audio finding', () => {
  let dir = '';
  before(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'sl-tfa-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  /** An overlay of the talker-first-audio config that sets the connector's extra keys given. */
  function overlay(name: string, extra: string): string {
    const file = path.join(dir, name);
    writeFileSync(
      file,
      `base_config: ${TFA}\nconnectors:\n  connector_of_shared_memory:\n    extra:\n${extra
        .split('\n')
        .map((l) => `      ${l}`)
        .join('\n')}\n`,
    );
    return file;
  }

  test('a config that turns talker_first_audio on with stage 1 as its codec agrees, with the line', () => {
    assert.equal(
      evidenceFor(TFA),
      'The deploy config qwen3_tts_high_concurrency_mrv2_single_gpu.yaml agrees: it turns talker_first_audio on (qwen3_tts_high_concurrency_mrv2_single_gpu.yaml line 21, connector connector_of_shared_memory) with stage 1 as its codec.',
    );
  });

  test('a config without the key, and one that turns it off, say the session probably did not run it', () => {
    assert.equal(
      evidenceFor(path.join(DEPLOY, 'qwen3_tts_mrv2.yaml')),
      "The deploy config qwen3_tts_mrv2.yaml does not set talker_first_audio (no connector's extra turns it on), while this signature comes with talker first audio: check that the session ran this config.",
    );
    assert.equal(
      evidenceFor(overlay('off.yaml', 'talker_first_audio: false')),
      'The deploy config off.yaml sets talker_first_audio off (off.yaml line 5), while this signature comes with talker first audio: check that the session ran this config.',
    );
  });

  test('on, but a prerequisite unmet: names what keeps it from taking effect and where', () => {
    assert.match(
      evidenceFor(overlay('chunk4.yaml', 'initial_codec_chunk_frames: 4')),
      /^The deploy config chunk4\.yaml turns talker_first_audio on \(qwen3_tts_high_concurrency_mrv2_single_gpu\.yaml line 21, connector connector_of_shared_memory\), but .*4.* \(chunk4\.yaml line 5\) keeps it from taking effect \(it needs [^`]+\): check that the session ran this config\.$/,
    );
  });

  test('a config of other stages is no evidence; without a config, or for other findings, nothing is added', () => {
    assert.match(
      evidenceFor(path.join(DEPLOY, 'qwen3_omni_moe_mrv2.yaml')),
      /^The deploy config qwen3_omni_moe_mrv2\.yaml has stages 0, 1 and 2, this log's requests have stages 0 and 1: it is not the config this server ran/,
    );
    assert.deepEqual(withDeployEvidence(beforeFix.findings, null), beforeFix.findings);
    const queued = (fs: readonly Finding[]) => fs.find((f) => f.code === 'queued-includes-input-wait')?.message;
    assert.equal(queued(withDeployEvidence(beforeFix.findings, TFA, [0, 1])), queued(beforeFix.findings));
    // The after-fix log has no ttft-not-recorded finding: nothing to add it to.
    const afterFix = analyse('qwen3tts-talker-first-audio-after-fix.log');
    assert.equal(
      withDeployEvidence(afterFix.findings, TFA, [0, 1]).some((f) => f.code === 'ttft-not-recorded'),
      false,
    );
  });
});
