// Import Log… of a gzip-compressed log (logrotate's server.log.1.gz) over a real connection to
// the language server: the session reads the log inside, as many requests as the plain file
// gives; a file cut short ends the import with what came before the cut, never an error, and
// the cut is a finding of the session (input-gzip-damaged) and a fact of its info (gzipDamaged),
// there again when it is reopened. Attach to Log File... (stageLens/tail) of a .gz imports it
// whole: a rotated log does not grow, and followed as text it would show nothing.
import { waitFor } from './support/waitFor';
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as zlib from 'node:zlib';
import type { Finding, SessionInfo, SummaryResult } from '../../server/protocol';
import { buildCli, DeployLspClient, ROOT } from './support/lspDeployHarness';
import { runCli } from './support/cliProcess';
import { byteSizeText } from '../../server/core/numberText';

const FIXTURE = path.join(ROOT, 'test', 'fixtures', 'upstream-rendered', 'qwen3tts-talker-first-audio-after-fix.log');

let client: DeployLspClient;
let scratch: string;

function startServer(): Promise<DeployLspClient> {
  return DeployLspClient.start({ diagnosticsDelayMs: 0, storageDir: path.join(scratch, 'sessions') });
}

before(async () => {
  buildCli();
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'stage-lens-import-gzip-'));
  client = await startServer();
});

after(async () => {
  await client.stop();
  fs.rmSync(scratch, { recursive: true, force: true });
});

async function importFile(name: string, bytes: Buffer): Promise<SessionInfo> {
  const file = path.join(scratch, name);
  fs.writeFileSync(file, bytes);
  const started = await client.request<SessionInfo>('stageLens/import', { path: file });
  return waitFor('the import to end', async () => {
    const info = (await client.request<SessionInfo[]>('stageLens/listSessions', {})).find((s) => s.id === started.id);
    return info?.status === 'exited' || info?.status === 'error' ? info : undefined;
  });
}

test('a .gz log imports as the plain log does; one cut short keeps the requests before the cut', async () => {
  const log = fs.readFileSync(FIXTURE);
  const plain = await importFile('server.log', log);
  assert.equal(plain.status, 'exited');
  assert.equal(plain.importedScrape, undefined);
  assert.ok(plain.requestCount > 1, String(plain.requestCount));

  const gz = await importFile('server.log.1.gz', zlib.gzipSync(log));
  assert.equal(gz.status, 'exited', gz.lastError ?? '');
  assert.equal(gz.requestCount, plain.requestCount);
  assert.equal(gz.lastError, null);
  // Whole inputs: nothing says their numbers are partial.
  assert.equal(plain.gzipDamaged, undefined);
  assert.equal(gz.gzipDamaged, undefined);

  // Cut in the middle: what a streaming gunzip gives of it is what the session holds.
  const whole = zlib.gzipSync(log);
  const cut = whole.subarray(0, whole.length >> 1);
  const prefix = zlib.gunzipSync(cut, { finishFlush: zlib.constants.Z_SYNC_FLUSH });
  const prefixSession = await importFile('prefix.log', prefix);
  const cutSession = await importFile('cut.log.1.gz', cut);
  assert.equal(cutSession.status, 'exited', cutSession.lastError ?? '');
  assert.equal(cutSession.requestCount, prefixSession.requestCount);
  assert.ok(
    cutSession.requestCount > 0 && cutSession.requestCount < plain.requestCount,
    String(cutSession.requestCount),
  );
  // Nothing of it is a compressed-file finding: it was read.
  const findings = await client.request<{ code: string }[]>('stageLens/findings', { sessionId: gz.id });
  assert.ok(!findings.some((f) => f.code === 'input-compressed'), JSON.stringify(findings.map((f) => f.code)));
});

/** The session's input-gzip-damaged finding as the side panel gets it (the summary), or undefined. */
async function gzipDamaged(sessionId: string): Promise<Finding | undefined> {
  const summary = await client.request<SummaryResult>('stageLens/summary', { sessionId });
  return summary.findings.find((f) => f.code === 'input-gzip-damaged');
}

test('a .gz log cut short: the cut is a finding of the session, live and after the server restarts', async () => {
  const whole = zlib.gzipSync(fs.readFileSync(FIXTURE));
  const cut = whole.subarray(0, whole.length >> 1);
  const prefix = zlib.gunzipSync(cut, { finishFlush: zlib.constants.Z_SYNC_FLUSH });
  const session = await importFile('damaged.log.1.gz', cut);
  assert.equal(session.status, 'exited', session.lastError ?? '');
  const before = session.requestCount;
  assert.ok(before > 0, String(before));

  const expected = {
    code: 'input-gzip-damaged',
    severity: 'warning',
    stageId: null,
    requestIds: [],
    requestCount: 0,
    message: `The gzip data ends after ${byteSizeText(prefix.length)} of log: unexpected end of file (a .gz file cut short, or damaged): the ${before} requests before it are read; the rest of the file is not. \`gzip -t\` tests the file; \`zcat\` prints what it can of it.`,
  };
  assert.deepEqual(await gzipDamaged(session.id), expected);
  const findings = await client.request<Finding[]>('stageLens/findings', { sessionId: session.id });
  assert.deepEqual(
    findings.filter((f) => f.code === 'input-gzip-damaged'),
    [expected],
  );
  assert.ok(session.problemCount >= 1, String(session.problemCount));
  // The session itself says where its data was cut, for the status bar and the views' headers.
  assert.deepEqual(session.gzipDamaged, { logBytes: prefix.length });

  // Another language server on the same storage opens the saved session: its stored bytes are
  // read again, and the damage with them.
  await client.stop();
  client = await startServer();
  const reopened = (await client.request<SessionInfo[]>('stageLens/listSessions', {})).find((s) => s.id === session.id);
  assert.equal(reopened?.requestCount, before);
  assert.deepEqual(reopened?.gzipDamaged, { logBytes: prefix.length });
  assert.deepEqual(await gzipDamaged(session.id), expected);
  const summary = await client.request<SummaryResult>('stageLens/summary', { sessionId: session.id });
  assert.equal(summary.requestCount, before);
});

test('a gzip /metrics scrape cut short: the import reads its series and has the finding `stage-lens analyze` gives', async () => {
  const scrape = fs.readFileSync(path.join(ROOT, 'test', 'fixtures', 'scrapes', 'qwen3-tts-codec-replicas.prom'));
  const whole = zlib.gzipSync(scrape);
  const cut = whole.subarray(0, whole.length >> 1);
  const session = await importFile('metrics.prom.gz', cut);
  assert.equal(session.status, 'exited', session.lastError ?? '');
  // The views treat it as a /metrics session: no per-request log to wait for.
  assert.equal(session.importedScrape, true);
  const prefix = zlib.gunzipSync(cut, { finishFlush: zlib.constants.Z_SYNC_FLUSH });
  assert.deepEqual(session.gzipDamaged, { logBytes: prefix.length });

  // The CLI's finding for the same file, in its JSON: the session's is the same, word for word.
  const analyzed = runCli(['analyze', path.join(scratch, 'metrics.prom.gz'), '--format', 'json']);
  assert.equal(analyzed.status, 0, analyzed.stderr);
  const cliJson = JSON.parse(analyzed.stdout) as { findings: Finding[]; histograms: { family: string }[] };
  const cliFinding = cliJson.findings.find((f) => f.code === 'input-gzip-damaged');
  assert.ok(cliFinding);
  assert.match(
    cliFinding.message,
    /^The gzip data ends after .* of the \/metrics scrape: .*the series before it are read;/,
  );
  const ofSession = async (): Promise<{ summary: SummaryResult; findings: Finding[] }> => ({
    summary: await client.request<SummaryResult>('stageLens/summary', { sessionId: session.id }),
    findings: await client.request<Finding[]>('stageLens/findings', { sessionId: session.id }),
  });
  const check = async (): Promise<void> => {
    const { summary, findings } = await ofSession();
    assert.deepEqual(await gzipDamaged(session.id), cliFinding);
    assert.deepEqual(
      findings.filter((f) => f.code === 'input-gzip-damaged'),
      [cliFinding],
    );
    // "The series before it are read": the session holds the histograms the CLI read of it.
    assert.deepEqual(
      summary.histograms.map((h) => h.family),
      cliJson.histograms.map((h) => h.family),
    );
    assert.ok(summary.histograms.length > 0);
  };
  await check();
  // Reopened by another language server on the same storage: the same finding and series.
  await client.stop();
  client = await startServer();
  await check();
  const reopened = (await client.request<SessionInfo[]>('stageLens/listSessions', {})).find((s) => s.id === session.id);
  assert.equal(reopened?.importedScrape, true);

  // The whole scrape: its series, no such finding.
  const wholeSession = await importFile('metrics-whole.prom.gz', whole);
  assert.equal(wholeSession.importedScrape, true);
  assert.equal(await gzipDamaged(wholeSession.id), undefined);
  const wholeSummary = await client.request<SummaryResult>('stageLens/summary', { sessionId: wholeSession.id });
  assert.ok(wholeSummary.histograms.length >= cliJson.histograms.length, String(wholeSummary.histograms.length));
});

test('Attach to Log File... of a .gz reads it whole, as an import, instead of following gzip bytes as text', async () => {
  const log = fs.readFileSync(FIXTURE);
  const plain = await importFile('attached-plain.log', log);
  const file = path.join(scratch, 'attached.log.1.gz');
  fs.writeFileSync(file, zlib.gzipSync(log));
  const started = await client.request<SessionInfo>('stageLens/tail', { path: file, fromStart: false });
  assert.equal(started.kind, 'import');
  const done = await waitFor('the attached .gz to be read', async () => {
    const info = (await client.request<SessionInfo[]>('stageLens/listSessions', {})).find((s) => s.id === started.id);
    return info?.status === 'exited' || info?.status === 'error' ? info : undefined;
  });
  assert.equal(done.status, 'exited', done.lastError ?? '');
  assert.equal(done.requestCount, plain.requestCount);
  const findings = await client.request<Finding[]>('stageLens/findings', { sessionId: started.id });
  assert.ok(!findings.some((f) => f.code === 'input-compressed'), JSON.stringify(findings.map((f) => f.code)));
});

test('explain of a cut .gz import’s session folder says it is partial, in its header and findings, as explain of the file does', async () => {
  const whole = zlib.gzipSync(fs.readFileSync(FIXTURE));
  const file = path.join(scratch, 'explained.log.1.gz');
  const session = await importFile('explained.log.1.gz', whole.subarray(0, whole.length >> 1));
  const folder = path.join(scratch, 'sessions', 'sessions', session.id);
  const explain = (input: string, format: 'table' | 'json') => {
    const run = runCli(['explain', input, '--format', format]);
    assert.equal(run.status, 0, run.stderr);
    return run;
  };
  const header = (input: string): string =>
    (explain(input, 'table').stdout.split('\n')[0] ?? '').replace(input, '<input>');
  assert.match(header(file), /^Stage Lens explain: <input> \(gzip\), partial: /);
  // The file's header names it a gzip input; the folder's is the folder, with the same partial mark.
  assert.equal(header(folder), header(file).replace('<input> (gzip)', '<input>'));
  const codes = (input: string): string[] =>
    (JSON.parse(explain(input, 'json').stdout) as { findings: { code: string; message: string }[] }).findings
      .filter((f) => f.code === 'input-gzip-damaged')
      .map((f) => f.message);
  assert.equal(codes(file).length, 1);
  assert.deepEqual(codes(folder), codes(file));
  assert.equal(explain(folder, 'table').stderr, explain(file, 'table').stderr.replace(file, folder));
});
