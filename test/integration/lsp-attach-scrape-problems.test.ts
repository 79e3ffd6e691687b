// A session attached to a /metrics URL lists the lines its scrapes cannot read among its parse
// problems (what the side panel's Input problems shows), as an import of the same body does and
// `stage-lens analyze` prints them: each bad line once however many scrapes repeat it, a new one
// when the body changes, and no more than a bounded number of them over all scrapes. Real language
// server over stdio, real loopback HTTP servers, the real CLI for the expected problems.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { after, test } from 'node:test';
import { MAX_LISTED_SCRAPE_PROBLEMS } from '../../server/capture/scrapeProblemLedger';
import { runCli } from './support/cliProcess';
import { startLanguageServer, storageForFile, type LspProcess } from './support/lspProcess';
import { metricsEndpoint } from './support/metricsEndpoint';
import { waitFor } from './support/waitFor';

const storage = storageForFile('stage-lens-attach-scrape-problems-');

const FIXTURE = path.resolve(__dirname, '..', 'fixtures', 'scrapes', 'qwen3-tts-one-output.prom');

interface Problem {
  line: number;
  message: string;
}

/** The fixture with `bad` lines no exposition parser can read after its 30th line. */
function bodyWith(bad: readonly string[]): string {
  const lines = fs.readFileSync(FIXTURE, 'utf8').split('\n');
  lines.splice(30, 0, ...bad);
  return lines.join('\n');
}

/** The problems `stage-lens analyze --format json` prints for a body. */
function cliProblems(body: string, name: string): Problem[] {
  const file = path.join(storage, `${name}.prom`);
  fs.writeFileSync(file, body);
  const run = runCli(['analyze', file, '--format', 'json']);
  assert.equal(run.status, 0, run.stderr);
  return (JSON.parse(run.stdout) as { problems: Problem[] }).problems;
}

/** The session's parse problems as its JSON export writes them. */
async function exportedProblems(lsp: LspProcess, sessionId: string, name: string): Promise<Problem[]> {
  const out = path.join(storage, `${name}.export.json`);
  await lsp.request('stageLens/export', { sessionId, format: 'json', path: out });
  return (JSON.parse(fs.readFileSync(out, 'utf8')) as { problems: Problem[] }).problems;
}

async function afterScrapes(served: () => number, count: number): Promise<void> {
  const from = served();
  await waitFor(`${count} more scrapes`, () => (served() >= from + count ? true : undefined), 20_000, 50);
}

test('an attached endpoint: its malformed lines are the session parse problems an import of the body has, once each over many scrapes', async () => {
  const first = bodyWith(['this is not a metric line {', 'vllm:bogus{stage="0" 1']);
  const want = cliProblems(first, 'first');
  assert.equal(want.length, 2);
  assert.match(want[0]?.message ?? '', /^metrics: /);
  const endpoint = await metricsEndpoint(first);
  const lsp = await startLanguageServer(storage);
  const info = await lsp.request('stageLens/scrape', { url: endpoint.url, intervalMs: 100 });
  await afterScrapes(endpoint.served, 8);
  // Scrapes are in: the two lines are listed once, not once per scrape.
  await waitFor('the problems', async () => ((await lsp.session(info.id))?.problemCount === 2 ? true : undefined));
  assert.deepEqual(await exportedProblems(lsp, info.id, 'first'), want);
  // An import of the same body lists the same problems.
  const imported = await lsp.importLog(path.join(storage, 'first.prom'));
  assert.deepEqual(await exportedProblems(lsp, imported.id, 'first-imported'), want);

  // The body changes: its new bad line is listed too, the ones listed before are not again.
  const second = bodyWith(['this is not a metric line {', 'vllm:bogus{stage="0" 1', 'vllm:other{ 2']);
  const wantSecond = cliProblems(second, 'second');
  assert.equal(wantSecond.length, 3);
  endpoint.serve(second);
  await afterScrapes(endpoint.served, 8);
  await waitFor('the new problem', async () => ((await lsp.session(info.id))?.problemCount === 3 ? true : undefined));
  await afterScrapes(endpoint.served, 5);
  assert.equal((await lsp.session(info.id))?.problemCount, 3);
  assert.deepEqual(await exportedProblems(lsp, info.id, 'second'), [...want, wantSecond[2]]);
  await lsp.request('stageLens/stop', { sessionId: info.id });
});

test('an attached endpoint whose bad lines differ in every scrape: the list stops at its bound and says so', async () => {
  let served = 0;
  // Each scrape: 40 bad lines at lines no scrape before had them (blank lines before them move them on).
  const server = http.createServer((_req, res) => {
    served += 1;
    const bad = [...Array<string>(40 * served).fill(''), ...Array.from({ length: 40 }, (_, i) => `bad line ${i} {`)];
    res.writeHead(200, { 'content-type': 'text/plain; version=0.0.4; charset=utf-8' });
    res.end(bodyWith(bad));
  });
  after(() => server.close());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/metrics`;
  const lsp = await startLanguageServer(storage);
  const info = await lsp.request('stageLens/scrape', { url, intervalMs: 100 });
  const bound = MAX_LISTED_SCRAPE_PROBLEMS + 1;
  await waitFor('the bound', async () => ((await lsp.session(info.id))?.problemCount === bound ? true : undefined));
  await afterScrapes(() => served, 5);
  assert.equal((await lsp.session(info.id))?.problemCount, bound);
  const problems = await exportedProblems(lsp, info.id, 'bounded');
  assert.equal(problems.length, bound);
  assert.equal(
    problems[MAX_LISTED_SCRAPE_PROBLEMS]?.message,
    `metrics: more than ${MAX_LISTED_SCRAPE_PROBLEMS} different malformed lines in the endpoint's scrapes; the later ones are not listed (the terminal says how many a scrape has when that changes)`,
  );
  await lsp.request('stageLens/stop', { sessionId: info.id });
});
