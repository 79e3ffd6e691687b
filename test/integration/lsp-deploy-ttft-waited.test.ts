// A downstream TTFT that waited for upstream output, over a real connection (dist/server.js):
// the hint after the stage's stage_id (and its inherited hint after base_config) marks it with
// the † the CLI's table and the side panel show, and its tooltip says what the mark means.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { InlayHint } from 'vscode-languageserver-protocol';
import type { SessionInfo } from '../../server/protocol';
import { TTFT_WAITED_TEXT } from '../../server/core/analysis/ttftUpstreamWait';
import { deployServerForFile, FIXTURES, ROOT, positionOf, hintTooltip, hintLabel } from './support/lspDeployHarness';
import { waitFor } from './support/waitFor';

const deploy = deployServerForFile('stage-lens-deploy-ttft-waited-');
const { scratch } = deploy;

const tooltip = hintTooltip;
const label = hintLabel;

async function numbersAt(uri: string, line: number, title: string): Promise<InlayHint> {
  return waitFor('the stage measured', async () => {
    const found = (await deploy.client.inlayHints(uri)) ?? [];
    const hint = found.find((h) => h.position.line === line && !label(h).startsWith('p99'));
    return hint !== undefined && tooltip(hint).includes(title) && tooltip(hint).includes('(n=6)') ? hint : undefined;
  });
}

test("a codec TTFT that includes the wait for the talker's first audio: marked † in the hint, explained in its tooltip", async () => {
  for (const name of ['qwen3_tts.yaml', 'qwen3_tts_mrv2.yaml'])
    fs.copyFileSync(path.join(FIXTURES, name), path.join(scratch, name));
  const base = path.join(scratch, 'qwen3_tts.yaml');
  const overlay = path.join(scratch, 'qwen3_tts_mrv2.yaml');
  const baseText = fs.readFileSync(base, 'utf8');
  const imported = await deploy.client.request<SessionInfo>('stageLens/import', {
    path: path.join(ROOT, 'test/fixtures/upstream-rendered/qwen3tts-talker-first-audio-after-fix.log'),
    deployConfig: base,
  });
  const baseUri = await deploy.client.open(base);
  // `stage-lens analyze` of the log prints stage 1's TTFT p50 as 148.1† (1 of 6 requests waited).
  const codec = await numbersAt(baseUri, positionOf(baseText, 'stage_id: 1').line, imported.title);
  assert.match(label(codec), /TTFT 148 ms†/);
  const lines = tooltip(codec).split('\n\n')[0]?.split('\n') ?? [];
  assert.match(lines[0] ?? '', /^TTFT p50 148 ms† · /);
  assert.equal(lines[1], `† ${TTFT_WAITED_TEXT}, on 1 of 6 requests.`);
  // Stage 0 is upstream of nothing: no mark.
  const talker = await numbersAt(baseUri, positionOf(baseText, 'stage_id: 0').line, imported.title);
  assert.doesNotMatch(label(talker) + tooltip(talker), /†/);

  // The overlay names its base's session through base_config: the inherited stage 1 hint is marked alike.
  await deploy.client.request<SessionInfo>('stageLens/import', {
    path: path.join(ROOT, 'test/fixtures/upstream-rendered/qwen3tts-talker-first-audio-after-fix.log'),
    deployConfig: overlay,
  });
  const overlayUri = await deploy.client.open(overlay);
  const inherited = await waitFor('the inherited stage measured', async () => {
    const found = (await deploy.client.inlayHints(overlayUri)) ?? [];
    return found.find((h) => label(h).startsWith('stage 1: ') && tooltip(h).includes('(n=6)'));
  });
  // With the "stage 1: " it needs after base_config the count has no room; the "p50" stays.
  assert.equal(label(inherited), 'stage 1: p50 decode 1.11 s · TTFT 148 ms†');
  assert.ok(tooltip(inherited).includes(`† ${TTFT_WAITED_TEXT}, on 1 of 6 requests.`), tooltip(inherited));
});
