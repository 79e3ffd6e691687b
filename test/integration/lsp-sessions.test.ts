// The capture backend end to end over a real connection: the language server
// (dist/server.js, a real child process on stdio) launches the simulator (a real child
// process serving real HTTP /metrics), captures and analyses it, persists it, is killed
// with SIGKILL, and a new server process brings every captured request back.
import { waitFor } from './support/waitFor';
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { listServingProcesses } from '../../server/capture/servingProcesses';
import { killLanguageServers, startLanguageServer } from './support/lspProcess';
import { unusedPort } from './support/unusedPort';

const ROOT = path.resolve(__dirname, '..', '..');
const storage = fs.mkdtempSync(path.join(os.tmpdir(), 'stage-lens-lsp-'));

const simulatorPorts: number[] = [];

after(() => {
  killLanguageServers();
  // A SIGKILLed language server cannot stop the simulator it launched: find it in /proc.
  const procs = listServingProcesses();
  for (const p of procs) if (p.port !== null && simulatorPorts.includes(p.port)) process.kill(p.pid, 'SIGKILL');
  if (process.env['KEEP_STORAGE'] === undefined) fs.rmSync(storage, { recursive: true, force: true });
  else console.log('storage kept at', storage);
});

test(
  'launch the simulator through the language server, analyse it live, survive a server kill',
  { timeout: 90_000 },
  async () => {
    const port = await unusedPort();
    simulatorPorts.push(port);
    const first = await startLanguageServer(storage);
    const argv = [
      process.execPath,
      path.join(ROOT, 'dist', 'cli.js'),
      'simulate',
      '--scenario',
      'cold-start',
      '--cold-start-ms',
      '3000',
      '--talker-first-audio',
      '--stats-build',
      'before-fix',
      '--debug-tables',
      '--requests',
      '12',
      '--rps',
      '20',
      '--speed',
      '10',
      '--seed',
      '7',
      '--port',
      String(port),
      '--linger',
    ];
    const launched = await first.request('stageLens/launch', {
      argv,
      cwd: ROOT,
      metricsUrl: `http://127.0.0.1:${port}/metrics`,
    });
    assert.equal(launched.kind, 'launch');
    assert.match(launched.description, /simulate --scenario cold-start/);

    const done = await first.requestsRead(launched.id, 12);
    assert.equal(done.requestCount, 12);
    assert.equal(done.status, 'running', '--linger keeps the server up');

    // Notifications are throttled: never more than 4 in any one second (+1 for the trailing edge).
    const times = first.changes.filter((c) => c.session.id === launched.id).map((c) => c.at);
    assert.ok(times.length >= 2, 'notifications arrived');
    for (let i = 0; i < times.length; i++) {
      const inWindow = times.filter((t) => t >= times[i] && t < times[i] + 1000).length;
      assert.ok(inWindow <= 5, `at most 4-5 notifications per second, saw ${inWindow}`);
    }

    const summary = await first.request('stageLens/summary', { sessionId: launched.id });
    const codec = summary.stages.find((s) => s.stageKey === '1');
    assert.equal(codec?.requestCount, 12);
    assert.equal(codec?.splitStates.ttftMs.notRecorded, 12, 'codec TTFT signature on every request (before-fix build)');
    assert.equal(codec?.split.ttftMs, undefined, 'no TTFT distribution made of zeros');
    assert.ok((codec?.split.inputWaitMs?.max ?? 0) > 2500, 'the cold request waited for the stage-0 JIT build');
    const ttftFinding = summary.findings.find((f) => f.code === 'ttft-not-recorded');
    assert.equal(ttftFinding?.requestIds.length, 12);
    const cold = summary.findings.find((f) => f.code === 'cold-start');
    assert.equal(cold?.requestIds.length, 1);

    // Sorted server-side: the cold request has the largest codec input wait.
    const page = await first.request('stageLens/requests', {
      sessionId: launched.id,
      offset: 0,
      limit: 5,
      sortBy: '1.inputWaitMs',
      descending: true,
    });
    assert.equal(page.total, 12);
    assert.equal(page.requests.length, 5);
    assert.equal(page.requests[0]?.requestId, cold?.requestIds[0]);
    assert.equal(page.requests[0]?.cold, true);

    const detail = await first.request('stageLens/request', {
      sessionId: launched.id,
      requestId: page.requests[1]!.requestId,
    });
    assert.ok(detail !== null);
    const phases = detail.timeline.filter((s) => s.stageKey === '1').map((s) => s.phase);
    assert.ok(
      phases.includes('inputWait') && phases.includes('stage'),
      `codec waterfall has input wait and the stage bar: ${phases.join(',')}`,
    );
    assert.ok(
      detail.timeline.filter((s) => s.stageKey === '1').every((s) => s.provenance === 'reconstructed'),
      'codec TTFT not recorded: its placement is reconstructed, never shown as measured',
    );

    // The scrape of the simulator's real /metrics arrives within a couple of intervals.
    // (--linger freezes the simulator's /metrics after the 12th request, so a later scrape holds all 12.)
    const ttftHist = await waitFor('a /metrics scrape with all 12 requests', async () => {
      const s = await first.request('stageLens/summary', { sessionId: launched.id });
      const h = s.histograms.find((x) => x.family === 'vllm:time_to_first_token_seconds' && x.labels['stage'] === '0');
      return h !== undefined && h.count === 12 ? h : undefined;
    });
    assert.ok(ttftHist.p50 !== null && ttftHist.p50 > 0);
    const codecTtft = (await first.request('stageLens/summary', { sessionId: launched.id })).histograms.find(
      (x) => x.family === 'vllm:time_to_first_token_seconds' && x.labels['stage'] === '1',
    );
    assert.equal(codecTtft?.count ?? 0, 0, 'before-fix: no TTFT sample for the codec in /metrics either');

    const histogram = await first.request('stageLens/histogram', {
      sessionId: launched.id,
      stageKey: '1',
      metric: 'split:ttftMs',
      bins: 10,
    });
    assert.equal(histogram.notRecorded, 12);
    assert.deepEqual(histogram.counts, [], 'nothing binned as 0');

    // Kill the language server outright; the launched simulator is its child and goes too.
    first.child.kill('SIGKILL');
    await new Promise((r) => first.child.once('exit', r));

    const second = await startLanguageServer(storage);
    const restored = (await second.request('stageLens/listSessions', {})).find((s) => s.id === launched.id);
    assert.ok(restored !== undefined, 'the session is back after the restart');
    assert.equal(restored.requestCount, 12, 'every captured request is back');
    assert.equal(restored.status, 'stopped');
    const again = await second.request('stageLens/summary', { sessionId: launched.id });
    assert.equal(again.stages.find((s) => s.stageKey === '1')?.splitStates.ttftMs.notRecorded, 12);
    assert.equal(
      again.histograms.find((h) => h.family === 'vllm:time_to_first_token_seconds' && h.labels['stage'] === '0')?.count,
      12,
      'last good scrape kept on disk',
    );

    // Export: same schema as `stage-lens analyze --format json`.
    const out = path.join(storage, 'export.json');
    const exported = await second.request('stageLens/export', { sessionId: launched.id, format: 'json', path: out });
    assert.equal(exported.requestCount, 12);
    const json = JSON.parse(fs.readFileSync(out, 'utf8')) as {
      schema: number;
      requests: { stages: Record<string, { split: { ttftMs: number | null }; splitState: { ttftMs: string } }> }[];
    };
    assert.equal(json.schema, 1);
    assert.equal(json.requests[0]?.stages['1']?.split.ttftMs, null);
    assert.equal(json.requests[0]?.stages['1']?.splitState.ttftMs, 'notRecorded');
    second.child.kill('SIGTERM');
  },
);

test('bad requests get clear errors, not crashes', { timeout: 30_000 }, async () => {
  const client = await startLanguageServer(storage);
  await assert.rejects(client.request('stageLens/summary', { sessionId: 'nope' }), /no session with id 'nope'/);
  await assert.rejects(client.request('stageLens/launch', { argv: [], cwd: ROOT }), /the command is empty/);
  const missing = await client.request('stageLens/launch', { argv: ['/definitely/not/a/program'], cwd: ROOT });
  const failed = await waitFor('launch error status', async () => {
    const s = await client.session(missing.id);
    return s?.status === 'error' ? s : undefined;
  });
  assert.match(failed.lastError ?? '', /not\/a\/program/);
  const dead = await client.request('stageLens/scrape', { url: 'http://127.0.0.1:1/metrics', intervalMs: 200 });
  const withError = await waitFor('scrape error', async () => {
    const s = await client.session(dead.id);
    return s?.lastError ? s : undefined;
  });
  assert.match(withError.lastError ?? '', /127\.0\.0\.1:1/);
  await client.request('stageLens/stop', { sessionId: dead.id });
  client.child.kill('SIGTERM');
});

test(
  'an imported log with transfer edges: the summary carries per-edge distributions, the requests their edges',
  { timeout: 60_000 },
  async () => {
    const client = await startLanguageServer(storage);
    const log = path.join(ROOT, 'test', 'fixtures', 'upstream-rendered', 'qwen3-omni-three-stage-transfers.log');
    const session = await client.importLog(log);
    const summary = await client.request('stageLens/summary', { sessionId: session.id });
    assert.deepEqual(
      summary.edges.map((e) => [e.edge, e.fromStage, e.toStage, e.requestCount, e.tableCount]),
      [
        ['0->1', 0, 1, 3, 3],
        ['1->2', 1, 2, 3, 3],
      ],
    );
    const first = summary.edges[0];
    // tx_time_ms of edge 0->1 in the three requests (the fixture's expected.json): 78.701, 75.701, 72.701.
    assert.deepEqual(first?.fields['tx_time_ms'], {
      count: 3,
      mean: (78.701 + 75.701 + 72.701) / 3,
      p50: 75.701,
      p90: 75.701 + 0.8 * 3,
      p99: 75.701 + 0.98 * 3,
      max: 78.701,
    });
    assert.deepEqual(first?.fieldStates['size_kbytes'], { measured: 3, notMeasured: 0, notRecorded: 0, hidden: 0 });
    assert.deepEqual(first?.omniTimingTxStates, { measured: 3, notRecorded: 0, absent: 0 });
    const page = await client.request('stageLens/requests', { sessionId: session.id, offset: 0, limit: 3 });
    assert.deepEqual(
      page.requests[0]?.transfers.map((t) => [t.edge, t.tablePrinted, t.omniTimingTxMs, t.omniTimingTxState]),
      [
        ['0->1', true, 78.7, 'measured'],
        ['1->2', true, 18.79, 'measured'],
      ],
    );
    assert.equal(page.requests[0]?.stages[0]?.fields['vllm_itls_ms']?.state, 'measured');
    client.child.kill('SIGTERM');
  },
);
