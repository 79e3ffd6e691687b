// A launched server with a log and a /metrics endpoint (its codec stage on two replicas), compared
// over a real connection to the language server, live and from its saved session folder with
// `stage-lens compare` as a real child process: the scrape's histograms are read as a saved copy of
// its last scrape is, a stage's replicas added (one row of 150, not two rows of 75), the same in
// the editor and the CLI; its unreadable lines counted alike too: its log's and its last scrape's
// (not every line its earlier scrapes could not read).
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { startLanguageServer, storageForFile } from './support/lspProcess';
import { cliCompare, withSources } from './support/compareReport';
import { metricsEndpoint } from './support/metricsEndpoint';
import { runCli } from './support/cliProcess';
import { waitFor } from './support/waitFor';
import { cutInsideLine, tokensBody } from './support/cutScrape';

const storage = storageForFile('stage-lens-compare-launched-scrape-');
const FIXTURES = path.resolve(__dirname, '..', 'fixtures');
const LOG = path.join(FIXTURES, 'upstream-rendered', 'qwen3tts-talker-first-audio-after-fix.log');
const REPLICAS = path.join(FIXTURES, 'scrapes', 'qwen3-tts-codec-replicas.prom');

test(
  'a launched session with a log and a /metrics endpoint compares its scrape with a stage’s replicas added, in the editor and from its folder',
  { timeout: 90_000 },
  async () => {
    const endpoint = await metricsEndpoint(fs.readFileSync(REPLICAS, 'utf8'));
    const lsp = await startLanguageServer(storage);
    // A server that prints its stats tables and stays up.
    const serve = `process.stdout.write(require('fs').readFileSync(${JSON.stringify(LOG)})); setInterval(() => {}, 1000);`;
    const launched = await lsp.request('stageLens/launch', {
      argv: [process.execPath, '-e', serve],
      cwd: FIXTURES,
      metricsUrl: endpoint.url,
    });
    await lsp.requestsRead(launched.id, 1);
    await waitFor('a scrape in the summary', async () =>
      (await lsp.request('stageLens/summary', { sessionId: launched.id })).histograms.length > 0 ? true : undefined,
    );

    await lsp.request('stageLens/stop', { sessionId: launched.id });
    const { report } = await lsp.request('stageLens/compare', {
      baseline: { sessionId: launched.id },
      candidate: { sessionId: launched.id },
    });
    const codecTtft = (histograms: typeof report.histograms): [string, number | null | undefined][] =>
      histograms
        .filter((h) => h.family === 'vllm:time_to_first_token_seconds')
        .map((h) => [JSON.stringify(h.labels), h.candidate?.count]);
    assert.deepEqual(codecTtft(report.histograms), [
      ['{"stage":"0"}', 150],
      ['{"stage":"1"}', 150],
    ]);
    // The log's six requests (its expected.json), the last one's record ended by the stop.
    assert.equal(report.candidate.requestCount, 6);

    const folder = path.join(storage, 'sessions', launched.id);
    const cli = cliCompare(folder, folder);
    assert.deepEqual(codecTtft(cli.json.histograms), codecTtft(report.histograms));
    assert.deepEqual(
      withSources(cli.json, folder, folder),
      withSources(report, report.baseline.source, report.candidate.source),
    );
  },
);

test('compare names a log’s stages in its findings by the roles its tables name them with, as analyze does', () => {
  const compared = cliCompare(LOG, LOG).json;
  assert.deepEqual(compared.stageRoles, { '0': 'talker', '1': 'code2wav' });
  const analyzed = runCli(['analyze', LOG, '--format', 'json']);
  assert.equal(analyzed.status, 0, analyzed.stderr);
  const analyzeMessages = (JSON.parse(analyzed.stdout) as { findings: { message: string }[] }).findings.map(
    (f) => f.message,
  );
  assert.deepEqual(
    compared.findings.map((f) => f.message.slice(0, 30)),
    [
      'On 6 of 6 requests with an [Om',
      'Stage 0 · talker preempted 1 o',
      'Stage 0 · talker emits one out',
      'Stage 1 · code2wav reports a v',
      "Stage 1 · code2wav's vllm_ttft",
    ],
  );
  for (const f of compared.findings) assert.ok(analyzeMessages.includes(f.message), f.message);
});

test('a launched session whose scrapes had unreadable lines, the last one cut short: the same count and notes in the editor and from its folder', async () => {
  const whole = tokensBody();
  const withLine = (line: string): string => whole.replace('\n# TYPE', `\n${line}\n# TYPE`);
  const endpoint = await metricsEndpoint(withLine('this is not a metric line {'));
  const lsp = await startLanguageServer(storage);
  const serve = `process.stdout.write(require('fs').readFileSync(${JSON.stringify(LOG)})); setInterval(() => {}, 1000);`;
  const launched = await lsp.request('stageLens/launch', {
    argv: [process.execPath, '-e', serve],
    cwd: FIXTURES,
    metricsUrl: endpoint.url,
  });
  await lsp.requestsRead(launched.id, 5);
  await waitFor('a scrape', () => (endpoint.served() > 0 ? true : undefined));
  // The last scrapes: another unreadable line, and the body cut inside a line.
  endpoint.serve(cutInsideLine(withLine('vllm:other{ 2')));
  const from = endpoint.served();
  await waitFor('two more scrapes', () => (endpoint.served() >= from + 2 ? true : undefined));
  await waitFor('the cut in the summary', async () =>
    (await lsp.request('stageLens/summary', { sessionId: launched.id })).findings.some(
      (f) => f.code === 'input-cut-short',
    )
      ? true
      : undefined,
  );
  await lsp.request('stageLens/stop', { sessionId: launched.id });
  // The session lists all three lines its scrapes could not read.
  assert.equal((await lsp.session(launched.id))?.problemCount, 3);

  const { report } = await lsp.request('stageLens/compare', {
    baseline: { sessionId: launched.id },
    candidate: { sessionId: launched.id },
  });
  // The log has none; the last scrape two: its other line and the line it ends inside.
  assert.equal(report.baseline.problemCount, 2);
  assert.ok(
    report.notes.includes(
      'Unreadable lines or series: 2 in the baseline, 2 in the candidate (skipped; `stage-lens analyze` lists them).',
    ),
    report.notes.join('\n'),
  );
  const folder = path.join(storage, 'sessions', launched.id);
  const cli = cliCompare(folder, folder);
  assert.deepEqual(
    withSources(cli.json, folder, folder),
    withSources(report, report.baseline.source, report.candidate.source),
  );
});
