// `stage-lens compare a.prom b.prom` as a child process, the findings diff where one scrape's text
// breaks off inside stage 0's TTFT series (test/integration/support/cutScrape.ts), before the codec
// stage's inter-token latency: the codec TTFT signature of a build before the fix, read from those
// two families, is not checkable in the scrape cut short (take it again), neither gone nor new,
// in the table, the Markdown and the JSON alike; against a scrape of the fixed build read whole it
// disappeared (or appeared) as before. Cut late inside the inter-token latency family, a stage's
// signature read whole before the cut is compared; with that family under both of its names, a cut
// in the newer one (the one read) is not made good by the older one read whole.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { runCli } from './support/cliProcess';
import { cutInto, REPLICAS_SCRAPE } from './support/cutScrape';
import { tempFolder } from './support/tempFolder';
import { withOlderItlName } from '../unit/support/olderItlName';

const dir = tempFolder('stage-lens-compare-findings-cut-');
/** A build before the codec TTFT fix: stage 1 records no TTFT while its inter-token latency has 271. */
const BEFORE_FIX = path.resolve(__dirname, '..', 'fixtures', 'scrapes', 'codec-ttft-before-fix.prom');
// A build with the fix (no signature), read whole and cut inside stage 0's first TTFT series (`22.0` cut to `2`).
const whole = REPLICAS_SCRAPE;
const earlyCut = path.join(dir, 'early-cut.prom');
fs.writeFileSync(
  earlyCut,
  cutInto(
    fs.readFileSync(REPLICAS_SCRAPE, 'utf8'),
    'vllm:time_to_first_token_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="5.0"}',
    ' 2'.length,
  ),
);

const MESSAGE =
  "TTFT not recorded on stage 1: no TTFT sample but 271 inter-token latencies. This is the codec TTFT bug of builds without the talker-first-audio fix; this stage's TTFT, prefill, decode and ITL histograms are not usable.";
/** Why the signature is not checkable in a run whose scrape is the early cut. */
const cutReason = (run: 'baseline' | 'candidate'): string =>
  `the ${run}'s scrape is cut short inside vllm:time_to_first_token_seconds and before vllm:inter_token_latency_seconds, which this finding is read from, so it is unknown there (a capture cut short, ${run === 'candidate' ? 'not a finding gone' : 'not a new finding'}): take the ${run}'s scrape again`;
const SIGNATURE = 'ttft-not-recorded (stage 1, /metrics)';

/** The lines of a section of the output, from its heading to the blank line after it. */
function section(stdout: string, heading: string): string[] {
  const at = stdout.indexOf(`\n${heading}\n`);
  assert.ok(at >= 0, stdout);
  const rest = stdout.slice(at + heading.length + 2);
  return rest.slice(0, rest.indexOf('\n\n')).split('\n');
}

function compare(baseline: string, candidate: string, format: 'table' | 'markdown' | 'json'): string {
  const run = runCli(['compare', baseline, candidate, '--format', format]);
  assert.equal(run.status, 0, run.stderr);
  return run.stdout;
}

test('the table: not checkable in the scrape cut short (candidate or baseline), disappeared against a whole one', () => {
  const findings = (baseline: string, candidate: string): string[] =>
    section(compare(baseline, candidate, 'table'), 'Findings');
  assert.deepEqual(
    [findings(BEFORE_FIX, earlyCut), findings(earlyCut, BEFORE_FIX), findings(BEFORE_FIX, whole)],
    [
      [
        `  not checkable [warning] ${SIGNATURE}: in the baseline's scrape; not checkable in the candidate: ${cutReason('candidate')}`,
      ],
      [
        `  not checkable [warning] ${SIGNATURE}: in the candidate's scrape; not checkable in the baseline: ${cutReason('baseline')}`,
      ],
      [`  disappeared   [warning] ${SIGNATURE}: in the baseline's scrape, not in the candidate's`],
    ],
  );
});

test('the Markdown: ❔ not checkable in the scrape cut short; disappeared against a whole one', () => {
  const findings = (baseline: string, candidate: string): string[] =>
    section(compare(baseline, candidate, 'markdown'), '**Findings**\n');
  const md = (text: string): string => text.replace(/_/g, '\\_');
  assert.deepEqual(
    [findings(BEFORE_FIX, earlyCut), findings(earlyCut, BEFORE_FIX), findings(BEFORE_FIX, whole)],
    [
      [
        `- ❔ not checkable: ${md(SIGNATURE)}: in the baseline's scrape; not checkable in the candidate: ${md(cutReason('candidate'))}`,
      ],
      [
        `- ❔ not checkable: ${md(SIGNATURE)}: in the candidate's scrape; not checkable in the baseline: ${md(cutReason('baseline'))}`,
      ],
      [`- ✔️ disappeared: ${md(SIGNATURE)}: in the baseline's scrape, not in the candidate's`],
    ],
  );
});

test('the JSON: notCheckableInCandidate / notCheckableInBaseline with the reason in notCheckable; disappeared against a whole one', () => {
  const findings = (baseline: string, candidate: string): unknown =>
    (JSON.parse(compare(baseline, candidate, 'json')) as { findings: unknown }).findings;
  const finding = (change: string, notCheckable?: string): Record<string, unknown> => ({
    code: 'ttft-not-recorded',
    stageId: 1,
    severity: 'warning',
    change,
    baselineRequests: 0,
    candidateRequests: 0,
    baselineOf: null,
    candidateOf: null,
    message: MESSAGE,
    ...(notCheckable === undefined ? {} : { notCheckable }),
    fromScrape: true,
  });
  assert.deepEqual(
    [findings(BEFORE_FIX, earlyCut), findings(earlyCut, BEFORE_FIX), findings(BEFORE_FIX, whole)],
    [
      [finding('notCheckableInCandidate', cutReason('candidate'))],
      [finding('notCheckableInBaseline', cutReason('baseline'))],
      [finding('disappeared')],
    ],
  );
});

// The simulator's Qwen3-Omni scrape (thinker, talker, code2wav), with the TTFT of stages 0 and 2
// holding no sample (the codec TTFT signature there), against it cut late inside the inter-token
// latency family, in stage 2's series: stage 0's series were read whole before the cut.
const OMNI = path.resolve(__dirname, '..', 'fixtures', 'scrapes', 'qwen3-omni.prom');
const omniText = fs.readFileSync(OMNI, 'utf8');
const ttftEmpty = path.join(dir, 'ttft-empty.prom');
fs.writeFileSync(
  ttftEmpty,
  omniText.replace(
    /^(vllm:time_to_first_token_seconds_(?:bucket|count|sum)\{[^}]*stage="[02]"[^}]*\}) \S+$/gm,
    '$1 0.0',
  ),
);
const itlLateCut = path.join(dir, 'itl-late-cut.prom');
fs.writeFileSync(
  itlLateCut,
  cutInto(
    omniText,
    'vllm:inter_token_latency_seconds_bucket{model_name="Qwen/Qwen3-Omni-30B-A3B-Instruct",stage="2",replica="0",le="0.1"}',
    ' 8'.length,
  ),
);
const omniSignature = (stage: number, itl: number): string =>
  `TTFT not recorded on stage ${stage}: no TTFT sample but ${itl} inter-token latencies. This looks like the codec TTFT bug of builds without the talker-first-audio fix; this stage's TTFT, prefill, decode and ITL histograms are not usable.`;
const itlInside = (run: 'baseline' | 'candidate'): string =>
  `the ${run}'s scrape is cut short inside vllm:inter_token_latency_seconds, which this finding is read from, so it is unknown there (a capture cut short, ${run === 'candidate' ? 'not a finding gone' : 'not a new finding'}): take the ${run}'s scrape again`;

test('a scrape cut late inside the inter-token latency family: the signature of a stage read whole before the cut disappeared or appeared, that of the stage at the cut is not checkable (table)', () => {
  const findings = (baseline: string, candidate: string): string[] =>
    section(compare(baseline, candidate, 'table'), 'Findings');
  assert.deepEqual(
    [findings(ttftEmpty, itlLateCut), findings(itlLateCut, ttftEmpty)],
    [
      [
        "  disappeared   [warning] ttft-not-recorded (stage 0, /metrics): in the baseline's scrape, not in the candidate's",
        `  not checkable [warning] ttft-not-recorded (stage 2, /metrics): in the baseline's scrape; not checkable in the candidate: ${itlInside('candidate')}`,
      ],
      [
        "  appeared      [warning] ttft-not-recorded (stage 0, /metrics): in the candidate's scrape, not in the baseline's",
        `  not checkable [warning] ttft-not-recorded (stage 2, /metrics): in the candidate's scrape; not checkable in the baseline: ${itlInside('baseline')}`,
      ],
    ],
  );
});

test('a scrape cut late inside the inter-token latency family: the JSON findings', () => {
  const report = JSON.parse(compare(ttftEmpty, itlLateCut, 'json')) as { findings: unknown };
  const finding = (stageId: number, itl: number, change: string, notCheckable?: string): Record<string, unknown> => ({
    code: 'ttft-not-recorded',
    stageId,
    severity: 'warning',
    change,
    baselineRequests: 0,
    candidateRequests: 0,
    baselineOf: null,
    candidateOf: null,
    message: omniSignature(stageId, itl),
    ...(notCheckable === undefined ? {} : { notCheckable }),
    fromScrape: true,
  });
  assert.deepEqual(report.findings, [
    finding(0, 4048, 'disappeared'),
    finding(2, 632, 'notCheckableInCandidate', itlInside('candidate')),
  ]);
});

test('the inter-token latency under both names, the newer one (the one the signature reads) cut inside the stage: not checkable, though the older name was read whole', () => {
  const beforeFix = path.join(dir, 'before-fix-both-names.prom');
  fs.writeFileSync(beforeFix, withOlderItlName(fs.readFileSync(BEFORE_FIX, 'utf8')));
  const cut = path.join(dir, 'both-names-itl-cut.prom');
  // Inside stage 1 replica 0's bucket le="0.4" of the newer name (`146.0` cut to `14`).
  fs.writeFileSync(
    cut,
    cutInto(
      withOlderItlName(fs.readFileSync(REPLICAS_SCRAPE, 'utf8')),
      'vllm:inter_token_latency_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="0.4"}',
      ' 14'.length,
    ),
  );
  assert.deepEqual(section(compare(beforeFix, cut, 'table'), 'Findings'), [
    `  not checkable [warning] ${SIGNATURE}: in the baseline's scrape; not checkable in the candidate: the candidate's scrape is cut short inside vllm:inter_token_latency_seconds, which this finding is read from, so it is unknown there (a capture cut short, not a finding gone): take the candidate's scrape again`,
  ]);
});
