// A phase with no number in a deploy config's hint tooltip, over a real connection
// (dist/server.js): named with why (not measured, hidden, not recorded), as the CLI's table and
// the side panel word it, never left out; a ready queued time inferred from a hidden row is the
// measured 0 the documented rule makes it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { SessionInfo } from '../../server/protocol';
import { deployServerForFile, FIXTURES, ROOT, positionOf, hintTooltip } from './support/lspDeployHarness';
import { waitFor } from './support/waitFor';

const deploy = deployServerForFile('stage-lens-deploy-no-number-');
const { scratch } = deploy;

const tooltip = hintTooltip;

async function stageTooltips(log: string, name: string): Promise<{ talker: string; codec: string }> {
  const yaml = path.join(scratch, name);
  fs.copyFileSync(path.join(FIXTURES, 'qwen3_tts.yaml'), yaml);
  const text = fs.readFileSync(yaml, 'utf8');
  const imported = await deploy.client.request<SessionInfo>('stageLens/import', {
    path: path.join(ROOT, 'test/fixtures', log),
    deployConfig: yaml,
  });
  // The import reads on after it answers: the hints are read once it has read to its end, so
  // their counts are the whole log's.
  await waitFor('the import read to its end', async () => {
    const sessions = await deploy.client.request<SessionInfo[]>('stageLens/listSessions', {});
    return sessions.find((s) => s.id === imported.id)?.status === 'exited' ? true : undefined;
  });
  const uri = await deploy.client.open(yaml);
  const at = async (line: number): Promise<string> =>
    waitFor('the stage measured', async () => {
      const hint = ((await deploy.client.inlayHints(uri)) ?? []).find((h) => h.position.line === line);
      const tip = hint === undefined ? '' : tooltip(hint);
      return tip.includes(imported.title) && /\(n=\d+\)/.test(tip) ? tip.split('\n\n')[0] : undefined;
    });
  return {
    talker: await at(positionOf(text, 'stage_id: 0').line),
    codec: await at(positionOf(text, 'stage_id: 1').line),
  };
}

test('the before-fix codec: its prefill None and its decode hidden are named in the hint tooltip', async () => {
  // As `stage-lens analyze` prints stage 1: not measured, hidden, not recorded.
  const { codec } = await stageTooltips('upstream-rendered/qwen3tts-talker-first-audio-before-fix.log', 'before.yaml');
  assert.equal(
    codec,
    'TTFT not recorded · prefill not measured · decode hidden · queued p50 94 ms (includes the wait for upstream input) (n=6)',
  );
});

test("a session that prints the input split: the talker's, None on stage 0, is named too", async () => {
  const { talker, codec } = await stageTooltips('logs/code2wav-ready-queued-inferred.log', 'split.yaml');
  assert.match(talker, / · queued p50 5.4 ms · input wait not measured · ready queued not measured \(n=8\)$/);
  assert.match(codec, / · input wait p50 67 ms · ready queued p50 0 ms \(n=8\)$/);
});
