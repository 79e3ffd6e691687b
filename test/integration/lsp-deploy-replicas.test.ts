// A deploy config whose stage 1 runs on two replicas, over a real connection (dist/server.js):
// the hover of the stage's numbers lists each replica's p50s under the stage's, as the CLI's
// table prints a row per replica under such a stage; the inlay label stays the stage's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { InlayHint } from 'vscode-languageserver-protocol';
import type { SessionInfo } from '../../server/protocol';
import { deployServerForFile, FIXTURES, ROOT, positionOf, hintTooltip, hintLabel } from './support/lspDeployHarness';
import { waitFor } from './support/waitFor';

const deploy = deployServerForFile('stage-lens-deploy-replicas-');
const { scratch } = deploy;

const tooltip = hintTooltip;
const label = hintLabel;

test("a stage on two replicas: its hover lists each replica's p50s, its label is the stage's", async () => {
  // The config the log's simulator ran (its first line): stage 1 with num_replicas: 2.
  const yaml = path.join(scratch, 'qwen3_tts_replicas.yaml');
  const text = fs
    .readFileSync(path.join(FIXTURES, 'qwen3_tts_high_concurrency.yaml'), 'utf8')
    .replace(/(\n {2}- stage_id: 1\n)/, '$1    num_replicas: 2\n');
  assert.ok(text.includes('num_replicas: 2'));
  fs.writeFileSync(yaml, text);
  const uri = await deploy.client.open(yaml);
  const imported = await deploy.client.request<SessionInfo>('stageLens/import', {
    path: path.join(ROOT, 'test/fixtures/logs/codec-two-replicas.log'),
    deployConfig: yaml,
  });
  const stage0 = positionOf(text, 'stage_id: 0').line;
  const stage1 = positionOf(text, 'stage_id: 1').line;
  const at = (line: number, hints: InlayHint[]): InlayHint | undefined =>
    hints.find((h) => h.position.line === line && !label(h).startsWith('p99'));
  // Read to its end: all 8 requests.
  const hints = await waitFor('the stages measured', async () => {
    const found = (await deploy.client.inlayHints(uri)) ?? [];
    const hint = at(stage1, found);
    return hint !== undefined && tooltip(hint).includes(imported.title) && tooltip(hint).includes('(n=8)')
      ? found
      : undefined;
  });
  const codec = at(stage1, hints) as InlayHint;
  // As `stage-lens analyze` prints stage 1 and its replicas (replica 0: TTFT 82.74, prefill 4.587,
  // decode 508.3, input wait 73.63, ready queued 3.690; replica 1: 82.01, 3.971, 789.0, 77.63,
  // 0.000), to the hover's precision: the codec's queued time by its split, never "queued".
  assert.deepEqual(tooltip(codec).split('\n\n')[0]?.split('\n'), [
    'TTFT p50 83 ms · prefill p50 4.2 ms · decode p50 508 ms · input wait p50 76 ms · ready queued p50 0 ms (n=8)',
    'replica 0: TTFT p50 83 ms · prefill p50 4.6 ms · decode p50 508 ms · input wait p50 74 ms · ready queued p50 3.7 ms (n=4)',
    'replica 1: TTFT p50 82 ms · prefill p50 4 ms · decode p50 789 ms · input wait p50 78 ms · ready queued p50 0 ms (n=4)',
  ]);
  assert.doesNotMatch(label(codec), /replica \d/);
  // Stage 0 ran on one replica: no replica lines.
  assert.deepEqual(
    tooltip(at(stage0, hints) as InlayHint)
      .split('\n\n')[0]
      ?.split('\n'),
    // Its input split is None (stage 0 has no input gate), named as the CLI's table names it.
    [
      'TTFT p50 597 ms · prefill+decode (one output) p50 588 ms · queued p50 8.4 ms · input wait not measured · ready queued not measured (n=8)',
    ],
  );
});
