// Stage Lens reading a deployment through a real Prometheus server: two simulators (real
// child processes, different seeds and request rates, real HTTP /metrics on loopback)
// are scraped by a real `prometheus` (Debian package, started here with its own config
// and storage) as two replicas of one deployment. The figures Stage Lens reads through
// the query API are checked against what each simulator itself reports, then the same
// through the language server (dist/server.js over stdio), then the failure cases.
import { quantileBounds } from '../../server/core/metricsText/quantileBounds';
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { killLanguageServers, startLanguageServer } from './support/lspProcess';
import { SimProcess, httpGet, killAll } from './support/simulateProcess';
import { PrometheusApi } from '../../server/capture/prometheusApi';
import { PrometheusSource, type PrometheusState } from '../../server/capture/prometheusSource';
import { parseExposition } from '../../server/core/metricsText/exposition';
import { histogramQuantile } from '../../server/core/metricsText/histogramQuantile';
import { histogramSummariesOf } from '../../server/core/metricsText/scrapeSummary';
import type { HistogramBucket, HistogramSeries, ParsedExposition } from '../../server/core/metricsText/model';
import type { PrometheusStageRow } from '../../server/protocol';
import { unusedPort } from './support/unusedPort';

const DEPLOYMENT = 'tts-test';
// Simulator A is replica "0", B is replica "1"; different seeds and rates so their figures
// differ. B is a build without the codec TTFT fix, with talker first audio: its codec
// stage records no TTFT and ITLs measured from 0 (seed 000), so only replica 1 must carry
// the caveat, and its ITL quantiles fall into the +Inf bucket (open-ended).
const SIMS = [
  { replica: '0', requests: 24, args: ['--seed', '11', '--rps', '3'] },
  {
    replica: '1',
    requests: 60,
    args: ['--seed', '22', '--rps', '6', '--talker-first-audio', '--stats-build', 'before-fix'],
  },
] as const;

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'stage-lens-prom-'));
let prometheus: ChildProcess | null = null;
let prometheusLog = '';
let promUrl = '';
const sims: SimProcess[] = [];
const simPorts: number[] = [];

async function waitFor<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  /** What the probe last threw, as String() shows it; empty while it has thrown nothing. */
  let lastError = '';
  for (;;) {
    try {
      const v = await probe();
      if (v !== undefined) return v;
    } catch (e) {
      lastError = ` (last error: ${String(e)})`;
    }
    if (Date.now() > deadline)
      throw new Error(`timed out waiting for ${what}${lastError}\nprometheus log tail:\n${prometheusLog.slice(-1500)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/**
 * Both simulators call their one engine replica "0". As two hosts of one deployment,
 * Prometheus gives each the replica id of its target (metric_relabel_configs), the way
 * a multi-host deployment is relabelled in practice; `deployment` is a target label.
 */
function prometheusConfig(ports: readonly number[]): string {
  const targets = ports
    .map(
      (port, i) =>
        `      - targets: ['127.0.0.1:${port}']\n        labels: { deployment: '${DEPLOYMENT}', host_replica: '${SIMS[i]?.replica}' }`,
    )
    .join('\n');
  return `global:
  scrape_interval: 1s
  scrape_timeout: 1s
scrape_configs:
  - job_name: vllm-omni
    static_configs:
${targets}
    metric_relabel_configs:
      - source_labels: [replica, host_replica]
        regex: '.+;(.+)'
        target_label: replica
        replacement: '$1'
      - regex: host_replica
        action: labeldrop
`;
}

/** Why the real Prometheus cannot run here, or null. */
function prometheusMissing(): string | null {
  const probe = spawnSync('prometheus', ['--version'], { encoding: 'utf8' });
  if (probe.error === undefined && probe.status === 0) return null;
  return (
    'The `prometheus` binary is not on PATH. These tests need a real Prometheus server: install the Debian package ' +
    '(`apt-get install prometheus`); CI installs it. ' +
    (probe.error?.message ?? probe.stderr)
  );
}

// Skipped with that message on a machine without it, except where nothing may be skipped
// (STAGE_LENS_REQUIRE_ALL=1, set by .ci/run): there it fails.
const MISSING = prometheusMissing();
const SKIP = MISSING !== null && process.env.STAGE_LENS_REQUIRE_ALL !== '1' ? MISSING : false;

async function stopPrometheus(): Promise<void> {
  const p = prometheus;
  prometheus = null;
  if (p === null || p.exitCode !== null || p.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => p.once('exit', () => resolve()));
  p.kill('SIGTERM');
  const timer = setTimeout(() => p.kill('SIGKILL'), 5000);
  await exited;
  clearTimeout(timer);
}

async function simMetrics(port: number): Promise<ParsedExposition> {
  const res = await httpGet(port, '/metrics');
  assert.equal(res.status, 200);
  return parseExposition(res.body);
}

function e2eCount(exposition: ParsedExposition): number {
  const family = exposition.families.find((f) => f.name === 'vllm:e2e_request_latency_seconds');
  if (family?.type !== 'histogram') return 0;
  return family.series.find((s) => s.labels['stage'] === '0')?.count ?? 0;
}

function nullIfNaN(v: number): number | null {
  return Number.isFinite(v) ? v : null;
}

/** Cumulative buckets of several series added by upper bound: what `sum by (le, ...)` does. */
function addBuckets(series: readonly HistogramSeries[]): HistogramBucket[] {
  const byLe = new Map<number, number>();
  for (const s of series) for (const b of s.buckets) byLe.set(b.le, (byLe.get(b.le) ?? 0) + b.cumulative);
  return [...byLe].map(([le, cumulative]) => ({ le, cumulative }));
}

/** Quantiles whose rank lies above the highest finite bucket (PromQL then answers that bound). */
function openEndedOf(buckets: readonly HistogramBucket[]): string[] {
  const total = buckets.find((b) => b.le === Infinity)?.cumulative ?? 0;
  const finite = Math.max(0, ...buckets.filter((b) => b.le !== Infinity).map((b) => b.cumulative));
  if (total === 0) return [];
  return (
    [
      ['p50', 0.5],
      ['p90', 0.9],
      ['p99', 0.99],
    ] as const
  )
    .filter(([, q]) => finite < q * total)
    .map(([n]) => n);
}

function expectSameFigures(row: PrometheusStageRow, series: readonly HistogramSeries[], what: string): void {
  const buckets = addBuckets(series);
  assert.deepEqual(row.openEnded, openEndedOf(buckets), `${what}: open-ended quantiles`);
  // "≤ bound" / "≥ bound": the same quantiles and bounds as the simulator's own buckets give
  // (the lowest bucket's bound recovered from Prometheus's interpolation).
  const bounds = quantileBounds(buckets);
  assert.deepEqual(Object.keys(row.bounds).sort(), Object.keys(bounds).sort(), `${what}: bounded quantiles`);
  for (const [name, b] of Object.entries(bounds)) {
    const theirs = row.bounds[name as keyof typeof bounds];
    assert.ok(
      theirs !== undefined && theirs.kind === b.kind && Math.abs(theirs.le - b.le) <= 1e-9 * Math.max(1, b.le),
      `${what}: ${name} bound ${JSON.stringify(theirs)} vs ${JSON.stringify(b)}`,
    );
  }
  const count = series.reduce((n, s) => n + (s.count ?? 0), 0);
  const sum = series.reduce((n, s) => n + (s.sum ?? 0), 0);
  assert.equal(row.count, count, `${what}: count`);
  assert.equal(row.total, count, `${what}: total`);
  assert.ok(
    row.sum !== null && Math.abs(row.sum - sum) <= 1e-9 * Math.max(1, Math.abs(sum)),
    `${what}: sum ${row.sum} vs ${sum}`,
  );
  for (const [name, q] of [
    ['p50', 0.5],
    ['p90', 0.9],
    ['p99', 0.99],
  ] as const) {
    const ours = nullIfNaN(histogramQuantile(q, buckets));
    const theirs = row[name];
    if (ours === null) assert.equal(theirs, null, `${what}: ${name} is no data on both sides`);
    else
      assert.ok(
        theirs !== null && Math.abs(theirs - ours) <= 1e-12 * Math.max(1, Math.abs(ours)),
        `${what}: ${name} Prometheus ${theirs} vs simulator ${ours}`,
      );
  }
}

async function poll(
  window: string,
  extra: { deploymentValue?: string; url?: string; timeoutMs?: number } = {},
): Promise<PrometheusState> {
  const source = new PrometheusSource({
    url: extra.url ?? promUrl,
    deploymentLabel: 'deployment',
    deploymentValue: DEPLOYMENT,
    window,
    ...extra,
  });
  const update = await source.pollOnce();
  assert.ok(update !== null);
  return update.state;
}

function row(
  state: PrometheusState,
  family: string,
  stage: string | null,
  replica: string | null,
): PrometheusStageRow | undefined {
  return state.rows.find(
    (r) =>
      r.family === family &&
      r.stage === stage &&
      r.replica === replica &&
      r.scope === (replica === null ? 'stage' : 'replica'),
  );
}

before(async () => {
  if (SKIP !== false) return;
  if (MISSING !== null) assert.fail(MISSING);
  // Prometheus first, so that it scrapes the simulators from their first request on: its
  // discovery hands static targets to the scrape loops only after a few seconds.
  for (let i = 0; i < SIMS.length; i++) simPorts.push(await unusedPort());
  const port = await unusedPort();
  fs.writeFileSync(path.join(tmp, 'prometheus.yml'), prometheusConfig(simPorts));
  prometheus = spawn(
    'prometheus',
    [
      `--config.file=${path.join(tmp, 'prometheus.yml')}`,
      `--storage.tsdb.path=${path.join(tmp, 'data')}`,
      `--web.listen-address=127.0.0.1:${port}`,
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  prometheus.stdout!.setEncoding('utf8').on('data', (d: string) => (prometheusLog += d));
  prometheus.stderr!.setEncoding('utf8').on('data', (d: string) => (prometheusLog += d));
  promUrl = `http://127.0.0.1:${port}`;
  const api = new PrometheusApi(promUrl);
  await waitFor('prometheus scraping both targets', async () => {
    if (prometheus?.exitCode !== null) throw new Error(`prometheus exited with ${prometheus?.exitCode}`);
    const up = await api.query(`up{deployment="${DEPLOYMENT}"}`);
    return up.ok && up.data.length === SIMS.length ? true : undefined;
  });
  SIMS.forEach((sim, i) =>
    sims.push(
      new SimProcess([
        '--port',
        String(simPorts[i]),
        '--requests',
        String(sim.requests),
        '--speed',
        '2',
        '--linger',
        ...sim.args,
      ]),
    ),
  );
  await Promise.all(sims.map((p) => p.port()));
});

after(async () => {
  killLanguageServers();
  await stopPrometheus();
  await killAll();
  if (process.env['KEEP_STORAGE'] === undefined) fs.rmSync(tmp, { recursive: true, force: true });
});

describe('Prometheus query API: two simulators scraped as two replicas', { timeout: 60_000, skip: SKIP }, () => {
  it('reads windowed per-replica quantiles while the simulators run', async () => {
    const state = await waitFor('both replicas in a 30s window', async () => {
      const s = await poll('30s');
      const a = row(s, 'vllm:e2e_request_latency_seconds', '0', '0');
      const b = row(s, 'vllm:e2e_request_latency_seconds', '0', '1');
      return a?.p90 != null && b?.p90 != null && (a.count ?? 0) > 0 && (b.count ?? 0) > 0 ? s : undefined;
    });
    assert.equal(state.lastError, null);
    assert.equal(state.deploymentValue, DEPLOYMENT);
    assert.equal(state.window, '30s');
    assert.deepEqual(state.instances, simPorts.map((p) => `127.0.0.1:${p}`).sort());
    assert.deepEqual(state.warnings, [], 'each host has its own replica id: no collision');
    const stage0 = row(state, 'vllm:e2e_request_latency_seconds', '0', '0');
    assert.deepEqual(stage0?.instances, [`127.0.0.1:${simPorts[0]}`]);
    assert.deepEqual(
      row(state, 'vllm:e2e_request_latency_seconds', '0', null)?.instances,
      simPorts.map((p) => `127.0.0.1:${p}`).sort(),
    );
    assert.ok(state.families.includes('vllm_omni:audio_ttfp_s'));
    assert.ok(row(state, 'vllm_omni:audio_ttfp_s', '1', '1') !== undefined, 'the codec stage of replica 1');
    assert.ok(
      row(state, 'vllm_omni:e2e_request_latency_s', null, null) !== undefined,
      'the pipeline-wide e2e family (no stage label) has one deployment row',
    );
    // query_range: the throughput trend per (stage, replica).
    assert.equal(state.trend?.family, 'vllm:e2e_request_latency_seconds');
    const trendSeries = state.trend?.series.filter((s) => s.stage === '0').map((s) => s.replica);
    assert.deepEqual(trendSeries, ['0', '1']);
    assert.ok(
      state.trend?.series.every((s) => s.perSecond.some((v) => v !== null && v > 0)),
      'both replicas finished requests in the trend',
    );
    // query_range: the engines' gauges per (stage, replica) on the same steps, KV usage in percent.
    assert.deepEqual(
      state.gauges?.series.filter((s) => s.stage === '0').map((s) => s.replica),
      ['0', '1'],
    );
    assert.deepEqual(state.gauges?.times, state.trend?.times);
    assert.ok(
      state.gauges?.series.some((s) => s.running.some((v) => v !== null)),
      'running requests were read',
    );
    assert.ok(
      state.gauges?.series.every((s) => s.kvCacheUsagePerc.every((v) => v === null || (v >= 0 && v <= 100))),
      'KV usage in percent',
    );
  });

  it('per-replica and per-stage figures equal what each simulator reports', async () => {
    // Wait for both runs to end (--linger then freezes each simulator's /metrics) ...
    const finals = await waitFor('both simulators done', async () => {
      const all = await Promise.all(simPorts.map(simMetrics));
      return all.every((e, i) => e2eCount(e) === SIMS[i]?.requests) ? all : undefined;
    });
    // ... and for Prometheus to hold the final samples of both.
    // The window "all" queries the cumulative buckets without rate(): at an evaluation time
    // after both runs have ended, the latest sample of every bucket is the simulator's final
    // cumulative count, so histogram_quantile sees exactly the buckets the simulator
    // exposes and must agree with our port of it on those buckets. (A rate()/increase()
    // window would extrapolate each bucket separately, so it is not comparable exactly.)
    const state = await waitFor('prometheus holding the final counts', async () => {
      const s = await poll('all');
      return SIMS.every((sim) => row(s, 'vllm:e2e_request_latency_seconds', '0', sim.replica)?.total === sim.requests)
        ? s
        : undefined;
    });
    assert.equal(state.lastError, null);
    const scrapeRows = finals.map((p) => histogramSummariesOf(p));

    let compared = 0;
    for (const family of state.families) {
      const perSim = finals.map((e) => {
        const f = e.families.find((x) => x.canonicalName === family);
        return f?.type === 'histogram' ? f.series : [];
      });
      const stages = new Set(perSim.flat().map((s) => s.labels['stage'] ?? null));
      for (const stage of stages) {
        const seriesOf = (i: number): HistogramSeries[] =>
          (perSim[i] ?? []).filter((s) => (s.labels['stage'] ?? null) === stage);
        const hasReplica = (perSim[0] ?? []).some((s) => s.labels['replica'] !== undefined);
        if (hasReplica) {
          SIMS.forEach((sim, i) => {
            const r = row(state, family, stage, sim.replica);
            assert.ok(r !== undefined, `${family} stage ${stage} replica ${sim.replica}: row present`);
            expectSameFigures(r, seriesOf(i), `${family} stage ${stage} replica ${sim.replica}`);
            // Same verdict as a direct /metrics scrape of that host gives.
            const scraped = scrapeRows[i]?.find((h) => h.family === family && (h.labels['stage'] ?? null) === stage);
            assert.equal(
              r.caveat !== null,
              (scraped?.caveat ?? null) !== null,
              `${family} stage ${stage} replica ${sim.replica}: caveat as in a direct scrape`,
            );
            compared++;
          });
        }
        const all = row(state, family, stage, null);
        assert.ok(all !== undefined, `${family} stage ${stage}: all-replica row present`);
        expectSameFigures(all, [...seriesOf(0), ...seriesOf(1)], `${family} stage ${stage} (all replicas)`);
        compared++;
      }
    }
    assert.ok(compared >= 30, `compared ${compared} rows`);
    // The talker's queue time (a few ms) sits in vLLM's lowest request-latency bucket (0.3 s): only "≤ 0.3".
    assert.deepEqual(row(state, 'vllm:request_queue_time_seconds', '0', '0')?.bounds.p50, { kind: 'atMost', le: 0.3 });
    // The two replicas really differ (different seeds and rates): the test would notice a mix-up.
    const a = row(state, 'vllm:time_to_first_token_seconds', '0', '0');
    const b = row(state, 'vllm:time_to_first_token_seconds', '0', '1');
    assert.notEqual(a?.count, b?.count);
    assert.ok(a?.p90 !== b?.p90 || a?.p50 !== b?.p50);
    // Stage 0 never has inter-token latencies in this pipeline: no data, not 0 ms.
    const itl = row(state, 'vllm:inter_token_latency_seconds', '0', '0');
    assert.equal(itl?.count, 0);
    assert.equal(itl?.p50, null);
    // The codec TTFT signature: replica 1 (before-fix build) only, and the stage-1 row that mixes it in.
    assert.equal(row(state, 'vllm:time_to_first_token_seconds', '1', '0')?.caveat, null);
    assert.match(
      row(state, 'vllm:time_to_first_token_seconds', '1', '1')?.caveat ?? '',
      /^TTFT not recorded on stage 1 replica 1: no TTFT sample but \d+ inter-token latencies/,
    );
    assert.match(row(state, 'vllm:inter_token_latency_seconds', '1', null)?.caveat ?? '', /codec TTFT bug/);
    assert.equal(row(state, 'vllm:time_to_first_token_seconds', '1', '1')?.total, 0);
    assert.ok(
      row(state, 'vllm:inter_token_latency_seconds', '1', '1')?.openEnded.includes('p99'),
      'ITLs measured from 0 lie beyond every finite bucket: p99 is "≥ 80 s"',
    );
    assert.deepEqual(row(state, 'vllm:inter_token_latency_seconds', '1', '0')?.openEnded, []);

    // Request counts per replica in the 5m window's `total` and over query_range.
    const windowed = await poll('5m');
    for (const sim of SIMS)
      assert.equal(row(windowed, 'vllm:e2e_request_latency_seconds', '0', sim.replica)?.total, sim.requests);
    const api = new PrometheusApi(promUrl);
    const end = (windowed.evaluatedAt ?? Date.now()) / 1000;
    const range = await api.queryRange(
      `sum by (replica) (vllm:e2e_request_latency_seconds_count{deployment="${DEPLOYMENT}",stage="0"})`,
      end - 20,
      end,
      1,
    );
    assert.ok(range.ok, range.ok ? '' : range.message);
    for (const sim of SIMS) {
      const points: readonly { readonly v: number }[] =
        range.data.find((s) => s.metric['replica'] === sim.replica)?.samples ?? [];
      assert.ok(points.length >= 5, `range points of replica ${sim.replica}`);
      assert.equal(points[points.length - 1]?.v, sim.requests);
      assert.ok(
        points.every((p, i) => i === 0 || p.v >= (points[i - 1]?.v ?? 0)),
        'a counter never goes down',
      );
    }
  });

  it('a window with no new observation gives no data (null), never 0', async () => {
    // The simulators are frozen now: over a 3s window every bucket's rate is 0 and
    // histogram_quantile answers NaN.
    const state = await waitFor(
      'a quiet 3s window',
      async () => {
        const s = await poll('3s');
        const r = row(s, 'vllm:e2e_request_latency_seconds', '0', '1');
        return r !== undefined && r.count === 0 ? s : undefined;
      },
      15_000,
    );
    for (const r of state.rows) {
      assert.equal(r.count, 0, `${r.family} ${r.stage}/${r.replica}: nothing in the window`);
      assert.deepEqual([r.p50, r.p90, r.p99], [null, null, null], `${r.family} ${r.stage}/${r.replica}: no data`);
    }
    assert.equal(
      row(state, 'vllm:e2e_request_latency_seconds', '0', '1')?.total,
      SIMS[1].requests,
      'the cumulative total is still known',
    );
  });

  it('through the language server: start a prometheus session, read its summary, list deployments', async () => {
    const lsp = await startLanguageServer(path.join(tmp, 'storage'));

    assert.deepEqual(
      await lsp.request('stageLens/prometheusDeployments', { url: promUrl, deploymentLabel: 'deployment' }),
      { label: 'deployment', values: [DEPLOYMENT] },
    );
    assert.deepEqual(await lsp.request('stageLens/prometheusDeployments', { url: promUrl, deploymentLabel: 'job' }), {
      label: 'job',
      values: ['vllm-omni'],
    });
    await assert.rejects(
      lsp.request('stageLens/prometheus', { url: promUrl, deploymentLabel: 'not a label' }),
      /"not a label" is not a Prometheus label name/,
    );
    await assert.rejects(
      lsp.request('stageLens/prometheus', { url: promUrl, deploymentLabel: 'job', window: 'forever' }),
      /"forever" is not a PromQL duration/,
    );

    // No value given: the only deployment found is used.
    const info = await lsp.request('stageLens/prometheus', {
      url: `${promUrl}/graph`,
      deploymentLabel: 'deployment',
      window: 'all',
      intervalMs: 500,
    });
    assert.equal(info.kind, 'prometheus');
    const summary = await waitFor('a prometheus summary', async () => {
      const s = await lsp.request('stageLens/prometheusSummary', { sessionId: info.id });
      return s !== null && s.evaluatedAt !== null ? s : undefined;
    });
    assert.equal(summary.url, `${promUrl}/`);
    assert.equal(summary.deploymentValue, DEPLOYMENT);
    assert.equal(summary.lastError, null);
    for (const sim of SIMS)
      assert.equal(
        summary.rows.find(
          (r) => r.family === 'vllm:e2e_request_latency_seconds' && r.stage === '0' && r.replica === sim.replica,
        )?.total,
        sim.requests,
      );
    const listed = (await lsp.request('stageLens/listSessions', {})).find((s) => s.id === info.id);
    assert.equal(listed?.status, 'running');
    // The per-(stage, replica) rows also reach the session's histogram rows (export, CLI).
    const sessionSummary = await lsp.request('stageLens/summary', { sessionId: info.id });
    const histograms = sessionSummary.histograms;
    assert.equal(
      histograms.find(
        (h) =>
          h.family === 'vllm:e2e_request_latency_seconds' && h.labels['stage'] === '0' && h.labels['replica'] === '1',
      )?.count,
      SIMS[1].requests,
    );
    // What the side panel shows beside them: each replica with the host that reports it, and its throughput line.
    const panel = sessionSummary.prometheus;
    assert.equal(panel?.window, 'all');
    assert.deepEqual(
      panel?.replicas.filter((r) => r.stage === '0'),
      SIMS.map((sim, i) => ({ stage: '0', replica: sim.replica, instances: [`127.0.0.1:${simPorts[i]}`] })),
    );
    assert.deepEqual(
      panel?.replicas.map((r) => r.stage),
      [...panel!.replicas.map((r) => r.stage)].sort(),
      'by stage',
    );
    assert.equal(panel?.trend?.family, 'vllm:e2e_request_latency_seconds');
    assert.deepEqual(
      panel?.trend?.series.filter((t) => t.stage === '0').map((t) => t.replica),
      ['0', '1'],
    );
    // The gauges on the over-time axis of the session (no log: the axis is Prometheus's own time).
    const over = (await lsp.request('stageLens/overTime', { sessionId: info.id })).series;
    assert.deepEqual(
      over.gauges.filter((g) => g.stage === '0').map((g) => [g.source, g.replica, g.mapping]),
      [
        ['prometheus', '0', 'labels'],
        ['prometheus', '1', 'labels'],
      ],
    );
    assert.ok(over.times.length > 0 && over.gauges.some((g) => g.running.some((v) => v !== null)));
    const stopped = await lsp.request('stageLens/stop', { sessionId: info.id });
    assert.equal(stopped.status, 'stopped');
    assert.equal(
      (await lsp.request('stageLens/prometheusSummary', { sessionId: info.id }))?.rows.length,
      summary.rows.length,
      'figures kept after stop (prometheus.json)',
    );
    lsp.child.kill('SIGTERM');
  });

  it('errors name the cause: PromQL rejected, not a Prometheus server, unknown deployment', async () => {
    const api = new PrometheusApi(promUrl);
    const bad = await api.query('sum(');
    assert.equal(bad.ok, false);
    if (bad.ok) return;
    assert.equal(bad.kind, 'promql');
    assert.equal(bad.errorType, 'bad_data');
    assert.match(
      bad.message,
      /^Prometheus at http:\/\/127\.0\.0\.1:\d+\/: rejected the query \(bad_data, HTTP 400\): .*parse error/,
    );

    // A simulator's address is a web server but not Prometheus: 404 for /api/v1/query.
    const notProm = await poll('5m', { url: `http://127.0.0.1:${simPorts[0]}` });
    assert.match(
      notProm.lastError ?? '',
      /HTTP 404 for \/api\/v1\/query; .*Is this the base URL of a Prometheus server/,
    );

    // A value with a quote and a backslash is escaped: Prometheus answers "nothing", not a parse error.
    const unknown = await poll('5m', { deploymentValue: 'no "such" \\ deployment' });
    assert.match(
      unknown.lastError ?? '',
      /has no vLLM-Omni or vLLM stage histograms with deployment="no "such" \\ deployment"/,
    );
    assert.deepEqual(unknown.rows, []);
  });

  it('a dead or silent Prometheus gives a clear error within bounded time, and the last good figures stay', async () => {
    const deadPort = await unusedPort();
    let started = Date.now();
    const dead = await poll('5m', { url: `http://127.0.0.1:${deadPort}` });
    assert.match(
      dead.lastError ?? '',
      new RegExp(`Prometheus at http://127\\.0\\.0\\.1:${deadPort}/: connection refused`),
    );
    assert.ok(Date.now() - started < 2000);

    // Accepts the connection and never answers.
    const sockets: net.Socket[] = [];
    const silent = net.createServer((s) => sockets.push(s));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', () => resolve()));
    const silentPort = (silent.address() as net.AddressInfo).port;
    started = Date.now();
    const hung = await poll('5m', { url: `http://127.0.0.1:${silentPort}`, timeoutMs: 400 });
    const elapsed = Date.now() - started;
    for (const s of sockets) s.destroy();
    silent.close();
    assert.match(hung.lastError ?? '', /no complete answer within 400 ms/);
    assert.ok(elapsed >= 350 && elapsed < 2000, `gave up after ${elapsed} ms`);

    // A poller with good figures, then Prometheus goes away.
    const source = new PrometheusSource({
      url: promUrl,
      deploymentLabel: 'deployment',
      deploymentValue: DEPLOYMENT,
      window: 'all',
    });
    const good = await source.pollOnce();
    assert.equal(good?.good, true);
    const rows = good?.state.rows ?? [];
    assert.ok(rows.length > 0);
    await stopPrometheus();
    started = Date.now();
    const down = await source.pollOnce();
    assert.ok(Date.now() - started < 2000);
    assert.equal(down?.good, false);
    assert.match(down?.state.lastError ?? '', /connection refused \(is Prometheus running/);
    assert.deepEqual(down?.state.rows, rows, 'the last good figures are kept');
    assert.equal(down?.state.evaluatedAt, good?.state.evaluatedAt);
  });
});
