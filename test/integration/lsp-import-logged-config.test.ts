// An imported log that names the deploy config its server loaded, over a real connection: the
// log is the simulator's (a real child process run with a deploy config), imported through the
// language server. Where that exact file exists and is a deploy config, the session is tied to it
// as imported with it (its name, its inlay hints); a path that does not exist here, or a relative
// one, ties nothing, and the session keeps what the log said.
import { waitFor } from './support/waitFor';
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { InlayHint } from 'vscode-languageserver-protocol';
import type { Finding, SessionInfo } from '../../server/protocol';
import { buildCli, DeployLspClient, FIXTURES, positionOf } from './support/lspDeployHarness';

let client: DeployLspClient;
let scratch: string;
let config: string;
let log: string;

before(async () => {
  const cli = buildCli();
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'stage-lens-logged-config-'));
  config = path.join(scratch, 'qwen3_tts.yaml');
  fs.copyFileSync(path.join(FIXTURES, 'qwen3_tts.yaml'), config);
  log = execFileSync(
    process.execPath,
    [
      cli,
      'simulate',
      '--deploy-config',
      config,
      '--debug-tables',
      '--requests',
      '4',
      '--speed',
      '200',
      '--seed',
      '1',
      '--port',
      '0',
      '--fixed-clock',
    ],
    { encoding: 'utf8' },
  );
  client = await DeployLspClient.start({ diagnosticsDelayMs: 0, storageDir: path.join(scratch, 'sessions') });
});

after(async () => {
  await client.stop();
  fs.rmSync(scratch, { recursive: true, force: true });
});

async function importLog(name: string, text: string): Promise<SessionInfo> {
  const file = path.join(scratch, name);
  fs.writeFileSync(file, text);
  const started = await client.request<SessionInfo>('stageLens/import', { path: file });
  return waitFor('the import to end', async () => {
    const info = (await client.request<SessionInfo[]>('stageLens/listSessions', {})).find((s) => s.id === started.id);
    return info?.status === 'exited' ? info : undefined;
  });
}

const labels = (hints: InlayHint[] | null): string[] =>
  (hints ?? []).map((h) => (typeof h.label === 'string' ? h.label : h.label.map((p) => p.value).join('')));

test('a log naming an existing deploy config is imported with it; a path not here ties nothing', async () => {
  assert.ok(log.includes(`Loaded deploy config from ${config}\n`), log.slice(0, 2000));

  const tied = await importLog('run-1.log', log);
  assert.equal(tied.deployConfig, config);
  assert.equal(tied.loggedDeployConfig, config);
  assert.equal(tied.requestCount, 4);
  assert.match(tied.title, /^run-1\.log · qwen3_tts\.yaml · logged /);
  // Its findings with the config's evidence, without matching it by hand.
  const findings = await client.request<Finding[]>('stageLens/findings', { sessionId: tied.id });
  const oneOutput = findings.find((f) => f.code === 'prefill-covers-decode');
  assert.match(
    oneOutput?.message ?? '',
    / The deploy config qwen3_tts\.yaml agrees: stage 0 runs with model_runner: v2 \(qwen3_tts\.yaml line \d+\)/,
  );
  // And its numbers after the config's stages, without matching it by hand.
  const uri = await client.open(config);
  const text = fs.readFileSync(config, 'utf8');
  const hints = await waitFor('hints from the imported log', async () => {
    const found = (await client.inlayHints(uri)) ?? [];
    return found.length >= 2 ? found : undefined;
  });
  assert.deepEqual(
    hints.slice(0, 1).map((h) => h.position.line),
    [positionOf(text, 'stage_id: 0').line],
  );
  assert.match(labels(hints)[0] ?? '', /^p50 /);

  // The same log as copied from a server whose path is not on this machine: not tied.
  const elsewhere = '/srv/vllm-omni/deploy/qwen3_tts.yaml';
  assert.ok(!fs.existsSync(elsewhere));
  const copied = await importLog('run-2.log', log.split(config).join(elsewhere));
  assert.equal(copied.deployConfig, null);
  assert.equal(copied.loggedDeployConfig, elsewhere);
  assert.doesNotMatch(copied.title, /qwen3_tts\.yaml/);
  // A relative path says nothing of where it was: not tied either.
  const relative = await importLog('run-3.log', log.split(config).join('qwen3_tts.yaml'));
  assert.equal(relative.deployConfig, null);
  assert.equal(relative.loggedDeployConfig, 'qwen3_tts.yaml');
  // The arguments as typed (relative), the loaded line absolute: the absolute one ties.
  const typed = await importLog(
    'run-5.log',
    log.replace(`'deploy_config': '${config}'`, "'deploy_config': 'qwen3_tts.yaml'"),
  );
  assert.equal(typed.deployConfig, config);
  assert.equal(typed.loggedDeployConfig, config);
  // A file that exists but is no deploy config: not tied.
  const notConfig = await importLog('run-4.log', log.split(config).join(path.join(scratch, 'run-1.log')));
  assert.equal(notConfig.deployConfig, null);
});
