// The findings that say what kind of log a session is (only vLLM engine stats lines, a gzip file
// cut short, stats dicts of the older format), over a real connection to the language server: a
// window's and a scope's summary carry them as the whole session's does, so a view of the last
// minutes or of one boot still says why it has no request numbers or only some. Their figures
// are the log's, and a view says how many of the log's requests it holds; `stage-lens analyze
// --since` and `--boot` (the built CLI as a child process) list the same words, but for the
// Engine lines a --since window counts: its own.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as zlib from 'node:zlib';
import { after, before, test } from 'node:test';
import type { Finding, SummaryParams } from '../../server/protocol';
import { runCli } from './support/cliProcess';
import { startLanguageServer, storageForFile } from './support/lspProcess';
import { bootLines, bootsLog, engineLinesBootsLog } from './support/bootLog';

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

/** `stage-lens analyze <args> --format json`'s findings of `code`; `status`: the exit status it must end with. */
function cliFindings(args: readonly string[], code: string, status = 0): [string, string, string][] {
  const run = runCli(['analyze', ...args, '--format', 'json']);
  assert.equal(run.status, status, run.stderr);
  const report = JSON.parse(run.stdout) as { findings: Finding[] };
  return report.findings.filter((f) => f.code === code).map((f) => said(f) as [string, string, string]);
}

const ENGINES_SAID =
  "The log has 6 vLLM engine stats lines (`Engine NNN:`, 2 engines) and no request: they say each engine's running and waiting requests, KV-cache usage and throughput at each stats interval, not any request's times, so they give no phase split. `stage-lens explain --format json` reads them for load over time (each engine's running / waiting / KV-cache usage, overTime.gauges).";

test(
  "a log of Engine lines only: a window and a scope say engine-stats-only as the whole session does, analyze --since of the window's lines, and a KV-cache usage stuck at 0",
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
    // Cold starts left out keep every line; the last hour of the capture judges the log's lines
    // and says so (capture time is not the log clock the lines are placed on).
    const scoped = await lsp.request('stageLens/summary', { sessionId: session.id, scope: { excludeCold: true } });
    assert.equal(scoped.requestCount, 0);
    assert.deepEqual(scoped.findings, whole.findings);
    const lastHour = await lsp.request('stageLens/summary', { sessionId: session.id, windowSeconds: 3600 });
    assert.equal(lastHour.requestCount, 0);
    assert.deepEqual(lastHour.findings.map(said), [
      [
        'metric-not-reporting',
        'warning',
        notReporting[0]?.message.replace('3 of 3 lines with', '3 of 3 lines of the log with'),
      ],
      expected,
    ]);
    // From 14:29:45: the lines of 14:29:49 and 14:29:59, placed on the log clock by the first line.
    const since = [log, '--since', '11-28 14:29:45'];
    assert.deepEqual(cliFindings(since, 'engine-stats-only'), [
      [
        'engine-stats-only',
        'info',
        ENGINES_SAID.replace('6 vLLM engine stats lines', '4 vLLM engine stats lines in the window'),
      ],
    ]);
    assert.deepEqual(cliFindings(since, 'metric-not-reporting'), [
      [
        'metric-not-reporting',
        'warning',
        notReporting[0]?.message.replace('3 of 3 lines with', '2 of 2 lines in the window with'),
      ],
    ]);
  },
);

test(
  "engine-stats-only says what kind of log it is: over the log's every Engine line in a boot, and not at all in a boot or window without requests of a log that has some",
  { timeout: 90_000 },
  async () => {
    // One Engine line before the server's start (boot 0), three after it (boot 1): no request.
    const engineOnly = path.join(dir, 'engines-around-start.log');
    const engine = (clock: string, kv: string): string =>
      `(APIServer pid=7001) INFO 10-19 ${clock} [v1/metrics/loggers.py:127] Engine 000: Avg prompt throughput: 0.0 tokens/s, Avg generation throughput: 0.0 tokens/s, Running: 1 reqs, Waiting: 0 reqs, GPU KV cache usage: ${kv}%, Prefix cache hit rate: 0.0%\n`;
    fs.writeFileSync(
      engineOnly,
      engine('06:59:50', '5.0') +
        bootLines('Qwen/Qwen3-Omni-30B-A3B-Instruct') +
        ['07:00:10', '07:00:20', '07:00:30'].map((t) => engine(t, '5.0')).join(''),
    );
    const logSaid = ENGINES_SAID.replace('6 vLLM engine stats lines', '4 vLLM engine stats lines').replace(
      '2 engines',
      '1 engine',
    );
    const lsp = await startLanguageServer(storage);
    const session = await lsp.importLog(engineOnly);
    const whole = await lsp.request('stageLens/summary', { sessionId: session.id });
    assert.deepEqual(whole.findings.map(said), [['engine-stats-only', 'info', logSaid]]);
    // The log has no boot with a request (exit 2), and is still a log of 4 Engine lines.
    assert.deepEqual(cliFindings([engineOnly, '--boot', '1'], 'engine-stats-only', 2), [
      ['engine-stats-only', 'info', logSaid],
    ]);

    // A log with requests: a window or a boot that holds none of them is no log of Engine lines alone.
    const withRequests = path.join(dir, 'engines-and-requests.log');
    fs.writeFileSync(withRequests, engine('06:59:50', '5.0') + engineLinesBootsLog());
    const served = await lsp.importLog(withRequests);
    assert.equal(served.requestCount, 9);
    const none = await lsp.request('stageLens/summary', {
      sessionId: served.id,
      scope: { boot: 0 },
    });
    assert.equal(none.requestCount, 0);
    assert.deepEqual(
      none.findings.filter((f) => f.code === 'engine-stats-only'),
      [],
    );
    assert.deepEqual(cliFindings([withRequests, '--boot', '0'], 'engine-stats-only', 2), []);
    assert.deepEqual(cliFindings([withRequests, '--since', '10-23 00:00'], 'engine-stats-only', 2), []);
  },
);

test(
  "a boot's view judges a KV-cache usage stuck at 0 over that boot's Engine lines, in analyze --boot and the scoped summary alike",
  { timeout: 90_000 },
  async () => {
    // Boot 2's one Engine line reads 0.0% with 2 requests running; boot 1's two read 10.0%.
    const log = path.join(dir, 'boot-two-kv-zero.log');
    fs.writeFileSync(
      log,
      engineLinesBootsLog().replace(
        /(INFO 10-22 09:31:30 .*GPU KV cache usage: )10\.0%/,
        (_, head: string) => `${head}0.0%`,
      ),
    );
    const lsp = await startLanguageServer(storage);
    const session = await lsp.importLog(log);
    const notReporting = async (scope: SummaryParams['scope']): Promise<string[]> =>
      (
        await lsp.request('stageLens/summary', { sessionId: session.id, ...(scope === undefined ? {} : { scope }) })
      ).findings
        .filter((f) => f.code === 'metric-not-reporting')
        .map((f) => f.message);
    // Over the whole log, 1 of its 3 lines with requests running reads 0: no finding.
    assert.deepEqual(await notReporting(undefined), []);
    const bootTwo = await notReporting({ boot: 2 });
    assert.equal(bootTwo.length, 1);
    assert.match(
      bootTwo[0] ?? '',
      /: Engine 000( \([^)]*\))?: 1 of 1 lines of boot 2 with requests running read 0\.0%/,
    );
    assert.deepEqual(
      cliFindings([log, '--boot', '2'], 'metric-not-reporting').map(([, , message]) => message),
      bootTwo,
    );
    assert.deepEqual(await notReporting({ boot: 1 }), []);
    assert.deepEqual(cliFindings([log, '--boot', '1'], 'metric-not-reporting'), []);
  },
);

test(
  'a log of stats dicts of the older format: a window says how many requests the log read from them, in analyze --since as in the session',
  { timeout: 90_000 },
  async () => {
    const log = path.join(ROOT, 'test', 'fixtures', 'logs', 'legacy-request-level-metrics-several.log');
    const lsp = await startLanguageServer(storage);
    const session = await lsp.importLog(log);
    assert.equal(session.requestCount, 5);
    const whole = await lsp.request('stageLens/summary', { sessionId: session.id });
    const legacy = whole.findings.filter((f) => f.code === 'legacy-stats-format').map(said);
    assert.equal(legacy.length, 1);
    assert.match(
      legacy[0]?.[2] ?? '',
      /^The log has 7 stats dicts .*: 5 requests are read from its request_level_metrics dicts/,
    );
    // The window holds the last 2 requests; the log's dicts gave 5.
    assert.deepEqual(cliFindings([log, '--since', '02-03 16:23:28'], 'legacy-stats-format'), legacy);
    for (const params of narrower) {
      const summary = await lsp.request('stageLens/summary', { sessionId: session.id, ...params });
      assert.deepEqual(summary.findings.filter((f) => f.code === 'legacy-stats-format').map(said), legacy);
    }
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
    const [head, tail] = (damaged?.message ?? '').split('the 2 requests before it are read');
    const inView = (words: string): [string, string, string] => [
      'input-gzip-damaged',
      'warning',
      `${head}the log's 2 requests before it are read, ${words}${tail}`,
    ];
    const views: [Omit<SummaryParams, 'sessionId'>, [string, string, string]][] = [
      [{ windowSeconds: 3600 }, inView('all of them in the window')],
      [{ scope: { excludeCold: true } }, inView('all of them in the scope (cold starts left out)')],
    ];
    for (const [params, expected] of views) {
      const summary = await lsp.request('stageLens/summary', { sessionId: session.id, ...params });
      assert.deepEqual(
        summary.findings.filter((f) => f.code === 'input-gzip-damaged').map(said),
        [expected],
        `${JSON.stringify(params)}: ${summary.findings.map((f) => f.code).join(' ')}`,
      );
    }
    // A window of the second request: the log still has two before the break, one of them in the window.
    assert.deepEqual(cliFindings([cut, '--since', '10-19 07:12:07'], 'input-gzip-damaged'), [
      inView('1 of them in the window'),
    ]);
  },
);

test(
  'a .gz log of two boots cut short in the second: a boot says the log has 8 requests before the break and how many of them are its own, in analyze --boot and the scoped summary alike',
  { timeout: 90_000 },
  async () => {
    const text = bootsLog([
      { model: 'Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice', fixture: 'qwen3tts-talker-first-audio-after-fix.log' },
      { model: 'Qwen/Qwen3-Omni-30B-A3B-Instruct', fixture: 'qwen3-omni-three-stage-transfers.log' },
    ]);
    const gz = zlib.gzipSync(Buffer.from(text));
    const cut = path.join(dir, 'boots.log.1.gz');
    // Within boot 2's third request: boot 1's 6 requests and 2 of boot 2's come before the break.
    fs.writeFileSync(cut, gz.subarray(0, Math.floor(gz.length * 0.8)));

    const lsp = await startLanguageServer(storage);
    const session = await lsp.importLog(cut);
    assert.equal(session.requestCount, 8);
    const whole = await lsp.request('stageLens/summary', { sessionId: session.id });
    const damaged = whole.findings.find((f) => f.code === 'input-gzip-damaged');
    const [head, tail] = (damaged?.message ?? '').split('the 8 requests before it are read');
    assert.match(
      head ?? '',
      /^The gzip data ends after \d+ KB of log: unexpected end of file \(a \.gz file cut short, or damaged\): $/,
    );
    assert.equal(tail, '; the rest of the file is not. `gzip -t` tests the file; `zcat` prints what it can of it.');
    const inView = (words: string): [string, string, string] => [
      'input-gzip-damaged',
      'warning',
      `${head}the log's 8 requests before it are read, ${words}${tail}`,
    ];
    const boots: [number, string][] = [
      [1, '6 of them in boot 1'],
      [2, '2 of them in boot 2'],
    ];
    for (const [boot, words] of boots) {
      const summary = await lsp.request('stageLens/summary', { sessionId: session.id, scope: { boot } });
      assert.equal(summary.requestCount, boot === 1 ? 6 : 2);
      assert.deepEqual(summary.findings.filter((f) => f.code === 'input-gzip-damaged').map(said), [inView(words)]);
      assert.deepEqual(cliFindings([cut, '--boot', String(boot)], 'input-gzip-damaged'), [inView(words)]);
    }
    const coldOut = await lsp.request('stageLens/summary', {
      sessionId: session.id,
      scope: { boot: 2, excludeCold: true },
    });
    assert.deepEqual(coldOut.findings.filter((f) => f.code === 'input-gzip-damaged').map(said), [
      inView('1 of them in boot 2 (cold starts left out)'),
    ]);
  },
);
