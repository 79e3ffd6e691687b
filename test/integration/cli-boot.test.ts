// analyze --boot, run as the built dist/cli.js in a child process on a log of two server boots
// that served different pipelines (the upstream-rendered Qwen3-TTS log, then the Qwen3-Omni one,
// each after the lines a server prints at start): the whole log warns that its per-stage rows mix
// them, --boot keeps one boot's requests in every format, and a boot the log lacks exits 2 with
// the boots it has.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bootsLogFile } from './support/bootLog';
import { runCli as cli } from './support/cliProcess';

const TTS_MODEL = 'Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice';
const OMNI_MODEL = 'Qwen/Qwen3-Omni-30B-A3B-Instruct';
const { log } = bootsLogFile('stage-lens-boot-', 'restarts.log', [
  { model: TTS_MODEL, fixture: 'qwen3tts-talker-first-audio-after-fix.log' },
  { model: OMNI_MODEL, fixture: 'qwen3-omni-three-stage-transfers.log' },
]);

interface AnalysisJson {
  requests: { requestId: string; boot: number }[];
  stageSummary: Record<string, Record<string, { count: number; p50: number }>>;
  findings: { code: string; severity: string; message: string }[];
  stageRoles: Record<string, string>;
  boot?: { selected: number; requestsOutside: number; boots: { boot: number; requests: number }[] };
}

test('analyze of a log whose boots served different pipelines warns that its per-stage rows mix them', () => {
  const table = cli(['analyze', log]);
  assert.equal(table.status, 0, table.stderr);
  assert.match(table.stdout, /^Stage Lens: 9 requests, 3 stages, 2 server boots/);
  assert.match(
    table.stdout,
    /\[warning\] boots-differ-in-pipeline: The server boots in this log served 2 different pipelines: boot 1 \(6 requests, Qwen\/Qwen3-TTS-12Hz-1\.7B-CustomVoice\)/,
  );
  const doc = JSON.parse(cli(['analyze', log, '--format', 'json']).stdout) as AnalysisJson;
  const finding = doc.findings.find((f) => f.code === 'boots-differ-in-pipeline');
  assert.equal(finding?.severity, 'warning');
  assert.match(finding?.message ?? '', /stage-lens analyze --boot 1 or 2/);
  // Pooled: stage 0 is the TTS talker's 6 requests and the Omni thinker's 3.
  assert.equal(doc.stageSummary['0']?.['stage_gen_time_ms']?.count, 9);
  assert.equal(doc.boot, undefined);
});

test('analyze --boot 2 keeps the Omni boot alone, in the JSON and the table', () => {
  const json = cli(['analyze', log, '--boot', '2', '--format', 'json']);
  assert.equal(json.status, 0, json.stderr);
  const doc = JSON.parse(json.stdout) as AnalysisJson;
  assert.deepEqual(
    doc.requests.map((r) => [r.requestId, r.boot]),
    [
      ['chatcmpl-3c88c0cf9be8c9bf', 2],
      ['chatcmpl-7f0f5c781f1aae4a', 2],
      ['chatcmpl-ae4840a79e5b9ea1', 2],
    ],
  );
  assert.deepEqual(doc.boot, {
    selected: 2,
    requestsOutside: 6,
    boots: [
      { boot: 1, requests: 6 },
      { boot: 2, requests: 3 },
    ],
  });
  assert.equal(doc.stageSummary['0']?.['stage_gen_time_ms']?.count, 3);
  assert.equal(doc.stageSummary['0']?.['stage_gen_time_ms']?.p50, 7810.007);
  assert.equal(doc.stageSummary['2']?.['stage_gen_time_ms']?.p50, 180.745);
  assert.deepEqual(doc.stageRoles, { '0': 'thinker', '1': 'talker', '2': 'code2wav' });
  assert.equal(
    doc.findings.find((f) => f.code === 'boots-differ-in-pipeline'),
    undefined,
  );

  const table = cli(['analyze', log, '--boot', '1']);
  assert.equal(table.status, 0, table.stderr);
  assert.match(table.stdout, /^Stage Lens: 6 requests, 2 stages, 2 server boots/);
  assert.match(table.stdout, /Boot 1: the requests of server boot 1 only; 3 requests of boot 2 left out\./);
  assert.match(table.stdout, /\n0 · talker {4}6 {2}p50 +0\.357 +1,268 \+decode/);
  assert.match(table.stdout, /\n1 · code2wav {2}6 {2}p50 +98\.66 /);
  assert.doesNotMatch(table.stdout, /boots-differ-in-pipeline/);

  const csv = cli(['analyze', log, '--boot', '2', '--format', 'csv']);
  assert.equal(csv.status, 0, csv.stderr);
  assert.match(csv.stderr, /Boot 2: the requests of server boot 2 only; 6 requests of boot 1 left out\./);
  assert.doesNotMatch(csv.stdout, /speech-/);
});

test('analyze --boot of a boot the log does not have exits 2 and lists its boots', () => {
  const unknown = cli(['analyze', log, '--boot', '3']);
  assert.equal(unknown.status, 2);
  assert.equal(
    unknown.stderr,
    'stage-lens analyze: the log has no boot 3: its boots with requests are 1 (6 requests) and 2 (3 requests)\n',
  );
  const json = cli(['analyze', log, '--boot', '3', '--format', 'json']);
  assert.equal(json.status, 2);
  const notNumber = cli(['analyze', log, '--boot', 'two']);
  assert.equal(notNumber.status, 2);
  assert.match(notNumber.stderr, /--boot 'two' is not a boot number/);
  const follow = cli(['analyze', log, '--boot', '1', '--follow']);
  assert.equal(follow.status, 2);
  assert.match(follow.stderr, /--boot selects from a whole log/);
});

interface ExplainJson {
  scope: { boot?: number };
  requestCount: number;
  stageRoles: Record<string, string>;
  findings: { code: string }[];
  tail: { target: string; quantile: string; scopeCount: number; targetMedianMs: number }[];
}

test('explain --boot reads one boot alone; without it the table says the boots mix before any tail', () => {
  const whole = cli(['explain', log]);
  assert.equal(whole.status, 0, whole.stderr);
  assert.match(
    whole.stdout,
    /^Stage Lens explain: \S+ · 9 requests \(9 in scope\)\n\nThe server boots in this log served 2 different pipelines: /,
  );

  const table = cli(['explain', log, '--boot', '2']);
  assert.equal(table.status, 0, table.stderr);
  assert.match(table.stdout, /^Stage Lens explain: \S+ · 3 requests of boot 2 \(3 in scope\)\n/);
  assert.doesNotMatch(table.stdout, /different pipelines/);
  assert.match(table.stdout, /median 33\.7 s/);
  assert.equal(
    table.stderr,
    'stage-lens explain: Boot 2: the requests of server boot 2 only; 6 requests of boot 1 left out.\n',
  );

  const doc = JSON.parse(cli(['explain', log, '--boot', '2', '--format', 'json']).stdout) as ExplainJson;
  assert.equal(doc.scope.boot, 2);
  assert.equal(doc.requestCount, 3);
  assert.deepEqual(doc.stageRoles, { '0': 'thinker', '1': 'talker', '2': 'code2wav' });
  assert.equal(
    doc.findings.find((f) => f.code === 'boots-differ-in-pipeline'),
    undefined,
  );
  const e2e = doc.tail.find((t) => t.target === 'e2e' && t.quantile === 'p95');
  assert.equal(e2e?.scopeCount, 3);
  assert.equal(e2e?.targetMedianMs, 33726.25);

  const unknown = cli(['explain', log, '--boot', '0']);
  assert.equal(unknown.status, 2);
  assert.equal(
    unknown.stderr,
    'stage-lens explain: the log has no boot 0: its boots with requests are 1 (6 requests) and 2 (3 requests)\n',
  );
});
