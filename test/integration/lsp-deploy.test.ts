// The deploy features over a real language-server connection: `dist/server.js --stdio`
// in a child process, driven by a vscode-languageserver-protocol client.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Diagnostic, InlayHint, MarkupContent } from 'vscode-languageserver-protocol';
import type { LiveStageNumbers } from '../../server/core/deploy';
import { bigDeployFile } from './support/bigDeployFile';
import { DeployLspClient, FIXTURES, positionOf } from './support/lspDeployHarness';

const SINGLE_GPU = path.join(FIXTURES, 'qwen3_tts_high_concurrency_mrv2_single_gpu.yaml');
const NUMBERS: LiveStageNumbers = {
  sessionLabel: 'launch: vllm serve Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice',
  stages: [
    { stageId: 0, ttftP50Ms: 41, prefillP50Ms: 39, queuedP50Ms: 0.4, n: 120, ttftNotRecorded: false },
    { stageId: 1, ttftP50Ms: 0, prefillP50Ms: null, queuedP50Ms: 53, n: 120, ttftNotRecorded: true },
  ],
};

let client: DeployLspClient;
let scratch: string;

before(async () => {
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'stage-lens-deploy-'));
  // Its sessions are stored in the scratch folder, never in the user's.
  client = await DeployLspClient.start({
    testNumbers: { [SINGLE_GPU]: NUMBERS },
    diagnosticsDelayMs: 0,
    storageDir: path.join(scratch, 'sessions'),
  });
});

after(async () => {
  await client.stop();
  fs.rmSync(scratch, { recursive: true, force: true });
});

function messageOf(diagnostic: Diagnostic): string {
  return typeof diagnostic.message === 'string' ? diagnostic.message : diagnostic.message.value;
}

function labelOf(hint: InlayHint): string {
  return typeof hint.label === 'string' ? hint.label : hint.label.map((part) => part.value).join('');
}

function tooltipOf(hint: InlayHint | undefined): string {
  const tip = hint?.tooltip;
  return typeof tip === 'string' ? tip : (tip?.value ?? '');
}

function hoverText(hover: Awaited<ReturnType<DeployLspClient['hover']>>): string {
  assert.ok(hover, 'no hover');
  return (hover.contents as MarkupContent).value;
}

// No false alarms on the real configs (see test/unit/deploy-fixtures.test.ts for why each
// list is right): the server publishes an empty list for each.
const FIXTURE_FILES = fs
  .readdirSync(FIXTURES)
  .filter((f) => f.endsWith('.yaml'))
  .sort();

test('the eight real configs publish exactly no diagnostics', async () => {
  assert.equal(FIXTURE_FILES.length, 8);
  for (const name of FIXTURE_FILES) {
    const uri = await client.open(path.join(FIXTURES, name));
    assert.deepEqual(await client.diagnostics(uri, 1), [], name);
  }
});

test('hovers on keys of the real configs', async () => {
  const tts = path.join(FIXTURES, 'qwen3_tts.yaml');
  const text = fs.readFileSync(tts, 'utf8');
  const uri = await client.open(tts);
  const asyncChunk = hoverText(await client.hover(uri, positionOf(text, 'async_chunk: true', 2)));
  assert.match(asyncChunk, /\*\*`vllm_queued_ms` includes the wait for upstream input\*\*/);
  const runner = hoverText(await client.hover(uri, positionOf(text, 'model_runner: v2', 15)));
  assert.match(runner, /^\*\*`model_runner`\*\* · `v1` \| `v2` · default: v1/);
  assert.match(runner, /\*\*`vllm_prefill_ms` also covers its decode steps\*\*/);
  const seqs = hoverText(await client.hover(uri, positionOf(text, 'max_num_seqs', 3, 1)));
  assert.match(seqs, /^\*\*`max_num_seqs`\*\* · integer/);
  assert.match(seqs, /that wait is `vllm_ready_queued_ms`/);
  const hover = await client.hover(uri, positionOf(text, 'initial_codec_chunk_frames', 3));
  assert.deepEqual(hover?.range, {
    start: positionOf(text, 'initial_codec_chunk_frames'),
    end: positionOf(text, 'initial_codec_chunk_frames', 26),
  });
  assert.equal(await client.hover(uri, { line: 0, character: 3 }), null); // a comment

  const single = fs.readFileSync(SINGLE_GPU, 'utf8');
  const singleUri = await client.open(SINGLE_GPU);
  const tfa = hoverText(await client.hover(singleUri, positionOf(single, 'talker_first_audio', 4)));
  assert.match(tfa, /`vllm_ttft_ms` = 0\.0 with no `vllm_prefill_ms` \/ `vllm_decode_ms`/);
  assert.match(tfa, /- ✓ `async_chunk` on: async_chunk: true — qwen3_tts_high_concurrency\.yaml:13/);
});

test('inlay hints show the measured numbers, "not recorded" for the codec TTFT, and refresh on updates', async () => {
  const uri = await client.open(SINGLE_GPU);
  const hints = (await client.inlayHints(uri)) ?? [];
  assert.deepEqual(
    hints.map((h) => [h.position.line + 1, h.label]),
    [
      [35, 'p50 prefill 39 ms · TTFT 41 ms (n=120)'],
      [42, 'p50 queued 53 ms · TTFT not recorded'],
      [21, 'codec TTFT not recorded (no stats fix)'],
    ],
  );
  // a config without a matched session gets no hints
  assert.deepEqual(await client.inlayHints(await client.open(path.join(FIXTURES, 'glm_image.yaml'))), []);

  const before = client.refreshRequests;
  const fixed: LiveStageNumbers = {
    ...NUMBERS,
    stages: [NUMBERS.stages[0], { ...NUMBERS.stages[1], ttftNotRecorded: false, ttftP50Ms: 4000, prefillP50Ms: 500 }],
  };
  // four updates in quick succession: throttled to one refresh now and at most one later
  for (let i = 0; i < 4; i++)
    await client.notify('stageLensTest/setStageNumbers', { deployConfig: SINGLE_GPU, numbers: fixed });
  await client.waitForRefreshes(before + 1);
  await new Promise((resolve) => setTimeout(resolve, 700));
  assert.ok(client.refreshRequests - before <= 2, `${client.refreshRequests - before} refreshes for 4 updates`);
  const updated = ((await client.inlayHints(uri)) ?? []).map((h) => h.label);
  assert.deepEqual(updated.slice(1), [
    'p50 prefill 500 ms · TTFT 4 s (n=120)',
    'codec TTFT recorded (stage 1 p50 4 s)',
  ]);
  // With what leads the p99 tail: the numbers keep their "p50" (a number without its percentile
  // reads as any value); the lead has no room beside them, so it is in their tooltip.
  const beforeLead = client.refreshRequests;
  await client.notify('stageLensTest/setStageNumbers', {
    deployConfig: SINGLE_GPU,
    numbers: {
      ...NUMBERS,
      tailLead: { stageId: 0, part: 'decode', share: 0.85, target: 'end-to-end time', tailRequests: 2 },
    },
  });
  await client.waitForRefreshes(beforeLead + 1);
  const led = (await client.inlayHints(uri)) ?? [];
  assert.deepEqual(
    led.map((h) => [h.position.line + 1, h.label]),
    [
      [35, 'p50 prefill 39 ms · TTFT 41 ms (n=120)'],
      [42, 'p50 queued 53 ms · TTFT not recorded'],
      [21, 'codec TTFT not recorded (no stats fix)'],
    ],
  );
  const tip = led[0]?.tooltip;
  assert.match(
    typeof tip === 'string' ? tip : (tip?.value ?? ''),
    /\n\nThe decode of stage 0 has the largest mean excess/,
  );
  await client.notify('stageLensTest/setStageNumbers', { deployConfig: SINGLE_GPU, numbers: null });
  await client.waitForRefreshes(client.refreshRequests + 1);
  assert.deepEqual(await client.inlayHints(uri), []);
});

test("no inlay hint is cut by the editor (43 a line): after base_config the stage's name stays, the TTFT may go", async () => {
  const lineLengths = (hints: readonly InlayHint[]): Map<number, number> => {
    const lengths = new Map<number, number>();
    for (const h of hints) lengths.set(h.position.line, (lengths.get(h.position.line) ?? 0) + labelOf(h).length);
    return lengths;
  };
  const codec = { stageId: 1, ttftP50Ms: 0, prefillP50Ms: null, queuedP50Ms: 1250.4, n: 18, ttftNotRecorded: true };
  const oneOutput = {
    stageId: 0,
    ttftP50Ms: 1109.4,
    prefillP50Ms: null,
    prefillDecodeP50Ms: 1106.2,
    queuedP50Ms: 0.41,
    n: 6,
    ttftNotRecorded: false,
  };
  // Stages from the base config: their hints are after base_config, each named; the line's first
  // is shown whole, within 43, with every number in its tooltip.
  const inherited = path.join(FIXTURES, 'qwen3_tts_high_concurrency_mrv2.yaml');
  const uri = await client.open(inherited);
  const show = async (numbers: LiveStageNumbers): Promise<InlayHint[]> => {
    const before = client.refreshRequests;
    await client.notify('stageLensTest/setStageNumbers', { deployConfig: inherited, numbers });
    await client.waitForRefreshes(before + 1);
    return (await client.inlayHints(uri)) ?? [];
  };
  const codecOnly = await show({ sessionLabel: 'launch', stages: [codec] });
  assert.deepEqual(
    codecOnly.map((h) => [h.position.line + 1, labelOf(h)]),
    [[2, 'stage 1: p50 queued 1.25 s']],
  );
  assert.match(
    tooltipOf(codecOnly[0]),
    /^stage 1: TTFT not recorded · queued p50 1,250 ms \(n=18\)\n\nMeasured in launch$/,
  );
  const short = await show({ sessionLabel: 'launch', stages: [{ ...codec, queuedP50Ms: 53 }] });
  assert.deepEqual(short.map(labelOf), ['stage 1: p50 queued 53 ms · TTFT unrecorded']);
  const talker = await show({ sessionLabel: 'launch', stages: [oneOutput, codec] });
  assert.deepEqual(talker.map(labelOf), ['stage 0: p50 prefill+decode 1.11 s']);
  assert.match(tooltipOf(talker[0]), /^stage 0: TTFT p50 1,109 ms · prefill\+decode \(one output\) p50 1,106 ms/);
  assert.match(tooltipOf(talker[0]), /Past the editor's inlay hint length on this line: stage 1: p50 queued 1\.25 s\n/);

  // Every real config with these numbers: no line's labels add up to more than the editor shows.
  let lines = 0;
  for (const name of FIXTURE_FILES) {
    const file = path.join(FIXTURES, name);
    const fileUri = await client.open(file);
    for (const stages of [[oneOutput, codec], [{ ...codec, stageId: 0 }, codec], NUMBERS.stages]) {
      const before = client.refreshRequests;
      await client.notify('stageLensTest/setStageNumbers', {
        deployConfig: file,
        numbers: { sessionLabel: 'launch', stages },
      });
      await client.waitForRefreshes(before + 1);
      const hints = (await client.inlayHints(fileUri)) ?? [];
      for (const [line, length] of lineLengths(hints)) {
        assert.ok(length <= 43, `${name}:${line + 1}: ${hints.map(labelOf).join(' | ')}`);
        lines++;
      }
    }
    await client.notify('stageLensTest/setStageNumbers', { deployConfig: file, numbers: null });
  }
  assert.ok(lines >= 20, String(lines));
});

test('code lenses: launch at the top, latency per stage (inherited stages on base_config)', async () => {
  const file = path.join(FIXTURES, 'qwen3_tts_mrv2.yaml');
  const uri = await client.open(file);
  const lenses = (await client.codeLenses(uri)) ?? [];
  assert.deepEqual(
    lenses.map((l) => [l.range.start.line + 1, l.command?.title, l.command?.command, l.command?.arguments]),
    [
      [1, 'Launch with this config', 'stageLens.launchWithDeployConfig', [uri]],
      [18, 'Latency Details for stage 0', 'stageLens.openLatencyView', [{ deployConfig: file, stageId: 0 }]],
      [
        4,
        'Latency Details for stage 1 (from base config)',
        'stageLens.openLatencyView',
        [{ deployConfig: file, stageId: 1 }],
      ],
    ],
  );
});

test('a quick fix over the connection, and an overlay re-checked when its unsaved base changes', async () => {
  const base = path.join(scratch, 'base.yaml');
  const overlay = path.join(scratch, 'overlay.yaml');
  const baseText = fs
    .readFileSync(path.join(FIXTURES, 'qwen3_tts.yaml'), 'utf8')
    .replace('      decode_batch_max_size: 4\n', '      decode_batch_max_size: 4\n      talker_first_audio: true\n');
  fs.writeFileSync(base, baseText);
  const overlayText = 'base_config: base.yaml\nasync_chunk: false\n';
  fs.writeFileSync(overlay, overlayText);
  const uri = await client.open(overlay);
  const diagnostics = await client.diagnostics(uri, 1);
  assert.deepEqual(
    diagnostics.map((d) => [d.code, d.range.start.line, d.source, d.severity]),
    [['tfa-async-chunk-off', 1, 'stage-lens', 2]],
  );
  assert.ok(
    messageOf(diagnostics[0]).includes(`set in base.yaml:${positionOf(baseText, 'talker_first_audio').line + 1} `),
  );
  assert.equal(diagnostics[0].relatedInformation?.[0].location.uri.endsWith('/base.yaml'), true);
  const actions = (await client.codeActions(uri, diagnostics[0].range, diagnostics)) ?? [];
  assert.deepEqual(
    actions.map((a) => [a.title, a.kind, a.isPreferred]),
    [['Set `async_chunk: true`', 'quickfix', true]],
  );
  assert.deepEqual(actions[0].edit?.changes?.[uri], [
    { range: { start: { line: 1, character: 13 }, end: { line: 1, character: 18 } }, newText: 'true' },
  ]);

  // the base, opened and edited without saving, turns the flag off: the overlay is clean
  const baseUri = await client.open(base);
  await client.diagnostics(baseUri, 1);
  const version = await client.change(
    baseUri,
    baseText.replace('talker_first_audio: true', 'talker_first_audio: false'),
  );
  assert.deepEqual(await client.diagnostics(baseUri, version), []);
  for (let i = 0; i < 50 && (await client.diagnostics(uri)).length > 0; i++)
    await new Promise((resolve) => setTimeout(resolve, 20));
  assert.deepEqual(await client.diagnostics(uri), []);
});

test('invalid YAML mid-edit: the error, then clean again once fixed', async () => {
  const file = path.join(scratch, 'editing.yaml');
  const text = fs.readFileSync(path.join(FIXTURES, 'qwen3_tts.yaml'), 'utf8');
  fs.writeFileSync(file, text);
  const uri = await client.open(file);
  assert.deepEqual(await client.diagnostics(uri, 1), []);
  const broken = text.replace(
    '    max_num_seqs: 64\n    gpu_memory_utilization: 0.3\n    trust_remote_code: true',
    '    max_num_seqs: [64\n    gpu_memory_utilization: 0.3\n    trust_remote_code: true',
  );
  let version = await client.change(uri, broken);
  const found = await client.diagnostics(uri, version);
  assert.ok(found.length >= 1);
  assert.deepEqual(
    [found[0].code, found[0].severity, found[0].range.start.line],
    ['yaml-syntax', 1, positionOf(text, 'max_num_seqs: 64').line + 1],
  );
  // hover still answers on the part before the error
  assert.match(
    hoverText(await client.hover(uri, positionOf(broken, 'async_chunk: true', 2))),
    /^\*\*`async_chunk`\*\*/,
  );
  version = await client.change(uri, text);
  assert.deepEqual(await client.diagnostics(uri, version), []);
});

test('a stage without stage_id is an error (the server fails to start), a misplaced key a warning', async () => {
  const file = path.join(scratch, 'no-stage-id.yaml');
  const text = fs
    .readFileSync(path.join(FIXTURES, 'qwen3_tts.yaml'), 'utf8')
    .replace(
      '  - stage_id: 1\n    # Tuned for Base voice clone; CustomVoice / VoiceDesign are TTFA-optimal at 1.\n    max_num_seqs: 64\n',
      '  - max_num_seqs: 64\n',
    )
    .replace('    trust_remote_code: true\n', '    trust_remote_code: true\n    codec_chunk_frames: 25\n');
  const uri = await client.open(file, text);
  const found = await client.diagnostics(uri, 1);
  const severityOf = (code: string): number | undefined => found.find((d) => d.code === code)?.severity;
  assert.deepEqual(
    [severityOf('missing-stage-id'), found.find((d) => d.code === 'missing-stage-id')?.range.start.line],
    [1, positionOf(text, '  - max_num_seqs: 64').line],
  );
  assert.equal(severityOf('misplaced-key'), 2);
});

test('tabs, anchors and aliases, several documents', async () => {
  const file = path.join(scratch, 'crafted.yaml');
  const text =
    'shared: &engine\n  max_num_seqs: 8\n  enable_prefix_caching: false\nstages:\n  - stage_id: 0\n    <<: *engine\n  - stage_id: 1\n    <<: *engine\n\tdevices: "0"\n---\nextra: doc\n';
  fs.writeFileSync(file, text);
  const uri = await client.open(file);
  const found = await client.diagnostics(uri, 1);
  assert.deepEqual(
    found.map((d) => [d.code, d.range.start.line + 1]),
    [
      ['yaml-syntax', 9],
      ['yaml-multiple-documents', 10],
    ],
  );
  const hover = hoverText(await client.hover(uri, positionOf(text, 'max_num_seqs', 2)));
  assert.match(hover, /^\*\*`max_num_seqs`\*\*/);
});

test('a 5,000-line config: exact diagnostics, hover, lenses', async () => {
  const big = bigDeployFile();
  const file = path.join(scratch, 'big.yaml');
  fs.writeFileSync(file, big.text);
  const uri = await client.open(file);
  const found = await client.diagnostics(uri, 1);
  assert.deepEqual(
    found.map((d) => [d.code, d.range.start.line + 1, d.message]),
    [
      [
        'unknown-key',
        big.typoLine,
        'Unknown key `max_num_seq` in a stage: did you mean `max_num_seqs`? It would be passed on unchanged, and nothing reads it.',
      ],
    ],
  );
  const actions = (await client.codeActions(uri, found[0].range, found)) ?? [];
  assert.deepEqual(
    actions.map((a) => a.title),
    ['Rename to `max_num_seqs`'],
  );
  const hover = hoverText(await client.hover(uri, positionOf(big.text, 'max_tokens', 2, 200)));
  assert.match(hover, /^\*\*`max_tokens`\*\*/);
  assert.equal(((await client.codeLenses(uri)) ?? []).length, big.stageCount + 1);
});

test('a 5,000-line config edited keystroke by keystroke (incremental sync): diagnostics and hovers follow', async () => {
  const big = bigDeployFile();
  const file = path.join(scratch, 'typed.yaml');
  fs.writeFileSync(file, big.text);
  const uri = await client.open(file);
  const typo = { line: big.typoLine - 1, character: 4 };
  assert.deepEqual(
    (await client.diagnostics(uri, 1)).map((d) => [d.code, d.range.start]),
    [['unknown-key', typo]],
  );
  const at = (line: number, character: number) => ({ start: { line, character }, end: { line, character } });

  // Enter at the end of line 2 and a half-typed key: the lines below move by one; the YAML
  // error is where it is typed, and past it the semantic checks are held back.
  let version = await client.edit(uri, at(1, 'model_runner: v2'.length), '\nx');
  assert.deepEqual(
    (await client.diagnostics(uri, version)).map((d) => [d.code, d.range.start.line]),
    [['yaml-syntax', 2]],
  );
  version = await client.edit(uri, at(2, 1), ':');
  assert.deepEqual(
    (await client.diagnostics(uri, version)).map((d) => [d.code, d.range.start.line]),
    [
      ['unknown-key', 2],
      ['unknown-key', big.typoLine],
    ],
  );
  // A hover far below the edit answers for the key that is there now.
  const moved = positionOf(big.text, 'max_tokens', 2, 250);
  const hover = await client.hover(uri, { line: moved.line + 1, character: moved.character });
  assert.match(hoverText(hover), /^\*\*`max_tokens`\*\*/);
  assert.deepEqual(hover?.range, {
    start: { line: moved.line + 1, character: 6 },
    end: { line: moved.line + 1, character: 16 },
  });
  // The typo fixed by typing the missing `s`: clean but for the new key.
  version = await client.edit(uri, at(big.typoLine, 'max_num_seq'.length + 4), 's');
  assert.deepEqual(
    (await client.diagnostics(uri, version)).map((d) => [d.code, d.range.start.line]),
    [['unknown-key', 2]],
  );
  // Undo the new line: as opened, but without the typo.
  version = await client.edit(
    uri,
    { start: { line: 1, character: 'model_runner: v2'.length }, end: { line: 2, character: 2 } },
    '',
  );
  assert.deepEqual(await client.diagnostics(uri, version), []);
  assert.equal(((await client.codeLenses(uri)) ?? []).length, big.stageCount + 1);
});
