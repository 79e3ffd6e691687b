// Start Demo Server with a deploy config open, end to end over a real connection: the language
// server launches the simulator with the argument vector the extension builds (src/demoArgs.ts)
// for the Qwen3-Omni deploy config, and the session is named by what the simulator runs there
// (the pipeline it infers from the file, the model it serves on /v1/models), not by the demo
// scenario setting it was not given.
import { waitFor } from './support/waitFor';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import type { SessionInfo, SummaryResult } from '../../server/protocol';
import { demoSimulatorArgv } from '../../src/demoArgs';
import { buildCli, deployServerForFile, FIXTURES } from './support/lspDeployHarness';
import { unusedPort } from './support/unusedPort';

const deploy = deployServerForFile('stage-lens-demo-title-');
const { scratch } = deploy;
const cli = buildCli();

test('the demo run with the Qwen3-Omni deploy config is titled by the Omni model and pipeline it serves', async () => {
  const file = path.join(FIXTURES, 'qwen3_omni_moe.yaml');
  const port = await unusedPort();
  // The demo scenario setting's default (cold-start, a TTS pipeline) does not fit the file: not passed.
  const argv = demoSimulatorArgv({
    node: process.execPath,
    cli,
    scenario: 'cold-start',
    rps: 20,
    port,
    deployConfig: file,
  });
  assert.ok(!argv.includes('--scenario'), argv.join(' '));
  const session = await deploy.client.request<SessionInfo>('stageLens/launch', {
    argv: [...argv, '--speed', '20'],
    cwd: scratch,
    deployConfig: file,
    metricsUrl: `http://127.0.0.1:${port}/metrics`,
  });
  try {
    assert.match(
      session.title,
      /^Qwen3-Omni-30B-A3B-Instruct \(demo, qwen3-omni\) · qwen3_omni_moe\.yaml · \w{3} \d+ \d\d:\d\d$/,
    );
    assert.equal(session.deployConfig, file);

    // What ran: the model the simulator serves, and its three stages.
    const models = await waitFor('the simulator serving /v1/models', async () => {
      try {
        const res = await fetch(`http://127.0.0.1:${port}/v1/models`);
        return res.ok ? ((await res.json()) as { data: { id: string }[] }) : undefined;
      } catch {
        return undefined;
      }
    });
    assert.deepEqual(
      models.data.map((m) => m.id),
      ['Qwen/Qwen3-Omni-30B-A3B-Instruct'],
    );
    const summary = await waitFor('requests of all three stages', async () => {
      const s = await deploy.client.request<SummaryResult>('stageLens/summary', { sessionId: session.id });
      return new Set(s.stages.map((st) => st.stageKey)).size === 3 ? s : undefined;
    });
    assert.deepEqual([...new Set(summary.stages.map((st) => st.stageKey))].sort(), ['0', '1', '2']);
    // The same name in the session list.
    const listed = await deploy.client.request<SessionInfo[]>('stageLens/listSessions', {});
    assert.equal(listed.find((s) => s.id === session.id)?.title, session.title);
  } finally {
    await deploy.client.request<SessionInfo>('stageLens/stop', { sessionId: session.id });
  }
});
