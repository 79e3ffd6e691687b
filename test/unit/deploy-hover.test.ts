// Hover content for keys of the real configs: what a key does, its default, what it
// means for the metrics, and the effective config where it matters.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { deployHover } from '../../server/core/deploy';
import { analyzeFixture, analyzeVirtual, diagnosticsOf, fixtureText } from './support/deployHelpers';
import { markdownCode } from '../../server/core/markdownText';

function hoverAt(name: string, needle: string, n = 0): string {
  const text = fixtureText(name);
  let at = -1;
  for (let i = 0; i <= n; i++) at = text.indexOf(needle, at + 1);
  assert.ok(at >= 0, needle);
  const hover = deployHover(analyzeFixture(name), at + 1);
  assert.ok(hover, `no hover on ${needle}`);
  return hover.markdown;
}

test('async_chunk: default, and that downstream queued time includes the input wait', () => {
  const md = hoverAt('qwen3_tts.yaml', 'async_chunk: true');
  assert.match(md, /^\*\*`async_chunk`\*\* · boolean · default: true/);
  assert.match(md, /\*\*`vllm_queued_ms` includes the wait for upstream input\*\*/);
  assert.match(md, /`vllm_input_wait_ms` \(waiting for input\) \+ `vllm_ready_queued_ms`/);
});

test('model_runner: the talker prefill covers its decode under v2 + async chunk', () => {
  const md = hoverAt('qwen3_tts.yaml', 'model_runner: v2');
  assert.match(md, /`v1` \| `v2` · default: v1/);
  assert.match(md, /\*\*`vllm_prefill_ms` also covers its decode steps\*\*/);
});

test('talker_first_audio: codec TTFT semantics, the signature, and the checklist on the effective config', () => {
  const md = hoverAt('qwen3_tts_high_concurrency_mrv2_single_gpu.yaml', 'talker_first_audio');
  assert.match(md, /`vllm_ttft_ms` = 0\.0 with no `vllm_prefill_ms` \/ `vllm_decode_ms`/);
  assert.match(md, /Stage Lens shows that TTFT as \*not recorded\*, never as 0 ms/);
  assert.match(md, /\*\*Prerequisites on the effective config\*\* \(talker stage 0 → codec stage 1\):/);
  assert.match(md, /- ✓ `async_chunk` on: async_chunk: true — qwen3_tts_high_concurrency\.yaml:13/);
  assert.match(
    md,
    /- ✓ `model_runner: v2` for the talker: stage 0 model_runner: v2 — qwen3_tts_high_concurrency_mrv2\.yaml:3/,
  );
  assert.match(md, /- ✓ a one-frame first codec chunk: initial_codec_chunk_frames: 1 — this file:24/);
});

test('talker_first_audio checklist marks a missing prerequisite', () => {
  const text = 'base_config: base.yaml\nconnectors:\n  shm:\n    extra:\n      talker_first_audio: true\n';
  const base =
    'async_chunk: false\nconnectors:\n  shm:\n    name: SharedMemoryConnector\nstages:\n  - stage_id: 0\n    output_connectors: {to_stage_1: shm}\n  - stage_id: 1\n';
  const analysis = analyzeVirtual({ 'o.yaml': text, 'base.yaml': base }, 'o.yaml');
  const md = deployHover(analysis, text.indexOf('talker_first_audio') + 2)?.markdown ?? '';
  assert.match(md, /- ✗ `async_chunk` on: async_chunk: false — base\.yaml:1/);
  assert.match(md, /- ✗ `model_runner: v2` for the talker: stage 0 model_runner: v1 \(default\)/);
});

test('codec chunk keys, active_stream_window, num_replicas, max_num_seqs', () => {
  assert.match(hoverAt('qwen3_tts.yaml', 'initial_codec_chunk_frames: 1'), /`talker_first_audio` needs exactly 1/);
  assert.match(
    hoverAt('qwen3_tts.yaml', 'codec_chunk_frames: 25'),
    /waits for later chunks stay inside its `vllm_decode_ms`/,
  );
  assert.match(
    hoverAt('qwen3_tts.yaml', 'max_num_seqs'),
    /that wait is `vllm_ready_queued_ms` \(part of `vllm_queued_ms`\)/,
  );
  const text = 'active_stream_window: 4\nstages:\n  - stage_id: 0\n    num_replicas: 2\n';
  const window = analyzeVirtual({ 'w.yaml': text }, 'w.yaml');
  assert.match(
    deployHover(window, 2)?.markdown ?? '',
    /its wait for a slot counts as input wait\*\* \(`vllm_input_wait_ms`\)/,
  );
  assert.match(
    deployHover(window, text.indexOf('num_replicas'))?.markdown ?? '',
    /Each replica reports its own `replica_id`/,
  );
});

test('base_config shows the overlay chain; stage_id the effective stage and where each value comes from', () => {
  assert.match(
    hoverAt('qwen3_tts_high_concurrency_mrv2_single_gpu.yaml', 'base_config:'),
    /\*\*Overlay chain:\*\* this file → `qwen3_tts_high_concurrency_mrv2\.yaml` → `qwen3_tts_high_concurrency\.yaml`/,
  );
  const md = hoverAt('qwen3_omni_moe_mrv2.yaml', 'stage_id: 1');
  assert.match(md, /\*\*Effective stage 1\*\* \(after overlays, CUDA\):/);
  assert.match(md, /- `max_num_seqs: 64` — qwen3_omni_moe\.yaml:41/);
  assert.match(md, /- `model_runner: v2` — this file:38/);
  assert.match(md, /- `input_connectors: \{"from_stage_0":"connector_of_shared_memory"\}` — qwen3_omni_moe\.yaml:46/);
});

test('hover on a value, on a nested key, and nowhere', () => {
  assert.match(hoverAt('qwen3_tts.yaml', 'connector_of_shared_memory', 2), /^\*\*`from_stage_0`\*\* · string/);
  assert.match(hoverAt('glm_image.yaml', 'cudagraph_mode'), /CUDA graph mode/);
  assert.match(hoverAt('qwen3_tts.yaml', 'temperature'), /Sampling temperature/);
  assert.equal(deployHover(analyzeFixture('qwen3_tts.yaml'), 0), undefined); // a comment
});

test('talker_first_audio checklist: the local executor and the environment switch (undecided when the YAML does not set it)', () => {
  const md = hoverAt('qwen3_tts_high_concurrency_mrv2_single_gpu.yaml', 'talker_first_audio');
  assert.match(md, /- ✓ a local executor for the talker \(stage 0\): stage 0 distributed_executor_backend: unset/);
  assert.match(
    md,
    /- \? `VLLM_OMNI_TALKER_FIRST_AUDIO` on \(unset or "1"\): not set in this config: it is on unless the server's environment sets VLLM_OMNI_TALKER_FIRST_AUDIO to anything but "1" \(Stage Lens cannot see that environment from the YAML\)/,
  );
  assert.match(md, /the talker's process reads it as on when it is unset or exactly `"1"`/);
});

test('the H200 profile keys say what the public note says, no more', () => {
  const text =
    'connectors:\n  shm:\n    name: SharedMemoryConnector\n    extra:\n      code_predictor_fused_sampling: true\n      codec_cudnn_benchmark: true\n      codec_fused_snake: true\nstages:\n  - stage_id: 0\n';
  const analysis = analyzeVirtual({ 'h200.yaml': text }, 'h200.yaml');
  const at = (key: string) => deployHover(analysis, text.indexOf(key) + 1)?.markdown ?? '';
  for (const key of ['code_predictor_fused_sampling', 'codec_cudnn_benchmark', 'codec_fused_snake']) {
    assert.match(at(key), new RegExp(`^\\*\\*\`${key}\`\\*\\* · boolean · default: false`));
    assert.match(at(key), /experimental H200 profile \(`qwen3_omni_moe_mrv2_h200\.yaml`\), which turns it on/);
  }
  assert.match(at('code_predictor_fused_sampling'), /keep a control with it `false` when C64 P99 latency matters most/);
  assert.match(at('codec_cudnn_benchmark'), /it must be a boolean/);
  assert.match(at('codec_cudnn_benchmark'), /first requests after a boot can be slower/);
  assert.match(at('codec_fused_snake'), /on CUDA only/);
  // known keys: no "did you mean decode_cudnn_benchmark"
  assert.deepEqual(diagnosticsOf({ 'h200.yaml': text }, 'h200.yaml'), []);
});

test('to_stage_N / from_stage_N: the hover names the stage the key names, not a placeholder', () => {
  const to = hoverAt('qwen3_tts.yaml', 'to_stage_1:');
  assert.match(to, /^\*\*`to_stage_1`\*\*/);
  assert.match(to, /carries data from this stage to stage 1\./);
  const from = hoverAt('qwen3_tts.yaml', 'from_stage_0:');
  assert.match(from, /^\*\*`from_stage_0`\*\*/);
  assert.match(from, /carries data from stage 0 into this stage\./);
  assert.doesNotMatch(to + from, /stage N\b|<N>/);
});

test('a connector extra key under a stage: the hover says where it belongs and what it does there', () => {
  const text = 'stages:\n  - stage_id: 1\n    talker_first_audio: true\n';
  const hover = deployHover(analyzeVirtual({ 'deploy.yaml': text }, 'deploy.yaml'), text.indexOf('talker_first') + 1);
  assert.match(
    hover?.markdown ?? '',
    /^\*\*`talker_first_audio`\*\* is a connector `extra` key: it belongs under `connectors.<name>.extra`\./,
  );
  assert.match(hover?.markdown ?? '', /\*\*`talker_first_audio`\*\* · boolean · default: false/);
  assert.doesNotMatch(hover?.markdown ?? '', /not a deploy key/);
});

test('a key holding a bidi control: shown as a visible escape, not reordering the hover', () => {
  const text = 'stages:\n  - stage_id: 0\n    evil\u202eexe: 1\n';
  const hover = deployHover(analyzeVirtual({ 'deploy.yaml': text }, 'deploy.yaml'), text.indexOf('evil') + 1);
  assert.match(hover?.markdown ?? '', /^\*\*`evil\\u202Eexe`\*\* is not a deploy key/);
  assert.doesNotMatch(hover?.markdown ?? '', /\u202e/);
});

test('no hover on a blank line or a comment inside a map: the enclosing key is not there', () => {
  const text =
    'stages:\n  - stage_id: 0\n    max_num_seqs: 4\nconnectors:\n  shm:\n    name: SharedMemoryConnector\n\n    # first audio\n    extra:\n      talker_first_audio: true  # on\n\n      initial_codec_chunk_frames: 1\n';
  const analysis = analyzeVirtual({ 'deploy.yaml': text }, 'deploy.yaml');
  const at = (needle: string, delta = 0): number => text.indexOf(needle) + delta;
  assert.equal(deployHover(analysis, at('\n\n    #', 1)), undefined, 'a blank line');
  assert.equal(deployHover(analysis, at('# first', 3)), undefined, 'a comment line');
  assert.equal(deployHover(analysis, at('# on', 2)), undefined, 'a comment after a value');
  assert.equal(deployHover(analysis, at('# on\n\n', 5)), undefined, 'a blank line inside extra');
  assert.match(deployHover(analysis, at('talker_first', 2))?.markdown ?? '', /^\*\*`talker_first_audio`\*\*/);
  assert.match(deployHover(analysis, at('extra:', 1))?.markdown ?? '', /^\*\*`extra`\*\*/);
});

/** The hover's markdown with its code spans (CommonMark: equal backtick runs) and backslash escapes taken out: what renders as markup. */
function outsideCode(md: string): string {
  let out = '';
  for (let i = 0; i < md.length;) {
    if (md[i] === '\\') {
      i += 2;
      continue;
    }
    if (md[i] !== '`') {
      out += md[i++];
      continue;
    }
    let run = 0;
    while (md[i + run] === '`') run++;
    const fence = '`'.repeat(run);
    let close = md.indexOf(fence, i + run);
    while (close >= 0 && md[close + run] === '`') close = md.indexOf(fence, close + run + 1);
    if (close < 0) {
      out += md.slice(i); // an unclosed run is literal text, and what follows is markup
      break;
    }
    i = close + run;
  }
  return out;
}

test('a key, a value or a base file from the YAML is text in the hover: no image, link, HTML or open code span', () => {
  const IMAGE = '![p](https://evil.example/p.png)';
  const LINK = '[Fix](https://evil.example)';
  const key = `x\` ${IMAGE} ${LINK} <img src=x> \`y`;
  const value = `\`${IMAGE}\``;
  const base = '![p](evil.example.png) [Fix](command:x).yaml';
  const text = `base_config: "${base}"\nstages:\n  - stage_id: 0\n    "${key}": 1\n    max_num_seqs: "${value}"\n`;
  const hoverOf = (files: Record<string, string>, at: number): string =>
    deployHover(analyzeVirtual(files, 'w.yaml'), at + 1)?.markdown ?? '';
  const withBase = { 'w.yaml': text, [base]: 'async_chunk: true\n' };
  const onKey = hoverOf(withBase, text.indexOf('x`'));
  const onStage = hoverOf(withBase, text.indexOf('stage_id'));
  const onBase = hoverOf(withBase, text.indexOf('base_config'));
  // The base file missing: its path is in the chain's problem, as text.
  const onMissingBase = hoverOf({ 'w.yaml': text }, text.indexOf('base_config'));
  assert.match(onKey, /is not a deploy key Stage Lens knows/);
  assert.ok(onKey.startsWith(`**\`\`${key}\`\`**`), onKey);
  assert.match(onStage, /\*\*Effective stage 0\*\*/);
  assert.ok(onStage.includes(`\`\`${key}: 1\`\``), onStage);
  assert.ok(onBase.includes(`**Overlay chain:** this file → \`${base}\``), onBase);
  assert.match(
    onMissingBase,
    /⚠ \\`base_config\\` file not found: .*!\\\[p\\\]\(evil\.example\.png\) \\\[Fix\\\]\(command:x\)\.yaml/,
  );
  for (const md of [onKey, onStage, onBase, onMissingBase]) {
    const markup = outsideCode(md);
    assert.doesNotMatch(markup, /\]\(|<img/, markup);
  }
});

test('markdownCode fences any text as one code span', () => {
  assert.equal(markdownCode('a'), '`a`');
  assert.equal(markdownCode('a`b'), '``a`b``');
  assert.equal(markdownCode('`x`'), '`` `x` ``');
  assert.equal(markdownCode('a ``` b\n\nc'), '````a ``` b  c````');
  assert.equal(outsideCode(`x ${markdownCode('a`` ![i](u) ``b')} y`), 'x  y');
});
