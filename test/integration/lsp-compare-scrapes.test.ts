// Two /metrics scrapes saved to files (text and .prom.gz), imported with Import Log... and compared
// over a real connection to the language server, against `stage-lens compare a b --format json` of
// the same files as a real child process: the same histogram figures (a stage's replicas added),
// the same findings diff (a family stuck at 0 appearing among them) and the same notes, word for
// word. The CLI given the saved session folders of those imports reads them as the scrapes they
// are, for compare and explain alike, and says where a cut .prom.gz broke off as the file does.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as zlib from 'node:zlib';
import { test } from 'node:test';
import { runCli } from './support/cliProcess';
import { startLanguageServer, storageForFile, type LspProcess } from './support/lspProcess';
import { cliCompare, withSources } from './support/compareReport';

const storage = storageForFile('stage-lens-compare-scrapes-');
const FIXTURES = path.resolve(__dirname, '..', 'fixtures', 'scrapes');
/** A build before the codec TTFT fix: stage 1 records no TTFT (ttft-not-recorded). */
const BEFORE_FIX = path.join(FIXTURES, 'codec-ttft-before-fix.prom');

/**
 * A build with the fix, its codec stage on two replicas, whose stats path does not deliver the
 * prefill time: every vllm:request_prefill_time_seconds series reads 0 (metric-not-reporting).
 */
function stuckReplicasBody(): string {
  return fs
    .readFileSync(path.join(FIXTURES, 'qwen3-tts-codec-replicas.prom'), 'utf8')
    .split('\n')
    .map((l) => (l.startsWith('vllm:request_prefill_time_seconds_') ? l.replace(/ \S+$/, ' 0.0') : l))
    .join('\n');
}

async function stopped(lsp: LspProcess): Promise<void> {
  const exited = new Promise((resolve) => lsp.child.once('exit', resolve));
  lsp.child.kill('SIGTERM');
  await exited;
}

function sessionFolder(id: string): string {
  return path.join(storage, 'sessions', id);
}

test(
  'Compare Sessions of two imported scrapes shows what stage-lens compare prints for the two files, and so do their session folders',
  { timeout: 120_000 },
  async () => {
    const candidateFile = path.join(storage, 'stuck-replicas.prom.gz');
    fs.writeFileSync(candidateFile, zlib.gzipSync(stuckReplicasBody()));
    const cli = cliCompare(BEFORE_FIX, candidateFile);
    // The case at hand, as the CLI has it: scrapes, the codec stage's replicas added, a finding of each kind.
    assert.deepEqual(
      [cli.json.baseline.kind, cli.json.candidate.kind, cli.json.candidate.requestCount],
      ['scrape', 'scrape', null],
    );
    // The codec stage's TTFT: none recorded before the fix; after it, its two replicas' 75 each.
    const ttft = cli.json.histograms.filter(
      (h) => h.family === 'vllm:time_to_first_token_seconds' && h.labels['stage'] === '1',
    );
    assert.deepEqual(
      ttft.map((h) => [h.baseline?.count, h.candidate?.count]),
      [[0, 150]],
    );
    assert.deepEqual(
      cli.json.findings.map((f) => [f.code, f.change, f.stageId]),
      [
        ['metric-not-reporting', 'appeared', null],
        ['ttft-not-recorded', 'disappeared', 1],
      ],
    );
    assert.match(cli.json.findings[0]?.message ?? '', /^vllm:request_prefill_time_seconds is registered but reads 0/);
    assert.ok(cli.json.notes[0]?.startsWith('Neither run has per-request data (both are /metrics scrapes)'));

    const lsp = await startLanguageServer(storage);
    const baseline = await lsp.importLog(BEFORE_FIX);
    const candidate = await lsp.importLog(candidateFile);
    assert.deepEqual([baseline.importedScrape, candidate.importedScrape], [true, true]);
    const { report } = await lsp.request('stageLens/compare', {
      baseline: { sessionId: baseline.id },
      candidate: { sessionId: candidate.id },
    });
    assert.ok(!report.notes.some((n) => n.includes('0 requests read')), report.notes.join('\n'));
    assert.deepEqual(
      withSources(report, report.baseline.source, report.candidate.source),
      withSources(cli.json, BEFORE_FIX, `${candidateFile} (gzip)`),
    );
    await stopped(lsp);

    // The CLI given the two imports' session folders reads the scrapes in them, as it reads the files.
    const folders = cliCompare(sessionFolder(baseline.id), sessionFolder(candidate.id));
    assert.deepEqual(
      withSources(folders.json, sessionFolder(baseline.id), sessionFolder(candidate.id)),
      withSources(cli.json, BEFORE_FIX, `${candidateFile} (gzip)`),
    );
    // A folder against a file: one scrape against the other.
    const mixed = cliCompare(sessionFolder(baseline.id), candidateFile);
    assert.deepEqual(
      withSources(mixed.json, sessionFolder(baseline.id), `${candidateFile} (gzip)`),
      withSources(cli.json, BEFORE_FIX, `${candidateFile} (gzip)`),
    );
  },
);

test('explain of an imported scrape session folder is explain of the scrape file', { timeout: 60_000 }, async () => {
  const file = path.join(storage, 'explained.prom');
  fs.writeFileSync(file, stuckReplicasBody());
  const lsp = await startLanguageServer(storage);
  const session = await lsp.importLog(file);
  await stopped(lsp);
  const explain = (input: string): Record<string, unknown> => {
    const run = runCli(['explain', input, '--format', 'json']);
    assert.equal(run.status, 0, run.stderr);
    const json = JSON.parse(run.stdout) as Record<string, unknown>;
    assert.equal(json['source'], input);
    return { ...json, source: '<input>' };
  };
  const want = explain(file);
  const findings = want['findings'] as { code: string; message: string }[];
  assert.deepEqual(
    findings.map((f) => f.code),
    ['metric-not-reporting'],
  );
  assert.deepEqual(explain(sessionFolder(session.id)), want);
  const table = runCli(['explain', sessionFolder(session.id)]);
  assert.equal(table.status, 0, table.stderr);
  assert.match(
    table.stdout,
    /^Stage Lens explain: \/metrics scrape from .*: no per-request values, so no tail to explain\./,
  );
});

test(
  'a cut .prom.gz compared: the editor, its session folder and the file say where it broke off in the same words',
  { timeout: 60_000 },
  async () => {
    const whole = zlib.gzipSync(stuckReplicasBody());
    const cutFile = path.join(storage, 'cut.prom.gz');
    fs.writeFileSync(cutFile, whole.subarray(0, Math.floor(whole.length * 0.8)));
    const cli = cliCompare(BEFORE_FIX, cutFile);
    const broke = (notes: readonly string[]): string[] =>
      notes.filter((n) => n.startsWith('The candidate (')).map((n) => n.slice(n.indexOf('): ') + 3));
    assert.deepEqual(broke(cli.json.notes).length, 1);
    assert.match(broke(cli.json.notes)[0] ?? '', /^The gzip data ends after .* of the \/metrics scrape: /);
    assert.ok(cli.json.candidate.partialLogBytes !== undefined && cli.json.candidate.partialLogBytes > 0);
    assert.equal(
      cli.stderr,
      `stage-lens compare: warning: the candidate (${cutFile} (gzip)): ${broke(cli.json.notes)[0]}\n`,
    );

    const lsp = await startLanguageServer(storage);
    const baseline = await lsp.importLog(BEFORE_FIX);
    const candidate = await lsp.importLog(cutFile);
    const { report } = await lsp.request('stageLens/compare', {
      baseline: { sessionId: baseline.id },
      candidate: { sessionId: candidate.id },
    });
    await stopped(lsp);
    assert.deepEqual(
      withSources(report, report.baseline.source, report.candidate.source),
      withSources(cli.json, BEFORE_FIX, `${cutFile} (gzip)`),
    );
    const folders = cliCompare(sessionFolder(baseline.id), sessionFolder(candidate.id));
    assert.deepEqual(
      withSources(folders.json, sessionFolder(baseline.id), sessionFolder(candidate.id)),
      withSources(cli.json, BEFORE_FIX, `${cutFile} (gzip)`),
    );

    // explain of the folder lists where it broke off after the scrape's findings, as explain of the file does.
    const codes = (input: string): string[] => {
      const run = runCli(['explain', input, '--format', 'json']);
      assert.equal(run.status, 0, run.stderr);
      return (JSON.parse(run.stdout) as { findings: { code: string; message: string }[] }).findings.map(
        (f) => `${f.code}: ${f.message}`,
      );
    };
    const fileFindings = codes(cutFile);
    assert.equal(fileFindings.at(-1)?.split(':')[0], 'input-gzip-damaged');
    assert.deepEqual(codes(sessionFolder(candidate.id)), fileFindings);
  },
);

test(
  'an imported scrape against an imported log is refused with the reason stage-lens compare gives',
  { timeout: 60_000 },
  async () => {
    const log = path.resolve(
      __dirname,
      '..',
      'fixtures',
      'upstream-rendered',
      'qwen3tts-talker-first-audio-after-fix.log',
    );
    const cli = runCli(['compare', BEFORE_FIX, log]);
    assert.equal(cli.status, 2);
    const reason = (baseline: string, candidate: string): string =>
      `nothing to compare: the baseline (${baseline}) has only /metrics histograms (a scrape), the candidate (${candidate}) has per-request data (a log). Compare two logs (or sessions with a log), or two scrapes.`;
    assert.equal(cli.stderr, `stage-lens compare: ${reason(BEFORE_FIX, log)}\n`);

    const lsp = await startLanguageServer(storage);
    const scrape = await lsp.importLog(BEFORE_FIX);
    const imported = await lsp.importLog(log);
    const error = await lsp
      .request('stageLens/compare', { baseline: { sessionId: scrape.id }, candidate: { sessionId: imported.id } })
      .then(
        () => assert.fail('compared a scrape with a log'),
        (err: unknown) => (err as Error).message,
      );
    await stopped(lsp);
    assert.equal(
      error,
      reason(`import session ${scrape.id} (${BEFORE_FIX})`, `import session ${imported.id} (${log})`),
    );
  },
);
