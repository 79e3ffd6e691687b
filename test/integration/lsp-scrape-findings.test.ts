// A /metrics scrape's findings (a family registered but stuck at 0) and the lines it could not
// read, over a real connection to the language server: an Import Log... of a saved scrape (text
// or .prom.gz) and a session attached to a /metrics URL on loopback list and export the findings
// `stage-lens analyze --format json` prints for the same body, word for word and in its order (a
// cut .gz's break after the scrape's findings); an import records its unreadable lines as its
// parse problems, as the CLI does; all of it there again when the session is reopened.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as zlib from 'node:zlib';
import { test } from 'node:test';
import type { Finding } from '../../server/protocol';
import { runCli } from './support/cliProcess';
import { startLanguageServer, storageForFile, type LspProcess } from './support/lspProcess';
import { waitFor } from './support/waitFor';
import { metricsEndpoint } from './support/metricsEndpoint';

const storage = storageForFile('stage-lens-scrape-findings-');

const FIXTURE = path.resolve(__dirname, '..', 'fixtures', 'scrapes', 'qwen3-tts-one-output.prom');

/**
 * The fixture with every vllm:request_prefill_time_seconds series zeroed (a build whose stats path
 * does not deliver) and two lines no exposition parser can read, after its 30th line.
 */
function stuckBody(): string {
  const lines = fs
    .readFileSync(FIXTURE, 'utf8')
    .split('\n')
    .map((l) => (l.startsWith('vllm:request_prefill_time_seconds_') ? l.replace(/ \S+$/, ' 0.0') : l));
  lines.splice(30, 0, 'this is not a metric line {', 'vllm:bogus{stage="0" 1');
  return lines.join('\n');
}

interface AnalyzeJson {
  readonly findings: Finding[];
  readonly problems: { line: number; message: string }[];
}

function analyzed(file: string): AnalyzeJson {
  const run = runCli(['analyze', file, '--format', 'json']);
  assert.equal(run.status, 0, run.stderr);
  return JSON.parse(run.stdout) as AnalyzeJson;
}

/** A listed finding's fields that the JSON of `analyze` and of an export holds (the protocol's has its evidence too). */
function jsonFields(
  f: Finding,
): Pick<Finding, 'code' | 'severity' | 'stageId' | 'requestIds' | 'requestCount' | 'message'> {
  const { code, severity, stageId, requestIds, requestCount, message } = f;
  return { code, severity, stageId, requestIds, requestCount, message };
}

/** The session's findings as stageLens/findings answers and as its JSON export writes them, with the export's problems. */
async function findingsOf(
  lsp: LspProcess,
  sessionId: string,
  name: string,
): Promise<AnalyzeJson & { listed: Finding[] }> {
  const listed = await lsp.request('stageLens/findings', { sessionId });
  const out = path.join(storage, `${name}.export.json`);
  await lsp.request('stageLens/export', { sessionId, format: 'json', path: out });
  const exported = JSON.parse(fs.readFileSync(out, 'utf8')) as AnalyzeJson;
  return { listed, findings: exported.findings, problems: exported.problems };
}

async function stopped(lsp: LspProcess): Promise<void> {
  const exited = new Promise((resolve) => lsp.child.once('exit', resolve));
  lsp.child.kill('SIGTERM');
  await exited;
}

test('an imported /metrics scrape (text, .prom.gz, one cut short) lists and exports the findings and problems the CLI prints, also reopened', async () => {
  const body = stuckBody();
  const text = path.join(storage, 'metrics.prom');
  const gz = path.join(storage, 'metrics.prom.gz');
  const cut = path.join(storage, 'cut.prom.gz');
  fs.writeFileSync(text, body);
  const whole = zlib.gzipSync(body);
  fs.writeFileSync(gz, whole);
  // Cut after the prefill family (whose zeros are the finding), inside a line of the decode family
  // after it: the gzip stream of that text without its trailer ends there.
  const cutAt = body.indexOf('vllm:request_decode_time_seconds_bucket') + 60;
  fs.writeFileSync(cut, zlib.gzipSync(body.slice(0, cutAt)).subarray(0, -8));
  const cli = analyzed(text);
  // The case at hand: the CLI has the finding and the two unreadable lines.
  assert.deepEqual(
    cli.findings.map((f) => f.code),
    ['metric-not-reporting'],
  );
  assert.match(cli.findings[0]?.message ?? '', /^vllm:request_prefill_time_seconds is registered but reads 0/);
  assert.deepEqual(cli.problems, [
    { line: 31, message: 'metrics: invalid sample value "is"' },
    { line: 32, message: 'metrics: expected "," or "}" after label "stage"' },
  ]);
  assert.deepEqual(analyzed(gz), cli);
  // Cut short: the scrape's findings, then where its data broke off (a finding, not a line of it).
  const cliCut = analyzed(cut);
  assert.equal(cliCut.findings.at(-1)?.code, 'input-gzip-damaged');
  assert.ok(cliCut.findings.some((f) => f.code === 'metric-not-reporting'));
  // The two unreadable lines, and the line the cut left half written.
  assert.deepEqual(cliCut.problems.slice(0, 2), cli.problems);
  assert.equal(cliCut.problems.length, 3);
  const expected = new Map([
    [text, cli],
    [gz, cli],
    [cut, cliCut],
  ]);

  let lsp = await startLanguageServer(storage);
  const sessions = new Map<string, AnalyzeJson>();
  for (const [file, want] of expected) {
    const info = await lsp.importLog(file);
    assert.equal(info.importedScrape, true);
    // Its unreadable lines are the session's parse problems, as a log's are.
    assert.equal(info.problemCount, want.problems.length);
    const got = await findingsOf(lsp, info.id, path.basename(file));
    assert.deepEqual(got.listed.map(jsonFields), want.findings);
    assert.deepEqual(got.findings, want.findings);
    assert.deepEqual(got.problems, want.problems);
    sessions.set(info.id, want);
  }

  // Another language server on the same storage reads the saved sessions again: the same.
  await stopped(lsp);
  lsp = await startLanguageServer(storage);
  for (const [id, want] of sessions) {
    const got = await findingsOf(lsp, id, `${id}-reopened`);
    assert.deepEqual(got.listed.map(jsonFields), want.findings);
    assert.deepEqual(got.findings, want.findings);
    assert.deepEqual(got.problems, want.problems);
    const summary = await lsp.request('stageLens/summary', { sessionId: id });
    assert.deepEqual(summary.findings.map(jsonFields), want.findings);
    assert.equal((await lsp.session(id))?.problemCount, want.problems.length);
  }
  await stopped(lsp);
});

test('a session attached to a /metrics URL on loopback lists and exports the findings the CLI prints for its body, also reopened', async () => {
  const body = stuckBody();
  const file = path.join(storage, 'served.prom');
  fs.writeFileSync(file, body);
  const cli = analyzed(file);
  const endpoint = await metricsEndpoint(body);
  const lsp = await startLanguageServer(storage);
  const info = await lsp.request('stageLens/scrape', { url: endpoint.url, intervalMs: 200 });
  await waitFor('a scrape in the summary', async () => {
    const summary = await lsp.request('stageLens/summary', { sessionId: info.id });
    return endpoint.served() > 0 && summary.histograms.length > 0 ? true : undefined;
  });
  const summary = await lsp.request('stageLens/summary', { sessionId: info.id });
  assert.deepEqual(summary.findings.map(jsonFields), cli.findings);
  const got = await findingsOf(lsp, info.id, 'attached');
  assert.deepEqual(got.listed.map(jsonFields), cli.findings);
  assert.deepEqual(got.findings, cli.findings);
  await lsp.request('stageLens/stop', { sessionId: info.id });
  await stopped(lsp);

  // Reopened by another language server: its scrapes' findings are kept with the session, as its rows are.
  const reopened = await startLanguageServer(storage);
  const again = await findingsOf(reopened, info.id, 'attached-reopened');
  assert.deepEqual(again.listed.map(jsonFields), cli.findings);
  assert.deepEqual(again.findings, cli.findings);
  const summaryAgain = await reopened.request('stageLens/summary', { sessionId: info.id });
  assert.deepEqual(summaryAgain.findings.map(jsonFields), cli.findings);
  assert.ok(summaryAgain.histograms.length > 0);
  await stopped(reopened);
});

test('Compare Sessions of a whole imported scrape and one cut short says where the candidate broke off', async () => {
  const whole = zlib.gzipSync(stuckBody());
  const wholeFile = path.join(storage, 'compare-whole.prom.gz');
  const cutFile = path.join(storage, 'compare-cut.prom.gz');
  fs.writeFileSync(wholeFile, whole);
  fs.writeFileSync(cutFile, whole.subarray(0, Math.floor(whole.length * 0.8)));
  const damage = analyzed(cutFile).findings.find((f) => f.code === 'input-gzip-damaged');
  assert.ok(damage);
  const lsp = await startLanguageServer(storage);
  const baseline = await lsp.importLog(wholeFile);
  const candidate = await lsp.importLog(cutFile);
  const { report } = await lsp.request('stageLens/compare', {
    baseline: { sessionId: baseline.id },
    candidate: { sessionId: candidate.id },
  });
  const candidateNotes = report.notes.filter((n) => n.startsWith(`The candidate (import session ${candidate.id} `));
  assert.deepEqual(
    candidateNotes.map((n) => n.slice(n.indexOf('): ') + 3)),
    [damage.message],
  );
  await stopped(lsp);
});
