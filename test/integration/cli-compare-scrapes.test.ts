// `stage-lens compare` of two /metrics scrapes as a real child process: a scrape of a build
// before the codec TTFT fix against one with it (simulator scrapes, trimmed to the families
// the signature touches; the candidate with the old vllm:omni_* prefix). A series known to be
// wrong in a run is shown and never differenced, a series of one run shows that run's values,
// and the signature disappearing is a finding.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runCli as cli } from './support/cliProcess';

const ROOT = path.resolve(__dirname, '..', '..');
const FIXTURES = path.join(ROOT, 'test', 'fixtures', 'scrapes');
const BEFORE_FIX = path.join(FIXTURES, 'codec-ttft-before-fix.prom');
const FIXED = path.join(FIXTURES, 'codec-ttft-fixed-old-prefix.prom');
const ONE_OUTPUT = path.join(FIXTURES, 'qwen3-tts-one-output.prom');

test('a series known to be wrong in a run has no Δ, says why, and the candidate-only TTFT shows its quantiles', () => {
  const r = cli(['compare', BEFORE_FIX, FIXED]);
  assert.equal(r.status, 0, r.stderr);
  const lines = r.stdout.split('\n');
  const row = (start: RegExp): string[] => {
    const i = lines.findIndex((l) => start.test(l));
    assert.ok(i >= 0, `no row ${start}`);
    return lines.slice(i, i + 3).map((l) =>
      l
        .trim()
        .split(/\s{2,}/)
        .join(' | '),
    );
  };
  assert.deepEqual(row(/^vllm:inter_token_latency_seconds ! +stage=1/), [
    'vllm:inter_token_latency_seconds ! | stage=1 | 271/211 | p50 | 433.2 | 409.5 | no Δ: known to be wrong in the baseline',
    'p90 | ≥ 80,000 | 486.3',
    'p99 | ≥ 80,000 | 662.1',
  ]);
  assert.deepEqual(row(/^vllm:time_to_first_token_seconds ! +stage=1/), [
    'vllm:time_to_first_token_seconds ! | stage=1 | 0/60 | p50 | - | 82.35 | candidate only; known to be wrong in the baseline',
    'p90 | - | 190.0',
    'p99 | - | 244.0',
  ]);
  // A usable series still has its difference.
  assert.match(r.stdout, /vllm:request_inference_time_seconds {2}stage=1 +60\/60 {2}p50 +1,233 +1,233 +0\.000 +0\.0%/);
  assert.match(
    r.stdout,
    /Findings\n {2}disappeared {3}\[warning\] ttft-not-recorded \(stage 1, \/metrics\): in the baseline's scrape, not in the candidate's\n/,
  );

  const json = JSON.parse(cli(['compare', BEFORE_FIX, FIXED, '--format', 'json']).stdout) as {
    histograms: {
      family: string;
      labels: Record<string, string>;
      status: string;
      notUsableIn: string | null;
      quantiles: unknown[];
    }[];
    findings: { code: string; stageId: number; change: string; fromScrape?: boolean }[];
  };
  const itl = json.histograms.find((h) => h.family === 'vllm:inter_token_latency_seconds' && h.labels['stage'] === '1');
  assert.deepEqual([itl?.status, itl?.notUsableIn, itl?.quantiles.length], ['compared', 'baseline', 0]);
  assert.deepEqual(json.findings, [
    {
      code: 'ttft-not-recorded',
      stageId: 1,
      severity: 'warning',
      change: 'disappeared',
      baselineRequests: 0,
      candidateRequests: 0,
      baselineOf: null,
      candidateOf: null,
      message: json.findings[0]?.['message' as 'code'],
      fromScrape: true,
    },
  ]);

  const md = cli(['compare', BEFORE_FIX, FIXED, '--format', 'markdown']).stdout;
  assert.match(
    md,
    /\| vllm:inter\\_token\\_latency\\_seconds \(ms\) ⚠️ \| stage=1 \| 271\/211 \| 433\.2 → 409\.5 \(no Δ: known to be wrong in the baseline\) \| ≥ 80,000 → 486\.3 \| ≥ 80,000 → 662\.1 \|/,
  );
  assert.match(
    md,
    /- ✔️ disappeared: ttft-not-recorded \(stage 1, \/metrics\): in the baseline's scrape, not in the candidate's/,
  );
});

test('the fix reverted (the fixed scrape as baseline): a TTFT rule fails as not measured, exit 1', () => {
  const r = cli(['compare', FIXED, BEFORE_FIX, '--fail-if', 'stage1.ttft.p90 > +10%']);
  assert.equal(r.status, 1, r.stderr);
  assert.match(
    r.stderr,
    /FAIL NOT MEASURED {2}stage1\.ttft\.p90 > \+10%: the vllm:time_to_first_token_seconds series of stage 1 was measured in the baseline and is known to be wrong in the candidate \(TTFT not recorded on stage 1/,
  );
  assert.match(
    r.stdout,
    /appeared {6}\[warning\] ttft-not-recorded \(stage 1, \/metrics\): in the candidate's scrape, not in the baseline's/,
  );
});

test('a limit on the candidate is held to its own series, whatever the baseline series shows', () => {
  // The baseline's stage 1 TTFT is the codec bug's (no sample); the candidate's is measured: 190 ms at p90.
  const crossed = cli(['compare', BEFORE_FIX, FIXED, '--fail-if', 'stage1.ttft.p90 > 100ms']);
  assert.equal(crossed.status, 1, crossed.stderr);
  assert.match(
    crossed.stderr,
    /FAIL CROSSED {7}stage1\.ttft\.p90 > 100ms: stage 1 TTFT p90 is 190 ms in the candidate \(limit > 100 ms\)/,
  );
  const passed = cli(['compare', BEFORE_FIX, FIXED, '--fail-if', 'stage1.ttft.p90 > 200ms']);
  assert.equal(passed.status, 0, passed.stderr);
  assert.doesNotMatch(passed.stderr, /not evaluated/);
  // A change still needs the baseline's value, which the bug took.
  const change = cli(['compare', BEFORE_FIX, FIXED, '--fail-if', 'stage1.ttft.p90 > +10%']);
  assert.equal(change.status, 0, change.stderr);
  assert.match(change.stderr, /not evaluated stage1\.ttft\.p90 > \+10%/);
});

test('a one-output prefill family stuck at 0 in the candidate fails a prefillDecode rule as not measured', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stage-lens-stuck-'));
  try {
    const stuck = path.join(dir, 'stuck.prom');
    // Every sample of the prefill family read 0 (buckets, count, sum): the family stopped reporting.
    fs.writeFileSync(
      stuck,
      fs
        .readFileSync(ONE_OUTPUT, 'utf8')
        .replace(/^(vllm:request_prefill_time_seconds_(?:bucket|count|sum)\{[^}]*\}) \S+$/gm, '$1 0'),
    );
    for (const rule of ['stage0.prefillDecode.p90 > +10%', 'stage0.prefillDecode.p90 > 60s']) {
      const r = cli(['compare', ONE_OUTPUT, stuck, '--fail-if', rule]);
      assert.equal(r.status, 1, `${rule}: ${r.stderr}`);
      assert.match(
        r.stderr,
        /FAIL NOT MEASURED {2}stage0\.prefillDecode\.p90 > \S+: stage 0 · talker prefill\+decode \(one output\) p90 was measured in the baseline \(\d+ observations of vllm:request_prefill_time_seconds\) and has no observation in the candidate: the candidate lost a measurement/,
      );
      assert.doesNotMatch(r.stderr, /one-output signature/);
    }
    // Unchanged runs: the one-output prefill is compared as prefill+decode (its caveat is that reading).
    const same = cli(['compare', ONE_OUTPUT, ONE_OUTPUT, '--fail-if', 'stage0.prefillDecode.p90 > +10%']);
    assert.equal(same.status, 0, same.stderr);
    assert.match(
      same.stdout,
      /ok {12}stage0\.prefillDecode\.p90 > \+10%: stage 0 · talker prefill\+decode \(one output\) p90 [\d,.]+ ms → [\d,.]+ ms \(0 ms, 0%/,
    );
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('the counts say what they count (as analyze does), JSON numbers at 3 decimals, one mark per format', () => {
  const analyze = cli(['analyze', BEFORE_FIX]);
  assert.match(analyze.stdout, /: 11 histogram series\n/);
  const table = cli(['compare', BEFORE_FIX, FIXED]).stdout;
  assert.match(
    table,
    /baseline {3}\S+codec-ttft-before-fix\.prom · scrape · 11 histogram series exposed, 11 latency rows \(per family and stage, replicas added\)\n/,
  );
  assert.match(table, /a row with no observation in either run is left out/);
  const md = cli(['compare', BEFORE_FIX, FIXED, '--format', 'markdown']).stdout;
  assert.match(
    md,
    /<summary>\/metrics histograms \(10 latency rows observed in a run: per family and stage, replicas added\)<\/summary>/,
  );
  assert.match(
    md,
    /known to be wrong in a run \(marked ! in the table, ⚠️ in Markdown; no difference is taken on them\)/,
  );
  const json = cli(['compare', BEFORE_FIX, FIXED, '--format', 'json']).stdout;
  const ttft = (
    JSON.parse(json) as { histograms: { family: string; labels: Record<string, string>; candidate: { p50: number } }[] }
  ).histograms.find((h) => h.family === 'vllm:time_to_first_token_seconds' && h.labels['stage'] === '1');
  assert.equal(ttft?.candidate.p50, 82.353);
  assert.deepEqual(json.match(/\d\.\d{4,}/g), null);
});
