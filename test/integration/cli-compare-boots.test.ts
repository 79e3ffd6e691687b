// `stage-lens compare server.log server.log --baseline-boot 1 --candidate-boot 2`, run as the
// built dist/cli.js in a child process: before vs after a restart whose boot was appended to the
// same log (the upstream-rendered Qwen3-TTS log before the codec TTFT fix, then the one after
// it, each after a server's start lines). Each side reads its own boot alone, with the numbers
// `analyze --boot N` gives; a saved session folder takes a boot as a log does; a boot a run does
// not have, or one given for a /metrics scrape, exits 2.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import * as zlib from 'node:zlib';
import { bootsLogFile } from './support/bootLog';
import { runCli as cli } from './support/cliProcess';
import { SessionFiles } from '../../server/capture/sessionFiles';
import { stoppedSession } from './support/savedSession';

const ROOT = path.resolve(__dirname, '..', '..');
const SCRAPE = path.join(ROOT, 'test', 'fixtures', 'scrapes', 'codec-ttft-before-fix.prom');
const TTS_MODEL = 'Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice';
const { dir, log } = bootsLogFile('stage-lens-compare-boots-', 'server.log', [
  { model: TTS_MODEL, fixture: 'qwen3tts-talker-first-audio-before-fix.log' },
  { model: TTS_MODEL, fixture: 'qwen3tts-talker-first-audio-after-fix.log' },
]);

interface Side {
  source: string;
  requestCount: number;
  coldRequests: number;
  boot?: number;
}
interface Side50 {
  p50: number | null;
}
interface CompareJson {
  baseline: Side;
  candidate: Side;
  metrics: { scope: string; metric: string; baseline: Side50; candidate: Side50 }[];
}
interface AnalysisJson {
  stageSummary: Record<string, Record<string, { count: number; p50: number }>>;
  endToEnd: { count: number; p50: number };
}

function analyzeBoot(boot: number): AnalysisJson {
  const r = cli(['analyze', log, '--boot', String(boot), '--format', 'json']);
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout) as AnalysisJson;
}

function p50(doc: CompareJson, scope: string, metric: string, side: 'baseline' | 'candidate'): number | null {
  const m = doc.metrics.find((x) => x.scope === scope && x.metric === metric);
  assert.ok(m, `no ${scope} ${metric}`);
  return m[side].p50;
}

test('compare --baseline-boot 1 --candidate-boot 2: each side is its boot alone, with the p50s analyze --boot gives', () => {
  const r = cli(['compare', log, log, '--baseline-boot', '1', '--candidate-boot', '2', '--format', 'json']);
  assert.equal(r.status, 0, r.stderr);
  const doc = JSON.parse(r.stdout) as CompareJson;
  // 6 requests each, out of the log's 12; each boot's first request is its cold one.
  assert.deepEqual(
    [doc.baseline, doc.candidate].map((s) => [s.source, s.requestCount, s.coldRequests, s.boot]),
    [
      [log, 6, 1, 1],
      [log, 6, 1, 2],
    ],
  );
  const [boot1, boot2] = [analyzeBoot(1), analyzeBoot(2)];
  assert.equal(boot1.stageSummary['0']?.['stage_gen_time_ms']?.p50, 1112.505);
  assert.equal(boot2.stageSummary['0']?.['stage_gen_time_ms']?.p50, 1275.336);
  assert.equal(p50(doc, '0', 'genTime', 'baseline'), 1112.505);
  assert.equal(p50(doc, '0', 'genTime', 'candidate'), 1275.336);
  assert.equal(p50(doc, 'request', 'e2e', 'baseline'), boot1.endToEnd.p50);
  assert.equal(p50(doc, 'request', 'e2e', 'candidate'), boot2.endToEnd.p50);
  assert.notEqual(boot1.endToEnd.p50, boot2.endToEnd.p50);
  // The codec TTFT the fix made recorded: not recorded in boot 1 (no p50, never 0), measured in boot 2.
  assert.equal(p50(doc, '1', 'ttft', 'baseline'), null);
  assert.equal(p50(doc, '1', 'ttft', 'candidate'), boot2.stageSummary['1']?.['vllm_ttft_ms']?.p50);

  const table = cli(['compare', log, log, '--baseline-boot', '1', '--candidate-boot', '2']);
  assert.equal(table.status, 0, table.stderr);
  assert.deepEqual(table.stdout.split('\n').slice(0, 3), [
    'Stage Lens compare',
    `  baseline   ${log} (boot 1) · log · 6 requests, 1 cold`,
    `  candidate  ${log} (boot 2) · log · 6 requests, 1 cold`,
  ]);
  const markdown = cli(['compare', log, log, '--candidate-boot', '2', '--format', 'markdown']);
  assert.equal(markdown.status, 0, markdown.stderr);
  assert.match(markdown.stdout, /\n\*\*Baseline:\*\* \S+server\.log · log · 12 requests, 2 cold {2}\n/);
  assert.match(markdown.stdout, /\n\*\*Candidate:\*\* \S+server\.log \(boot 2\) · log · 6 requests, 1 cold\n/);
});

test('a gzip log with a boot is named once, "(gzip, boot 1)"; a gzip log alone "(gzip)"', () => {
  const gz = path.join(dir, 'server.log.1.gz');
  writeFileSync(gz, zlib.gzipSync(readFileSync(log)));
  const r = cli(['compare', gz, gz, '--baseline-boot', '1']);
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual(r.stdout.split('\n').slice(1, 3), [
    `  baseline   ${gz} (gzip, boot 1) · log · 6 requests, 1 cold`,
    `  candidate  ${gz} (gzip) · log · 12 requests, 2 cold`,
  ]);
});

test('a saved session folder takes a boot as a log does', () => {
  const storage = path.join(dir, 'storage');
  const files = new SessionFiles(storage, 'import-restarts');
  files.writeMeta({
    info: stoppedSession({
      id: 'import-restarts',
      kind: 'import',
      description: log,
      title: 'restarts',
      startedAt: 1,
      requestCount: 12,
    }),
  });
  files.append({ stream: 'file', bytes: readFileSync(log), capturedAt: 1000 });
  files.close();
  const r = cli(['compare', log, files.dir, '--baseline-boot', '1', '--candidate-boot', '2', '--format', 'json']);
  assert.equal(r.status, 0, r.stderr);
  const doc = JSON.parse(r.stdout) as CompareJson;
  assert.deepEqual([doc.candidate.requestCount, doc.candidate.boot], [6, 2]);
  assert.equal(p50(doc, '0', 'genTime', 'candidate'), 1275.336);

  const unknown = cli(['compare', log, files.dir, '--candidate-boot', '5']);
  assert.equal(unknown.status, 2);
  assert.equal(
    unknown.stderr,
    `stage-lens compare: --candidate-boot 5: the candidate (${files.dir}): the log has no boot 5: its boots with requests are 1 (6 requests) and 2 (6 requests)\n`,
  );
});

test('a boot the run does not have exits 2 with the boots it has, naming the side', () => {
  const candidate = cli(['compare', log, log, '--baseline-boot', '1', '--candidate-boot', '3']);
  assert.equal(candidate.status, 2);
  assert.equal(candidate.stdout, '');
  assert.equal(
    candidate.stderr,
    `stage-lens compare: --candidate-boot 3: the candidate (${log}): the log has no boot 3: its boots with requests are 1 (6 requests) and 2 (6 requests)\n`,
  );
  const baseline = cli(['compare', log, log, '--baseline-boot', '0', '--format', 'json']);
  assert.equal(baseline.status, 2);
  assert.equal(baseline.stdout, '');
  assert.equal(
    baseline.stderr,
    `stage-lens compare: --baseline-boot 0: the baseline (${log}): the log has no boot 0: its boots with requests are 1 (6 requests) and 2 (6 requests)\n`,
  );
  const notNumber = cli(['compare', log, log, '--baseline-boot', 'first']);
  assert.equal(notNumber.status, 2);
  assert.match(notNumber.stderr, /^stage-lens compare: --baseline-boot 'first' is not a boot number/);
});

test('a boot given for a /metrics scrape is a usage error: a scrape has no boots', () => {
  const r = cli(['compare', SCRAPE, SCRAPE, '--candidate-boot', '1']);
  assert.equal(r.status, 2);
  assert.equal(r.stdout, '');
  assert.equal(
    r.stderr,
    `stage-lens compare: --candidate-boot 1: the candidate (${SCRAPE}) is a /metrics scrape, which has no server boots (its histograms count every request since the server started); --candidate-boot selects from a log or a saved session folder\n`,
  );
  const piped = cli(['compare', '-', log, '--baseline-boot', '2'], { input: readFileSync(SCRAPE) });
  assert.equal(piped.status, 2);
  assert.match(piped.stderr, /^stage-lens compare: --baseline-boot 2: the baseline \(stdin\) is a \/metrics scrape/);
});
