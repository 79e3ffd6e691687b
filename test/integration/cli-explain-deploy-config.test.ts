// `stage-lens explain --deploy-config <yaml>` as a user runs it (the built dist/cli.js as a real
// child process) on an upstream-rendered Qwen3-TTS log and the deploy YAMLs copied from
// upstream: the tail parts, the preemptions and the findings cite what the config sets, a
// file, stdin and a saved session folder alike; a config that cannot serve stops the command
// as it stops analyze; a config of other stages is said once and cited nowhere.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { stoppedSession, writeSavedSession } from './support/savedSession';
import { runCli as cli } from './support/cliProcess';

const ROOT = path.resolve(__dirname, '..', '..');
const LOG = path.join(ROOT, 'test', 'fixtures', 'upstream-rendered', 'qwen3tts-talker-first-audio-after-fix.log');
const DEPLOY = path.join(ROOT, 'test', 'fixtures', 'deploy');
const CONFIG = path.join(DEPLOY, 'qwen3_tts.yaml');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'stage-lens-explain-deploy-'));

after(() => fs.rmSync(tmp, { recursive: true, force: true }));

const ONE_OUTPUT =
  '(stage 0 · talker prefill+decode (one output): the deploy config qwen3_tts.yaml agrees: stage 0 runs with model_runner: v2 (qwen3_tts.yaml line 14) and async_chunk: true (qwen3_tts.yaml line 15))';
const OVERLAP = '(overlap: the deploy config qwen3_tts.yaml agrees: async_chunk: true (qwen3_tts.yaml line 15))';
const PREEMPTION =
  '(the deploy config qwen3_tts.yaml gives stage 0 gpu_memory_utilization: 0.3 (qwen3_tts.yaml line 65), max_num_seqs: 64 (qwen3_tts.yaml line 64), max_num_batched_tokens: 32768 (qwen3_tts.yaml line 69))';

/** The lines of one section of the table, from its heading to the blank line after it. */
function section(stdout: string, heading: RegExp): string[] {
  const lines = stdout.split('\n');
  const start = lines.findIndex((l) => heading.test(l));
  assert.ok(start >= 0, `no section ${heading} in:\n${stdout}`);
  const end = lines.indexOf('', start);
  return lines.slice(start, end);
}

/** The table's claims with the config: the one-output part and the overlap in the tail, the preempted stage. */
function assertCitedTable(stdout: string): void {
  const e2e = section(stdout, /^Why end-to-end time is slow at p95:/);
  assert.match(e2e[2] ?? '', /^ {2}stage 0 · talker prefill\+decode \(one output\) +\+3\.05 s +100% +1\.27 s$/);
  assert.ok(e2e.includes(`  ${ONE_OUTPUT}`), e2e.join('\n'));
  assert.ok(e2e.includes(`  ${OVERLAP}`), e2e.join('\n'));
  // After the note on the overlap it cites.
  assert.equal(e2e.indexOf(`  ${OVERLAP}`), e2e.findIndex((l) => l.startsWith('  ("overlap":')) + 1);
  // Stage 1's TTFT tail has no one-output part and no overlap: nothing cited there.
  const codecTtft = section(stdout, /^Why stage 1 TTFT \(code2wav\) is slow at p95:/);
  assert.doesNotMatch(codecTtft.join('\n'), /deploy config/);
  const preemptions = section(stdout, /^Preemptions \(end-to-end time, p95 tail/);
  assert.deepEqual(preemptions.slice(1), [
    '  stage 0 · talker: 0 of 1 in the tail (0%), 1 of 6 in all (17%)',
    `  ${PREEMPTION}`,
  ]);
}

test('explain --deploy-config: the tail parts, the preemptions and the findings cite what the config sets', () => {
  const table = cli(['explain', LOG, '--deploy-config', CONFIG]);
  assert.equal(table.status, 0, table.stderr);
  assert.equal(table.stderr, '');
  assertCitedTable(table.stdout);
  // Every tail of the one-output stage cites it, once per tail printed with its parts: 5 targets × p95
  // (stage 1's TTFT has none); each p99 tail is the same requests as its p95 one (6 requests), said in one line.
  assert.equal(table.stdout.split(ONE_OUTPUT).length - 1, 4);
  assert.equal(table.stdout.split('(the same requests as the p95 tail above, so the same parts)').length - 1, 5);

  const json = cli(['explain', LOG, '--format', 'json', '--deploy-config', CONFIG]);
  assert.equal(json.status, 0, json.stderr);
  assert.equal(json.stderr, '');
  const { findings } = JSON.parse(json.stdout) as {
    findings: { code: string; stageId: number | null; message: string }[];
  };
  const message = (code: string): string => findings.find((f) => f.code === code)?.message ?? '';
  // The finding's own words, then the config's sentence: as analyze --deploy-config words them.
  assert.match(
    message('prefill-covers-decode'),
    /^Stage 0 · talker emits one output, when it stops, on 6 of 6 requests .* The deploy config qwen3_tts\.yaml agrees: stage 0 runs with model_runner: v2 \(qwen3_tts\.yaml line 14\) and async_chunk: true \(qwen3_tts\.yaml line 15\)\.$/,
  );
  assert.match(
    message('preempted-requests'),
    / The deploy config qwen3_tts\.yaml gives stage 0 gpu_memory_utilization: 0\.3 \(qwen3_tts\.yaml line 65\), max_num_seqs: 64 \(qwen3_tts\.yaml line 64\), max_num_batched_tokens: 32768 \(qwen3_tts\.yaml line 69\)\.$/,
  );
  assert.match(
    message('stage-times-overlap'),
    / The deploy config qwen3_tts\.yaml agrees: async_chunk: true \(qwen3_tts\.yaml line 15\)\.$/,
  );
  assert.doesNotMatch(message('queued-includes-input-wait'), /deploy config/);
  // The sentences analyze's findings end with for the same config.
  const analyzed = JSON.parse(cli(['analyze', LOG, '--format', 'json', '--deploy-config', CONFIG]).stdout) as {
    findings: { code: string; message: string }[];
  };
  const cited = (m: string | undefined): string => (m ?? '').slice((m ?? '').indexOf(' The deploy config'));
  for (const code of ['prefill-covers-decode', 'preempted-requests', 'stage-times-overlap'])
    assert.equal(cited(message(code)), cited(analyzed.findings.find((f) => f.code === code)?.message), code);

  // Without the option nothing is cited, and explain's bundle holds no YAML library (it is
  // required, with the evidence code, only for the option).
  const plain = cli(['explain', LOG]);
  assert.equal(plain.status, 0, plain.stderr);
  assert.doesNotMatch(plain.stdout, /deploy config/);
  assert.doesNotMatch(cli(['explain', LOG, '--format', 'json']).stdout, /deploy config/);
  assert.doesNotMatch(fs.readFileSync(path.join(ROOT, 'dist', 'cli-explain.js'), 'utf8'), /node_modules\/yaml\//);
});

test('explain --deploy-config: a TTFT target not recorded names what the config sets for talker first audio', () => {
  const sample = path.join(ROOT, 'samples', 'qwen3-tts-first-audio-cold-start.log');
  const args = ['explain', sample, '--target', 'stage1.ttft', '--deploy-config'];
  const on = cli([...args, path.join(DEPLOY, 'qwen3_tts_high_concurrency_mrv2_single_gpu.yaml')]);
  assert.equal(on.status, 0, on.stderr);
  assert.equal(
    on.stdout.split('\n')[2],
    'Not measured by any request in scope: stage1.ttft (its TTFT is not recorded: finding ttft-not-recorded; the deploy config qwen3_tts_high_concurrency_mrv2_single_gpu.yaml agrees: it turns talker_first_audio on (qwen3_tts_high_concurrency_mrv2_single_gpu.yaml line 21, connector connector_of_shared_memory) with stage 1 as its codec)',
  );
  const off = cli([...args, CONFIG]);
  assert.match(
    off.stdout,
    /stage1\.ttft \(its TTFT is not recorded: finding ttft-not-recorded; the deploy config qwen3_tts\.yaml does not set talker_first_audio \(no connector's extra turns it on\), while this signature comes with talker first audio: check that the session ran this config\)\n/,
  );
});

test('explain --deploy-config: stdin and a saved session folder cite the config as a file does', () => {
  const bytes = fs.readFileSync(LOG);
  const fromStdin = cli(['explain', '-', '--deploy-config', CONFIG], { input: bytes.toString('utf8') });
  assert.equal(fromStdin.status, 0, fromStdin.stderr);
  assertCitedTable(fromStdin.stdout);

  const dir = path.join(tmp, 'sessions', 's-1');
  writeSavedSession(dir, stoppedSession({ id: 's-1', kind: 'import', description: 'run.log', requestCount: 6 }), bytes);
  const session = cli(['explain', dir, '--deploy-config', CONFIG]);
  assert.equal(session.status, 0, session.stderr);
  assertCitedTable(session.stdout);
  const json = cli(['explain', dir, '--format', 'json', '--deploy-config', CONFIG]);
  assert.match(json.stdout, /The deploy config qwen3_tts\.yaml agrees: stage 0 runs with model_runner: v2/);
});

test("explain --deploy-config: the config's name says the pipeline where neither the log nor its name does, as for analyze", () => {
  // The log without the lines that name the model, under a name that names none.
  const neutral = path.join(tmp, 'run.log');
  const lines = fs.readFileSync(LOG, 'utf8').split('\n');
  fs.writeFileSync(neutral, lines.filter((l) => !/qwen3[_-]?tts/i.test(l)).join('\n'));
  const roles = (args: string[]): Record<string, string> => {
    const r = cli(['explain', neutral, '--format', 'json', ...args]);
    assert.equal(r.status, 0, r.stderr);
    return (JSON.parse(r.stdout) as { stageRoles: Record<string, string> }).stageRoles;
  };
  assert.deepEqual(roles([]), {});
  assert.deepEqual(roles(['--deploy-config', CONFIG]), { '0': 'talker', '1': 'code2wav' });
  const analyzed = cli(['analyze', neutral, '--format', 'json', '--deploy-config', CONFIG]);
  assert.deepEqual((JSON.parse(analyzed.stdout) as { stageRoles: Record<string, string> }).stageRoles, {
    '0': 'talker',
    '1': 'code2wav',
  });
});

test('explain --deploy-config that cannot serve: exit 2 with the words analyze says it in', () => {
  const broken = path.join(tmp, 'broken.yaml');
  fs.writeFileSync(broken, 'stages:\n  - stage_id: 0\nhello: [1, 2\n');
  const notConfig = path.join(tmp, 'other.yaml');
  fs.writeFileSync(notConfig, 'name: something else\nitems: [1, 2]\n');
  // An overlay without its base is a fragment.
  const overlayDir = fs.mkdtempSync(path.join(tmp, 'overlay-'));
  const overlay = path.join(overlayDir, 'qwen3_tts_mrv2.yaml');
  fs.copyFileSync(path.join(DEPLOY, 'qwen3_tts_mrv2.yaml'), overlay);
  const cases: [string, RegExp][] = [
    [path.join(tmp, 'absent.yaml'), /^cannot read the deploy config .*absent\.yaml: no such file$/],
    [tmp, /^cannot read the deploy config .*: is a directory$/],
    ['/dev/null', /^cannot read the deploy config \/dev\/null: not a regular file$/],
    [broken, /^the deploy config .*broken\.yaml is not valid YAML: line \d+: Flow sequence/],
    [notConfig, /^the deploy config .*other\.yaml is not a vLLM-Omni deploy config \(no stages with a stage_id/],
    [
      overlay,
      /^the deploy config .*qwen3_tts_mrv2\.yaml cannot be resolved: `base_config` file not found: .*qwen3_tts\.yaml \(qwen3_tts_mrv2\.yaml line 4\)$/,
    ],
  ];
  for (const [config, words] of cases) {
    const explained = cli(['explain', LOG, '--deploy-config', config]);
    assert.equal(explained.status, 2, `${config}: ${explained.stdout}`);
    assert.equal(explained.stdout, '');
    const line = explained.stderr.replace(/\n$/, '');
    assert.ok(line.startsWith('stage-lens explain: '), line);
    assert.match(line.slice('stage-lens explain: '.length), words);
    // analyze says the same after its own name.
    const analyzed = cli(['analyze', LOG, '--deploy-config', config]);
    assert.equal(analyzed.stderr.replace('stage-lens analyze: ', 'stage-lens explain: '), explained.stderr);
  }
  // Before any input is read: from stdin, and for JSON, too.
  const json = cli(['explain', '-', '--format', 'json', '--deploy-config', broken], {
    input: fs.readFileSync(LOG, 'utf8'),
  });
  assert.equal(json.status, 2);
  assert.equal(json.stdout, '');
  assert.match(json.stderr, /^stage-lens explain: the deploy config .*broken\.yaml is not valid YAML: line \d+/);
});

test('explain --deploy-config of other stages than the log: said once (the table before the numbers, JSON on stderr and in deployConfig), cited nowhere', () => {
  const omni = path.join(DEPLOY, 'qwen3_omni_moe.yaml');
  const sentence =
    "The deploy config qwen3_omni_moe.yaml has stages 0, 1 and 2, this log's requests have stages 0 and 1: it is not the config this server ran, so its settings are no evidence here.";
  const table = cli(['explain', LOG, '--deploy-config', omni]);
  assert.equal(table.status, 0, table.stderr);
  const lines = table.stdout.split('\n');
  assert.equal(lines[2], sentence);
  assert.equal(table.stdout.split(sentence).length - 1, 1);
  assert.match(lines[4] ?? '', /^Why end-to-end time is slow at p95:/);
  assert.doesNotMatch(table.stdout, /qwen3_omni_moe\.yaml (agrees|sets|gives)/);
  const json = cli(['explain', LOG, '--format', 'json', '--deploy-config', omni]);
  assert.equal(json.status, 0);
  assert.equal(json.stderr, `stage-lens explain: ${sentence}\n`);
  // Named in the JSON only as the config given and not cited, with the same sentence; no finding cites it.
  const { deployConfig, ...rest } = JSON.parse(json.stdout) as { deployConfig: unknown };
  assert.deepEqual(deployConfig, { path: omni, from: 'flag', cited: false, problem: sentence });
  assert.doesNotMatch(JSON.stringify(rest), /qwen3_omni_moe/);
});
