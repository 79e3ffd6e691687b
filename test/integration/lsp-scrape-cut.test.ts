// A /metrics scrape in a session, over a real connection to the language server (dist/server.js,
// a child process): an imported file and a session attached to a /metrics URL on loopback export
// the preemption and speech stream counters `stage-lens analyze --format json` prints for the
// same body, also reopened by another language server; and a scrape cut short inside a family (a
// truncated file, a .prom.gz whose stream ends, a served body that stops inside a line) lists
// and exports the CLI's findings: the cut, and no metric-not-reporting for the family it took.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import type { Finding, HistogramSummary } from '../../server/protocol';
import { runCli } from './support/cliProcess';
import {
  cutInsideLine,
  cutInto,
  gzipCutAtLineFeed,
  gzipCutBefore,
  lastSeriesLine,
  REPLICAS_SCRAPE,
  tokensBody,
} from './support/cutScrape';
import { startLanguageServer, storageForFile, type LspProcess } from './support/lspProcess';
import { attachedScrapeSession } from './support/metricsEndpoint';

const storage = storageForFile('stage-lens-scrape-cut-');

interface Json {
  readonly findings: Pick<Finding, 'code' | 'severity' | 'stageId' | 'requestIds' | 'requestCount' | 'message'>[];
  readonly preemptions: unknown;
  readonly speechStreams: unknown;
}

function analyzed(file: string): Json {
  const run = runCli(['analyze', file, '--format', 'json']);
  assert.equal(run.status, 0, run.stderr);
  const { findings, preemptions, speechStreams } = JSON.parse(run.stdout) as Json;
  return { findings, preemptions, speechStreams };
}

/** The session's JSON export, as analyze's fields, with the findings stageLens/findings lists. */
async function exported(
  lsp: LspProcess,
  sessionId: string,
  name: string,
): Promise<Json & { listed: Json['findings'] }> {
  const out = path.join(storage, `${name}.export.json`);
  await lsp.request('stageLens/export', { sessionId, format: 'json', path: out });
  const { findings, preemptions, speechStreams } = JSON.parse(fs.readFileSync(out, 'utf8')) as Json;
  const listed = (await lsp.request('stageLens/findings', { sessionId })).map(
    ({ code, severity, stageId, requestIds, requestCount, message }) => ({
      code,
      severity,
      stageId,
      requestIds,
      requestCount,
      message,
    }),
  );
  return { findings, preemptions, speechStreams, listed };
}

async function stopped(lsp: LspProcess): Promise<void> {
  const exited = new Promise((resolve) => lsp.child.once('exit', resolve));
  lsp.child.kill('SIGTERM');
  await exited;
}

test("an imported or attached scrape's export has analyze's preemption and speech stream counters, also reopened", async () => {
  const body =
    fs.readFileSync(REPLICAS_SCRAPE, 'utf8') +
    '# TYPE vllm_omni:speech_stream_completed_total counter\nvllm_omni:speech_stream_completed_total{model_name="tts"} 42.0\n';
  const file = path.join(storage, 'counters.prom');
  fs.writeFileSync(file, body);
  const cli = analyzed(file);
  assert.deepEqual(cli.preemptions, [
    { stage: '0', replica: '0', count: 4 },
    { stage: '1', replica: '0', count: 0 },
    { stage: '1', replica: '1', count: 0 },
  ]);
  assert.deepEqual(cli.speechStreams, [{ modelName: 'tts', completed: 42, aborted: {}, abortedTotal: null }]);

  let lsp = await startLanguageServer(storage);
  const imported = (await lsp.importLog(file)).id;
  const endpoint = await attachedScrapeSession(lsp, body);
  for (const [id, name] of [
    [imported, 'imported'],
    [endpoint, 'attached'],
  ] as const) {
    const got = await exported(lsp, id, name);
    assert.deepEqual(got.preemptions, cli.preemptions, name);
    assert.deepEqual(got.speechStreams, cli.speechStreams, name);
  }
  await stopped(lsp);
  lsp = await startLanguageServer(storage);
  for (const [id, name] of [
    [imported, 'imported-reopened'],
    [endpoint, 'attached-reopened'],
  ] as const) {
    const got = await exported(lsp, id, name);
    assert.deepEqual(got.preemptions, cli.preemptions, name);
    assert.deepEqual(got.speechStreams, cli.speechStreams, name);
  }
  await stopped(lsp);
});

test('a scrape cut inside a family (a truncated file, a .prom.gz that ends, a served body) lists and exports the CLI findings, also reopened', async () => {
  const body = tokensBody();
  const text = path.join(storage, 'cut.prom');
  const gz = path.join(storage, 'cut.prom.gz');
  fs.writeFileSync(text, cutInsideLine(body));
  fs.writeFileSync(gz, gzipCutAtLineFeed(body));
  const cliText = analyzed(text);
  const cliGz = analyzed(gz);
  // The case at hand: the cut is said, the family it took is no metric-not-reporting.
  assert.deepEqual(
    cliText.findings.map((f) => f.code),
    ['input-cut-short'],
  );
  assert.deepEqual(
    cliGz.findings.map((f) => f.code),
    ['input-gzip-damaged'],
  );

  let lsp = await startLanguageServer(storage);
  const want = new Map<string, Json>();
  for (const [file, cli] of [
    [text, cliText],
    [gz, cliGz],
  ] as const) {
    const info = await lsp.importLog(file);
    assert.equal(info.importedScrape, true);
    want.set(info.id, cli);
  }
  // Served whole over HTTP, the body itself stopping inside a line: the session says what analyze says of that body.
  want.set(await attachedScrapeSession(lsp, cutInsideLine(body)), cliText);
  for (const [id, cli] of want) {
    const got = await exported(lsp, id, id);
    assert.deepEqual(got.listed, cli.findings, id);
    assert.deepEqual(got.findings, cli.findings, id);
    assert.deepEqual(got.preemptions, cli.preemptions, id);
  }
  await stopped(lsp);
  lsp = await startLanguageServer(storage);
  for (const [id, cli] of want) {
    const got = await exported(lsp, id, `${id}-reopened`);
    assert.deepEqual(got.listed, cli.findings, id);
    assert.deepEqual(got.findings, cli.findings, id);
    const summary = await lsp.request('stageLens/summary', { sessionId: id });
    assert.deepEqual(
      summary.findings.map((f) => f.code),
      cli.findings.map((f) => f.code),
      id,
    );
  }
  await stopped(lsp);
});

test('an imported scrape cut inside its last histogram series: the summary shows that series unknown, as analyze does, also reopened', async () => {
  const body = fs.readFileSync(REPLICAS_SCRAPE, 'utf8');
  const midCount = path.join(storage, 'series-mid-count.prom');
  const gz = path.join(storage, 'series-before-sum.prom.gz');
  // Its _count line `75.0` cut to `7`; a .prom.gz whose stream ends before its _sum line.
  fs.writeFileSync(midCount, cutInto(body, lastSeriesLine('_count'), ' 7'.length));
  fs.writeFileSync(gz, gzipCutBefore(body, lastSeriesLine('_sum')));
  const stage1Decode = (histograms: readonly HistogramSummary[]): unknown[] =>
    histograms
      .filter((h) => h.family === 'vllm:request_decode_time_seconds' && h.labels['stage'] === '1')
      .map(({ labels, count, sum, p50, p90, p99, caveat }) => ({
        replica: labels['replica'],
        count,
        sum,
        p50,
        p90,
        p99,
        caveat,
      }));
  const want = [
    { replica: '0', count: 75, sum: 94.99700000000001, p50: 1.25, p90: 2.138888888888889, p99: 3.125, caveat: null },
    {
      replica: '1',
      count: null,
      sum: null,
      p50: null,
      p90: null,
      p99: null,
      caveat:
        'The scrape is cut short before this series was read whole (its _count and the line after it), so its count, sum and quantiles are unknown, not measured.',
    },
  ];
  for (const file of [midCount, gz]) {
    const run = runCli(['analyze', file, '--format', 'json']);
    assert.equal(run.status, 0, run.stderr);
    assert.deepEqual(
      stage1Decode((JSON.parse(run.stdout) as { histograms: HistogramSummary[] }).histograms),
      want,
      file,
    );
  }
  let lsp = await startLanguageServer(storage);
  const ids = [(await lsp.importLog(midCount)).id, (await lsp.importLog(gz)).id];
  for (const id of ids) {
    const summary = await lsp.request('stageLens/summary', { sessionId: id });
    assert.deepEqual(stage1Decode(summary.histograms), want, id);
  }
  await stopped(lsp);
  lsp = await startLanguageServer(storage);
  for (const id of ids) {
    const summary = await lsp.request('stageLens/summary', { sessionId: id });
    assert.deepEqual(stage1Decode(summary.histograms), want, `${id} reopened`);
  }
  await stopped(lsp);
});
