// Known lies of a scrape beyond the codec TTFT signature, on two scrapes of the simulator
// serving the Qwen3-TTS deploy config (trimmed to the families read here):
// qwen3-tts-one-output.prom (one replica per stage, 6 rps) and qwen3-tts-codec-replicas.prom
// (the same with max_num_seqs 4 on stage 0 and two code2wav replicas). In both the talker
// (stage 0, Model Runner V2 + async chunk) emits one output per request.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  histogramSummariesOf,
  summarizeScrape,
  type HistogramSummary,
} from '../../server/core/metricsText/scrapeSummary';
import { parseExposition } from '../../server/core/metricsText/exposition';
import { findOneOutputStages } from '../../server/core/metricsText/oneOutputSignature';
import { histogramRowsOfScrape } from '../../server/core/compare/scrapeHistograms';
import { compareRuns } from '../../server/core/compare/compareRuns';
import { checkRule } from '../../server/core/compare/ruleCheck';
import { parseRule, type Rule } from '../../server/core/compare/rules';
import { metricNotReportingInScrape, scrapeChecksDone } from '../../server/core/explain/metricNotReporting';

const FIXTURES = path.resolve(__dirname, '..', 'fixtures', 'scrapes');
const ONE_OUTPUT = fs.readFileSync(path.join(FIXTURES, 'qwen3-tts-one-output.prom'), 'utf8');
const REPLICAS = fs.readFileSync(path.join(FIXTURES, 'qwen3-tts-codec-replicas.prom'), 'utf8');

function rows(summaries: readonly HistogramSummary[], family: string, stage: string): HistogramSummary[] {
  return summaries.filter((h) => h.family === family && h.labels['stage'] === stage);
}

describe('one-output signature in a scrape', () => {
  it('finds the talker: prefill counts, decode all 0, ITL exposed and empty', () => {
    const stages = findOneOutputStages(parseExposition(REPLICAS));
    assert.deepEqual(
      stages.map((s) => [s.stageId, s.replicaId, s.prefillCount]),
      [[0, 0, 150]],
    );
  });

  it("marks stage 0's prefill, decode and time per output token, and nothing of stage 1", () => {
    const { histograms } = summarizeScrape(REPLICAS);
    for (const family of [
      'vllm:request_prefill_time_seconds',
      'vllm:request_decode_time_seconds',
      'vllm:request_time_per_output_token_seconds',
    ]) {
      const [row] = rows(histograms, family, '0');
      assert.match(
        row.caveat ?? '',
        /^Stage 0 emitted one output per request .*150 prefill times.*covers the decode steps/,
      );
      assert.equal(row.oneOutput, true);
      for (const r of rows(histograms, family, '1')) {
        assert.equal(r.caveat, null, `${family} stage 1`);
        assert.equal(r.oneOutput, undefined);
      }
    }
    // The prefill quantile is kept as the scrape says; only its reading changes.
    const [prefill] = rows(histograms, 'vllm:request_prefill_time_seconds', '0');
    assert.equal(Math.round((prefill.p50 ?? 0) * 1000), 1408);
    // One output: no inter-token latency, and that empty series is not marked.
    const [itl] = rows(histograms, 'vllm:inter_token_latency_seconds', '0');
    assert.equal(itl.count, 0);
    assert.equal(itl.caveat, null);
  });

  it('is not found where the decode has time in it', () => {
    const decodeWithTime = ONE_OUTPUT.replace(
      /(vllm:request_decode_time_seconds_sum\{[^}]*stage="0"[^}]*\}) 0\.0/,
      '$1 12.5',
    ).replace(/(vllm:request_decode_time_seconds_bucket\{[^}]*stage="0"[^}]*le="0\.3"\}) 150\.0/, '$1 100.0');
    assert.notEqual(decodeWithTime, ONE_OUTPUT);
    assert.deepEqual(findOneOutputStages(parseExposition(decodeWithTime)), []);
  });
});

describe('downstream queue time in a scrape', () => {
  it("marks every replica of stage 1's queue time, not stage 0's", () => {
    const { histograms } = summarizeScrape(REPLICAS);
    const [stage0] = rows(histograms, 'vllm:request_queue_time_seconds', '0');
    assert.equal(stage0.caveat, null);
    const stage1 = rows(histograms, 'vllm:request_queue_time_seconds', '1');
    assert.deepEqual(
      stage1.map((r) => r.labels['replica']),
      ['0', '1'],
    );
    for (const r of stage1)
      assert.match(r.caveat ?? '', /^Stage 1 is downstream: .*wait for upstream input.*no input-wait split/);
    assert.equal(Math.round((stage1[0].p50 ?? 0) * 100), 1319);
  });
});

describe('preemptions in a scrape', () => {
  it('reads vllm:num_preemptions_total per stage and replica', () => {
    assert.deepEqual(summarizeScrape(REPLICAS).preemptions, [
      { stage: '0', replica: '0', count: 4 },
      { stage: '1', replica: '0', count: 0 },
      { stage: '1', replica: '1', count: 0 },
    ]);
    assert.deepEqual(summarizeScrape(ONE_OUTPUT).preemptions, [
      { stage: '0', replica: '0', count: 10 },
      { stage: '1', replica: '0', count: 0 },
    ]);
  });

  it('is null, not 0, when the family is absent', () => {
    const without = REPLICAS.split('\n')
      .filter((l) => !l.includes('num_preemptions'))
      .join('\n');
    assert.equal(summarizeScrape(without).preemptions, null);
  });
});

describe('compare rules on a one-output stage', () => {
  const side = (body: string, source: string) => ({
    source,
    kind: 'scrape' as const,
    samples: null,
    histograms: histogramRowsOfScrape(body).rows,
    problemCount: 0,
  });
  const report = compareRuns(side(ONE_OUTPUT, 'base.prom'), side(REPLICAS, 'replicas.prom'));
  const check = (text: string) => checkRule(parseRule(text) as Rule, report);

  it('refuses prefill and decode as the log side does, naming prefillDecode', () => {
    const prefill = check('stage0.prefill.p50 > 1s');
    assert.equal(prefill.outcome, 'notEvaluated');
    assert.equal(prefill.failed, false);
    // A fixed limit reads the candidate alone: the reason names the run it holds for.
    assert.match(prefill.detail, /one output per request in the candidate/);
    assert.match(prefill.detail, /covers the decode steps \(one output\): write stage0\.prefillDecode\.p50$/);
    assert.match(check('stage0.decode.p90 > +10%').detail, /write stage0\.prefillDecode\.p90$/);
  });

  it('evaluates prefillDecode on the prefill histogram of that stage only', () => {
    const r = check('stage0.prefillDecode.p50 > 1s');
    assert.equal(r.outcome, 'crossed');
    assert.equal(r.basis, 'histogram');
    assert.equal(Math.round(r.candidate ?? 0), 1408);
    const stage1 = check('stage1.prefillDecode.p50 > 1s');
    assert.equal(stage1.outcome, 'notEvaluated');
    assert.match(stage1.detail, /no one-output signature in the candidate/);
  });

  it('keeps a downstream queued rule evaluable and names every lie in the notes', () => {
    const notes = report.notes.join('\n');
    assert.match(notes, /Stage 0 emitted one output per request/);
    assert.match(notes, /Stage 1 is downstream/);
    const queued = check('stage1.queued.p50 > 20s');
    assert.doesNotMatch(queued.detail, /known to be wrong/);
  });
});

describe('explain on a scrape with a one-output stage', () => {
  it('finds no metric-not-reporting case and says what it checked', () => {
    const exposition = parseExposition(REPLICAS);
    assert.deepEqual(metricNotReportingInScrape(exposition), []);
    const checks = scrapeChecksDone(exposition).join('\n');
    assert.match(checks, /^Checked: vllm:time_to_first_token_seconds, vllm:inter_token_latency_seconds,/);
    assert.match(checks, /one stage's empty series is not a finding by itself/);
    assert.match(
      checks,
      /The inter-token latency of stage 0 replica 0 has no sample, as expected: .*one output per request/,
    );
  });

  it('does not call the ITL silent when only the one-output stage exposes it', () => {
    // Stage 1's ITL series left out: what remains of the family is the talker's empty series.
    const onlyTalker = REPLICAS.split('\n')
      .filter((l) => !(l.startsWith('vllm:inter_token_latency_seconds') && l.includes('stage="1"')))
      .join('\n');
    const findings = metricNotReportingInScrape(parseExposition(onlyTalker));
    assert.deepEqual(
      findings.map((f) => f.family),
      [],
    );
  });

  it('says when the family check could not run', () => {
    const noFinished = REPLICAS.split('\n')
      .filter((l) => !l.startsWith('vllm_omni:'))
      .join('\n');
    assert.match(
      scrapeChecksDone(parseExposition(noFinished))[0],
      /^Not checked: whether the per-stage vllm:\* families report/,
    );
  });
});

describe('a family stuck at 0 in a scrape', () => {
  it("marks every series of the family with its metric-not-reporting finding, as a session's scrape rows are made", () => {
    // vllm:request_decode_time_seconds zeroed on every series: a stats path that does not deliver.
    const parsed = parseExposition(
      REPLICAS.split('\n')
        .map((l) => (l.startsWith('vllm:request_decode_time_seconds_') ? l.replace(/ \S+$/, ' 0.0') : l))
        .join('\n'),
    );
    const findings = metricNotReportingInScrape(parsed);
    assert.deepEqual(
      findings.map((f) => [f.family, f.stageId]),
      [['vllm:request_decode_time_seconds', null]],
    );
    const marked = histogramSummariesOf(parsed, findings);
    const decode = marked.filter((h) => h.family === 'vllm:request_decode_time_seconds');
    assert.equal(decode.length, 3);
    for (const h of decode) {
      assert.equal(h.count, 0);
      assert.match(
        h.caveat ?? '',
        /^(.* )?vllm:request_decode_time_seconds is registered but reads 0 while requests finish: 0 on all 3/,
      );
    }
    // Without the findings (a caller that has none), the rows are as before: no stuck-at-0 words.
    for (const h of histogramSummariesOf(parsed).filter((r) => r.family === 'vllm:request_decode_time_seconds'))
      assert.doesNotMatch(h.caveat ?? '', /registered but reads 0/);
    // Other families are not touched.
    for (const h of marked.filter((r) => r.family === 'vllm:e2e_request_latency_seconds'))
      assert.doesNotMatch(h.caveat ?? '', /registered but reads 0/);
    assert.doesNotMatch(scrapeChecksDone(parsed).join('\n'), /request_decode_time_seconds.* each have samples/);
  });
});
