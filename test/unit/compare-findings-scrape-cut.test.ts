// The findings diff of real /metrics scrapes, one cut short: a scrape finding (the codec TTFT
// signature, read from a stage's TTFT and inter-token latency; a family stuck at 0, read from that
// family) is not checkable in a run whose scrape did not read those families whole (it broke off
// inside one, or before it), never disappeared or appeared; one the cut scrape read whole, and a
// scrape read whole that lacks the finding, still says the finding went. A check read series by
// series is judged per stage in the family the cut is in: a stage read whole before the cut is
// compared. The inter-token latency counts under the name the signature reads.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { compareRuns } from '../../server/core/compare/compareRuns';
import { scrapeRun } from '../../server/capture/compareInput';
import { findingText } from '../../server/core/compare/format';
import type { RunData } from '../../server/core/compare/types';
import { parseExposition } from '../../server/core/metricsText';
import { metricNotReportingInScrape, scrapeChecksDone } from '../../server/core/explain/metricNotReporting';
import { cutInsideLine, cutInto, lastSeriesLine, REPLICAS_SCRAPE } from '../integration/support/cutScrape';
import { withOlderItlName } from './support/olderItlName';

const FIXTURES = path.join(__dirname, '..', 'fixtures', 'scrapes');
/** A build before the codec TTFT fix: stage 1 records no TTFT while its inter-token latency has 271. */
const BEFORE_FIX_TEXT = fs.readFileSync(path.join(FIXTURES, 'codec-ttft-before-fix.prom'), 'utf8');
/** A build with the fix, stage 1 on two replicas: no codec TTFT signature. */
const REPLICAS_TEXT = fs.readFileSync(REPLICAS_SCRAPE, 'utf8');

/** Each finding of the diff as the table words it, after its change. */
function findingLines(baseline: RunData, candidate: RunData): string[] {
  return compareRuns(baseline, candidate).findings.map((f) => `${f.change}: ${findingText(f)}`);
}

const beforeFix = (): RunData => scrapeRun(BEFORE_FIX_TEXT, 'codec-ttft-before-fix.prom');
const replicas = (): RunData => scrapeRun(REPLICAS_TEXT, 'whole.prom');
// Cut inside stage 0's first TTFT series (`22.0` cut to `2`): TTFT is the family it broke off in, ITL after it.
const earlyCut = (): RunData =>
  scrapeRun(
    cutInto(
      REPLICAS_TEXT,
      'vllm:time_to_first_token_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="5.0"}',
      ' 2'.length,
    ),
    'early-cut.prom',
  );
// Cut inside the last series (stage 1 replica 1's decode time): TTFT and ITL read whole before it.
const lateCut = (): RunData =>
  scrapeRun(cutInto(REPLICAS_TEXT, lastSeriesLine('_count'), ' 7'.length), 'late-cut.prom');

const TTFT_ITL = 'inside vllm:time_to_first_token_seconds and before vllm:inter_token_latency_seconds';
const SIGNATURE = 'ttft-not-recorded (stage 1, /metrics)';

test('the codec TTFT signature against a candidate cut short inside TTFT: not checkable there, not gone; a whole scrape without it, and one cut after its families, lost it', () => {
  assert.deepEqual(
    [
      findingLines(beforeFix(), earlyCut()),
      findingLines(beforeFix(), lateCut()),
      findingLines(beforeFix(), replicas()),
    ],
    [
      [
        `notCheckableInCandidate: ${SIGNATURE}: in the baseline's scrape; not checkable in the candidate: the candidate's scrape is cut short ${TTFT_ITL}, which this finding is read from, so it is unknown there (a capture cut short, not a finding gone): take the candidate's scrape again`,
      ],
      [`disappeared: ${SIGNATURE}: in the baseline's scrape, not in the candidate's`],
      [`disappeared: ${SIGNATURE}: in the baseline's scrape, not in the candidate's`],
    ],
  );
  const [finding] = compareRuns(beforeFix(), earlyCut()).findings;
  assert.deepEqual(
    [finding?.change, finding?.severity, finding?.stageId, finding?.fromScrape, finding?.notCheckable],
    [
      'notCheckableInCandidate',
      'warning',
      1,
      true,
      `the candidate's scrape is cut short ${TTFT_ITL}, which this finding is read from, so it is unknown there (a capture cut short, not a finding gone): take the candidate's scrape again`,
    ],
  );
});

test('the codec TTFT signature in the candidate only, the baseline cut short inside TTFT: not checkable in the baseline, not new', () => {
  assert.deepEqual(
    [findingLines(earlyCut(), beforeFix()), findingLines(replicas(), beforeFix())],
    [
      [
        `notCheckableInBaseline: ${SIGNATURE}: in the candidate's scrape; not checkable in the baseline: the baseline's scrape is cut short ${TTFT_ITL}, which this finding is read from, so it is unknown there (a capture cut short, not a new finding): take the baseline's scrape again`,
      ],
      [`appeared: ${SIGNATURE}: in the candidate's scrape, not in the baseline's`],
    ],
  );
});

test("a scrape cut mid-way through the codec stage's inter-token latency series: the signature is not checkable in it, either run", () => {
  // Inside stage 1's ITL bucket le="0.4" (`101.0` cut to `10`): that series has no count, so no signature.
  const itlCut = scrapeRun(
    cutInto(
      BEFORE_FIX_TEXT,
      'vllm:inter_token_latency_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="0.4"}',
      ' 10'.length,
    ),
    'itl-cut.prom',
  );
  const inside = 'inside vllm:inter_token_latency_seconds, which this finding is read from, so it is unknown there';
  assert.deepEqual(
    [findingLines(beforeFix(), itlCut), findingLines(itlCut, beforeFix())],
    [
      [
        `notCheckableInCandidate: ${SIGNATURE}: in the baseline's scrape; not checkable in the candidate: the candidate's scrape is cut short ${inside} (a capture cut short, not a finding gone): take the candidate's scrape again`,
      ],
      [
        `notCheckableInBaseline: ${SIGNATURE}: in the candidate's scrape; not checkable in the baseline: the baseline's scrape is cut short ${inside} (a capture cut short, not a new finding): take the baseline's scrape again`,
      ],
    ],
  );
});

test('a family stuck at 0 (metric-not-reporting) against a scrape cut short inside or before it: not checkable; against one read whole: gone', () => {
  // Every generation token counter at 0 while the pipeline counts finished requests.
  const zeroTokens = REPLICAS_TEXT.replace(/^(vllm:generation_tokens_total\{[^}]*\}) \S+$/gm, '$1 0.0');
  const stuck = (): RunData => scrapeRun(zeroTokens, 'zero-tokens.prom');
  const cutBefore = scrapeRun(cutInto(REPLICAS_TEXT, 'vllm_omni:e2e_request_latency_s_count', 3), 'e2e-cut.prom');
  const notReporting = 'metric-not-reporting (/metrics vllm:generation_tokens_total)';
  const notCheckable = (where: string): string[] => [
    `notCheckableInCandidate: ${notReporting}: in the baseline's scrape; not checkable in the candidate: the candidate's scrape is cut short ${where} vllm:generation_tokens_total, which this finding is read from, so it is unknown there (a capture cut short, not a finding gone): take the candidate's scrape again`,
  ];
  assert.deepEqual(
    [
      findingLines(stuck(), scrapeRun(cutInsideLine(REPLICAS_TEXT), 'tokens-cut.prom')),
      findingLines(stuck(), cutBefore),
      findingLines(stuck(), replicas()),
    ],
    [
      notCheckable('inside'),
      notCheckable('before'),
      [`disappeared: ${notReporting}: in the baseline's scrape, not in the candidate's`],
    ],
  );
});

/** The simulator's Qwen3-Omni scrape (thinker, talker, code2wav: `stage-lens simulate --scenario qwen3-omni --seed 7 --fixed-clock --requests 40`, /metrics at the end). */
const OMNI_TEXT = fs.readFileSync(path.join(FIXTURES, 'qwen3-omni.prom'), 'utf8');
const OMNI_LABELS = 'model_name="Qwen/Qwen3-Omni-30B-A3B-Instruct"';

/** The Omni scrape with the TTFT series of `stages` holding no sample (the codec TTFT signature there). */
function omniTtftEmpty(stages: readonly string[]): string {
  return OMNI_TEXT.replace(
    /^(vllm:time_to_first_token_seconds_(?:bucket|count|sum)\{[^}]*stage="(\d)"[^}]*\}) \S+$/gm,
    (line: string, head: string, stage: string) => (stages.includes(stage) ? `${head} 0.0` : line),
  );
}

// Cut late inside the inter-token latency family, in stage 2's series (`8.0` cut to `8`): stages 0 and 1 read whole before it.
const omniItlCut = (): RunData =>
  scrapeRun(
    cutInto(OMNI_TEXT, `vllm:inter_token_latency_seconds_bucket{${OMNI_LABELS},stage="2",replica="0",le="0.1"}`, 2),
    'itl-cut.prom',
  );

test("a scrape cut late inside the inter-token latency family: a stage's signature read whole before the cut is compared, the stage at the cut is not checkable", () => {
  const signature = (stage: number): string => `ttft-not-recorded (stage ${stage}, /metrics)`;
  const inside = (run: 'baseline' | 'candidate'): string =>
    `the ${run}'s scrape is cut short inside vllm:inter_token_latency_seconds, which this finding is read from, so it is unknown there (a capture cut short, ${run === 'candidate' ? 'not a finding gone' : 'not a new finding'}): take the ${run}'s scrape again`;
  const empty = (): RunData => scrapeRun(omniTtftEmpty(['0', '2']), 'ttft-empty.prom');
  assert.deepEqual(
    [findingLines(empty(), omniItlCut()), findingLines(omniItlCut(), empty())],
    [
      [
        `disappeared: ${signature(0)}: in the baseline's scrape, not in the candidate's`,
        `notCheckableInCandidate: ${signature(2)}: in the baseline's scrape; not checkable in the candidate: ${inside('candidate')}`,
      ],
      [
        `appeared: ${signature(0)}: in the candidate's scrape, not in the baseline's`,
        `notCheckableInBaseline: ${signature(2)}: in the candidate's scrape; not checkable in the baseline: ${inside('baseline')}`,
      ],
    ],
  );
  const cut = omniItlCut().scrapeCut;
  assert.deepEqual(
    [
      cut?.cutInside,
      cut?.stagesReadWholeInCut,
      cut?.readWhole.includes('vllm:time_to_first_token_seconds'),
      cut?.readWhole.includes('vllm:inter_token_latency_seconds'),
    ],
    ['vllm:inter_token_latency_seconds', ['0', '1'], true, false],
  );
});

test('the inter-token latency under both names, the newer one (the one read) cut inside the stage: the signature is not checkable, though the older name was read whole', () => {
  const both = withOlderItlName(REPLICAS_TEXT);
  // Inside stage 1 replica 0's bucket le="0.4" of the newer name (`146.0` cut to `14`).
  const cut = scrapeRun(
    cutInto(
      both,
      'vllm:inter_token_latency_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="0.4"}',
      ' 14'.length,
    ),
    'itl-cut.prom',
  );
  const beforeFixBoth = (): RunData => scrapeRun(withOlderItlName(BEFORE_FIX_TEXT), 'before-fix.prom');
  assert.deepEqual(
    [findingLines(beforeFixBoth(), cut), findingLines(beforeFixBoth(), scrapeRun(both, 'whole.prom'))],
    [
      [
        `notCheckableInCandidate: ${SIGNATURE}: in the baseline's scrape; not checkable in the candidate: the candidate's scrape is cut short inside vllm:inter_token_latency_seconds, which this finding is read from, so it is unknown there (a capture cut short, not a finding gone): take the candidate's scrape again`,
      ],
      [`disappeared: ${SIGNATURE}: in the baseline's scrape, not in the candidate's`],
    ],
  );
});

test("metric-not-reporting in a scrape cut late inside the inter-token latency family: a stage's empty TTFT is judged on its series read whole before the cut", () => {
  const parsed = parseExposition(
    cutInto(
      omniTtftEmpty(['0']),
      `vllm:inter_token_latency_seconds_bucket{${OMNI_LABELS},stage="2",replica="0",le="0.1"}`,
      2,
    ),
  );
  const found = metricNotReportingInScrape(parsed).map((f) => [f.stageId, f.family, f.evidence]);
  assert.deepEqual(found, [
    [
      0,
      'vllm:time_to_first_token_seconds',
      'stage 0 replica 0: no TTFT sample while its inter-token latency has 4,048',
    ],
  ]);
  assert.ok(
    scrapeChecksDone(parsed).includes(
      "Checked on the series read whole before the cut inside vllm:inter_token_latency_seconds: the TTFT histogram of stage 0 replica 0 is empty while its inter-token latency has samples (metric-not-reporting, above); no other stage's is; not checked on its series the cut reached or took.",
    ),
    scrapeChecksDone(parsed).join('\n'),
  );
});
