// `stage-lens compare a.prom b.prom --fail-if …` as a child process where a scrape's text breaks
// off inside stage 1 replica 1's decode time series (test/integration/support/cutScrape.ts): that
// series is cut short, unknown, not measured. A gate on it is not evaluated (exit 0; 1 only with
// --fail-unevaluated) and says to take the scrape again, whichever run was cut; the table, the
// Markdown and the JSON say "cut short" for its row and its rule alike. A scrape cut short before a
// family (inside TTFT, before the decode time) has not read its series: unknown there, not lost,
// said alike, and absent from both scrapes, each cut short before it, says to take both again; a
// family absent from a scrape read whole fails as not measured.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { runCli } from './support/cliProcess';
import { cutInto, lastSeriesLine, REPLICAS_SCRAPE } from './support/cutScrape';
import { tempFolder } from './support/tempFolder';

const dir = tempFolder('stage-lens-compare-rules-cut-');
const WHOLE_TEXT = fs.readFileSync(REPLICAS_SCRAPE, 'utf8');
const baseline = path.join(dir, 'baseline.prom');
const candidate = path.join(dir, 'candidate.prom');
const baselineCut = path.join(dir, 'baseline-cut.prom');
const candidateCut = path.join(dir, 'candidate-cut.prom');
fs.writeFileSync(baseline, WHOLE_TEXT);
fs.writeFileSync(candidate, WHOLE_TEXT);
// Cut inside the series' _count line (`75.0` cut to `7`), as a file copied while it was written.
const CUT_TEXT = cutInto(WHOLE_TEXT, lastSeriesLine('_count'), ' 7'.length);
fs.writeFileSync(baselineCut, CUT_TEXT);
fs.writeFileSync(candidateCut, CUT_TEXT);

const CHANGE = 'stage1.decode.p50 > +10%';
const LIMIT = 'stage1.decode.p90 > 5000ms';
const FAMILY = 'vllm:request_decode_time_seconds';
const CUT_AT = (name: string, file: string): string =>
  `stage-lens compare: warning: the ${name} (${file}): The /metrics scrape ends inside its line 455, with no line feed after it (a file or body cut short): the series before it are read; the rest of the scrape is not.\n`;

const cutShort = (quantile: string, run: string): string =>
  `the ${FAMILY} series of stage 1 is cut short in ${run}'s scrape, so stage 1 decode ${quantile} is unknown there, not measured (a capture cut short, not a lost measurement): take ${run}'s scrape again`;
const notEvaluatedLine = (rule: string, detail: string): string => `       not evaluated ${rule}: ${detail}`;

test('a candidate scrape cut short in the series a gate reads: not evaluated (exit 0), failed only with --fail-unevaluated', () => {
  const run = runCli(['compare', baseline, candidateCut, '--fail-if', CHANGE, '--fail-if', LIMIT]);
  assert.equal(run.status, 0, run.stderr);
  const lines = [
    notEvaluatedLine(CHANGE, cutShort('p50', 'the candidate')),
    notEvaluatedLine(LIMIT, cutShort('p90', 'the candidate')),
  ];
  assert.ok(run.stdout.endsWith(`\nRules (--fail-if)\n${lines.join('\n')}\n`), run.stdout);
  assert.match(
    run.stdout,
    /^vllm:request_decode_time_seconds ~ +stage=1 +150\/\? +p50 +1,313 +- +no Δ: cut short in the candidate$/m,
  );
  assert.equal(
    run.stderr,
    `${CUT_AT('candidate', candidateCut)}stage-lens compare: 2 rules not evaluated (not failing; --fail-unevaluated makes them fail):\n${lines.join('\n')}\n`,
  );

  const strict = runCli(['compare', baseline, candidateCut, '--fail-if', CHANGE, '--fail-unevaluated']);
  assert.equal(strict.status, 1, strict.stderr);
  assert.equal(
    strict.stderr,
    `${CUT_AT('candidate', candidateCut)}stage-lens compare: 1 of 1 rule failed:\n  FAIL not evaluated ${CHANGE}: ${cutShort('p50', 'the candidate')}\n`,
  );

  const markdown = runCli(['compare', baseline, candidateCut, '--fail-if', CHANGE, '--format', 'markdown']);
  assert.equal(markdown.status, 0, markdown.stderr);
  assert.ok(markdown.stdout.includes('**Rules:** ✅ none of 1 failed (1 not evaluated)\n'), markdown.stdout);
  assert.ok(
    markdown.stdout.includes(
      `\n| ❔ | stage1.decode.p50 &gt; +10% | not evaluated: ${cutShort('p50', 'the candidate').replace(/_/g, '\\_')} |\n`,
    ),
    markdown.stdout,
  );
  assert.ok(
    markdown.stdout.includes(
      '\n| vllm:request\\_decode\\_time\\_seconds (ms) ✂️ | stage=1 | 150/? | 1,313 → - (no Δ: cut short in the candidate) | 2,167 → - | 2,488 → - |\n',
    ),
    markdown.stdout,
  );

  const json = runCli(['compare', baseline, candidateCut, '--fail-if', CHANGE, '--format', 'json']);
  assert.equal(json.status, 0, json.stderr);
  const report = JSON.parse(json.stdout) as { rules: unknown[]; failed: boolean };
  assert.deepEqual(report.rules, [
    {
      rule: CHANGE,
      outcome: 'notEvaluated',
      failed: false,
      observed: null,
      baseline: 1312.5,
      candidate: null,
      basis: 'histogram',
      detail: cutShort('p50', 'the candidate'),
    },
  ]);
  assert.equal(report.failed, false);
});

test('a baseline scrape cut short: the change gate is not evaluated, the limit reads the candidate (exit 0)', () => {
  const run = runCli(['compare', baselineCut, candidate, '--fail-if', CHANGE, '--fail-if', LIMIT]);
  assert.equal(run.status, 0, run.stderr);
  assert.ok(
    run.stdout.endsWith(
      `\nRules (--fail-if)\n${notEvaluatedLine(CHANGE, cutShort('p50', 'the baseline'))}\n       ok            ${LIMIT}: stage 1 decode p90 is 2,166.667 ms in the candidate (limit > 5,000 ms)\n`,
    ),
    run.stdout,
  );
  assert.match(
    run.stdout,
    /^vllm:request_decode_time_seconds ~ +stage=1 +\?\/150 +p50 +- +1,313 +no Δ: cut short in the baseline$/m,
  );
});

test('both scrapes cut short in the series: its row is kept and says so, and the gate says both scrapes are cut (exit 0)', () => {
  const run = runCli(['compare', baselineCut, candidateCut, '--fail-if', CHANGE, '--fail-if', LIMIT]);
  assert.equal(run.status, 0, run.stderr);
  const both = `the ${FAMILY} series of stage 1 is cut short in both runs' scrapes, so stage 1 decode p50 is unknown in both, not measured (a capture cut short, not a lost measurement): take both scrapes again`;
  assert.ok(
    run.stdout.endsWith(
      `\nRules (--fail-if)\n${notEvaluatedLine(CHANGE, both)}\n${notEvaluatedLine(LIMIT, cutShort('p90', 'the candidate'))}\n`,
    ),
    run.stdout,
  );
  assert.match(
    run.stdout,
    /^vllm:request_decode_time_seconds ~ +stage=1 +\?\/\? +p50 +- +- +no Δ: cut short in both runs$/m,
  );
  assert.match(run.stdout, /^ {2}- 1 \/metrics series is cut short in a run \(marked ~ in the table/m);
  const markdown = runCli(['compare', baselineCut, candidateCut, '--format', 'markdown']);
  assert.equal(markdown.status, 0, markdown.stderr);
  assert.ok(
    markdown.stdout.includes(
      '<summary>/metrics histograms (12 latency rows observed or cut short in a run: per family and stage, replicas added)</summary>',
    ),
    markdown.stdout,
  );
  assert.ok(
    markdown.stdout.includes(
      '\n| vllm:request\\_decode\\_time\\_seconds (ms) ✂️ | stage=1 | ?/? | - → - (no Δ: cut short in both runs) | - → - | - → - |\n',
    ),
    markdown.stdout,
  );
});

// Cut inside stage 0's first TTFT series (its le="5.0" bucket, `22.0` cut to `2`): stage 1's TTFT
// series and every family after TTFT (the decode time among them) are absent from the text read.
const TTFT_STAGE0 =
  'vllm:time_to_first_token_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="5.0"}';
const earlyCut = path.join(dir, 'early-cut.prom');
fs.writeFileSync(earlyCut, cutInto(WHOLE_TEXT, TTFT_STAGE0, ' 2'.length));
// The decode family left out of a scrape read whole: lost, not cut.
const noDecode = path.join(dir, 'no-decode.prom');
fs.writeFileSync(
  noDecode,
  WHOLE_TEXT.split('\n')
    .filter((line) => !line.includes(FAMILY))
    .join('\n'),
);
const cutBefore = (family: string, what: string, run: string): string =>
  `${run}'s scrape is cut short before the ${family} series of stage 1, so stage 1 ${what} is unknown there, not measured (a capture cut short, not a lost measurement): take ${run}'s scrape again`;
const EARLY_CUT_AT = `stage-lens compare: warning: the candidate (${earlyCut}): The /metrics scrape ends inside its line 42, with no line feed after it (a file or body cut short): the series before it are read; the rest of the scrape is not.\n`;

test('a candidate scrape cut short before the family a gate reads: not evaluated (exit 0, 1 with --fail-unevaluated); absent from a whole scrape: NOT MEASURED (exit 1)', () => {
  const TTFT_CHANGE = 'stage1.ttft.p50 > +10%';
  const run = runCli([
    'compare',
    baseline,
    earlyCut,
    '--fail-if',
    CHANGE,
    '--fail-if',
    LIMIT,
    '--fail-if',
    TTFT_CHANGE,
  ]);
  assert.equal(run.status, 0, run.stderr);
  const lines = [
    notEvaluatedLine(CHANGE, cutBefore(FAMILY, 'decode p50', 'the candidate')),
    notEvaluatedLine(LIMIT, cutBefore(FAMILY, 'decode p90', 'the candidate')),
    notEvaluatedLine(TTFT_CHANGE, cutBefore('vllm:time_to_first_token_seconds', 'TTFT p50', 'the candidate')),
  ];
  assert.ok(run.stdout.endsWith(`\nRules (--fail-if)\n${lines.join('\n')}\n`), run.stdout);
  assert.match(
    run.stdout,
    /^vllm:request_decode_time_seconds ~ +stage=1 +150\/\? +p50 +1,313 +- +no Δ: cut short before it in the candidate$/m,
  );
  assert.match(
    run.stdout,
    /^vllm:time_to_first_token_seconds ~ +stage=1 +150\/\? +p50 +13,429 +- +no Δ: cut short before it in the candidate$/m,
  );
  assert.match(
    run.stdout,
    /^ {2}- 11 \/metrics series are absent from a scrape cut short before them, in the candidate \(marked ~ in the table, ✂️ in Markdown; unknown there, not missing, so no difference is taken on them\)\.$/m,
  );
  assert.equal(
    run.stderr,
    `${EARLY_CUT_AT}stage-lens compare: 3 rules not evaluated (not failing; --fail-unevaluated makes them fail):\n${lines.join('\n')}\n`,
  );

  const strict = runCli(['compare', baseline, earlyCut, '--fail-if', CHANGE, '--fail-unevaluated']);
  assert.equal(strict.status, 1, strict.stderr);
  assert.equal(
    strict.stderr,
    `${EARLY_CUT_AT}stage-lens compare: 1 of 1 rule failed:\n  FAIL not evaluated ${CHANGE}: ${cutBefore(FAMILY, 'decode p50', 'the candidate')}\n`,
  );

  const markdown = runCli(['compare', baseline, earlyCut, '--fail-if', CHANGE, '--format', 'markdown']);
  assert.equal(markdown.status, 0, markdown.stderr);
  assert.ok(
    markdown.stdout.includes(
      `\n| ❔ | stage1.decode.p50 &gt; +10% | not evaluated: ${cutBefore(FAMILY, 'decode p50', 'the candidate').replace(/_/g, '\\_')} |\n`,
    ),
    markdown.stdout,
  );
  assert.ok(
    markdown.stdout.includes(
      '\n| vllm:request\\_decode\\_time\\_seconds (ms) ✂️ | stage=1 | 150/? | 1,313 → - (no Δ: cut short before it in the candidate) | 2,167 → - | 2,488 → - |\n',
    ),
    markdown.stdout,
  );

  const json = runCli(['compare', baseline, earlyCut, '--fail-if', CHANGE, '--format', 'json']);
  assert.equal(json.status, 0, json.stderr);
  const report = JSON.parse(json.stdout) as {
    rules: unknown[];
    failed: boolean;
    histograms: {
      family: string;
      labels: Record<string, string>;
      status: string;
      candidate: unknown;
      unreadIn?: string;
    }[];
  };
  assert.deepEqual(report.rules, [
    {
      rule: CHANGE,
      outcome: 'notEvaluated',
      failed: false,
      observed: null,
      baseline: 1312.5,
      candidate: null,
      basis: 'histogram',
      detail: cutBefore(FAMILY, 'decode p50', 'the candidate'),
    },
  ]);
  assert.equal(report.failed, false);
  const decode = report.histograms.find((h) => h.family === FAMILY && h.labels['stage'] === '1');
  assert.deepEqual([decode?.status, decode?.candidate, decode?.unreadIn], ['baselineOnly', null, 'candidate']);
  // Read whole before the cut: no unreadIn.
  assert.deepEqual(
    report.histograms.filter((h) => h.family === 'vllm_omni:e2e_request_latency_s').map((h) => [h.status, h.unreadIn]),
    [['compared', undefined]],
  );

  // The same family absent from a scrape read whole: the candidate lost it.
  const lost = runCli(['compare', baseline, noDecode, '--fail-if', CHANGE]);
  assert.equal(lost.status, 1, lost.stderr);
  assert.equal(
    lost.stderr,
    `stage-lens compare: 1 of 1 rule failed:\n  FAIL NOT MEASURED  ${CHANGE}: stage 1 decode p50 was measured in the baseline (150 observations of ${FAMILY}) and has no observation in the candidate: the candidate lost a measurement (a regression of what the server reports, not a pass)\n`,
  );
});

test('a baseline scrape cut short before the family: the change gate is not evaluated, the limit reads the candidate (exit 0)', () => {
  const early = path.join(dir, 'early-cut-baseline.prom');
  fs.copyFileSync(earlyCut, early);
  const run = runCli(['compare', early, candidate, '--fail-if', CHANGE, '--fail-if', LIMIT]);
  assert.equal(run.status, 0, run.stderr);
  assert.ok(
    run.stdout.endsWith(
      `\nRules (--fail-if)\n${notEvaluatedLine(CHANGE, cutBefore(FAMILY, 'decode p50', 'the baseline'))}\n       ok            ${LIMIT}: stage 1 decode p90 is 2,166.667 ms in the candidate (limit > 5,000 ms)\n`,
    ),
    run.stdout,
  );
  assert.match(
    run.stdout,
    /^vllm:request_decode_time_seconds ~ +stage=1 +\?\/150 +p50 +- +1,313 +no Δ: cut short before it in the baseline$/m,
  );
});

test('both scrapes cut short before the family a gate reads (neither has its series): not evaluated, take both scrapes again (exit 0, 1 with --fail-unevaluated)', () => {
  const early = path.join(dir, 'early-cut-both.prom');
  fs.copyFileSync(earlyCut, early);
  const EARLY_BASELINE_AT = `stage-lens compare: warning: the baseline (${early}): The /metrics scrape ends inside its line 42, with no line feed after it (a file or body cut short): the series before it are read; the rest of the scrape is not.\n`;
  const both = `both runs' scrapes are cut short before the ${FAMILY} series of stage 1, so stage 1 decode p50 is unknown in both, not measured (a capture cut short, not a lost measurement): take both scrapes again`;
  const lines = [
    notEvaluatedLine(CHANGE, both),
    notEvaluatedLine(LIMIT, cutBefore(FAMILY, 'decode p90', 'the candidate')),
  ];
  const run = runCli(['compare', early, earlyCut, '--fail-if', CHANGE, '--fail-if', LIMIT]);
  assert.equal(run.status, 0, run.stderr);
  assert.ok(run.stdout.endsWith(`\nRules (--fail-if)\n${lines.join('\n')}\n`), run.stdout);
  assert.equal(
    run.stderr,
    `${EARLY_BASELINE_AT}${EARLY_CUT_AT}stage-lens compare: 2 rules not evaluated (not failing; --fail-unevaluated makes them fail):\n${lines.join('\n')}\n`,
  );

  const strict = runCli(['compare', early, earlyCut, '--fail-if', CHANGE, '--fail-unevaluated']);
  assert.equal(strict.status, 1, strict.stderr);
  assert.equal(
    strict.stderr,
    `${EARLY_BASELINE_AT}${EARLY_CUT_AT}stage-lens compare: 1 of 1 rule failed:\n  FAIL not evaluated ${CHANGE}: ${both}\n`,
  );

  const json = runCli(['compare', early, earlyCut, '--fail-if', CHANGE, '--format', 'json']);
  assert.equal(json.status, 0, json.stderr);
  const report = JSON.parse(json.stdout) as {
    rules: unknown[];
    failed: boolean;
    baseline: { scrapeCut?: { cutInside: string | null; readWhole: string[] } };
  };
  assert.deepEqual(report.rules, [
    {
      rule: CHANGE,
      outcome: 'notEvaluated',
      failed: false,
      observed: null,
      baseline: null,
      candidate: null,
      basis: null,
      detail: both,
    },
  ]);
  assert.equal(report.failed, false);
  // The run's summary says where its scrape broke off: inside TTFT, the families before it read whole.
  assert.deepEqual(
    [report.baseline.scrapeCut?.cutInside, report.baseline.scrapeCut?.readWhole],
    [
      'vllm:time_to_first_token_seconds',
      [
        'vllm_omni:requests_success_total',
        'vllm_omni:e2e_request_latency_s',
        'vllm:num_preemptions_total',
        'vllm:generation_tokens_total',
      ],
    ],
  );
});
