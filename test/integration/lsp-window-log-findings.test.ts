// The findings that say what kind of log a session is (only vLLM engine stats lines, a gzip file
// cut short), over a real connection to the language server: a window's and a scope's summary
// carry them as the whole session's does, so a view of the last minutes still says why it has no
// request numbers or only some; `stage-lens analyze --since` (the built CLI as a child process)
// lists the same words.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as zlib from 'node:zlib';
import { after, before, test } from 'node:test';
import type { Finding, SummaryParams } from '../../server/protocol';
import { runCli } from './support/cliProcess';
import { startLanguageServer, storageForFile } from './support/lspProcess';

const ROOT = path.resolve(__dirname, '..', '..');
const FIXTURE = path.join(ROOT, 'test', 'fixtures', 'upstream-rendered', 'qwen3tts-talker-first-audio-after-fix.log');
const storage = storageForFile('stage-lens-window-log-findings-');
const narrower: Omit<SummaryParams, 'sessionId'>[] = [{ windowSeconds: 3600 }, { scope: { excludeCold: true } }];
let dir = '';

before(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stage-lens-window-log-findings-'));
});

after(() => {
  if (dir !== '') fs.rmSync(dir, { recursive: true, force: true });
});

/** A finding as `analyze --format json` prints it and the summary gives it. */
function said(f: Finding | undefined): [string, string, string] | undefined {
  return f === undefined ? undefined : [f.code, f.severity, f.message];
}

/** `stage-lens analyze <args> --format json`'s findings of `code`. */
function cliFindings(args: readonly string[], code: string): [string, string, string][] {
  const run = runCli(['analyze', ...args, '--format', 'json']);
  assert.equal(run.status, 0, run.stderr);
  const report = JSON.parse(run.stdout) as { findings: Finding[] };
  return report.findings.filter((f) => f.code === code).map((f) => said(f) as [string, string, string]);
}

const ENGINES_SAID =
  "The log has 6 vLLM engine stats lines (`Engine NNN:`, 2 engines) and no request: they say each engine's running and waiting requests, KV-cache usage and throughput at each stats interval, not any request's times, so they give no phase split. `stage-lens explain --format json` reads them for load over time (each engine's running / waiting / KV-cache usage, overTime.gauges).";

test(
  'a log of Engine lines only: a window and a scope say engine-stats-only as the whole session and analyze --since do, and a KV-cache usage stuck at 0',
  { timeout: 90_000 },
  async () => {
    const log = path.join(dir, 'engines.log');
    const lines: string[] = [];
    for (const second of [39, 49, 59])
      for (const engine of ['000', '001'])
        lines.push(
          `(APIServer pid=2963765) INFO 11-28 14:29:${second} [loggers.py:127] Engine ${engine}: ` +
            'Avg prompt throughput: 2549.0 tokens/s, Avg generation throughput: 2.4 tokens/s, ' +
            `Running: ${engine === '000' ? 4 : 3} reqs, Waiting: 2 reqs, GPU KV cache usage: ${engine === '000' ? '23.2' : '0.0'}%, Prefix cache hit rate: 0.0%`,
        );
    fs.writeFileSync(log, lines.join('\n') + '\n');

    const lsp = await startLanguageServer(storage);
    const session = await lsp.importLog(log);
    assert.equal(session.requestCount, 0);
    const whole = await lsp.request('stageLens/summary', { sessionId: session.id });
    const expected = ['engine-stats-only', 'info', ENGINES_SAID];
    // Engine 001 reads a KV-cache usage of 0 with requests running: a metric that does not report.
    const notReporting = whole.findings.filter((f) => f.code === 'metric-not-reporting');
    assert.deepEqual(
      whole.findings.map((f) => f.code),
      ['metric-not-reporting', 'engine-stats-only'],
    );
    assert.match(notReporting[0]?.message ?? '', /Engine 001: 3 of 3 lines with requests running read 0\.0%/);
    assert.deepEqual(whole.findings[1] === undefined ? undefined : said(whole.findings[1]), expected);
    for (const params of narrower) {
      const summary = await lsp.request('stageLens/summary', { sessionId: session.id, ...params });
      assert.equal(summary.requestCount, 0);
      assert.deepEqual(summary.findings, whole.findings, JSON.stringify(params));
    }
    const since = [log, '--since', '11-28 14:29:45'];
    assert.deepEqual(cliFindings(since, 'engine-stats-only'), [expected]);
    assert.deepEqual(cliFindings(since, 'metric-not-reporting'), notReporting.map(said));
  },
);

test(
  'a .gz log cut short: a window of some of its requests says where the data broke off and how many requests the log has before it',
  { timeout: 90_000 },
  async () => {
    const whole = zlib.gzipSync(fs.readFileSync(FIXTURE));
    const cut = path.join(dir, 'server.log.1.gz');
    fs.writeFileSync(cut, whole.subarray(0, whole.length >> 1));

    const lsp = await startLanguageServer(storage);
    const session = await lsp.importLog(cut);
    assert.equal(session.requestCount, 2);
    const wholeSummary = await lsp.request('stageLens/summary', { sessionId: session.id });
    const damaged = wholeSummary.findings.find((f) => f.code === 'input-gzip-damaged');
    assert.equal(damaged?.severity, 'warning');
    assert.match(
      damaged?.message ?? '',
      /^The gzip data ends after \d+ KB of log: unexpected end of file \(a \.gz file cut short, or damaged\): the 2 requests before it are read; the rest of the file is not\./,
    );
    for (const params of narrower) {
      const summary = await lsp.request('stageLens/summary', { sessionId: session.id, ...params });
      assert.deepEqual(
        summary.findings.filter((f) => f.code === 'input-gzip-damaged'),
        [damaged],
        `${JSON.stringify(params)}: ${summary.findings.map((f) => f.code).join(' ')}`,
      );
    }
    // A window of the second request: the log still has two before the break, as the session says.
    assert.deepEqual(cliFindings([cut, '--since', '10-19 07:12:07'], 'input-gzip-damaged'), [said(damaged)]);
  },
);
