// The deploy config a server log says it loaded: read from vLLM's non-default args line and
// vLLM-Omni's "Loaded deploy config from" line (colour codes and all), as a record of its own;
// a hostile or cut line yields no path and never throws, in time linear in its length.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseLogText } from '../../server/core/log';
import { deployConfigLineOf, MAX_DEPLOY_CONFIG_PATH } from '../../server/core/log/deployConfigLine';
import type { DeployConfigRecord, ServedModelRecord } from '../../server/core/records';
import { pyStrRepr } from '../../server/simulate/pyFormat';

const ESC = '\u001b';
// The start of a server log as `vllm serve … --omni --deploy-config …` prints it with colour.
const STARTUP = [
  `${ESC}[1;36m(APIServer pid=10320)${ESC}[0;0m ${ESC}[32mINFO${ESC}[0m ${ESC}[90m12-04 19:09:37 [api_server.py:1805]${ESC}[0m vLLM API server version 0.31.0`,
  `${ESC}[1;36m(APIServer pid=10320)${ESC}[0;0m ${ESC}[32mINFO${ESC}[0m ${ESC}[90m12-04 19:09:37 [utils.py:326]${ESC}[0m non-default args: {'model_tag': 'Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice', 'host': '127.0.0.1', 'port': 8000, 'model': 'Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice', 'omni': True, 'log_stats': True, 'deploy_config': '/srv/deploy/qwen3_tts.yaml'}`,
  `${ESC}[1;36m(APIServer pid=10320)${ESC}[0;0m ${ESC}[32mINFO${ESC}[0m ${ESC}[90m12-04 19:09:37 [stage_config.py:588]${ESC}[0m Loaded deploy config from /srv/deploy/qwen3_tts.yaml`,
  `${ESC}[1;36m(APIServer pid=10320)${ESC}[0;0m ${ESC}[32mINFO${ESC}[0m ${ESC}[90m12-04 19:09:37 [omni.py:412]${ESC}[0m [Orchestrator] Initializing 2 stages (async_chunk=True)`,
].join('\n');

const deployRecords = (text: string): DeployConfigRecord[] =>
  parseLogText(text).records.filter((r): r is DeployConfigRecord => r.kind === 'deployConfig');

test('the deploy config a server log names at start-up, from both lines', () => {
  const records = deployRecords(`${STARTUP}\n`);
  assert.deepEqual(
    records.map((r) => [r.line, r.path, r.from, r.header?.process]),
    [
      [2, '/srv/deploy/qwen3_tts.yaml', 'args', 'APIServer pid=10320'],
      [3, '/srv/deploy/qwen3_tts.yaml', 'loaded', 'APIServer pid=10320'],
    ],
  );
  // Without a prefix, relative as the server was given it, and a Windows path in its repr.
  assert.deepEqual(
    deployRecords('Loaded deploy config from vllm_omni/deploy/qwen3_omni_moe.yaml  \n').map((r) => r.path),
    ['vllm_omni/deploy/qwen3_omni_moe.yaml'],
  );
  assert.deepEqual(deployConfigLineOf(String.raw`non-default args: {'deploy_config': 'C:\\deploy\\glm_image.yaml'}`), {
    path: String.raw`C:\deploy\glm_image.yaml`,
    from: 'args',
  });
  // Python's repr of a path with a quote in it uses the other quote.
  assert.equal(deployConfigLineOf(`non-default args: {'deploy_config': "/srv/it's.yaml"}`)?.path, "/srv/it's.yaml");
  // Another server's arguments without one: no record.
  assert.equal(
    deployConfigLineOf("non-default args: {'model': 'Qwen/Qwen3-Omni-30B-A3B-Instruct', 'omni': True}"),
    null,
  );
});

test("any path as Python's repr prints it in the args line reads back as that path (one with a control character as none)", () => {
  for (const p of [
    "/srv/it's.yaml",
    `/srv/"both'.yaml`,
    String.raw`C:\deploy\x.yaml`,
    '/srv/tab\there.yaml',
    "/srv/a', 'deploy_config': '/etc/other.yaml",
  ]) {
    const line = `non-default args: {'model': 'm', 'deploy_config': ${pyStrRepr(p)}, 'omni': True}`;
    assert.equal(deployConfigLineOf(line)?.path, p.includes('\t') ? undefined : p, line);
  }
});

test('hostile and cut lines name no deploy config, quickly', () => {
  assert.equal(deployConfigLineOf("non-default args: {'deploy_config': '/srv/cut-off"), null);
  assert.equal(deployConfigLineOf("non-default args: {'deploy_config': None}"), null);
  assert.equal(deployConfigLineOf('Loaded deploy config from    '), null);
  assert.equal(deployConfigLineOf(`Loaded deploy config from /a\u0000b`), null);
  assert.equal(deployConfigLineOf(`Loaded deploy config from /${'a'.repeat(MAX_DEPLOY_CONFIG_PATH)}`), null);
  // Megabytes of backslashes, quotes and repeated keys: linear, no record.
  const started = performance.now();
  const hostile = [
    `non-default args: {'deploy_config': '${'\\'.repeat(1_000_001)}`,
    `non-default args: {${"'deploy_config': ".repeat(100_000)}`,
    `Loaded deploy config from ${'Loaded deploy config from '.repeat(50_000)}`,
  ];
  for (const line of hostile) assert.doesNotThrow(() => deployRecords(`${line}\n`));
  assert.deepEqual(deployRecords(`${hostile[0]}\n${hostile[2]}\n`), []);
  assert.ok(performance.now() - started < 2000, `${performance.now() - started} ms`);
});

test('the model a server log says it serves, from its non-default args, as a record of its own', () => {
  const served = parseLogText(`${STARTUP}\n`).records.filter((r): r is ServedModelRecord => r.kind === 'servedModel');
  assert.deepEqual(
    served.map((r) => [r.line, r.model]),
    [[2, 'Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice']],
  );
  // The args line still names its deploy config.
  assert.equal(deployRecords(`${STARTUP}\n`)[0]?.path, '/srv/deploy/qwen3_tts.yaml');
});
