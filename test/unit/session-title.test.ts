// Sessions are named for people by what was served, the deploy file and the start time,
// never by the raw command line (which stays the description); an imported log by its file and
// its log span, never its import time, with an ordinal from its second import.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import * as path from 'node:path';
import { sessionTitle, startTimeLabel, withTitle } from '../../server/capture/sessionTitle';
import type { SessionMeta } from '../../server/capture/sessionFiles';
import type { SessionInfo, SessionSourceKind } from '../../server/protocol';

const at = new Date(2026, 11, 1, 14, 2, 59).getTime();

function info(kind: SessionSourceKind, description: string, deployConfig: string | null = null): SessionInfo {
  return {
    id: `${kind}-1`,
    kind,
    description,
    title: '',
    startedAt: at,
    status: 'running',
    requestCount: 0,
    deployConfig,
    lastError: null,
    exit: null,
    problemCount: 0,
  };
}

describe('session titles', () => {
  test('a start time that reads the same on every machine', () => {
    assert.equal(startTimeLabel(at), 'Dec 1 14:02');
    assert.equal(startTimeLabel(new Date(2027, 0, 9, 7, 5).getTime()), 'Jan 9 07:05');
  });

  test('a launched vLLM-Omni server: model, deploy file, start time', () => {
    const argv = [
      'vllm',
      'serve',
      'Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice',
      '--omni',
      '--deploy-config',
      '/work/configs/qwen3_tts.yaml',
      '--log-stats',
      '--port',
      '8000',
    ];
    const meta: SessionMeta = {
      info: info('launch', argv.join(' '), '/work/configs/qwen3_tts.yaml'),
      launch: { argv, cwd: '/work' },
    };
    assert.equal(sessionTitle(meta), 'Qwen3-TTS-12Hz-1.7B-CustomVoice · qwen3_tts.yaml · Dec 1 14:02');
    // --model and --deploy-config=..., a deploy file not matched yet
    const other = [
      'python',
      '-m',
      'vllm_omni.entrypoints.api_server',
      '--model=/models/glm-image/',
      '--deploy-config=glm_image.yaml',
    ];
    assert.equal(
      sessionTitle({ info: info('launch', other.join(' ')), launch: { argv: other, cwd: '/' } }),
      'glm-image · glm_image.yaml · Dec 1 14:02',
    );
    // nothing known but the program
    const bare = ['/opt/bin/my-server', '--port', '9000'];
    assert.equal(
      sessionTitle({ info: info('launch', bare.join(' ')), launch: { argv: bare, cwd: '/' } }),
      'my-server · Dec 1 14:02',
    );
  });

  test('the demo names the model it simulates and its scenario, never the command line', () => {
    const argv = [
      '/usr/bin/node',
      '/ext/dist/cli.js',
      'simulate',
      '--scenario',
      'cold-start',
      '--talker-first-audio',
      '--port',
      '40123',
    ];
    const title = sessionTitle({
      info: info('launch', argv.join(' '), '/ws/deploy/qwen3_tts.yaml'),
      launch: { argv, cwd: '/ext' },
    });
    assert.equal(title, 'Qwen3-TTS-12Hz-1.7B-CustomVoice (demo, cold-start) · qwen3_tts.yaml · Dec 1 14:02');
    assert.doesNotMatch(title, /cli\.js|simulate|node/);
  });

  test('the demo run with a deploy config: the model and pipeline the simulator runs it as', () => {
    const deploy = path.resolve(__dirname, '..', 'fixtures', 'deploy');
    const titled = (args: string[], cwd: string): string =>
      sessionTitle({
        info: info('launch', args.join(' ')),
        launch: { argv: ['/usr/bin/node', '/ext/dist/cli.js', 'simulate', ...args], cwd },
      });
    // No --scenario: the pipeline from the file (relative to where the simulator runs), not qwen3-tts.
    assert.equal(
      titled(['--deploy-config', 'qwen3_omni_moe.yaml', '--port', '40123'], deploy),
      'Qwen3-Omni-30B-A3B-Instruct (demo, qwen3-omni) · qwen3_omni_moe.yaml · Dec 1 14:02',
    );
    assert.equal(
      titled([`--deploy-config=${path.join(deploy, 'glm_image.yaml')}`], '/'),
      'GLM-Image (demo, glm-image) · glm_image.yaml · Dec 1 14:02',
    );
    // A simulator that would not start (no such file) claims no model.
    assert.equal(titled(['--deploy-config', 'missing.yaml'], deploy), 'demo simulator · missing.yaml · Dec 1 14:02');
  });

  test('logs, imports, scrapes, attached processes and Prometheus by what they read', () => {
    assert.equal(
      sessionTitle({
        info: info('tail', '/var/log/vllm/server.log'),
        tail: { path: '/var/log/vllm/server.log', fromStart: true },
      }),
      'log server.log · Dec 1 14:02',
    );
    assert.equal(
      sessionTitle({
        info: info('import', '/data/run-42.log', '/ws/qwen3_omni_moe.yaml'),
        import: { path: '/data/run-42.log' },
      }),
      'run-42.log · qwen3_omni_moe.yaml',
    );
    assert.equal(
      sessionTitle({
        info: info('scrape', 'http://10.0.0.5:8000/metrics'),
        scrape: { url: 'http://10.0.0.5:8000/metrics' },
      }),
      '/metrics of 10.0.0.5:8000 · Dec 1 14:02',
    );
    assert.equal(sessionTitle({ info: info('attach', 'pid 4242') }), 'pid 4242 · Dec 1 14:02');
    assert.equal(
      sessionTitle({ info: info('prometheus', 'http://prom:9090 · job="tts"') }),
      'Prometheus http://prom:9090 · job="tts" · Dec 1 14:02',
    );
  });

  test('a session matched to a deploy file later takes its name; metadata saved without a title gets one', () => {
    const stored = info('tail', '/var/log/a.log');
    const { title: _none, ...old } = stored;
    const titled = withTitle(
      { tail: { path: '/var/log/a.log', fromStart: true } },
      { ...old, deployConfig: '/ws/qwen3_tts.yaml' },
    );
    assert.equal(titled.title, 'log a.log · qwen3_tts.yaml · Dec 1 14:02');
    assert.equal(titled.description, '/var/log/a.log');
  });

  test('an imported log: its file, its log span once read, its ordinal from the second import; no import time, no "imported"', () => {
    const log = (extra: Partial<SessionInfo>): SessionMeta => ({
      info: { ...info('import', '/data/a/run-42.log', '/ws/qwen3_tts.yaml'), status: 'exited', ...extra },
      import: { path: '/data/a/run-42.log', deployConfig: '/ws/qwen3_tts.yaml' },
    });
    assert.equal(sessionTitle(log({ logSpan: null })), 'run-42.log · qwen3_tts.yaml');
    const span = { first: '10-19 07:12:04', last: '10-19 07:12:12' };
    assert.equal(
      sessionTitle(log({ logSpan: span })),
      'run-42.log · qwen3_tts.yaml · logged 10-19 07:12:04 – 07:12:12',
    );
    assert.equal(
      sessionTitle(log({ logSpan: span, importOrdinal: 2 })),
      'run-42.log (2) · qwen3_tts.yaml · logged 10-19 07:12:04 – 07:12:12',
    );
    // Over midnight the last timestamp keeps its day.
    assert.equal(
      sessionTitle(log({ logSpan: { first: '12-31 23:59:58', last: '01-01 00:00:03' }, deployConfig: null })),
      'run-42.log · logged 12-31 23:59:58 – 01-01 00:00:03',
    );
    for (const title of [sessionTitle(log({ logSpan: span })), sessionTitle(log({ importOrdinal: 3 }))]) {
      assert.doesNotMatch(title, /imported|Dec 1|14:02/);
    }
  });
});
