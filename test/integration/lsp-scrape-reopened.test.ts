// A session that scraped a /metrics endpoint, stored, then opened again by another language
// server reports what its capture reported: its scrapes' unreadable lines (each once, as parse
// problems, in the session list's count and the export), a family registered but stuck at 0, a
// dead endpoint's error, and a last scrape cut short inside a line (its finding and the line it
// cut), for a session attached to the URL and for a launched server's log with its /metrics; and a
// window that follows a session another window captures lists its scrapes' lines as they come.
// Real language servers over stdio, real loopback HTTP servers, the real CLI for the expected
// findings and problems of the last body served.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { after, test } from 'node:test';
import { runCli } from './support/cliProcess';
import { cutInsideLine, cutLine, tokensBody } from './support/cutScrape';
import { startLanguageServer, storageForFile, type LspProcess } from './support/lspProcess';
import { waitFor } from './support/waitFor';

const storage = storageForFile('stage-lens-scrape-reopened-');
const FIXTURES = path.resolve(__dirname, '..', 'fixtures');
const ONE_OUTPUT = path.join(FIXTURES, 'scrapes', 'qwen3-tts-one-output.prom');
const LOG = path.join(FIXTURES, 'upstream-rendered', 'qwen3tts-talker-first-audio-after-fix.log');

interface Problem {
  readonly line: number;
  readonly message: string;
}

/** What the editor shows of a session: its list entry, its findings (listed and in the summary), its histograms, its export. */
interface Shown {
  readonly listed: Pick<
    NonNullable<Awaited<ReturnType<LspProcess['session']>>>,
    'problemCount' | 'lastError' | 'title'
  >;
  readonly findings: string[];
  readonly summaryFindings: string[];
  readonly histograms: string[];
  readonly exported: { findings: string[]; problems: Problem[] };
}

/** A loopback /metrics endpoint that serves `body`, or answers 503 while it is down. */
async function endpoint(
  body: string,
): Promise<{ url: string; served: () => number; serve: (b: string | null) => void }> {
  let exposed: string | null = body;
  let served = 0;
  const server = http.createServer((_req, res) => {
    served += 1;
    if (exposed === null) {
      res.writeHead(503).end('down');
      return;
    }
    res.writeHead(200, { 'content-type': 'text/plain; version=0.0.4; charset=utf-8' }).end(exposed);
  });
  after(() => server.close());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/metrics`,
    served: () => served,
    serve: (b) => {
      exposed = b;
    },
  };
}

async function scrapes(served: () => number, count: number): Promise<void> {
  const from = served();
  await waitFor(`${count} more scrapes`, () => (served() >= from + count ? true : undefined), 20_000, 50);
}

const words = (f: { code: string; stageId: number | null; message: string }): string =>
  `${f.code} ${f.stageId ?? '-'}: ${f.message}`;

async function shown(lsp: LspProcess, sessionId: string, name: string): Promise<Shown> {
  // The list entry first: a stored session's, before anything opens it.
  const info = await lsp.session(sessionId);
  assert.ok(info, sessionId);
  const summary = await lsp.request('stageLens/summary', { sessionId });
  const findings = await lsp.request('stageLens/findings', { sessionId });
  const out = path.join(storage, `${name}.export.json`);
  await lsp.request('stageLens/export', { sessionId, format: 'json', path: out });
  const exported = JSON.parse(fs.readFileSync(out, 'utf8')) as { findings: Finding[]; problems: Problem[] };
  // Opened and counted: the list says what the opened session holds.
  assert.equal((await lsp.session(sessionId))?.problemCount, info.problemCount, `${name}: the count once opened`);
  return {
    listed: { problemCount: info.problemCount, lastError: info.lastError, title: info.title },
    findings: findings.map(words),
    summaryFindings: summary.findings.map(words),
    histograms: summary.histograms.map((h) => `${h.family} ${JSON.stringify(h.labels)} ${h.count} ${h.caveat ?? ''}`),
    exported: { findings: exported.findings.map(words), problems: exported.problems },
  };
}

type Finding = { code: string; stageId: number | null; message: string };

/** What `stage-lens analyze --format json` says of a body: its findings and problems. */
function analyzed(body: string, name: string): { findings: string[]; problems: Problem[] } {
  const file = path.join(storage, `${name}.prom`);
  fs.writeFileSync(file, body);
  const run = runCli(['analyze', file, '--format', 'json']);
  assert.equal(run.status, 0, run.stderr);
  const json = JSON.parse(run.stdout) as { findings: Finding[]; problems: Problem[] };
  return { findings: json.findings.map(words), problems: json.problems };
}

async function stopped(lsp: LspProcess): Promise<void> {
  const exited = new Promise((resolve) => lsp.child.once('exit', resolve));
  lsp.child.kill('SIGTERM');
  await exited;
}

/** The fixture with its prefill family zeroed (registered, stuck at 0) and two lines no parser reads. */
function stuckBody(): string {
  const lines = fs
    .readFileSync(ONE_OUTPUT, 'utf8')
    .split('\n')
    .map((l) => (l.startsWith('vllm:request_prefill_time_seconds_') ? l.replace(/ \S+$/, ' 0.0') : l));
  lines.splice(30, 0, 'this is not a metric line {', 'vllm:bogus{stage="0" 1');
  return lines.join('\n');
}

test('an attached endpoint with unreadable lines, a family stuck at 0 and a dead spell, reopened: the same problems, findings and error', async () => {
  const body = stuckBody();
  const cli = analyzed(body, 'stuck');
  // The case at hand: the stuck family is a finding, the two lines are problems.
  assert.deepEqual(
    cli.findings.map((f) => f.split(' ')[0]),
    ['metric-not-reporting'],
  );
  assert.equal(cli.problems.length, 2);
  const served = await endpoint(body);
  let lsp = await startLanguageServer(storage);
  const info = await lsp.request('stageLens/scrape', { url: served.url, intervalMs: 100 });
  await scrapes(served.served, 5);
  // The endpoint goes down; the session says so and keeps its last scrape.
  served.serve(null);
  await waitFor('the dead endpoint', async () => (await lsp.session(info.id))?.lastError ?? undefined);
  await lsp.request('stageLens/stop', { sessionId: info.id });
  const live = await shown(lsp, info.id, 'stuck-live');
  assert.equal(live.listed.problemCount, 2);
  assert.match(live.listed.lastError ?? '', /^Cannot scrape http:\/\/127\.0\.0\.1:\d+\/metrics: .*503/);
  assert.deepEqual(live.findings, cli.findings);
  assert.deepEqual(live.summaryFindings, cli.findings);
  assert.deepEqual(live.exported, cli);
  assert.ok(live.histograms.length > 0);
  await stopped(lsp);

  lsp = await startLanguageServer(storage);
  assert.deepEqual(await shown(lsp, info.id, 'stuck-reopened'), live);
  await stopped(lsp);
});

test('a session whose last saved scrape was cut short inside a line, attached or launched with a log, reopened: the cut and its line as live', async () => {
  const whole = tokensBody();
  const cut = cutInsideLine(whole);
  const cli = analyzed(cut, 'cut');
  // The case at hand: the cut is a finding, and its line the one problem.
  assert.deepEqual(
    cli.findings.map((f) => f.split(' ')[0]),
    ['input-cut-short'],
  );
  assert.deepEqual(
    cli.problems.map((p) => p.line),
    [cutLine(whole)],
  );

  let lsp = await startLanguageServer(storage);
  // Attached to the URL: whole scrapes, then cut ones to the stop.
  const attachedEndpoint = await endpoint(whole);
  const attached = await lsp.request('stageLens/scrape', { url: attachedEndpoint.url, intervalMs: 100 });
  await scrapes(attachedEndpoint.served, 3);
  attachedEndpoint.serve(cut);
  await scrapes(attachedEndpoint.served, 3);
  await lsp.request('stageLens/stop', { sessionId: attached.id });
  // A launched server that prints its log and stays up, its /metrics whole, then cut.
  const launchedEndpoint = await endpoint(whole);
  const serve = `process.stdout.write(require('fs').readFileSync(${JSON.stringify(LOG)})); setInterval(() => {}, 1000);`;
  const launched = await lsp.request('stageLens/launch', {
    argv: [process.execPath, '-e', serve],
    cwd: FIXTURES,
    metricsUrl: launchedEndpoint.url,
  });
  await lsp.requestsRead(launched.id, 5);
  await scrapes(launchedEndpoint.served, 1);
  launchedEndpoint.serve(cut);
  await scrapes(launchedEndpoint.served, 1);
  await waitFor('the cut in the summary', async () => {
    const summary = await lsp.request('stageLens/summary', { sessionId: launched.id });
    return summary.findings.some((f) => f.code === 'input-cut-short') ? true : undefined;
  });
  await lsp.request('stageLens/stop', { sessionId: launched.id });

  const attachedLive = await shown(lsp, attached.id, 'attached-live');
  assert.deepEqual(attachedLive.findings, cli.findings);
  assert.deepEqual(attachedLive.exported, cli);
  assert.equal(attachedLive.listed.problemCount, 1);
  const launchedLive = await shown(lsp, launched.id, 'launched-live');
  // The log's findings, then the scrape's; the log has no unreadable line, the scrape its cut one.
  assert.equal(launchedLive.findings.at(-1), cli.findings[0]);
  assert.deepEqual(launchedLive.exported.problems, cli.problems);
  assert.equal(launchedLive.listed.problemCount, 1);
  await stopped(lsp);

  lsp = await startLanguageServer(storage);
  assert.deepEqual(await shown(lsp, attached.id, 'attached-reopened'), attachedLive);
  assert.deepEqual(await shown(lsp, launched.id, 'launched-reopened'), launchedLive);
  await stopped(lsp);
});

test('a session another window captures from an endpoint: its unreadable lines listed here as they come, the same as there', async () => {
  const first = stuckBody();
  const lines = first.split('\n');
  lines.splice(40, 0, 'vllm:other{ 2');
  const second = lines.join('\n');
  const served = await endpoint(first);
  const capturing = await startLanguageServer(storage);
  const following = await startLanguageServer(storage);
  const info = await capturing.request('stageLens/scrape', { url: served.url, intervalMs: 100 });
  await scrapes(served.served, 3);
  const count = (lsp: LspProcess) => async (): Promise<true | undefined> =>
    (await lsp.session(info.id))?.problemCount === want ? true : undefined;
  let want = 2;
  await waitFor('the two lines in the capturing window', count(capturing));
  // Opened in the other window while it is captured there.
  await following.request('stageLens/summary', { sessionId: info.id });
  await waitFor('the two lines in the following window', count(following));
  // A line the body did not have: said in the capturing window, then in the following one.
  served.serve(second);
  want = 3;
  await waitFor('the new line in the capturing window', count(capturing));
  await waitFor('the new line in the following window', count(following));
  const exportedBy = async (lsp: LspProcess, name: string): Promise<Problem[]> => {
    const out = path.join(storage, `${name}.export.json`);
    await lsp.request('stageLens/export', { sessionId: info.id, format: 'json', path: out });
    return (JSON.parse(fs.readFileSync(out, 'utf8')) as { problems: Problem[] }).problems;
  };
  const there = await exportedBy(capturing, 'capturing');
  assert.equal(there.length, 3);
  assert.deepEqual(await exportedBy(following, 'following'), there);
  await capturing.request('stageLens/stop', { sessionId: info.id });
  await waitFor('the stop in the following window', async () =>
    (await following.session(info.id))?.status === 'stopped' ? true : undefined,
  );
  assert.equal((await following.session(info.id))?.problemCount, 3);
  assert.deepEqual(await exportedBy(following, 'following-stopped'), there);
  await stopped(capturing);
  await stopped(following);
});
