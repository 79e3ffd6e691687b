// One crafted broken file per diagnostic: the exact code and line, and where the fix is
// obvious, that applying the quick fix makes the file clean.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { DeployDiagnostic } from '../../server/core/deploy';
import { applyEdits, diagnosticsOf, summary } from './support/deployHelpers';

const TTS = `model_runner: v2
async_chunk: true
connectors:
  shm:
    name: SharedMemoryConnector
    extra:
      talker_first_audio: true
      initial_codec_chunk_frames: 1
stages:
  - stage_id: 0
    enable_prefix_caching: false
    output_connectors:
      to_stage_1: shm
  - stage_id: 1
    input_connectors:
      from_stage_0: shm
`;

function check(text: string, expected: string[], files: Record<string, string> = {}): DeployDiagnostic[] {
  const found = diagnosticsOf({ ...files, 'deploy.yaml': text }, 'deploy.yaml');
  assert.deepEqual(summary(found), expected);
  return found;
}

/** Applies the first fix of the only diagnostic with `code` and expects a clean file. */
function fixIsClean(
  text: string,
  found: DeployDiagnostic[],
  code: string,
  title: string,
  files: Record<string, string> = {},
): string {
  const target = found.find((d) => d.code === code);
  assert.ok(target, `no ${code}`);
  const fix = target.fixes.find((f) => f.title === title);
  assert.ok(fix, `no fix "${title}" among ${target.fixes.map((f) => f.title).join(' | ')}`);
  const fixed = applyEdits(text, fix.edits);
  check(fixed, [], files);
  return fixed;
}

test('the crafted base is clean', () => {
  check(TTS, []);
});

test('talker_first_audio with async_chunk off', () => {
  const text = TTS.replace('async_chunk: true', 'async_chunk: false');
  const found = check(text, ['tfa-async-chunk-off@2']);
  assert.match(
    found[0].message,
    /`talker_first_audio: true` cannot take effect: async_chunk: false; it needs `async_chunk` on/,
  );
  fixIsClean(text, found, 'tfa-async-chunk-off', 'Set `async_chunk: true`');
  assert.ok(found[0].fixes.some((f) => f.title === 'Turn `talker_first_audio` off' && !f.preferred));
});

test('talker_first_audio with model_runner v1, and with model_runner unset', () => {
  const v1 = TTS.replace('model_runner: v2', 'model_runner: v1');
  fixIsClean(v1, check(v1, ['tfa-model-runner-not-v2@1']), 'tfa-model-runner-not-v2', 'Set `model_runner: v2`');
  const unset = TTS.replace('model_runner: v2\n', '');
  const found = check(unset, ['tfa-model-runner-not-v2@6']);
  assert.match(found[0].message, /stage 0 model_runner: v1 \(default\)/);
  const fixed = fixIsClean(unset, found, 'tfa-model-runner-not-v2', 'Add `model_runner: v2`');
  assert.ok(fixed.startsWith('model_runner: v2\nasync_chunk: true\n'));
});

test('a stage-level model_runner v2 counts for the talker', () => {
  const text = TTS.replace('model_runner: v2\n', '').replace(
    '  - stage_id: 0\n',
    '  - stage_id: 0\n    model_runner: v2\n',
  );
  check(text, []);
});

test('talker_first_audio with a first codec chunk other than 1', () => {
  const four = TTS.replace('initial_codec_chunk_frames: 1', 'initial_codec_chunk_frames: 4');
  fixIsClean(
    four,
    check(four, ['tfa-initial-chunk-not-one@8']),
    'tfa-initial-chunk-not-one',
    'Set `initial_codec_chunk_frames: 1`',
  );
  const unset = TTS.replace('      initial_codec_chunk_frames: 1\n', '');
  const fixed = fixIsClean(
    unset,
    check(unset, ['tfa-initial-chunk-not-one@7']),
    'tfa-initial-chunk-not-one',
    'Add `initial_codec_chunk_frames: 1`',
  );
  assert.match(fixed, /talker_first_audio: true\n {6}initial_codec_chunk_frames: 1\n/);
  // a ramp overrides initial_codec_chunk_frames: its first entry is the first chunk
  const ramp = TTS.replace(
    'initial_codec_chunk_frames: 1',
    'initial_codec_chunk_frames: 1\n      codec_chunk_ramp: [4, 8, 25]',
  );
  const found = check(ramp, ['tfa-initial-chunk-not-one@9']);
  assert.match(found[0].message, /codec_chunk_ramp starts at 4/);
  check(TTS.replace('initial_codec_chunk_frames: 1', 'codec_chunk_ramp: [1, 2, 4, 25]'), []);
});

test('talker_first_audio with prefix caching, parallel talkers, an mp executor', () => {
  const prefix = TTS.replace('enable_prefix_caching: false', 'enable_prefix_caching: true');
  fixIsClean(
    prefix,
    check(prefix, ['tfa-prefix-caching-on@11']),
    'tfa-prefix-caching-on',
    'Set `enable_prefix_caching: false`',
  );
  check(
    TTS.replace(
      '    enable_prefix_caching: false\n',
      '    enable_prefix_caching: false\n    tensor_parallel_size: 2\n',
    ),
    ['tfa-talker-parallel@12'],
  );
  check(`pipeline_parallel_size: 2\n${TTS}`, ['tfa-talker-parallel@1']);
  check(
    TTS.replace(
      '    enable_prefix_caching: false\n',
      '    enable_prefix_caching: false\n    distributed_executor_backend: mp\n',
    ),
    ['tfa-executor-not-local@12'],
  );
  // the prefix-caching setting of a non-talker stage does not matter
  check(TTS.replace('  - stage_id: 1\n', '  - stage_id: 1\n    enable_prefix_caching: true\n'), []);
});

test('talker_first_audio prerequisites are judged on the effective config across overlays', () => {
  const base = { 'base.yaml': TTS };
  const overlay = 'base_config: base.yaml\nasync_chunk: false\n';
  const found = check(overlay, ['tfa-async-chunk-off@2'], base);
  assert.match(found[0].message, /set in base\.yaml:7/);
  assert.equal(found[0].related[0].location.file.endsWith('base.yaml'), true);
  fixIsClean(overlay, found, 'tfa-async-chunk-off', 'Set `async_chunk: true`', base);
  // the base is broken, the overlay only inherits: reported on the overlay's base_config
  const broken = { 'base.yaml': TTS.replace('async_chunk: true', 'async_chunk: false') };
  const inherited = check('base_config: base.yaml\ncuda_mps: true\n', ['tfa-async-chunk-off@1'], broken);
  assert.match(inherited[0].message, /async_chunk: false \(base\.yaml:2\)/);
  // and an overlay can repair its base
  check('base_config: base.yaml\nasync_chunk: true\n', [], broken);
});

test('unknown keys, with "did you mean" where a known key is close', () => {
  const typo = TTS.replace('async_chunk: true', 'asyn_chunk: true');
  const found = check(typo, ['unknown-key@2']);
  assert.equal(
    found[0].message,
    'Unknown key `asyn_chunk` at the top level: did you mean `async_chunk`? vLLM-Omni does not read it.',
  );
  fixIsClean(typo, found, 'unknown-key', 'Rename to `async_chunk`');
  const unknown = check(`flavour: 1\n${TTS}`, ['unknown-key@1']);
  assert.deepEqual(unknown[0].fixes, []);
  // stage keys pass through to vLLM: only likely typos are flagged
  check(
    TTS.replace(
      '    enable_prefix_caching: false\n',
      '    enable_prefix_caching: false\n    max_num_seq: 4\n    some_future_vllm_arg: 1\n',
    ),
    ['unknown-key@12'],
  );
  check(TTS.replace('talker_first_audio: true', 'talker_frist_audio: true'), ['unknown-key@7']);
  // a top-level key holding an anchor is a place for shared values, not a typo
  check(`defaults: &d\n  max_num_seqs: 4\n${TTS}`, []);
});

test('a connector extra key under a stage or at the top level: said where it belongs', () => {
  // Under a stage vLLM-Omni passes it to vLLM as an engine argument: talker first audio stays off.
  const underStage = TTS.replace(
    '      from_stage_0: shm\n',
    '      from_stage_0: shm\n    talker_first_audio: true\n',
  );
  const found = check(underStage, ['misplaced-key@17']);
  assert.equal(
    found[0].message,
    '`talker_first_audio` is a connector `extra` key: it belongs under `connectors.<name>.extra`, not in a stage. Here it is passed to vLLM as an engine argument, and vLLM-Omni does not read it as this setting.',
  );
  assert.equal(found[0].severity, 'warning');
  const topLevel = check(`initial_codec_chunk_frames: 1\n${TTS}`, ['misplaced-key@1']);
  assert.match(
    topLevel[0].message,
    /belongs under `connectors.<name>.extra`, not at the top level\. vLLM-Omni does not read it here\.$/,
  );
});

test("a misplaced connector extra key: moved under the named connector's `extra`, or no fix where a move is not plain", () => {
  const fromExtra = TTS.replace('      initial_codec_chunk_frames: 1\n', '');
  const underStage = fromExtra.replace(
    '      from_stage_0: shm\n',
    '      from_stage_0: shm\n    # one frame first\n    initial_codec_chunk_frames: 1\n',
  );
  const found = check(underStage, ['tfa-initial-chunk-not-one@7', 'misplaced-key@17']);
  const title = 'Move `initial_codec_chunk_frames` to `connectors.shm.extra`';
  const fixed = fixIsClean(underStage, found, 'misplaced-key', title);
  assert.equal(
    fixed,
    TTS.replace(
      '      initial_codec_chunk_frames: 1\n',
      '      # one frame first\n      initial_codec_chunk_frames: 1\n',
    ),
  );
  // A comment above another key stays with that key.
  const apart = fromExtra.replace(
    '      from_stage_0: shm\n',
    '      from_stage_0: shm\n    # four at most\n    max_num_seqs: 4\n    initial_codec_chunk_frames: 1\n',
  );
  const fix = check(apart, ['tfa-initial-chunk-not-one@7', 'misplaced-key@18'])[1].fixes;
  assert.deepEqual(
    fix.map((f) => [f.title, f.preferred]),
    [[title, true]],
  );
  assert.equal(
    applyEdits(apart, fix[0].edits),
    TTS.replace('      from_stage_0: shm\n', '      from_stage_0: shm\n    # four at most\n    max_num_seqs: 4\n'),
  );
  // Written in a connector's own map: that connector's `extra`, a new one where it has none.
  const inConnector = `${TTS}`.replace(
    '  shm:\n',
    '  mooncake:\n    name: MooncakeConnector\n    codec_chunk_frames: 25\n  shm:\n',
  );
  const own = check(inConnector, ['misplaced-key@6'])[0].fixes;
  assert.deepEqual(
    own.map((f) => [f.title, f.preferred]),
    [['Move `codec_chunk_frames` to `connectors.mooncake.extra`', true]],
  );
  assert.equal(
    applyEdits(inConnector, own[0].edits),
    inConnector.replace('    codec_chunk_frames: 25\n  shm:\n', '    extra:\n      codec_chunk_frames: 25\n  shm:\n'),
  );
  // Already in `extra`: a move would write the key twice.
  const twice = TTS.replace('  - stage_id: 1\n', '  - stage_id: 1\n    talker_first_audio: true\n');
  assert.deepEqual(check(twice, ['misplaced-key@15'])[0].fixes, []);
  // A flow `extra`, or a key after `- `: no edit keeps the rest as written.
  const flow = TTS.replace(
    '    extra:\n      talker_first_audio: true\n',
    '    extra: {talker_first_audio: true}\n',
  ).replace('      initial_codec_chunk_frames: 1\n', '');
  assert.deepEqual(
    check(`initial_codec_chunk_frames: 1\n${flow}`, ['misplaced-key@1', 'tfa-initial-chunk-not-one@7'])[0].fixes,
    [],
  );
  const afterDash = fromExtra.replace('  - stage_id: 1\n', '  - initial_codec_chunk_frames: 1\n    stage_id: 1\n');
  assert.deepEqual(check(afterDash, ['tfa-initial-chunk-not-one@7', 'misplaced-key@13'])[1].fixes, []);
});

test('a long or bidi-laden value or key is quoted cut and with its direction controls visible', () => {
  const long = 'v'.repeat(5000);
  const found = check(TTS.replace('model_runner: v2', `model_runner: ${long}`), [
    'tfa-model-runner-not-v2@1',
    'invalid-value@1',
  ]);
  const cut = `${'v'.repeat(49)}…`;
  assert.equal(
    found.find((d) => d.code === 'invalid-value')?.message,
    `\`model_runner\` must be one of \`v1\`, \`v2\`; vLLM-Omni rejects \`${cut}\`.`,
  );
  assert.match(
    found.find((d) => d.code === 'tfa-model-runner-not-v2')?.message ?? '',
    new RegExp(`model_runner: ${cut};`),
  );
  for (const d of found) assert.ok(d.message.length < 400, d.message.slice(0, 80));
  const bidi = check(`flav\u202eour: 1\n${TTS}`, ['unknown-key@1']);
  assert.equal(bidi[0].message, 'Unknown key `flav\\u202Eour` at the top level. vLLM-Omni does not read it.');
});

test('wrong value types and values out of range', () => {
  const quoted = TTS.replace(
    '    enable_prefix_caching: false\n',
    '    enable_prefix_caching: false\n    max_num_seqs: "64"\n',
  );
  const found = check(quoted, ['wrong-type@12']);
  assert.equal(found[0].message, '`max_num_seqs` expects an integer; `64` is a string.');
  fixIsClean(quoted, found, 'wrong-type', 'Write `64` without quotes');
  check(TTS.replace('async_chunk: true', 'async_chunk: 1'), ['wrong-type@2']);
  check(TTS.replace('model_runner: v2', 'model_runner: v3'), ['tfa-model-runner-not-v2@1', 'invalid-value@1']);
  check(TTS.replace('  - stage_id: 1\n', '  - stage_id: 1\n    num_replicas: 0\n'), ['invalid-value@15']);
  check(TTS.replace('stages:\n', 'stages:\n  - just a string\n'), ['wrong-type@10']);
});

test('duplicate stage ids, stages without an id', () => {
  const found = check(`${TTS}  - stage_id: 1\n    max_num_seqs: 4\n`, ['duplicate-stage-id@17']);
  assert.equal(found[0].related.length, 1);
  check(`${TTS}  - max_num_seqs: 4\n`, ['missing-stage-id@17']);
});

test('base_config missing, in a cycle, or broken', () => {
  check('base_config: nowhere.yaml\n', ['base-config-missing@1']);
  check('base_config: b.yaml\n', ['base-config-cycle@1'], { 'b.yaml': 'base_config: deploy.yaml\n' });
  const deep = check('base_config: b.yaml\n', ['base-config-missing@1'], { 'b.yaml': 'base_config: c.yaml\n' });
  assert.match(deep[0].message, /^In the base config chain \(b\.yaml:1\)/);
  check('base_config: b.yaml\n', ['base-config-invalid@1'], { 'b.yaml': 'stages:\n  - stage_id: [0\n' });
});

test('connectors referenced but not defined, edges to missing stages', () => {
  const typo = TTS.replace('to_stage_1: shm', 'to_stage_1: shmm');
  const found = check(typo, ['connector-undefined@13']);
  assert.match(
    found[0].message,
    /Connector `shmm` is not defined under `connectors` \(defined: `shm`\)\. Did you mean `shm`\?/,
  );
  fixIsClean(typo, found, 'connector-undefined', 'Change to `shm`');
  check(TTS.replace('to_stage_1: shm', 'to_stage_5: shm'), ['edge-unknown-stage@13']);
  check(`${TTS}edges:\n  - {from: 0, to: 9}\n`, ['edge-unknown-stage@18']);
  check(`${TTS}platforms:\n  npu:\n    stages:\n      - stage_id: 7\n        enforce_eager: true\n`, [
    'platform-stage-unknown@20',
  ]);
});

test('gpu_memory_utilization: a fraction above 0 and at most 1, and stages sharing a GPU within its memory', () => {
  const withFractions = (talker: string, codec: string, codecDevices = '"0"') =>
    TTS.replace(
      '    enable_prefix_caching: false\n',
      `    enable_prefix_caching: false\n    gpu_memory_utilization: ${talker}\n    devices: "0"\n`,
    ).replace(
      '  - stage_id: 1\n',
      `  - stage_id: 1\n    gpu_memory_utilization: ${codec}\n    devices: ${codecDevices}\n`,
    );
  check(withFractions('0.3', '0.3'), []);
  // 0.7 + 0.3 is exactly the whole device
  check(withFractions('0.7', '0.3'), []);
  const over = check(withFractions('1.5', '0.3'), ['invalid-value@12']);
  assert.equal(over[0].message, '`gpu_memory_utilization` must be above 0 and at most 1; it is 1.5.');
  check(withFractions('0', '0.3'), ['invalid-value@12']);
  check(withFractions('1', '0.3', '"1"'), []);
  const shared = check(withFractions('0.6', '0.5'), ['gpu-memory-oversubscribed@12', 'gpu-memory-oversubscribed@17']);
  assert.equal(
    shared[0].message,
    'Stages 0 and 1 share GPU 0 and together ask for 0.6 + 0.5 = 1.1 of its memory: each reserves its `gpu_memory_utilization` of the whole device, so the stage that starts last finds too little free and fails to start. Lower them to add up to at most 1.',
  );
  assert.deepEqual(
    shared[0].related.map((r) => r.message),
    ['stage 1: gpu_memory_utilization 0.5 (this file:17)'],
  );
  // a device named in a list shared with another stage's
  check(withFractions('0.6', '0.5', '"1,0"'), ['gpu-memory-oversubscribed@12', 'gpu-memory-oversubscribed@17']);
  // on separate GPUs each may take most of its own
  check(withFractions('0.9', '0.9', '"1"'), []);
  // an overlay that moves the codec onto the talker's GPU: said at its `devices`, the fractions being the base's
  const base = withFractions('0.6', '0.5', '"1"');
  check('base_config: base.yaml\nstages:\n  - stage_id: 1\n    devices: "0"\n', ['gpu-memory-oversubscribed@4'], {
    'base.yaml': base,
  });
});

test('many stages on one GPU: each told once, in a message of bounded length', () => {
  const stages = (count: number, devices: string) =>
    `stages:\n${Array.from({ length: count }, (_, id) => `  - stage_id: ${id}\n    gpu_memory_utilization: 0.3\n    devices: "${devices}"\n`).join('')}`;
  const many = diagnosticsOf({ 'deploy.yaml': stages(300, '0') }, 'deploy.yaml');
  assert.equal(many.length, 300);
  assert.ok(
    many.every((d) => d.code === 'gpu-memory-oversubscribed' && d.message.length < 400 && d.related.length <= 4),
  );
  assert.match(
    many[0]!.message,
    /^Stages 0, 1, 2, 3 and 296 more share GPU 0 and together ask for 0\.3 \+ 0\.3 \+ 0\.3 \+ 0\.3 \+ … \(300 stages\) = 90 of its memory:/,
  );
  // Two stages sharing 100 GPUs: told once each, about the first.
  const wide = diagnosticsOf(
    { 'deploy.yaml': stages(2, Array.from({ length: 100 }, (_, i) => i).join(',')).replace(/0\.3/g, '0.6') },
    'deploy.yaml',
  );
  assert.deepEqual(summary(wide), ['gpu-memory-oversubscribed@3', 'gpu-memory-oversubscribed@6']);
  assert.match(wide[0]!.message, /share GPU 0 and together ask for 0\.6 \+ 0\.6 = 1\.2 /);
  // More ids than any machine has is not read as a device list.
  const hostile = Array.from({ length: 5000 }, (_, i) => i).join(',');
  assert.deepEqual(
    summary(diagnosticsOf({ 'deploy.yaml': stages(2, hostile).replace(/0\.3/g, '0.6') }, 'deploy.yaml')),
    [],
  );
});

test('YAML problems: tabs, duplicate keys, several documents', () => {
  // one error per line; no checks past the first error, where the parser guesses the structure
  const tabs = check(TTS.replace('    enable_prefix_caching: false', '\tenable_prefix_caching: false'), [
    'yaml-syntax@11',
    'yaml-syntax@14',
  ]);
  assert.equal(tabs[0].severity, 'error');
  assert.equal(tabs[0].message, 'Tabs are not allowed as indentation');
  const dup = check(TTS.replace('async_chunk: true\n', 'async_chunk: true\nasync_chunk: true\n'), [
    'yaml-duplicate-key@3',
  ]);
  assert.equal(dup[0].severity, 'warning');
  check(`${TTS}---\nother: 1\n`, ['yaml-multiple-documents@17']);
});

test('talker_first_audio needs a local executor: anything but unset or `uni` on the talker, or on every stage when the talker is unknown', () => {
  const withExecutor = (value: string) =>
    TTS.replace(
      '    enable_prefix_caching: false\n',
      `    enable_prefix_caching: false\n    distributed_executor_backend: ${value}\n`,
    );
  check(withExecutor('uni'), []);
  check(withExecutor('null'), []);
  const launcher = check(withExecutor('external_launcher'), ['tfa-executor-not-local@12']);
  assert.match(
    launcher[0].message,
    /cannot take effect: stage 0 distributed_executor_backend: external_launcher; it needs a local executor for the talker \(stage 0\)\./,
  );
  // pipeline-wide: the talker runs with it too
  check(`distributed_executor_backend: ray\n${TTS}`, ['tfa-executor-not-local@1']);
  // a stage that is not the talker may run where it likes
  check(TTS.replace('  - stage_id: 1\n', '  - stage_id: 1\n    distributed_executor_backend: mp\n'), []);
  // no edges, so no known talker: only a setting that every stage runs with decides
  const noEdges = TTS.replace('    output_connectors:\n      to_stage_1: shm\n', '').replace(
    '    input_connectors:\n      from_stage_0: shm\n',
    '',
  );
  check(noEdges, []);
  check(`distributed_executor_backend: mp\n${noEdges}`, ['tfa-executor-not-local@1']);
  check(noEdges.replace('  - stage_id: 1\n', '  - stage_id: 1\n    distributed_executor_backend: mp\n'), []);
});

test('talker_first_audio needs VLLM_OMNI_TALKER_FIRST_AUDIO on: a diagnostic only when a stage env in the YAML turns it off', () => {
  const withEnv = (stage: 0 | 1, env: string) =>
    TTS.replace(
      `  - stage_id: ${stage}\n`,
      `  - stage_id: ${stage}\n    env:\n      VLLM_OMNI_TALKER_FIRST_AUDIO: ${env}\n`,
    );
  const off = withEnv(0, '"0"');
  const found = check(off, ['tfa-env-switch-off@12']);
  assert.match(
    found[0].message,
    /cannot take effect: stage 0 env VLLM_OMNI_TALKER_FIRST_AUDIO: "0"; it needs `VLLM_OMNI_TALKER_FIRST_AUDIO` on \(unset or "1"\)\./,
  );
  fixIsClean(off, found, 'tfa-env-switch-off', 'Set `VLLM_OMNI_TALKER_FIRST_AUDIO: "1"`');
  check(withEnv(0, '0'), ['tfa-env-switch-off@12']);
  check(withEnv(0, '"on"'), ['tfa-env-switch-off@12']); // the process compares with "1" exactly
  check(withEnv(0, '"1"'), []);
  check(withEnv(0, '1'), []);
  // a YAML boolean: how it reaches the environment is not known here, so nothing is claimed
  check(withEnv(0, 'false'), []);
  // the codec's environment is not where the talker reads it
  check(withEnv(1, '"0"'), []);
  // the nested layout
  check(
    TTS.replace('  - stage_id: 0\n', '  - stage_id: 0\n    runtime:\n      env: {VLLM_OMNI_TALKER_FIRST_AUDIO: "0"}\n'),
    ['tfa-env-switch-off@12'],
  );
});
