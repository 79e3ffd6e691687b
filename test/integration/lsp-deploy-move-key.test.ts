// The quick fix of a connector `extra` key written in the wrong place, over a real
// language-server connection (`dist/server.js --stdio`): the code action's edit applied as an
// editor applies it moves the key, its value and its comments under the connector's `extra`.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { CodeAction } from 'vscode-languageserver-protocol';
import { DeployLspClient, FIXTURES } from './support/lspDeployHarness';

let client: DeployLspClient;
let scratch: string;

before(async () => {
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'stage-lens-move-key-'));
  // Its sessions are stored in the scratch folder, never in the user's.
  client = await DeployLspClient.start({ diagnosticsDelayMs: 0, storageDir: path.join(scratch, 'sessions') });
});

after(async () => {
  await client.stop();
  fs.rmSync(scratch, { recursive: true, force: true });
});

/** The text after the action's edits, applied as an editor applies a workspace edit. */
function applied(text: string, uri: string, action: CodeAction): string {
  const edits = action.edit?.changes?.[uri];
  assert.ok(edits !== undefined && edits.length > 0, `no edit for ${uri}`);
  return TextDocument.applyEdits(TextDocument.create(uri, 'yaml', 1, text), edits);
}

/**
 * Writes `text` as `name` in the scratch folder, opens it, checks its one diagnostic is the
 * misplaced key on `line` (0-based) and returns the quick fixes offered for it.
 */
async function fixesOf(name: string, text: string, line: number): Promise<{ uri: string; actions: CodeAction[] }> {
  const file = path.join(scratch, name);
  fs.writeFileSync(file, text);
  const uri = await client.open(file);
  const found = await client.diagnostics(uri, 1);
  assert.deepEqual(
    found.map((d) => [d.code, d.range.start.line]),
    [['misplaced-key', line]],
  );
  return { uri, actions: (await client.codeActions(uri, found[0]!.range, found)) ?? [] };
}

/** The file, changed to `fixed`, has no diagnostic left. */
async function assertCleanAfter(uri: string, fixed: string): Promise<void> {
  const version = await client.change(uri, fixed);
  assert.deepEqual(
    (await client.diagnostics(uri, version)).map((d) => d.code),
    [],
  );
}

const REAL = fs.readFileSync(path.join(FIXTURES, 'qwen3_tts.yaml'), 'utf8');
const LAST_EXTRA = '      decode_batch_max_size: 4\n';
const STAGE_0_KEY = '    enable_prefix_caching: false\n    async_scheduling: true\n    max_num_batched_tokens: 32768\n';

test('talker_first_audio under a stage: one preferred fix moves it, with its comments, under the connector the stage names', async () => {
  // Upstream's Qwen3-TTS config with the flag written under the talker stage, where vLLM-Omni
  // passes it to vLLM as an engine argument.
  const misplaced =
    '    # Stream the first audio frame from the talker.\n    talker_first_audio: true  # needs async_chunk\n';
  const text = REAL.replace(STAGE_0_KEY, STAGE_0_KEY + misplaced);
  const { uri, actions } = await fixesOf(
    'qwen3_tts.yaml',
    text,
    text.split('\n').indexOf('    talker_first_audio: true  # needs async_chunk'),
  );
  assert.deepEqual(
    actions.map((a) => [a.title, a.kind, a.isPreferred]),
    [['Move `talker_first_audio` to `connectors.connector_of_shared_memory.extra`', 'quickfix', true]],
  );

  const fixed = applied(text, uri, actions[0]!);
  // The key and its comments, re-indented, after the last key of the connector's `extra`; the
  // stage as upstream wrote it; every other line as it was.
  assert.equal(
    fixed,
    REAL.replace(
      LAST_EXTRA,
      LAST_EXTRA +
        '      # Stream the first audio frame from the talker.\n      talker_first_audio: true  # needs async_chunk\n',
    ),
  );
  await assertCleanAfter(uri, fixed);
});

test('a key at the top level with two connectors: a fix per connector, none preferred; a connector without `extra` gets one', async () => {
  const text =
    'async_chunk: true\n' +
    '# Frames of the first audio chunk.\n' +
    'initial_codec_chunk_frames: 1\n' +
    'connectors:\n' +
    '  shm:\n' +
    '    name: SharedMemoryConnector\n' +
    '    extra:\n' +
    '      codec_chunk_frames: 25\n' +
    '  mooncake:\n' +
    '    name: MooncakeConnector\n' +
    'stages:\n' +
    '  - stage_id: 0\n' +
    '  - stage_id: 1\n';
  const { uri, actions } = await fixesOf('two-connectors.yaml', text, 2);
  assert.deepEqual(
    actions.map((a) => [a.title, a.isPreferred]),
    [
      ['Move `initial_codec_chunk_frames` to `connectors.shm.extra`', false],
      ['Move `initial_codec_chunk_frames` to `connectors.mooncake.extra`', false],
    ],
  );
  assert.equal(
    applied(text, uri, actions[0]!),
    'async_chunk: true\n' +
      'connectors:\n' +
      '  shm:\n' +
      '    name: SharedMemoryConnector\n' +
      '    extra:\n' +
      '      codec_chunk_frames: 25\n' +
      '      # Frames of the first audio chunk.\n' +
      '      initial_codec_chunk_frames: 1\n' +
      '  mooncake:\n' +
      '    name: MooncakeConnector\n' +
      'stages:\n' +
      '  - stage_id: 0\n' +
      '  - stage_id: 1\n',
  );
  assert.equal(
    applied(text, uri, actions[1]!),
    'async_chunk: true\n' +
      'connectors:\n' +
      '  shm:\n' +
      '    name: SharedMemoryConnector\n' +
      '    extra:\n' +
      '      codec_chunk_frames: 25\n' +
      '  mooncake:\n' +
      '    name: MooncakeConnector\n' +
      '    extra:\n' +
      '      # Frames of the first audio chunk.\n' +
      '      initial_codec_chunk_frames: 1\n' +
      'stages:\n' +
      '  - stage_id: 0\n' +
      '  - stage_id: 1\n',
  );
});

test('a stage of a base_config overlay whose connector is in the base: the override goes under this file, which vLLM-Omni merges into the base', async () => {
  // Upstream's MRV2 profile over upstream's Qwen3-TTS config, with the flag written under the
  // talker stage: the stage's output_connectors and the connector are both in the base.
  const base = path.join(scratch, 'qwen3_tts.yaml');
  fs.writeFileSync(base, REAL);
  const overlay = fs.readFileSync(path.join(FIXTURES, 'qwen3_tts_mrv2.yaml'), 'utf8');
  const BOUND = '    max_num_batched_tokens: 512\n';
  assert.ok(overlay.endsWith(BOUND));
  const text = overlay + '    talker_first_audio: true\n';
  const { uri, actions } = await fixesOf(
    'qwen3_tts_mrv2.yaml',
    text,
    text.split('\n').indexOf('    talker_first_audio: true'),
  );
  assert.deepEqual(
    actions.map((a) => [a.title, a.isPreferred]),
    [
      [
        'Move `talker_first_audio` to `connectors.connector_of_shared_memory.extra` here (the connector is in qwen3_tts.yaml)',
        true,
      ],
    ],
  );
  // Only this file changes; the base, which other profiles share, stays as it is.
  assert.deepEqual(Object.keys(actions[0]!.edit?.changes ?? {}), [uri]);
  const fixed = applied(text, uri, actions[0]!);
  assert.equal(
    fixed,
    overlay + 'connectors:\n  connector_of_shared_memory:\n    extra:\n      talker_first_audio: true\n',
  );
  await assertCleanAfter(uri, fixed);
});

test('an overlay with connectors of its own: the base connector the stage names is added after them, with `extra`', async () => {
  fs.writeFileSync(
    path.join(scratch, 'base.yaml'),
    'async_chunk: true\n' +
      'connectors:\n' +
      '  shm:\n' +
      '    name: SharedMemoryConnector\n' +
      '    extra:\n' +
      '      codec_chunk_frames: 25\n' +
      'stages:\n' +
      '  - stage_id: 0\n' +
      '    output_connectors:\n' +
      '      to_stage_1: shm\n' +
      '  - stage_id: 1\n' +
      '    input_connectors:\n' +
      '      from_stage_0: shm\n',
  );
  const text =
    'base_config: base.yaml\n' +
    'connectors:\n' +
    '  mooncake:\n' +
    '    name: MooncakeConnector\n' +
    'stages:\n' +
    '  - stage_id: 0\n' +
    '    # Frames of the first audio chunk.\n' +
    '    initial_codec_chunk_frames: 1\n' +
    '    max_num_batched_tokens: 512\n';
  const { uri, actions } = await fixesOf('overlay.yaml', text, 7);
  assert.deepEqual(
    actions.map((a) => [a.title, a.isPreferred]),
    [['Move `initial_codec_chunk_frames` to `connectors.shm.extra` here (the connector is in base.yaml)', true]],
  );
  assert.equal(
    applied(text, uri, actions[0]!),
    'base_config: base.yaml\n' +
      'connectors:\n' +
      '  mooncake:\n' +
      '    name: MooncakeConnector\n' +
      '  shm:\n' +
      '    extra:\n' +
      '      # Frames of the first audio chunk.\n' +
      '      initial_codec_chunk_frames: 1\n' +
      'stages:\n' +
      '  - stage_id: 0\n' +
      '    max_num_batched_tokens: 512\n',
  );
});
