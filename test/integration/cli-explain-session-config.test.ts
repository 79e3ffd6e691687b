// `stage-lens explain` as a user runs it (the built dist/cli.js as a real child process): a saved
// session folder is explained with the deploy config the session recorded, as the editor's views cite
// it, unless that file is gone or no longer matches (said, then left out) or --deploy-config
// names another (which wins).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { runCli as cli } from './support/cliProcess';
import { tempFolder } from './support/tempFolder';
import { stoppedSession, writeSavedSession } from './support/savedSession';

const ROOT = path.resolve(__dirname, '..', '..');
const LOG = path.join(ROOT, 'test', 'fixtures', 'upstream-rendered', 'qwen3tts-talker-first-audio-after-fix.log');
const DEPLOY = path.join(ROOT, 'test', 'fixtures', 'deploy');
const tmp = tempFolder('stage-lens-explain-session-config-');

interface JsonFinding {
  readonly code: string;
  readonly stageId: number | null;
  readonly message: string;
}

interface ExplainJson {
  readonly requestCount: number;
  readonly requestsInScope: number;
  readonly tail: readonly { readonly thresholdMs: number }[];
  readonly findings: readonly JsonFinding[];
}

const byKey = (findings: readonly JsonFinding[]): Map<string, string> =>
  new Map(findings.map((f) => [`${f.code}/${f.stageId}`, f.message]));

/** A saved session folder of LOG's bytes, launched with `deployConfig`. */
function sessionFolder(id: string, deployConfig: string | null): string {
  const dir = path.join(tmp, 'sessions', id);
  const description = 'vllm-omni serve --port 8091 --log-stats';
  writeSavedSession(
    dir,
    stoppedSession({ id, kind: 'launch', description, requestCount: 6, deployConfig }),
    fs.readFileSync(LOG),
  );
  return dir;
}

const ONE_OUTPUT = (name: string): string =>
  `  (stage 0 · talker prefill+decode (one output): the deploy config ${name} agrees: stage 0 runs with model_runner: v2 (${name} line 14) and async_chunk: true (${name} line 15))`;

test("explain <session folder> cites the deploy config the session recorded, and says it is the session's", () => {
  const configDir = fs.mkdtempSync(path.join(tmp, 'deploy-'));
  const config = path.join(configDir, 'qwen3_tts.yaml');
  fs.copyFileSync(path.join(DEPLOY, 'qwen3_tts.yaml'), config);
  const dir = sessionFolder('s-config', config);

  const table = cli(['explain', dir]);
  assert.equal(table.status, 0, table.stderr);
  assert.equal(table.stderr, '');
  const lines = table.stdout.split('\n');
  // The whole log, both reads of it: its 6 requests, and its tail's numbers (the log's own, as explain of the file gives them).
  assert.equal(lines[0], `Stage Lens explain: ${dir} · 6 requests (6 in scope)`);
  assert.equal(lines[2], `deploy config: ${config} (the session's)`);
  assert.equal(
    lines[4],
    'Why end-to-end time is slow at p95: 1 of 6 requests at or above 3.87 s, on average 3.05 s above the median 1.43 s',
  );
  assert.ok(lines.includes(ONE_OUTPUT('qwen3_tts.yaml')), table.stdout);
  assert.equal(table.stdout.split("(the session's)").length - 1, 1);

  const json = cli(['explain', dir, '--format', 'json']);
  assert.equal(json.status, 0, json.stderr);
  assert.equal(json.stderr, `stage-lens explain: deploy config: ${config} (the session's)\n`);
  const report = JSON.parse(json.stdout) as ExplainJson;
  const ofLog = JSON.parse(cli(['explain', LOG, '--format', 'json']).stdout) as ExplainJson;
  assert.equal(report.requestCount, 6);
  assert.equal(report.requestsInScope, 6);
  assert.deepEqual(report.tail, ofLog.tail);
  assert.equal(report.tail[0]?.thresholdMs, 3865.6703);
  const findings = byKey(report.findings);
  assert.match(
    findings.get('prefill-covers-decode/0') ?? '',
    / The deploy config qwen3_tts\.yaml agrees: stage 0 runs with model_runner: v2 \(qwen3_tts\.yaml line 14\) and async_chunk: true \(qwen3_tts\.yaml line 15\)\.$/,
  );

  // --deploy-config wins: its file is cited, the session's is not named.
  const other = path.join(DEPLOY, 'qwen3_tts_high_concurrency_mrv2_single_gpu.yaml');
  const given = cli(['explain', dir, '--deploy-config', other]);
  assert.equal(given.status, 0, given.stderr);
  assert.doesNotMatch(given.stdout, /the session's|qwen3_tts\.yaml/);
  assert.match(given.stdout, /the deploy config qwen3_tts_high_concurrency_mrv2_single_gpu\.yaml agrees/);
  assert.match(given.stdout.split('\n')[2] ?? '', /^Why end-to-end time is slow at p95:/);
});

test('explain <session folder> whose recorded deploy config changed or is gone: said first, then the report without it', () => {
  const configDir = fs.mkdtempSync(path.join(tmp, 'deploy-'));
  const config = path.join(configDir, 'qwen3_tts.yaml');
  // Since the session ran, the file became a three-stage config.
  fs.copyFileSync(path.join(DEPLOY, 'qwen3_omni_moe.yaml'), config);
  const dir = sessionFolder('s-changed', config);
  const changed = cli(['explain', dir]);
  assert.equal(changed.status, 0, changed.stderr);
  const lines = changed.stdout.split('\n');
  assert.equal(
    lines[2],
    `deploy config: ${config} (the session's): it no longer matches the session, so the report goes on without it. ` +
      "The deploy config qwen3_tts.yaml has stages 0, 1 and 2, this log's requests have stages 0 and 1: it is not the config this server ran, so its settings are no evidence here.",
  );
  assert.match(lines[4] ?? '', /^Why end-to-end time is slow at p95:/);
  assert.doesNotMatch(changed.stdout, /qwen3_tts\.yaml (agrees|gives|sets)/);
  const changedJson = cli(['explain', dir, '--format', 'json']);
  assert.equal(changedJson.status, 0, changedJson.stderr);
  assert.match(
    changedJson.stderr,
    /^stage-lens explain: deploy config: .* \(the session's\): it no longer matches the session/,
  );
  // The JSON names it as the session's, not cited, and why; no finding cites it.
  const { deployConfig, ...rest } = JSON.parse(changedJson.stdout) as { deployConfig: unknown };
  assert.deepEqual(deployConfig, {
    path: config,
    from: 'session',
    cited: false,
    problem:
      "The deploy config qwen3_tts.yaml has stages 0, 1 and 2, this log's requests have stages 0 and 1: it is not the config this server ran, so its settings are no evidence here.",
  });
  assert.doesNotMatch(JSON.stringify(rest), /deploy config/);

  fs.rmSync(config);
  const gone = cli(['explain', dir]);
  assert.equal(gone.status, 0, gone.stderr);
  const goneLines = gone.stdout.split('\n');
  assert.equal(
    goneLines[2],
    `deploy config: ${config} (the session's): it no longer exists, so the report goes on without it.`,
  );
  assert.match(goneLines[4] ?? '', /^Why end-to-end time is slow at p95:/);
  assert.doesNotMatch(gone.stdout, /agrees/);

  // A session without a recorded config: nothing said about one.
  const noneDir = sessionFolder('s-none', null);
  const none = cli(['explain', noneDir]);
  assert.equal(none.status, 0, none.stderr);
  assert.doesNotMatch(none.stdout, /deploy config/);
  assert.deepEqual(none.stdout.split('\n').slice(0, 3), [
    `Stage Lens explain: ${noneDir} · 6 requests (6 in scope)`,
    '',
    'Why end-to-end time is slow at p95: 1 of 6 requests at or above 3.87 s, on average 3.05 s above the median 1.43 s',
  ]);
});
