// `stage-lens analyze`, `compare` and `explain` as child processes on two /metrics scrapes of
// the simulator serving the Qwen3-TTS deploy config (test/fixtures/scrapes): the talker
// (stage 0) emits one output per request, so its prefill histogram covers its decode; the
// code2wav stage's queue time includes its wait for the talker; stage 0 was preempted.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { runCli as cli } from './support/cliProcess';

const ROOT = path.resolve(__dirname, '..', '..');
const BASE = path.join(ROOT, 'test', 'fixtures', 'scrapes', 'qwen3-tts-one-output.prom');
const REPLICAS = path.join(ROOT, 'test', 'fixtures', 'scrapes', 'qwen3-tts-codec-replicas.prom');

test('analyze marks the one-output prefill and the downstream queue time, and shows preemptions', () => {
  const run = cli(['analyze', REPLICAS]);
  assert.equal(run.status, 0, run.stderr);
  const table = run.stdout;
  assert.match(table, /^vllm:request_prefill_time_seconds ! +0 +0 +150 +1\.408 /m);
  assert.match(table, /^vllm:request_prefill_time_seconds +1 +0 +75 /m, "code2wav's prefill is not marked");
  assert.match(table, /^vllm:request_queue_time_seconds +0 +0 +150 +13\.19 /m);
  assert.match(table, /^vllm:request_queue_time_seconds ! +1 +0 +75 +13\.19 /m);
  assert.match(table, /^vllm:inter_token_latency_seconds +0 +0 +0 +- /m, 'the empty ITL of stage 0 is not marked');
  assert.match(table, /Known to mislead \(marked !\): 5 series:\n {2}Stage 0 emitted one output per request/);
  assert.match(table, /\n {2}Stage 1 is downstream: its vLLM queue time includes the wait for upstream input/);
  assert.match(
    table,
    /Preemptions \(vllm:num_preemptions_total, since the server started\):\nstage +replica +preemptions\n[- ]+\n0 +0 +4\n1 +0 +0\n1 +1 +0/,
  );

  const json = JSON.parse(cli(['analyze', REPLICAS, '--format', 'json']).stdout) as {
    histograms: { family: string; labels: Record<string, string>; caveat: string | null; oneOutput?: boolean }[];
    preemptions: { stage: string | null; replica: string | null; count: number }[] | null;
  };
  const prefill0 = json.histograms.find(
    (h) => h.family === 'vllm:request_prefill_time_seconds' && h.labels['stage'] === '0',
  );
  assert.match(prefill0?.caveat ?? '', /covers the decode steps/);
  assert.equal(prefill0?.oneOutput, true);
  assert.deepEqual(json.preemptions, [
    { stage: '0', replica: '0', count: 4 },
    { stage: '1', replica: '0', count: 0 },
    { stage: '1', replica: '1', count: 0 },
  ]);
});

test('analyze says a scrape without the preemption counter has none exposed, not 0', () => {
  const body = fs
    .readFileSync(BASE, 'utf8')
    .split('\n')
    .filter((l) => !l.includes('num_preemptions'))
    .join('\n');
  const run = cli(['analyze', '-', '--format', 'json'], { input: body });
  assert.equal((JSON.parse(run.stdout) as { preemptions: unknown }).preemptions, null);
  const table = cli(['analyze', '-'], { input: body }).stdout;
  assert.match(table, /Preemptions: vllm:num_preemptions_total is not exposed \(unknown, not 0\)\./);
});

test('compare refuses a one-output prefill rule on scrapes and evaluates prefillDecode', () => {
  // A usage error, no report: as a gate that is never evaluated, it would pass forever.
  const refused = cli(['compare', BASE, REPLICAS, '--fail-if', 'stage0.prefill.p50 > 1s']);
  assert.equal(refused.status, 2, refused.stderr);
  assert.equal(refused.stdout, '');
  assert.match(
    refused.stderr,
    // A fixed limit reads the candidate alone: the reason names it.
    /^stage-lens compare: --fail-if 'stage0\.prefill\.p50 > 1s': stage 0 · talker emitted one output per request in the candidate, .*write stage0\.prefillDecode\.p50\n$/,
  );

  const crossed = cli(['compare', BASE, REPLICAS, '--fail-if', 'stage0.prefillDecode.p50 > 1s']);
  assert.equal(crossed.status, 1);
  assert.match(
    crossed.stdout,
    /FAIL CROSSED +stage0\.prefillDecode\.p50 > 1s: stage 0 · talker prefill\+decode \(one output\) p50 is 1,407\.\d+ ms/,
  );
});

test('explain on a scrape says what it checked and why the talker has no ITL', () => {
  const run = cli(['explain', REPLICAS]);
  assert.equal(run.status, 0, run.stderr);
  assert.doesNotMatch(run.stdout, /Every registered per-stage family/);
  assert.match(run.stdout, /No metric that is registered but does not report was found\./);
  assert.match(run.stdout, /one stage's empty series is not a finding by itself/);
  assert.match(run.stdout, /The inter-token latency of stage 0 replica 0 has no sample, as expected/);
});

test('explain on a scrape whose codec TTFT records nothing says what it found, never that it found nothing', () => {
  // simulate --talker-first-audio --stats-build before-fix: the codec's first output counted as a decode step.
  const run = cli(['explain', path.join(ROOT, 'test', 'fixtures', 'scrapes', 'codec-ttft-before-fix.prom')]);
  assert.equal(run.status, 0, run.stderr);
  const lines = run.stdout.split('\n');
  assert.ok(
    lines.includes(
      'vllm:time_to_first_token_seconds is registered but reads 0 while requests finish: stage 1 replica 0: no TTFT sample while its inter-token latency has 271. Not a measurement; do not plot it as 0.',
    ),
    run.stdout,
  );
  assert.ok(
    lines.includes(
      "Checked: the TTFT histogram of stage 1 replica 0 is empty while its inter-token latency has samples (metric-not-reporting, above); no other stage's is.",
    ),
    run.stdout,
  );
  assert.doesNotMatch(run.stdout, /no stage's TTFT histogram is empty/);
});

test('a family stuck at 0 is marked ! in analyze (table and JSON, with its finding) and not listed as reporting by explain', () => {
  // Every series of vllm:request_prefill_time_seconds zeroed, as a build whose stats path does not deliver.
  const stuck = fs
    .readFileSync(BASE, 'utf8')
    .split('\n')
    .map((l) => (l.startsWith('vllm:request_prefill_time_seconds_') ? l.replace(/ \S+$/, ' 0.0') : l))
    .join('\n');
  const run = (args: string[]) => cli(args, { input: stuck });
  const table = run(['analyze', '-']);
  assert.equal(table.status, 0, table.stderr);
  assert.match(table.stdout, /^vllm:request_prefill_time_seconds ! +0 +0 +0 +- +- +-$/m);
  assert.match(table.stdout, /^vllm:request_prefill_time_seconds ! +1 +0 +0 +- +- +-$/m);
  assert.match(
    table.stdout,
    /\n {2}vllm:request_prefill_time_seconds is registered but reads 0 while requests finish: 0 on all 2 \(stage, replica\) series/,
  );
  assert.match(
    table.stdout,
    /Findings:\n {2}\[warning\] metric-not-reporting: vllm:request_prefill_time_seconds is registered but reads 0/,
  );

  const json = JSON.parse(run(['analyze', '-', '--format', 'json']).stdout) as {
    histograms: { family: string; count: number | null; caveat: string | null }[];
    findings: { code: string; message: string }[];
  };
  const prefill = json.histograms.filter((h) => h.family === 'vllm:request_prefill_time_seconds');
  assert.equal(prefill.length, 2);
  for (const h of prefill) assert.match(h.caveat ?? '', /registered but reads 0 while requests finish/);
  assert.deepEqual(
    json.findings.map((f) => f.code),
    ['metric-not-reporting'],
  );
  assert.match(json.findings[0]?.message ?? '', /^vllm:request_prefill_time_seconds is registered but reads 0/);

  const explain = run(['explain', '-']);
  assert.equal(explain.status, 0, explain.stderr);
  assert.match(explain.stdout, /vllm:request_prefill_time_seconds is registered but reads 0/);
  const checked = explain.stdout.split('\n').find((l) => l.includes('each have samples on some stage')) ?? '';
  assert.match(checked, /vllm:request_decode_time_seconds/);
  assert.doesNotMatch(checked, /request_prefill_time_seconds/);
});

test('a scrape of an older build shows its vllm:omni_* names as exposed, in analyze and compare alike', () => {
  const old = path.join(ROOT, 'test', 'fixtures', 'scrapes', 'codec-ttft-fixed-old-prefix.prom');
  const table = cli(['analyze', old]);
  assert.equal(table.status, 0, table.stderr);
  // The name a user pastes into PromQL against that server, not the canonical vllm_omni:*.
  assert.match(table.stdout, /^vllm:omni_e2e_request_latency_s +60 +1\.333 /m);
  assert.doesNotMatch(table.stdout, /vllm_omni:/);
  const json = JSON.parse(cli(['analyze', old, '--format', 'json']).stdout) as {
    histograms: { family: string; exposedName?: string }[];
  };
  const e2e = json.histograms.find((h) => h.family === 'vllm_omni:e2e_request_latency_s');
  assert.equal(e2e?.exposedName, 'vllm:omni_e2e_request_latency_s');
  assert.equal(
    json.histograms.find((h) => h.family === 'vllm:time_to_first_token_seconds')?.exposedName,
    undefined,
    'a name exposed canonically has no second spelling',
  );
  // Both runs spell it the old way: compare's table does too.
  const both = cli(['compare', old, old]);
  assert.equal(both.status, 0, both.stderr);
  assert.match(both.stdout, /^vllm:omni_e2e_request_latency_s +60\/60 +p50 /m);
  assert.match(
    cli(['compare', old, old, '--format', 'markdown']).stdout,
    /\| vllm:omni\\_e2e\\_request\\_latency\\_s \(ms\) \|/,
  );
});

test('analyze spells a non-finite count as the scrape does (+Inf), in the table and in the caveat', () => {
  const body = fs
    .readFileSync(REPLICAS, 'utf8')
    .replace(/^(vllm:inter_token_latency_seconds_count\{[^}]*stage="0"[^}]*\}) \S+$/m, '$1 +Inf');
  const table = cli(['analyze', '-'], { input: body }).stdout;
  assert.match(table, /^vllm:inter_token_latency_seconds ! +0 +0 +\+Inf +- /m);
  assert.match(
    table,
    /inter_token_latency_seconds\{[^}]*\}: its _count \(\+Inf\) is not its \+Inf bucket's count \(0\)/,
  );
  assert.doesNotMatch(table, /Infinity/);

  // The codec TTFT signature cites the stage's ITL count: spelled the same way.
  const beforeFix = fs
    .readFileSync(path.join(ROOT, 'test', 'fixtures', 'scrapes', 'codec-ttft-before-fix.prom'), 'utf8')
    .replace(/^(vllm:inter_token_latency_seconds_count\{[^}]*stage="1"[^}]*\}) \S+$/m, '$1 +Inf');
  const signature = cli(['analyze', '-'], { input: beforeFix }).stdout;
  assert.match(signature, /TTFT not recorded on stage 1: no TTFT sample but \+Inf inter-token latencies\./);
  assert.doesNotMatch(signature, /Infinity/);
});
