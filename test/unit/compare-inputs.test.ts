// What a comparison reads: a real log through the streaming reader (the same numbers as
// `analyze`), a saved session folder replayed from disk, and /metrics scrapes whose stage
// replicas are added bucket by bucket.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Readable } from 'node:stream';
import { StreamAnalysis } from '../../server/core/analysis/streamAnalysis';
import { SPLIT_NAMES } from '../../server/core/analysis/types';
import { LogStreamParser } from '../../server/core/log';
import { percentileOfSorted } from '../../server/core/analysis/distribution';
import { LogRunReader } from '../../server/core/compare/logRunReader';
import { runSamplesFromAnalysis } from '../../server/core/compare/runSamples';
import { histogramRowsOfScrape, histogramRowsOfSummaries } from '../../server/core/compare/scrapeHistograms';
import { compareRuns, incomparableReason } from '../../server/core/compare/compareRuns';
import type { MetricId, RunSamples } from '../../server/core/compare/types';
import { loadRun, loadRunFromStream } from '../../server/capture/compareInput';
import { SessionFiles } from '../../server/capture/sessionFiles';
import { BUGGY_CODEC_SCRAPE, HEALTHY_SCRAPE } from './support/scrapeFixtures';
import { checkRule } from '../../server/core/compare/ruleCheck';
import { parseRule } from '../../server/core/compare/rules';
import type { Rule } from '../../server/core/compare/rules';

const SAMPLE = path.resolve(__dirname, '..', '..', 'samples', 'qwen3-tts-first-audio-cold-start.log');
const SPLIT_METRIC: Record<(typeof SPLIT_NAMES)[number], MetricId> = {
  queuedMs: 'queued',
  inputWaitMs: 'inputWait',
  readyQueuedMs: 'readyQueued',
  prefillMs: 'prefill',
  decodeMs: 'decode',
  ttftMs: 'ttft',
};

function readSample(excludeCold: boolean): RunSamples {
  const reader = new LogRunReader(excludeCold);
  const bytes = fs.readFileSync(SAMPLE);
  // Odd chunk sizes: records split anywhere must not change anything.
  for (let i = 0; i < bytes.length; i += 7919) reader.push(bytes.subarray(i, i + 7919));
  return reader.end();
}

test('the bundled sample log: codec TTFT not recorded on 25 of 25, never a 0 ms sample', () => {
  const run = readSample(false);
  assert.equal(run.requestCount, 25);
  assert.equal(run.coldRequests, 2);
  const codec = run.scopes.find((s) => s.scope === '1');
  assert.ok(codec);
  assert.equal(codec.requestCount, 25);
  assert.equal(codec.metrics.ttft?.values.length, 0);
  assert.deepEqual(codec.metrics.ttft?.unknown, { notRecorded: 25 });
  assert.deepEqual(codec.metrics.prefill?.unknown, { notMeasured: 25 });
  assert.equal(codec.metrics.readyQueued?.inferred, 25);
  assert.equal(run.scopes.map((s) => s.scope).join(','), '0,1,request');
  assert.equal(run.scopes.find((s) => s.scope === 'request')?.metrics.e2e?.values.length, 25);
  assert.ok(run.findings.some((f) => f.code === 'ttft-not-recorded' && f.stageId === 1 && f.requestCount === 25));
  const cold = readSample(true);
  assert.equal(cold.coldExcluded, true);
  assert.equal(cold.scopes.find((s) => s.scope === '1')?.requestCount, 23);
  // The findings are over the same requests as the quantiles, as analyze --exclude-cold's are.
  assert.equal(cold.findings.find((f) => f.code === 'ttft-not-recorded')?.requestCount, 23);
  assert.equal(
    cold.findings.some((f) => f.code === 'cold-start'),
    false,
  );
  assert.equal(run.findings.find((f) => f.code === 'cold-start')?.requestCount, 2);
});

test('the streaming reader gives the samples of the full analysis: same quantiles as analyze', () => {
  const analysis = new StreamAnalysis();
  const parser = new LogStreamParser();
  analysis.ingest(parser.push(fs.readFileSync(SAMPLE)));
  analysis.ingest(parser.end());
  analysis.flush();
  const snapshot = analysis.snapshot();
  const streamed = readSample(false);
  const fromSnapshot = runSamplesFromAnalysis(snapshot, false);
  assert.deepEqual(fromSnapshot.scopes, streamed.scopes);
  let checked = 0;
  for (const stage of snapshot.stages) {
    const scope = streamed.scopes.find((s) => s.scope === stage.stageKey);
    assert.ok(scope);
    for (const name of SPLIT_NAMES) {
      const dist = stage.split[name];
      const values: Float64Array = scope.metrics[SPLIT_METRIC[name]]?.values ?? new Float64Array(0);
      assert.equal(values.length, dist?.count ?? 0, `${stage.stageKey} ${name}`);
      if (dist !== undefined) {
        assert.equal(percentileOfSorted(values, 90), dist.p90);
        checked++;
      }
    }
    // A one-output stage's prefill is compared as prefill+decode, over the same requests as its summary.
    const prefillDecode = scope.metrics.prefillDecode?.values ?? new Float64Array(0);
    assert.equal(prefillDecode.length, stage.oneOutputRequests, `${stage.stageKey} prefillDecode`);
    if (stage.prefillDecodeMs !== null) {
      assert.equal(percentileOfSorted(prefillDecode, 90), stage.prefillDecodeMs.p90);
      assert.equal(scope.metrics.prefill?.unknown.oneOutput, stage.oneOutputRequests);
      checked++;
    }
    const gen = stage.fields['stage_gen_time_ms'];
    assert.equal(percentileOfSorted(scope.metrics.genTime?.values ?? new Float64Array(0), 50), gen?.p50);
  }
  assert.equal(
    snapshot.stages.find((s) => s.stageKey === '0')?.oneOutputRequests,
    25,
    'the sample talker emits one output on every request',
  );
  assert.ok(checked >= 6);
});

test('a saved session folder is replayed stream by stream; its saved scrape comes along', async () => {
  const storage = fs.mkdtempSync(path.join(os.tmpdir(), 'stage-lens-compare-'));
  try {
    const files = new SessionFiles(storage, 'import-abc');
    files.writeMeta({
      info: {
        id: 'import-abc',
        kind: 'import',
        description: SAMPLE,
        title: 'imported sample',
        startedAt: 1,
        status: 'stopped',
        requestCount: 25,
        deployConfig: null,
        lastError: null,
        exit: null,
        problemCount: 0,
      },
    });
    const bytes = fs.readFileSync(SAMPLE);
    for (let i = 0; i < bytes.length; i += 65536)
      files.append({ stream: 'file', bytes: bytes.subarray(i, i + 65536), capturedAt: 1000 + i });
    files.saveScrape([
      {
        family: 'vllm:time_to_first_token_seconds',
        labels: { model_name: 'm', stage: '0', replica: '0' },
        count: 8,
        sum: 1,
        p50: 0.05,
        p90: 0.2,
        p99: 0.29,
      },
    ]);
    files.close();
    const run = await loadRun(files.dir, { excludeCold: false });
    assert.equal(run.kind, 'session');
    assert.deepEqual(run.samples?.scopes, readSample(false).scopes);
    assert.deepEqual(run.histograms, [
      {
        family: 'vllm:time_to_first_token_seconds',
        labels: { stage: '0' },
        count: 8,
        p50: 0.05,
        p90: 0.2,
        p99: 0.29,
        openEnded: [],
        bounds: {},
        caveat: null,
      },
    ]);

    // A session folder copied out of storage (to keep a baseline run) replays the same.
    const loose = path.join(storage, 'baseline-run');
    fs.cpSync(files.dir, loose, { recursive: true });
    const copied = await loadRun(loose, { excludeCold: false });
    assert.equal(copied.kind, 'session');
    assert.deepEqual(copied.samples, run.samples);
    assert.deepEqual(copied.histograms, run.histograms);
    // A copy without its captured bytes is a session with no log, not an empty one read as 0 requests.
    for (const name of fs.readdirSync(loose)) if (name !== 'session.json') fs.rmSync(path.join(loose, name));
    const bare = await loadRun(loose, { excludeCold: false });
    assert.equal(bare.samples, null);
    await assert.rejects(loadRun(storage, { excludeCold: false }), /folder without a session\.json/);
    await assert.rejects(
      loadRun(path.join(storage, 'nope.log'), { excludeCold: false }),
      /cannot read .*nope\.log: no such file or folder/,
    );
  } finally {
    fs.rmSync(storage, { recursive: true, force: true });
  }
});

function histogram(stage: string, replica: string, bounds: number[], cumulative: number[]): string {
  const lines = bounds.map(
    (le, i) =>
      `vllm:time_to_first_token_seconds_bucket{model_name="m",stage="${stage}",replica="${replica}",le="${le}"} ${cumulative[i]}`,
  );
  const total = cumulative[cumulative.length - 1];
  lines.push(
    `vllm:time_to_first_token_seconds_bucket{model_name="m",stage="${stage}",replica="${replica}",le="+Inf"} ${total}`,
  );
  lines.push(`vllm:time_to_first_token_seconds_count{model_name="m",stage="${stage}",replica="${replica}"} ${total}`);
  lines.push(`vllm:time_to_first_token_seconds_sum{model_name="m",stage="${stage}",replica="${replica}"} 1`);
  return lines.join('\n');
}

test('scrapes: replicas of a stage are added bucket by bucket, then histogram_quantile', () => {
  const body =
    [
      '# TYPE vllm:time_to_first_token_seconds histogram',
      histogram('1', '0', [0.1, 0.2, 0.4], [2, 6, 10]),
      histogram('1', '1', [0.1, 0.2, 0.4], [8, 10, 10]),
    ].join('\n') + '\n';
  const { rows, problemCount } = histogramRowsOfScrape(body);
  assert.equal(problemCount, 0);
  assert.equal(rows.length, 1);
  const row = rows[0];
  assert.ok(row);
  assert.deepEqual(row.labels, { stage: '1' });
  assert.equal(row.count, 20);
  // Added buckets: le 0.1 -> 10, 0.2 -> 16, 0.4 -> 20. p50: rank 10 in the first bucket: 0.1 * 10/10 = 0.1.
  // p90: rank 18 in (0.2, 0.4]: 0.2 + 0.2 * (18 - 16)/4 = 0.3.
  assert.ok(Math.abs((row.p50 ?? 0) - 0.1) < 1e-12);
  assert.ok(Math.abs((row.p90 ?? 0) - 0.3) < 1e-12);

  // A session's saved rows cannot be added (no buckets): one row per replica when there are several.
  const saved = histogramRowsOfSummaries([
    {
      family: 'vllm:time_to_first_token_seconds',
      labels: { model_name: 'm', stage: '1', replica: '0' },
      count: 10,
      p50: 0.15,
      p90: 0.3,
      p99: 0.4,
    },
    {
      family: 'vllm:time_to_first_token_seconds',
      labels: { model_name: 'm', stage: '1', replica: '1' },
      count: 10,
      p50: 0.05,
      p90: 0.1,
      p99: 0.2,
    },
    { family: 'vllm:num_requests_running', labels: {}, count: 1, p50: 1, p90: 1, p99: 1 },
  ]);
  assert.deepEqual(
    saved.map((r) => r.labels),
    [
      { stage: '1', replica: '0' },
      { stage: '1', replica: '1' },
    ],
  );
});

test('two scrapes compare histogram quantiles in ms, significance not testable; a log and a scrape do not compare', () => {
  const { rows } = histogramRowsOfScrape(HEALTHY_SCRAPE);
  const slower = rows.map((r) =>
    r.family === 'vllm:time_to_first_token_seconds' && r.labels['stage'] === '0' ? { ...r, p90: (r.p90 ?? 0) * 2 } : r,
  );
  const report = compareRuns(
    { source: 'a.prom', kind: 'scrape', samples: null, histograms: rows, problemCount: 0 },
    { source: 'b.prom', kind: 'scrape', samples: null, histograms: slower, problemCount: 0 },
  );
  assert.deepEqual(report.metrics, []);
  const ttft = report.histograms.find(
    (h) => h.family === 'vllm:time_to_first_token_seconds' && h.labels['stage'] === '0',
  );
  assert.ok(ttft);
  assert.equal(ttft.unit, 'ms');
  const p90 = ttft.quantiles.find((q) => q.quantile === 'p90');
  assert.ok(p90);
  assert.ok(Math.abs((p90.diffPct ?? 0) - 100) < 1e-9, String(p90.diffPct));
  assert.equal(p90.ci, null);
  assert.equal(p90.beyondNoise, null);
  assert.match(p90.notTestable ?? '', /no per-request values/);
  assert.match(report.notes.join('\n'), /Neither run has per-request data \(both are \/metrics scrapes\)/);
  const log = { source: 'x.log', kind: 'log' as const, samples: readSample(false), histograms: null, problemCount: 0 };
  assert.match(
    incomparableReason(log, { source: 'a.prom', kind: 'scrape', samples: null, histograms: rows, problemCount: 0 }) ??
      '',
    /nothing to compare: the baseline \(x\.log\) has per-request data \(a log\), the candidate \(a\.prom\) has only \/metrics histograms/,
  );
  assert.equal(incomparableReason(log, log), null);
});

test('a scrape with the codec TTFT signature: its stage-1 series are marked wrong, open-ended quantiles are lower bounds, rules on them are not evaluated', () => {
  const buggy = histogramRowsOfScrape(BUGGY_CODEC_SCRAPE).rows;
  const healthy = histogramRowsOfScrape(HEALTHY_SCRAPE).rows;
  const decode1 = buggy.find((r) => r.family === 'vllm:request_decode_time_seconds' && r.labels['stage'] === '1');
  assert.match(decode1?.caveat ?? '', /codec TTFT bug/);
  assert.deepEqual(decode1?.openEnded, ['p50', 'p90', 'p99']);
  assert.equal(
    buggy.find((r) => r.family === 'vllm:request_decode_time_seconds' && r.labels['stage'] === '0')?.caveat,
    null,
  );
  assert.equal(
    healthy.every((r) => r.caveat === null),
    true,
  );
  const report = compareRuns(
    { source: 'buggy.prom', kind: 'scrape', samples: null, histograms: buggy, problemCount: 0 },
    { source: 'healthy.prom', kind: 'scrape', samples: null, histograms: healthy, problemCount: 0 },
  );
  assert.match(report.notes.join('\n'), /series are known to be wrong in a run/);
  const result = checkRule(parseRule('stage1.decode.p90 < -10%') as Rule, report, { failUnevaluated: true });
  assert.equal(result.outcome, 'notEvaluated');
  assert.equal(result.failed, true);
  assert.match(result.detail, /known to be wrong in the baseline/);
  assert.equal(checkRule(parseRule('stage0.decode.p90 > +10%') as Rule, report).outcome, 'passed');
});

test('a chunk larger than a decode piece (the sample log four times, one 256+ KB push) gives the samples of small pushes', () => {
  const one = fs.readFileSync(SAMPLE);
  const bytes = Buffer.concat([one, one, one, one]);
  assert.ok(bytes.length > 4 * 65536, `the input spans several 64 KB pieces (${bytes.length} bytes)`);
  const whole = new LogRunReader(false);
  whole.push(bytes);
  const small = new LogRunReader(false);
  for (let i = 0; i < bytes.length; i += 7919) small.push(bytes.subarray(i, i + 7919));
  const run = whole.end();
  assert.equal(run.requestCount, 100);
  assert.deepStrictEqual(run, small.end());
});

test('a run read from a stream (stdin) is the run read from the file: a log in odd chunks, a scrape, a short scrape', async () => {
  const log = fs.readFileSync(SAMPLE);
  const fromFile = await loadRun(SAMPLE, { excludeCold: false });
  // The first chunks are shorter than the 4 KB the kind is told from.
  const pieces = [log.subarray(0, 100), log.subarray(100, 3000), log.subarray(3000, 9000)];
  for (let i = 9000; i < log.length; i += 7919) pieces.push(log.subarray(i, i + 7919));
  const fromStream = await loadRunFromStream(Readable.from(pieces), 'stdin', { excludeCold: false });
  assert.equal(fromStream.kind, 'log');
  assert.equal(fromStream.source, 'stdin');
  assert.deepEqual(fromStream.samples, fromFile.samples);
  assert.equal(fromStream.problemCount, fromFile.problemCount);

  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stage-lens-stream-run-'));
  try {
    for (const scrape of [HEALTHY_SCRAPE, BUGGY_CODEC_SCRAPE, HEALTHY_SCRAPE.slice(0, 2000)]) {
      const file = path.join(dir, 'metrics.txt');
      fs.writeFileSync(file, scrape);
      const want = await loadRun(file, { excludeCold: false });
      const bytes = Buffer.from(scrape, 'utf8');
      const chunks = [bytes.subarray(0, 1000), bytes.subarray(1000, 5000), bytes.subarray(5000)].filter(
        (c) => c.length > 0,
      );
      const got = await loadRunFromStream(Readable.from(chunks), 'stdin', { excludeCold: false });
      assert.equal(got.kind, 'scrape');
      assert.ok((got.histograms?.length ?? 0) > 0);
      assert.deepEqual(got.histograms, want.histograms);
      assert.equal(got.problemCount, want.problemCount);
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
