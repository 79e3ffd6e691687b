// Compare of /metrics scrapes cut short and of a session attached to a /metrics URL, against
// `stage-lens compare a b --format json` as a real child process: a scrape cut inside a family
// (a truncated text, a .prom.gz whose stream ends at a line feed) is no metric-not-reporting for
// the family it was cut in, and the notes say where it was cut, in analyze's words; Compare
// Sessions over a real connection to the language server says the same of the imported files,
// and a session attached to a loopback /metrics URL (and the CLI given its session folder)
// compares as the CLI compares a saved copy of its last scrape (a stage's replicas added); a series
// its cut scrape ends before is unknown in it (kept, "cut short before it"), not absent, and so is a
// finding read from it (not checkable there, not gone).
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { runCli } from './support/cliProcess';
import { cutInsideLine, cutLine, gzipCutAtLineFeed, tokensBody } from './support/cutScrape';
import { startLanguageServer, storageForFile, type LspProcess } from './support/lspProcess';
import { cliCompare, withSources } from './support/compareReport';
import { attachedScrapeSession } from './support/metricsEndpoint';
import { histogramNoDiffText } from '../../server/core/compare/format';

const storage = storageForFile('stage-lens-compare-scrape-cut-');
/** A build before the codec TTFT fix: stage 1 records no TTFT, on one replica. */
const BEFORE_FIX = path.resolve(__dirname, '..', 'fixtures', 'scrapes', 'codec-ttft-before-fix.prom');

/** The notes that name the candidate, without its name. */
function candidateNotes(notes: readonly string[]): string[] {
  return notes.filter((n) => n.startsWith('The candidate (')).map((n) => n.slice(n.indexOf('): ') + 3));
}

function analyzeFindings(file: string): { code: string; message: string }[] {
  const run = runCli(['analyze', file, '--format', 'json']);
  assert.equal(run.status, 0, run.stderr);
  return (JSON.parse(run.stdout) as { findings: { code: string; message: string }[] }).findings;
}

async function stopped(lsp: LspProcess): Promise<void> {
  const exited = new Promise((resolve) => lsp.child.once('exit', resolve));
  lsp.child.kill('SIGTERM');
  await exited;
}

test('compare of a scrape cut inside a family: no metric-not-reporting for it, and the cut said as analyze says it', () => {
  const body = tokensBody();
  const whole = path.join(storage, 'whole.prom');
  const text = path.join(storage, 'cut.prom');
  const gz = path.join(storage, 'cut.prom.gz');
  fs.writeFileSync(whole, body);
  fs.writeFileSync(text, cutInsideLine(body));
  fs.writeFileSync(gz, gzipCutAtLineFeed(body));

  const cutText = cliCompare(whole, text);
  assert.deepEqual(cutText.json.findings, []);
  const [cutShort] = analyzeFindings(text);
  assert.equal(cutShort?.code, 'input-cut-short');
  assert.equal(
    cutShort?.message,
    `The /metrics scrape ends inside its line ${cutLine(body)}, with no line feed after it (a file or body cut short): the series before it are read; the rest of the scrape is not.`,
  );
  assert.deepEqual(candidateNotes(cutText.json.notes), [cutShort.message]);
  assert.equal(cutText.stderr, `stage-lens compare: warning: the candidate (${text}): ${cutShort.message}\n`);

  // Cut at a line feed, its gzip stream ending there: the family it took has only stage 0's 0 left, not a finding.
  const cutGz = cliCompare(whole, gz);
  assert.deepEqual(cutGz.json.findings, []);
  const gzFindings = analyzeFindings(gz);
  assert.deepEqual(
    gzFindings.map((f) => f.code),
    ['input-gzip-damaged'],
  );
  assert.deepEqual(candidateNotes(cutGz.json.notes), [gzFindings[0]?.message]);
});

test(
  'Compare Sessions of imported cut scrapes and of a session attached to a /metrics URL shows what stage-lens compare prints',
  { timeout: 120_000 },
  async () => {
    const body = tokensBody();
    const text = path.join(storage, 'imported-cut.prom');
    const gz = path.join(storage, 'imported-cut.prom.gz');
    const saved = path.join(storage, 'attached-copy.prom');
    const savedCut = path.join(storage, 'attached-cut-copy.prom');
    fs.writeFileSync(text, cutInsideLine(body));
    fs.writeFileSync(gz, gzipCutAtLineFeed(body));
    fs.writeFileSync(saved, body);
    fs.writeFileSync(savedCut, cutInsideLine(body));

    const lsp = await startLanguageServer(storage);
    const baseline = await lsp.importLog(BEFORE_FIX);
    const sides: [string, string][] = [];
    for (const file of [text, gz]) sides.push([(await lsp.importLog(file)).id, file]);
    // Served over HTTP: compared as the CLI compares a saved copy of the body.
    sides.push([await attachedScrapeSession(lsp, body), saved]);
    sides.push([await attachedScrapeSession(lsp, cutInsideLine(body)), savedCut]);
    for (const [id, file] of sides) {
      const cli = cliCompare(BEFORE_FIX, file);
      const { report } = await lsp.request('stageLens/compare', {
        baseline: { sessionId: baseline.id },
        candidate: { sessionId: id },
      });
      const cliSource = file.endsWith('.gz') ? `${file} (gzip)` : file;
      assert.deepEqual(
        withSources(report, report.baseline.source, report.candidate.source),
        withSources(cli.json, BEFORE_FIX, cliSource),
        file,
      );
      // The figures at hand: the codec stage's TTFT, none before the fix; whole, its two replicas' 75
      // each added; cut before its family, not in the candidate (absent, not 0). The pipeline's e2e is before the cut.
      const ttft = report.histograms.filter(
        (h) => h.family === 'vllm:time_to_first_token_seconds' && h.labels['stage'] === '1' && h.candidate !== null,
      );
      assert.deepEqual(
        ttft.map((h) => [h.baseline?.count, h.candidate?.count]),
        file === saved ? [[0, 150]] : [],
        file,
      );
      // Cut before its family: unknown in the candidate, so kept and said (none observed in the baseline either).
      assert.deepEqual(
        report.histograms
          .filter((h) => h.family === 'vllm:time_to_first_token_seconds' && h.labels['stage'] === '1')
          .map((h) => [
            h.status,
            h.baseline?.count,
            h.candidate?.count ?? null,
            h.unreadIn ?? null,
            histogramNoDiffText(h),
          ]),
        file === saved
          ? [['candidateOnly', 0, 150, null, 'candidate only; known to be wrong in the baseline']]
          : [
              [
                'neither',
                0,
                null,
                'candidate',
                'no Δ: known to be wrong in the baseline, cut short before it in the candidate',
              ],
            ],
        file,
      );
      assert.deepEqual(
        report.histograms
          .filter((h) => h.family === 'vllm_omni:e2e_request_latency_s')
          .map((h) => [h.baseline?.count, h.candidate?.count]),
        [[60, 150]],
        file,
      );
      // The codec TTFT signature of the build before the fix is read from TTFT and ITL: gone from the
      // whole scrape, not checkable in one cut short before both (the session's finding as the CLI's).
      assert.deepEqual(
        report.findings.map((f) => [f.change, f.code, f.stageId, f.notCheckable ?? null]),
        [
          file === saved
            ? ['disappeared', 'ttft-not-recorded', 1, null]
            : [
                'notCheckableInCandidate',
                'ttft-not-recorded',
                1,
                "the candidate's scrape is cut short before vllm:time_to_first_token_seconds and vllm:inter_token_latency_seconds, which this finding is read from, so it is unknown there (a capture cut short, not a finding gone): take the candidate's scrape again",
              ],
        ],
        file,
      );
      assert.equal(report.candidate.kind, 'scrape', file);
      assert.ok(
        !report.findings.some((f) => f.code === 'metric-not-reporting'),
        report.findings.map((f) => f.message).join('\n'),
      );
      assert.equal(candidateNotes(report.notes).length, file === saved ? 0 : 1, `${file}: ${report.notes.join('\n')}`);
    }
    await stopped(lsp);

    // The CLI given an attached session's folder reads its last scrape too, as it reads the saved copy.
    for (const [id, file] of sides.slice(2)) {
      const folder = path.join(storage, 'sessions', id);
      assert.deepEqual(
        withSources(cliCompare(BEFORE_FIX, folder).json, BEFORE_FIX, folder),
        withSources(cliCompare(BEFORE_FIX, file).json, BEFORE_FIX, file),
        folder,
      );
    }
  },
);
