// `stage-lens analyze` and `explain` as child processes on a /metrics scrape cut short inside a
// family (test/integration/support/cutScrape.ts): what is left of that family reads 0, but it is
// no evidence of a family stuck at 0, so no metric-not-reporting; the cut is said instead, a
// truncated text by input-cut-short and a .prom.gz whose stream ends by input-gzip-damaged.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { runCli } from './support/cliProcess';
import { cliCompare } from './support/compareReport';
import {
  cutInsideLine,
  cutInto,
  cutLine,
  gzipCutAtLineFeed,
  gzipCutBefore,
  lastSeriesLine,
  REPLICAS_SCRAPE,
  tokensBody,
} from './support/cutScrape';
import { tempFolder } from './support/tempFolder';

const dir = tempFolder('stage-lens-scrape-cut-');

interface Histogram {
  family: string;
  labels: Record<string, string>;
  count: number | null;
  sum: number | null;
  p50: number | null;
  p90: number | null;
  p99: number | null;
  caveat: string | null;
  cut?: true;
}

interface Json {
  findings: { code: string; severity: string; message: string }[];
  preemptions: { stage: string | null; replica: string | null; count: number }[] | null;
  histograms: Histogram[];
}

function analyzed(args: string[], input?: string): Json {
  const run = runCli(['analyze', ...args, '--format', 'json'], input === undefined ? {} : { input });
  assert.equal(run.status, 0, run.stderr);
  return JSON.parse(run.stdout) as Json;
}

const PREEMPTIONS = [
  { stage: '0', replica: '0', count: 4 },
  { stage: '1', replica: '0', count: 0 },
  { stage: '1', replica: '1', count: 0 },
];

test('a scrape text cut inside a family: no metric-not-reporting for it, the cut said instead (file and stdin)', () => {
  const body = tokensBody();
  const whole = path.join(dir, 'whole.prom');
  fs.writeFileSync(whole, body);
  assert.deepEqual(analyzed([whole]).findings, [], 'whole, the family reports (stage 1 counts tokens)');
  const cut = path.join(dir, 'cut.prom');
  fs.writeFileSync(cut, cutInsideLine(body));
  const line = cutLine(body);
  assert.equal(line, 26);
  const want = {
    code: 'input-cut-short',
    severity: 'warning',
    stageId: null,
    requestIds: [],
    requestCount: 0,
    message: `The /metrics scrape ends inside its line 26, with no line feed after it (a file or body cut short): the series before it are read; the rest of the scrape is not.`,
  };
  const json = analyzed([cut]);
  assert.deepEqual(json.findings, [want]);
  // What came before the cut is read: the preemption counters are there, as whole.
  assert.deepEqual(json.preemptions, PREEMPTIONS);
  assert.deepEqual(analyzed(['-'], cutInsideLine(body)).findings, [want]);
  const table = runCli(['analyze', cut]);
  assert.equal(table.status, 0, table.stderr);
  assert.ok(table.stdout.includes(`  [warning] input-cut-short: ${want.message}\n`), table.stdout);
  assert.doesNotMatch(table.stdout, /metric-not-reporting/);
  const explained = runCli(['explain', cut]);
  assert.equal(explained.status, 0, explained.stderr);
  assert.match(explained.stdout, /^No metric that is registered but does not report was found\.$/m);
  assert.ok(
    explained.stdout.includes(
      '\nNot checked: whether vllm:generation_tokens_total reports, as the scrape is cut inside vllm:generation_tokens_total, so its series after the cut are not read.\n',
    ),
    explained.stdout,
  );
  assert.ok(explained.stdout.endsWith(`\n\n${want.message}\n`), explained.stdout);
});

test('a .prom.gz whose stream ends inside a family: no metric-not-reporting for it, the gzip finding says the cut', () => {
  const body = tokensBody();
  const gz = path.join(dir, 'cut.prom.gz');
  fs.writeFileSync(gz, gzipCutAtLineFeed(body));
  const json = analyzed([gz]);
  assert.deepEqual(
    json.findings.map((f) => f.code),
    ['input-gzip-damaged'],
  );
  assert.match(
    json.findings[0]?.message ?? '',
    /of the \/metrics scrape: unexpected end of file .*the series before it are read;/,
  );
  assert.deepEqual(json.preemptions, PREEMPTIONS);
  // The same text read as a whole file ends at a line feed: nothing says it was cut, so the 0 it holds is a finding.
  const text = path.join(dir, 'same-text.prom');
  fs.writeFileSync(
    text,
    body.slice(
      0,
      body.indexOf('vllm:generation_tokens_total{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1"'),
    ),
  );
  assert.deepEqual(
    analyzed([text]).findings.map((f) => f.code),
    ['metric-not-reporting'],
  );
});

const MODEL = 'Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice';
const CUT_SERIES =
  'The scrape is cut short before this series was read whole (its _count and the line after it), so its count, sum and quantiles are unknown, not measured.';

/** Stage 1's decode time series (replicas 0 and 1): the scrape's last family, replica 1 its last series. */
function stage1Decode(json: Json): Pick<Histogram, 'count' | 'sum' | 'p50' | 'p90' | 'p99' | 'caveat'>[] {
  return json.histograms
    .filter((h) => h.family === 'vllm:request_decode_time_seconds' && h.labels['stage'] === '1')
    .map(({ count, sum, p50, p90, p99, caveat }) => ({ count, sum, p50, p90, p99, caveat }));
}

const REPLICA0 = { count: 75, sum: 94.99700000000001, p50: 1.25, p90: 2.138888888888889, p99: 3.125, caveat: null };
const REPLICA1 = {
  count: 75,
  sum: 103.29029900000003,
  p50: 1.358695652173913,
  p90: 2.1875,
  p99: 2.46875,
  caveat: null,
};
const REPLICA1_CUT = { count: null, sum: null, p50: null, p90: null, p99: null, caveat: CUT_SERIES };

test('a scrape cut inside its last histogram series: that series is unknown, not the numbers it was cut to; the one before it is whole', () => {
  const body = fs.readFileSync(REPLICAS_SCRAPE, 'utf8');
  const whole = path.join(dir, 'series-whole.prom');
  fs.writeFileSync(whole, body);
  assert.deepEqual(stage1Decode(analyzed([whole])), [REPLICA0, REPLICA1]);
  const cuts: [string, string | Buffer][] = [
    // `75.0` cut to `7`, `63.0` to `6`, `103.29…` to `103.2`, the first bucket's `1.0` to `1`.
    ['count mid-number', cutInto(body, lastSeriesLine('_count'), ' 7'.length)],
    ['bucket mid-number', cutInto(body, lastSeriesLine('_bucket', '2.0'), ' 6'.length)],
    ['sum mid-number', cutInto(body, lastSeriesLine('_sum'), ' 103.2'.length)],
    ['first bucket', cutInto(body, lastSeriesLine('_bucket', '0.3'), ' 1'.length)],
    ['inside the labels', cutInto(body, lastSeriesLine('_bucket', '0.3'), -10)],
  ];
  for (const [name, text] of cuts) {
    const file = path.join(dir, `series-${name.replace(/ /g, '-')}.prom`);
    fs.writeFileSync(file, text);
    const json = analyzed([file]);
    assert.deepEqual(
      json.findings.map((f) => f.code),
      ['input-cut-short'],
      name,
    );
    // Inside the labels, the line does not say which series it was: the one before is not known whole either.
    assert.deepEqual(
      stage1Decode(json),
      name === 'inside the labels' ? [{ ...REPLICA0, ...REPLICA1_CUT }] : [REPLICA0, REPLICA1_CUT],
      name,
    );
    // The JSON row says it is cut, not only its caveat.
    assert.deepEqual(
      json.histograms.filter((h) => h.cut === true).map((h) => [h.family, h.labels['stage'], h.labels['replica']]),
      [['vllm:request_decode_time_seconds', '1', name === 'inside the labels' ? '0' : '1']],
      name,
    );
    const table = runCli(['analyze', file]);
    assert.equal(table.status, 0, table.stderr);
    if (name !== 'inside the labels')
      assert.match(
        table.stdout,
        /^vllm:request_decode_time_seconds ~\s+1\s+1\s+-\s+-\s+-\s+-$/m,
        `${name}: ${table.stdout}`,
      );
    // Cut is unknown, not misleading: its own mark and heading, not among the series known to mislead.
    assert.ok(
      table.stdout.includes(`\nCut short (marked ~): 1 series, unknown, not measured:\n  ${CUT_SERIES}\n\n`),
      `${name}: ${table.stdout}`,
    );
    const misleading = table.stdout.slice(
      table.stdout.indexOf('Known to mislead (marked !)'),
      table.stdout.indexOf('\nFindings:'),
    );
    assert.match(misleading, /^Known to mislead \(marked !\): 5 series:\n/, `${name}: ${table.stdout}`);
    assert.ok(!misleading.includes('cut short'), `${name}: ${misleading}`);
    assert.doesNotMatch(table.stdout, /^vllm:request_decode_time_seconds ~? ?!\s+1\s+1/m, `${name}: ${table.stdout}`);
  }
  // compare adds a stage's replicas: with one of them cut, the stage's figures are unknown, not the other replica's alone.
  const midCount = path.join(dir, 'series-count-mid-number.prom');
  const stage1 = cliCompare(whole, midCount).json.histograms.find(
    (h) => h.family === 'vllm:request_decode_time_seconds' && h.labels['stage'] === '1',
  );
  assert.deepEqual(
    { status: stage1?.status, baseline: stage1?.baseline?.count, candidate: stage1?.candidate },
    {
      status: 'baselineOnly',
      baseline: 150,
      candidate: {
        count: null,
        p50: null,
        p90: null,
        p99: null,
        openEnded: [],
        bounds: {},
        caveat:
          'The scrape is cut short before a series of this stage was read whole (its _count and the line after it), so its count, sum and quantiles are unknown, not measured.',
        oneOutput: false,
        cut: true,
      },
    },
  );
  // The table and the Markdown mark it cut short (unknown), apart from the series known to be wrong.
  const compared = runCli(['compare', whole, midCount]);
  assert.equal(compared.status, 0, compared.stderr);
  assert.match(
    compared.stdout,
    /^vllm:request_decode_time_seconds ~ +stage=1 +150\/\? +p50 +1,313 +- +no Δ: cut short in the candidate$/m,
  );
  assert.match(
    compared.stdout,
    /^ {2}- 1 \/metrics series is cut short in a run \(marked ~ in the table, ✂️ in Markdown; unknown, not measured, so no difference is taken on them\): The scrape is cut short before a series of this stage was read whole/m,
  );
  assert.match(compared.stdout, /^ {2}- 4 \/metrics series are known to be wrong in a run \(marked ! in the table/m);
  const markdown = runCli(['compare', whole, midCount, '--format', 'markdown']);
  assert.equal(markdown.status, 0, markdown.stderr);
  assert.ok(
    markdown.stdout.includes(
      '| vllm:request\\_decode\\_time\\_seconds (ms) ✂️ | stage=1 | 150/? | 1,313 → - (no Δ: cut short in the candidate) |',
    ),
    markdown.stdout,
  );
  // A .prom.gz whose stream ends after the _count line: the line after it was not read, so the series is not known whole.
  const gz = path.join(dir, 'series-before-sum.prom.gz');
  fs.writeFileSync(gz, gzipCutBefore(body, lastSeriesLine('_sum')));
  const json = analyzed([gz]);
  assert.deepEqual(
    json.findings.map((f) => f.code),
    ['input-gzip-damaged'],
  );
  assert.deepEqual(stage1Decode(json), [REPLICA0, REPLICA1_CUT]);
  // Cut after its _sum line was read and the next one began: the series is whole.
  const after = path.join(dir, 'series-after.prom');
  fs.writeFileSync(after, `${body}# TYPE vllm:other_seconds histogram\nvllm:other_seconds_bucket{le="1.0"} 1`);
  assert.deepEqual(stage1Decode(analyzed([after])), [REPLICA0, REPLICA1]);
});

test('a counter line cut inside its number is not read: no count of 1 for a counter at 12', () => {
  const body = fs
    .readFileSync(REPLICAS_SCRAPE, 'utf8')
    .replace(/^(vllm:num_preemptions_total\{[^}]*stage="1",replica="1"\}) 0\.0$/m, '$1 12.0');
  const line = `vllm:num_preemptions_total{model_name="${MODEL}",stage="1",replica="1"}`;
  const whole = path.join(dir, 'counter-whole.prom');
  fs.writeFileSync(whole, body);
  assert.deepEqual(analyzed([whole]).preemptions, [
    ...PREEMPTIONS.slice(0, 2),
    { stage: '1', replica: '1', count: 12 },
  ]);
  const cut = path.join(dir, 'counter-cut.prom');
  fs.writeFileSync(cut, cutInto(body, line, ' 1'.length));
  const json = analyzed([cut]);
  assert.deepEqual(json.preemptions, PREEMPTIONS.slice(0, 2));
  assert.deepEqual(
    json.findings.map((f) => f.code),
    ['input-cut-short'],
  );
  // The histogram before the counter family was read whole.
  const e2e = json.histograms.find((h) => h.family === 'vllm_omni:e2e_request_latency_s');
  assert.equal(e2e?.count, 150);
  assert.equal(e2e?.caveat, null);
});

test('a scrape cut inside the _created gauge after a family: that family was read whole, so its 0 is judged', () => {
  // prometheus_client prints `vllm:generation_tokens_created` as a gauge family after the counter.
  const created = (stage: string, replica: string): string =>
    `vllm:generation_tokens_created{model_name="${MODEL}",stage="${stage}",replica="${replica}"} 1784900000.25`;
  const body = fs
    .readFileSync(REPLICAS_SCRAPE, 'utf8')
    .replace(/^(vllm:generation_tokens_total\{[^}]*\}) \S+$/gm, '$1 0.0')
    .replace(
      /^# TYPE vllm:time_to_first_token_seconds histogram$/m,
      [
        '# HELP vllm:generation_tokens_created Number of generation tokens processed.',
        '# TYPE vllm:generation_tokens_created gauge',
        created('0', '0'),
        created('1', '0'),
        created('1', '1'),
        '$&',
      ].join('\n'),
    );
  const cut = path.join(dir, 'created-cut.prom');
  fs.writeFileSync(cut, body.slice(0, body.indexOf(created('1', '1')) + created('1', '1').length - 6));
  const json = analyzed([cut]);
  assert.deepEqual(
    json.findings.map((f) => f.code),
    ['metric-not-reporting', 'input-cut-short'],
  );
  assert.match(
    json.findings[0]?.message ?? '',
    /^vllm:generation_tokens_total is registered but reads 0 while requests finish: 0 on all 3 \(stage, replica\) series while vllm_omni:e2e_request_latency_s counts 150 finished requests\./,
  );
  const explained = runCli(['explain', cut]);
  assert.equal(explained.status, 0, explained.stderr);
  assert.doesNotMatch(explained.stdout, /cut inside/);
  assert.match(explained.stdout, /vllm:generation_tokens_total is registered but reads 0/);
});
