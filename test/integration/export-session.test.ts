// Export Session over the real language-server connection (dist/server.js as a child
// process on stdio), in all three formats, compared with what the CLI (dist/cli.js, a
// child process too) prints for the same log: JSON and CSV byte for byte, the trace event
// for event; the traces are checked against the format's rules.
import { waitFor } from './support/waitFor';
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { buildServer, killLanguageServers, startLanguageServer } from './support/lspProcess';
import { unusedPort } from './support/unusedPort';
import { cliStdout as cli } from './support/cliProcess';
import { checkTrace } from '../unit/support/traceFormat';

const ROOT = path.resolve(__dirname, '..', '..');
const SAMPLE = path.join(ROOT, 'samples', 'qwen3-tts-first-audio-cold-start.log');
const storage = fs.mkdtempSync(path.join(os.tmpdir(), 'stage-lens-export-'));

before(() => buildServer());

after(() => {
  killLanguageServers();
  fs.rmSync(storage, { recursive: true, force: true });
});

/**
 * The JSON without the two members that say where its input came from (`stageRolesFrom`,
 * `deployConfig`): a session's export says the session, analyze says its file and flag; one line
 * each in the compact layout.
 */
function withoutInputMembers(json: string): string {
  return json.replace(/^"(stageRolesFrom|deployConfig)":.*\n/gm, '').replace(/,\n\}\n$/, '\n}\n');
}

test(
  'an imported log exports as JSON, CSV and trace exactly as `analyze` prints them',
  { timeout: 60_000 },
  async () => {
    const lsp = await startLanguageServer(storage);
    const imported = await lsp.request('stageLens/import', { path: SAMPLE });
    const session = await lsp.requestsRead(imported.id, 25);
    const written: Record<string, string> = {};
    for (const format of ['json', 'csv', 'trace'] as const) {
      const out = path.join(storage, `import.${format}`);
      const result = await lsp.request('stageLens/export', { sessionId: session.id, format, path: out });
      assert.equal(result.requestCount, 25);
      assert.equal(result.bytes, fs.statSync(out).size, `${format}: the reported size is the file's`);
      written[format] = fs.readFileSync(out, 'utf8');
    }
    const analyzed = cli(['analyze', SAMPLE, '--format', 'json']);
    assert.equal(
      withoutInputMembers(written['json']!),
      withoutInputMembers(analyzed),
      'JSON: the schema and bytes of analyze --format json',
    );
    // Where the input came from: the session's roles, no deploy config; analyze's from the model the log serves.
    const inputOf = (json: string) => {
      const { stageRolesFrom, deployConfig } = JSON.parse(json) as Record<string, unknown>;
      return { stageRolesFrom, deployConfig };
    };
    const none = { path: null, from: 'none', cited: false, problem: null };
    assert.deepEqual(inputOf(written['json']!), { stageRolesFrom: 'session', deployConfig: none });
    assert.deepEqual(inputOf(analyzed), { stageRolesFrom: 'servedModel', deployConfig: none });
    assert.equal(written['csv'], cli(['analyze', SAMPLE, '--format', 'csv']), 'CSV: the bytes of analyze --format csv');

    const fromSession = checkTrace(written['trace']!);
    const fromCli = checkTrace(cli(['analyze', SAMPLE, '--format', 'trace']));
    assert.deepEqual(fromSession.errors, []);
    assert.deepEqual(fromCli.errors, []);
    assert.deepEqual(fromSession.slices, fromCli.slices, 'the same slices from the session and from the CLI');
    // The log's name says the pipeline (Qwen3-TTS): both name the stage tracks with their roles.
    assert.deepEqual(
      [...fromSession.processNames.values()],
      ['requests (E2E)', 'stage 0 · talker', 'stage 1 · code2wav'],
    );
    assert.deepEqual([...fromCli.processNames.values()], [...fromSession.processNames.values()]);
    assert.equal(fromSession.metadata?.['source'], `import: ${SAMPLE}`);
    // 25 requests x (e2e + stage 0 with queued, prefill + stage 1 with input wait, ready queued).
    assert.equal(fromSession.slices.length, 25 * 7);
    const stage1 = fromSession.slices.filter((s) => s.pid === 3);
    assert.ok(
      stage1.every((s) => s.args['provenance'] === 'reconstructed' || s.depth > 0),
      'codec placement is reconstructed',
    );
    assert.ok(
      !stage1.some((s) => s.name === 'prefill' || s.name === 'decode'),
      'no slice for the codec prefill (None) or decode (hidden)',
    );

    await assert.rejects(
      lsp.request('stageLens/export', {
        sessionId: session.id,
        format: 'xml' as 'json',
        path: path.join(storage, 'x.xml'),
      }),
      /unknown export format 'xml'/,
    );
    lsp.child.kill('SIGTERM');
  },
);

test(
  'a log imported with its deploy config exports the findings citing the config, as the views show them and `analyze --deploy-config` prints them',
  { timeout: 60_000 },
  async () => {
    const log = path.join(ROOT, 'test', 'fixtures', 'upstream-rendered', 'qwen3tts-talker-first-audio-before-fix.log');
    const yaml = path.join(ROOT, 'test', 'fixtures', 'deploy', 'qwen3_tts_high_concurrency_mrv2_single_gpu.yaml');
    const lsp = await startLanguageServer(storage);
    const imported = await lsp.request('stageLens/import', { path: log, deployConfig: yaml });
    const session = await lsp.requestsRead(imported.id, 6);
    const out = path.join(storage, 'with-config.json');
    await lsp.request('stageLens/export', { sessionId: session.id, format: 'json', path: out });
    const written = fs.readFileSync(out, 'utf8');
    assert.equal(
      withoutInputMembers(written),
      withoutInputMembers(cli(['analyze', log, '--format', 'json', '--deploy-config', yaml])),
    );
    // The config is the session's, and cited.
    assert.deepEqual((JSON.parse(written) as { deployConfig: unknown }).deployConfig, {
      path: yaml,
      from: 'session',
      cited: true,
      problem: null,
    });
    // What the side panel's findings say of this session: the config's settings, with their lines.
    const shown = await lsp.request('stageLens/findings', { sessionId: session.id });
    const exported = (JSON.parse(written) as { findings: { code: string; message: string }[] }).findings;
    const cites = (m: string): boolean => /The deploy config qwen3_tts_high_concurrency_mrv2_single_gpu\.yaml/.test(m);
    assert.ok(
      exported.some((f) => f.code === 'prefill-covers-decode' && cites(f.message)),
      JSON.stringify(exported),
    );
    assert.deepEqual(
      exported.filter((f) => cites(f.message)).map((f) => f.code),
      shown.filter((f) => cites(f.message)).map((f) => f.code),
    );
    lsp.child.kill('SIGTERM');
  },
);

test('a live simulator session with a /metrics scrape exports in all three formats', { timeout: 90_000 }, async () => {
  const port = await unusedPort();
  const lsp = await startLanguageServer(storage);
  const argv = [
    process.execPath,
    path.join(ROOT, 'dist', 'cli.js'),
    'simulate',
    '--scenario',
    'qwen3-omni',
    '--debug-tables',
    '--requests',
    '10',
    '--rps',
    '20',
    '--speed',
    '10',
    '--seed',
    '3',
    '--port',
    String(port),
    '--linger',
  ];
  const launched = await lsp.request('stageLens/launch', {
    argv,
    cwd: ROOT,
    metricsUrl: `http://127.0.0.1:${port}/metrics`,
  });
  const session = await lsp.requestsRead(launched.id, 10);
  await waitFor('a scrape', async () =>
    (await lsp.request('stageLens/summary', { sessionId: session.id })).histograms.length > 0 ? true : undefined,
  );

  const out = (format: string): string => path.join(storage, `live.${format}`);
  for (const format of ['json', 'csv', 'trace'] as const)
    await lsp.request('stageLens/export', { sessionId: session.id, format, path: out(format) });

  const json = JSON.parse(fs.readFileSync(out('json'), 'utf8')) as Record<string, unknown> & {
    requests: unknown[];
    histograms: unknown[];
  };
  const cliKeys = Object.keys(JSON.parse(cli(['analyze', SAMPLE, '--format', 'json'])) as object);
  assert.deepEqual(Object.keys(json), cliKeys, 'the top-level schema of analyze --format json');
  assert.equal(json.requests.length, 10);
  assert.ok(json.histograms.length > 0, 'the scrape rows are in the JSON export');
  const csv = fs.readFileSync(out('csv'), 'utf8').trim().split('\n');
  assert.equal(
    csv[0],
    cli(['analyze', SAMPLE, '--format', 'csv']).split('\n')[0],
    'the CSV header of analyze --format csv',
  );
  const kinds = csv.slice(1).map((row) => row.split(',')[7]);
  assert.equal(
    kinds.filter((k) => k === 'transfer').length,
    10 * 2,
    'one row per request and transfer edge (0->1, 1->2)',
  );
  assert.equal(kinds.length - 10 * 2, 10 * 3, 'one row per request and stage (3 stages)');

  const trace = checkTrace(fs.readFileSync(out('trace'), 'utf8'));
  assert.deepEqual(trace.errors, []);
  // The launch names the pipeline (the simulator's Qwen3-Omni scenario): tracks carry the stages' roles.
  assert.deepEqual(
    [...trace.processNames.values()],
    ['requests (E2E)', 'stage 0 · thinker', 'stage 1 · talker', 'stage 2 · code2wav'],
  );
  for (const [pid, names] of trace.asyncTrackNames) assert.equal(names.size, 1, `one track in pid ${pid}`);
  assert.equal(trace.slices.filter((s) => s.name === 'e2e').length, 10);
  assert.equal(
    (trace.metadata?.['clock'] as { basis: string }).basis,
    'log-timestamp',
    'the simulator stamps its lines: the log is the clock',
  );
  await lsp.request('stageLens/stop', { sessionId: session.id });
  lsp.child.kill('SIGTERM');
});
