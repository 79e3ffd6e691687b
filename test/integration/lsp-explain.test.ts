// "Why a request is slow" over a real connection: the language server (dist/server.js, a
// real child process on stdio) tails a log file that grows while it is queried, launches
// the simulator with its /metrics scraped, and scrapes a /metrics endpoint whose KV usage
// reads 0 under load (a real HTTP server).
import { waitFor } from './support/waitFor';
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as http from 'node:http';
import type * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { killLanguageServers, startLanguageServer } from './support/lspProcess';
import { secondlyRequest } from '../unit/support/explainLogs';
import { unusedPort } from './support/unusedPort';

const ROOT = path.resolve(__dirname, '..', '..');
const storage = fs.mkdtempSync(path.join(os.tmpdir(), 'stage-lens-lsp-explain-'));
const servers: http.Server[] = [];

after(() => {
  killLanguageServers();
  for (const s of servers) s.close();
  fs.rmSync(storage, { recursive: true, force: true });
});

/** Request i of the planted log: one a second; speech-07 and speech-13 with the talker prefill 1,000 ms longer. */
const planted = (i: number): string => secondlyRequest(i, i === 7 || i === 13 ? 1000 : 0);

test(
  "a tailed log: tail attribution, load, over time, cost model and a request's breakdown, updated as requests arrive",
  { timeout: 60_000 },
  async () => {
    const client = await startLanguageServer(storage);
    const file = path.join(storage, 'server.log');
    fs.writeFileSync(file, Array.from({ length: 10 }, (_, i) => planted(i)).join(''));
    const session = await client.request('stageLens/tail', { path: file, fromStart: true });
    await client.requestsRead(session.id, 10);

    const first = await client.request('stageLens/tailAttribution', {
      sessionId: session.id,
      target: 'e2e',
      quantile: 'p95',
    });
    assert.equal(first.mainTarget, 'stage1.firstOutput', "time to first audio: the last stage's first output");
    assert.deepEqual(first.targets, ['e2e', 'stage0.firstOutput', 'stage1.firstOutput', 'stage0.ttft', 'stage1.ttft']);
    assert.deepEqual(
      first.tails.map((t) => t.requestIds),
      [['speech-07']],
    );

    // The file grows: the answer follows without a reopen.
    fs.appendFileSync(file, Array.from({ length: 10 }, (_, i) => planted(10 + i)).join(''));
    await client.requestsRead(session.id, 20);
    const second = await client.request('stageLens/tailAttribution', {
      sessionId: session.id,
      target: 'e2e',
      quantile: 'p95',
    });
    const tail = second.tails[0]!;
    assert.deepEqual([...tail.requestIds].sort(), ['speech-07', 'speech-13']);
    assert.deepEqual([tail.excessMs, tail.targetMedianMs, tail.residualMs], [1000, 800, -1000]);
    assert.deepEqual(
      tail.parts
        .slice(0, 2)
        .map((p) => p.key)
        .sort(),
      ['0/prefill', '1/inputWait'],
    );

    // The main target by default, with the tail's quantile p99 by default.
    const main = await client.request('stageLens/tailAttribution', { sessionId: session.id });
    assert.equal(main.tails[0]?.target, 'stage1.firstOutput');
    assert.equal(main.tails[0]?.quantile, 'p99');

    const load = (
      await client.request('stageLens/loadAtArrival', { sessionId: session.id, target: 'e2e', quantile: 'p95' })
    ).load!;
    assert.equal(load.arrivalsKnown, 20);
    assert.equal(load.buckets[0]?.minInFlight, 0);

    const over = (await client.request('stageLens/overTime', { sessionId: session.id, metrics: ['e2e'] })).series;
    assert.ok(over.times.length >= 2);
    assert.equal(over.series[0]?.metric, 'e2e');
    assert.ok((over.series[0]?.count.reduce((a, b) => a + b, 0) ?? 0) >= 20, 'every request is in some window');
    // The Each request chart ends each request where Over Time places it: the middle of its
    // printed second (09:00:10-09:00:29), so the shared axis's span is the requests'.
    const spans = await client.request('stageLens/requestSpans', { sessionId: session.id });
    const first10 = Date.UTC(new Date().getUTCFullYear(), 9, 22, 9, 0, 10);
    assert.deepEqual(
      spans.endMs,
      Array.from({ length: 20 }, (_, i) => first10 + i * 1000 + 500),
    );
    assert.deepEqual(over.span, { fromMs: spans.endMs[0], toMs: spans.endMs[19] });

    // Scoped to the first ten seconds of the log clock: the second slow request is outside.
    const t0 = Date.UTC(new Date().getUTCFullYear(), 9, 22, 9, 0, 10);
    const windowed = await client.request('stageLens/tailAttribution', {
      sessionId: session.id,
      target: 'e2e',
      quantile: 'p95',
      scope: { fromMs: t0, toMs: t0 + 9_999 },
    });
    assert.equal(windowed.tails[0]?.scopeCount, 10);
    assert.deepEqual(windowed.tails[0]?.requestIds, ['speech-07']);
    const page = await client.request('stageLens/requests', {
      sessionId: session.id,
      offset: 0,
      limit: 50,
      scope: { fromMs: t0, toMs: t0 + 9_999 },
    });
    assert.equal(page.total, 10);
    const histogram = await client.request('stageLens/histogram', {
      sessionId: session.id,
      stageKey: '0',
      metric: 'split:prefillMs',
      bins: 5,
      scope: { fromMs: t0, toMs: t0 + 9_999 },
    });
    assert.equal(
      histogram.counts.reduce((a, b) => a + b, 0),
      10,
    );
    const summary = await client.request('stageLens/summary', {
      sessionId: session.id,
      scope: { fromMs: t0, toMs: t0 + 9_999 },
    });
    assert.equal(summary.requestCount, 10);

    const cost = (await client.request('stageLens/costModel', { sessionId: session.id })).model;
    assert.ok(
      cost.skipped.some(
        (s) => s.stageKey === '0' && s.x === 'num_tokens_in' && /1 distinct token count/.test(s.reason),
      ),
      'every request has 64 input tokens: no fit',
    );

    const parts = (await client.request('stageLens/breakdownSummary', { sessionId: session.id })).summary.parts;
    assert.equal(parts.find((p) => p.key === '0/prefill')?.distribution?.p50, 100);

    const detail = await client.request('stageLens/request', { sessionId: session.id, requestId: 'speech-07' });
    assert.ok(detail !== null);
    assert.equal(detail.breakdown.totalMs, 1800);
    assert.equal(detail.breakdown.overlapMs, 1608);
    assert.equal(detail.breakdown.parts.find((p) => p.key === '0/prefill')?.ms, 1100);
    assert.match(
      detail.breakdown.parts.find((p) => p.key === '0/genOther')?.note ?? '',
      /stage_gen_time_ms minus the stage phases/,
    );
    await client.request('stageLens/stop', { sessionId: session.id });
    await assert.rejects(
      client.request('stageLens/tailAttribution', { sessionId: 'nope' }),
      /no session with id 'nope'/,
    );
    client.child.kill('SIGTERM');
  },
);

test(
  'requestSpans: where the stages ran alongside, each request carries its slowest phase, not only its slowest stage',
  { timeout: 60_000 },
  async () => {
    const client = await startLanguageServer(storage);
    const spansOf = async (fixture: string, count: number) => {
      const session = await client.request('stageLens/tail', {
        path: path.join(ROOT, 'test/fixtures/upstream-rendered', fixture),
        fromStart: true,
      });
      await client.requestsRead(session.id, count);
      return client.request('stageLens/requestSpans', { sessionId: session.id });
    };
    // Qwen3-TTS under async chunk (stage-times-overlap on all six): the codec's stage_gen_time_ms
    // holds the talker's time, so it is the "slowest stage" of every request; the phases say otherwise.
    const tts = await spansOf('qwen3tts-talker-first-audio-after-fix.log', 6);
    assert.equal(tts.colourBy, 'slowestPhase');
    assert.deepEqual(tts.slowestStage, ['1', '1', '1', '1', '1', '1']);
    assert.deepEqual(
      tts.slowestPhase.map((p) => (p === null ? null : [p.stageKey, p.phase, Math.round(p.ms)])),
      [
        ['0', 'prefillDecodeMs', 607],
        ['0', 'prefillDecodeMs', 4315],
        ['1', 'decodeMs', 1882],
        ['0', 'prefillDecodeMs', 985],
        ['0', 'prefillDecodeMs', 339],
        ['0', 'prefillDecodeMs', 1552],
      ],
    );
    // Qwen3-Omni, stages one after another: coloured by slowest stage, no phases sent.
    const omni = await spansOf('qwen3-omni-three-stage-transfers.log', 3);
    assert.deepEqual([omni.colourBy, omni.slowestPhase], ['slowestStage', []]);
    client.child.kill('SIGTERM');
  },
);

test(
  "a launched simulator with /metrics: engine lines and scrape gauges on the requests' time axis",
  { timeout: 90_000 },
  async () => {
    const client = await startLanguageServer(storage);
    const port = await unusedPort();
    const argv = [
      process.execPath,
      path.join(ROOT, 'dist', 'cli.js'),
      'simulate',
      '--debug-tables',
      '--requests',
      '60',
      '--rps',
      '6',
      '--speed',
      '4',
      '--seed',
      '5',
      '--port',
      String(port),
      '--linger',
    ];
    const launched = await client.request('stageLens/launch', {
      argv,
      cwd: ROOT,
      metricsUrl: `http://127.0.0.1:${port}/metrics`,
    });
    await client.requestsRead(launched.id, 60, 80_000);
    const over = await waitFor('log and scrape gauges', async () => {
      const s = (await client.request('stageLens/overTime', { sessionId: launched.id })).series;
      return s.gauges.some((g) => g.source === 'log') &&
        s.gauges.some((g) => g.source === 'metrics' && g.running.some((v) => v !== null))
        ? s
        : undefined;
    });
    const scraped = over.gauges.find((g) => g.source === 'metrics' && g.stage === '0')!;
    assert.equal(scraped.mapping, 'labels');
    const logged = over.gauges.find((g) => g.source === 'log' && g.engine === '000')!;
    assert.deepEqual([logged.stage, logged.replica, logged.mapping], ['0', '0', 'inferred']);
    // Both on the log clock: the scrape samples fall inside the requests' steps, not hours away.
    assert.ok(
      scraped.running.some((v) => v !== null),
      "a scrape sample lands on a step of the requests' axis",
    );
    assert.ok(over.series.find((s) => s.metric === 'e2e')!.p50.some((v) => v !== null));
    const tail = await client.request('stageLens/tailAttribution', { sessionId: launched.id });
    assert.equal(tail.mainTarget, 'stage1.firstOutput');
    assert.equal(tail.tails.length, 1);
    await client.request('stageLens/stop', { sessionId: launched.id });
    client.child.kill('SIGTERM');
  },
);

test(
  'a scrape whose KV-cache usage reads 0 while requests run: metric-not-reporting, and the gauges over time',
  { timeout: 30_000 },
  async () => {
    let running = 3;
    const server = http.createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain; version=0.0.4' });
      res.end(
        [
          '# HELP vllm:num_requests_running running',
          '# TYPE vllm:num_requests_running gauge',
          `vllm:num_requests_running{model_name="m",stage="0",replica="0"} ${running}`,
          '# HELP vllm:kv_cache_usage_perc kv',
          '# TYPE vllm:kv_cache_usage_perc gauge',
          'vllm:kv_cache_usage_perc{model_name="m",stage="0",replica="0"} 0.0',
        ].join('\n') + '\n',
      );
      running++;
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as net.AddressInfo).port;
    const client = await startLanguageServer(storage);
    const session = await client.request('stageLens/scrape', {
      url: `http://127.0.0.1:${port}/metrics`,
      intervalMs: 200,
    });
    const finding = await waitFor('metric-not-reporting', async () => {
      const s = await client.request('stageLens/summary', { sessionId: session.id });
      const f = s.findings.find((x) => x.code === 'metric-not-reporting');
      return f !== undefined && /of [3-9] scrapes/.test(f.evidence ?? '') ? f : undefined;
    });
    assert.equal(finding.family, 'vllm:kv_cache_usage_perc');
    assert.match(finding.evidence ?? '', /^stage 0 replica 0: (\d+) of \1 scrapes with requests running/);
    assert.ok(finding.knownCauses?.some((c) => c.includes('#4802')));
    const over = (await client.request('stageLens/overTime', { sessionId: session.id })).series;
    const g = over.gauges[0]!;
    assert.deepEqual([g.source, g.stage, g.replica], ['metrics', '0', '0']);
    assert.ok(
      g.running.some((v) => v !== null && v >= 3),
      'the scraped running requests, on steps of at least a second',
    );
    assert.ok(g.kvCacheUsagePerc.every((v) => v === null || v === 0));
    await client.request('stageLens/stop', { sessionId: session.id });
    client.child.kill('SIGTERM');
  },
);
