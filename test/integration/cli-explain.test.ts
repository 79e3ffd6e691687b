// `stage-lens explain` and `analyze --format json`'s breakdown as a user runs them: the
// built dist/cli.js as a real child process, on the upstream-rendered logs, stdin, a
// /metrics scrape and a saved session folder.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { stoppedSession, writeSavedSession } from './support/savedSession';
import type { ExplainReport } from '../../server/core/explain/explainReport';
import type { BreakdownJson } from '../../server/core/explain/breakdownJson';
import { asyncChunk, renderRequest } from '../unit/support/explainLogs';
import { runCli as cli } from './support/cliProcess';

const ROOT = path.resolve(__dirname, '..', '..');
const UPSTREAM = path.join(ROOT, 'test', 'fixtures', 'upstream-rendered');
const SIM = path.join(ROOT, 'test', 'fixtures', 'sim');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'stage-lens-explain-'));

after(() => fs.rmSync(tmp, { recursive: true, force: true }));

function explainJson(args: string[], input?: string): ExplainReport {
  const r = cli(['explain', ...args, '--format', 'json'], { input });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout) as ExplainReport;
}

const close = (actual: number | null | undefined, expected: number, what: string, tolerance = 1e-3): void => {
  assert.ok(
    actual !== null && actual !== undefined && Math.abs(actual - expected) <= tolerance,
    `${what}: ${actual} != ${expected}`,
  );
};

/** 20 Qwen3-TTS requests a second apart, two of them with the talker prefill 1,000 ms longer. */
function plantedLog(): string {
  return Array.from({ length: 20 }, (_, i) =>
    renderRequest(
      asyncChunk(
        `speech-${String(i).padStart(2, '0')}`,
        i === 7 || i === 13 ? 1000 : 0,
        `10-22 09:00:${String(10 + i).padStart(2, '0')}`,
      ),
    ),
  ).join('');
}

test('analyze --format json: every request carries its breakdown; the worked examples of docs/breakdown.md', () => {
  const three = cli(['analyze', path.join(UPSTREAM, 'qwen3-omni-three-stage-transfers.log'), '--format', 'json']);
  assert.equal(three.status, 0, three.stderr);
  const requests = (JSON.parse(three.stdout) as { requests: { requestId: string; breakdown: BreakdownJson }[] })
    .requests;
  const b = requests.find((r) => r.requestId === 'chatcmpl-3c88c0cf9be8c9bf')!.breakdown;
  assert.equal(b.totalMs, 40815.25);
  assert.equal(b.overlapMs, 0);
  assert.equal(b.residualMs, -194.245);
  const ms = (key: string): number | null => b.parts.find((p) => p.key === key)?.ms ?? null;
  assert.deepEqual(
    [
      ms('preprocess'),
      ms('0/genOther'),
      ms('0->1/postprocess'),
      ms('0->1/tx'),
      ms('0->1/inFlight'),
      ms('0->1/rxDecode'),
      ms('1->2/rxDecode'),
    ],
    [57, 8521.117, 256.158, 78.701, 2.015, 111.865, 31.706],
  );
  assert.deepEqual(
    b.parts.find((p) => p.key === 'finalOutput'),
    { key: 'finalOutput', stageKey: null, stageId: null, phase: 'finalOutput', ms: null, state: 'notMeasured' },
  );
  for (const r of requests) {
    const sum = r.breakdown.parts.reduce((a, p) => a + (p.ms ?? 0), 0);
    close(
      sum - r.breakdown.overlapMs + (r.breakdown.residualMs ?? NaN),
      r.breakdown.totalMs ?? NaN,
      `${r.requestId} identity`,
      0.01,
    );
  }

  const tts = JSON.parse(
    cli(['analyze', path.join(UPSTREAM, 'qwen3tts-talker-first-audio-after-fix.log'), '--format', 'json']).stdout,
  ) as { requests: { requestId: string; breakdown: BreakdownJson }[] };
  const async = tts.requests.find((r) => r.requestId === 'speech-1d2893d9177b5763df3d547f5103319a')!.breakdown;
  assert.deepEqual([async.overlapMs, async.overlapPlacement, async.residualMs], [612.904, 'reconstructed', 0.4]);
  assert.deepEqual(
    async.parts.find((p) => p.key === '0->1/tx'),
    {
      key: '0->1/tx',
      stageKey: null,
      stageId: null,
      phase: 'transfer',
      edge: '0->1',
      component: 'tx',
      ms: null,
      state: 'notRecorded',
    },
  );
  assert.deepEqual(
    async.parts.find((p) => p.key === '0->1/inFlight'),
    {
      key: '0->1/inFlight',
      stageKey: null,
      stageId: null,
      phase: 'transfer',
      edge: '0->1',
      component: 'inFlight',
      ms: null,
      state: 'hidden',
    },
  );
});

test('explain on every upstream-rendered log: one tail entry per supported target at p95 and p99, with the schema of the issue', () => {
  const expected: Record<string, string[]> = {
    'qwen3-omni-three-stage-transfers.log': [
      'e2e',
      'stage0.firstOutput',
      'stage1.firstOutput',
      'stage2.firstOutput',
      'stage0.ttft',
      'stage1.ttft',
      'stage2.ttft',
    ],
    'qwen3tts-info-level-omnitiming-only.log': ['e2e'],
    // Before the codec fix the codec's TTFT is not recorded: no stage1.ttft target.
    'qwen3tts-talker-first-audio-before-fix.log': ['e2e', 'stage0.firstOutput', 'stage1.firstOutput', 'stage0.ttft'],
    'qwen3tts-talker-first-audio-after-fix.log': [
      'e2e',
      'stage0.firstOutput',
      'stage1.firstOutput',
      'stage0.ttft',
      'stage1.ttft',
    ],
  };
  for (const [name, targets] of Object.entries(expected)) {
    const report = explainJson([path.join(UPSTREAM, name)]);
    assert.equal(report.schema, 1);
    assert.deepEqual(report.targets, targets, name);
    assert.deepEqual(
      report.tail.map((t) => `${t.target}@${t.quantile}`),
      targets.flatMap((t) => [`${t}@p95`, `${t}@p99`]),
      name,
    );
    for (const t of report.tail) {
      for (const key of [
        'target',
        'quantile',
        'thresholdMs',
        'requestCount',
        'targetMedianMs',
        'excessMs',
        'parts',
        'residualMs',
      ] as const)
        assert.ok(key in t, `${name} ${t.target}: ${key}`);
      for (const p of t.parts) {
        assert.ok(
          [
            'inputWait',
            'readyQueued',
            'queued',
            'prefill',
            'prefillDecode',
            'decode',
            'genOther',
            'transfer',
            'preprocess',
            'finalOutput',
          ].includes(p.phase),
        );
        if (p.phase === 'transfer') assert.match(p.edge ?? '', /^\d+->\d+$/);
      }
      close(
        t.parts.reduce((a, p) => a + p.excessMs, 0) + t.residualMs,
        t.excessMs,
        `${name} ${t.target} additivity`,
        0.01,
      );
    }
    const table = cli(['explain', path.join(UPSTREAM, name)]);
    assert.equal(table.status, 0, table.stderr);
    assert.match(table.stdout, /Why end-to-end time is slow at p95/);
  }
});

test("explain takes preprocess from the [Overall Summary] printed with each request, as analyze does, not [OmniTiming]'s 10 ms steps", () => {
  const log = path.join(UPSTREAM, 'qwen3tts-talker-first-audio-before-fix.log');
  // input_preprocess_time_ms of the six requests' summaries; [OmniTiming] prints 0.00s or 0.01s.
  const printed = [9.214, 4.87, 11.023, 6.337, 3.912, 8.455];
  const report = explainJson([log]);
  const preprocess = report.breakdown.parts.find((p) => p.key === 'preprocess');
  assert.ok(preprocess !== undefined);
  assert.equal(preprocess.distribution?.count, 6);
  close(preprocess.distribution?.p50, (6.337 + 8.455) / 2, 'median preprocess');
  close(preprocess.distribution?.max, 11.023, 'largest preprocess');
  const analyzed = cli(['analyze', log, '--format', 'json']);
  assert.equal(analyzed.status, 0, analyzed.stderr);
  const requests = (JSON.parse(analyzed.stdout) as { requests: { breakdown: BreakdownJson }[] }).requests;
  assert.deepEqual(
    requests.map((r) => r.breakdown.parts.find((p) => p.key === 'preprocess')?.ms),
    printed,
  );
});

test('explain: load at arrival over six requests says there are too few to tell, and that the table shown describes them', () => {
  const log = path.join(UPSTREAM, 'qwen3tts-talker-first-audio-before-fix.log');
  const r = cli(['explain', log]);
  assert.equal(r.status, 0, r.stderr);
  const lines = r.stdout.split('\n');
  const at = lines.findIndex((l) => l.startsWith('Load at arrival'));
  assert.ok(at >= 0, r.stdout);
  assert.equal(
    lines[at],
    "Load at arrival (end-to-end time, p95 tail; arrival = finish - end to end (e2e_total_ms, else the [OmniTiming] total=, else an older format's e2e_time_ms), finish to 1 s, so only an overlap of more than 1 s counts): Only 6 requests with a known arrival, 1 in the p95 tail: too few to tell whether the tail arrived into a busier server. The table below describes these requests as they are; it is not evidence either way.",
  );
  // The table the sentence points to, from the log's timestamps: all six arrived alone. The one of
  // 1,130 ms printed at 07:12:09 arrived at 8.37 s (midpoint 9.5 s), 0.13 s before the one printed
  // at 07:12:08 (midpoint 8.5 s) "finished": within the printed second, so not in flight.
  assert.match(lines[at + 1], /^ {2}in flight +requests +tail +p50 +p90 +p99$/);
  assert.match(lines[at + 2], /^ {2}0 +6 +1 +1\.26 s +1\.88 s +2\.03 s$/);
  assert.doesNotMatch(lines[at + 3] ?? '', /^ {2}1 /);
  assert.doesNotMatch(r.stdout, /Too few requests with a known arrival to tell/);
  const load = explainJson([log]).load[0];
  assert.equal(load?.reading, 'unknown');
  assert.equal(load?.arrivalsKnown, 6);
});

test("explain names a one-output stage's prefill as prefill+decode, in its tail and its cost fits, and fits no decode for it", () => {
  for (const name of ['qwen3tts-talker-first-audio-after-fix.log', 'qwen3tts-talker-first-audio-before-fix.log']) {
    const log = path.join(UPSTREAM, name);
    const report = explainJson([log]);
    assert.deepEqual(report.oneOutputStages, ['0'], name);
    const decodeFit = report.costModelSkipped.find((s) => s.stageKey === '0' && s.y === 'vllm_decode_ms');
    assert.match(decodeFit?.reason ?? '', /vllm_decode_ms is not a measurement/, name);
    assert.equal(
      report.costModel.some((f) => f.stageKey === '0' && f.y === 'vllm_decode_ms'),
      false,
    );
    const table = cli(['explain', log, '--target', 'e2e', '--quantile', 'p99']);
    assert.equal(table.status, 0, table.stderr);
    assert.match(table.stdout, /^ {2}stage 0 · talker prefill\+decode \(one output\) +\+[\d.,]+ m?s/m, name);
    assert.doesNotMatch(table.stdout, /^ {2}stage 0 (· talker )?prefill +[+-]/m, name);
    // Its prefill+decode grows with the tokens it makes: fitted against num_tokens_out.
    assert.match(table.stdout, /^ {2}stage 0 · talker prefill\+decode \(one output\) vs num_tokens_out: /m, name);
    assert.doesNotMatch(table.stdout, /prefill\+decode \(one output\) vs num_tokens_in/, name);
    // In the JSON it is prefillDecode, as the summary's prefillDecodeMs and compare's metric: never prefill alone.
    const talker = report.tail.flatMap((t) => t.parts).filter((p) => p.stageKey === '0' && p.key.includes('prefill'));
    assert.ok(talker.length > 0, name);
    assert.ok(
      talker.every((p) => p.key === '0/prefillDecode' && (p.phase as string) === 'prefillDecode'),
      name,
    );
  }
  // A stage with its own decode keeps its name.
  const omni = explainJson([path.join(UPSTREAM, 'qwen3-omni-three-stage-transfers.log')]);
  assert.deepEqual(omni.oneOutputStages, []);
});

test('explain: a part that lies after the first audio in most requests reads "after target" in the table and says so in the JSON, never a median of 0 ms', () => {
  const log = path.join(UPSTREAM, 'qwen3tts-talker-first-audio-after-fix.log');
  const report = explainJson([log, '--target', 'stage1.firstOutput', '--quantile', 'p99']);
  const genOther = report.tail[0]?.parts.find((p) => p.key === '1/genOther');
  assert.equal(genOther?.medianMs, 0);
  assert.deepEqual(genOther?.afterTarget, { requests: 5, of: 6 });
  const table = cli(['explain', log, '--target', 'stage1.firstOutput', '--quantile', 'p99']);
  assert.equal(table.status, 0, table.stderr);
  assert.match(table.stdout, /^ {2}stage 1 · code2wav rest of gen time \(overlap\) +\+1\.99 s +apart +after target$/m);
  // The codec ran alongside the talker (async chunk): its four parts are apart, the shares and
  // the residual add up without them (they had read 100% + 51% + 32% + 13% + 4% against −100%).
  assert.match(table.stdout, /^ {2}stage 0 · talker prefill\+decode \(one output\) +\+3\.90 s +100% +84\.9 ms$/m);
  assert.match(table.stdout, /^ {2}residual +−1\.42 ms +0%$/m);
  assert.match(
    table.stdout,
    /^ {2}\("overlap": stage 1 · code2wav ran alongside the stages upstream \(async chunk feeds it as they produce\), so its 4 parts \(\+3\.90 s together\) lie within their time, the same time seen from downstream; shown apart, not in the shares nor the residual\)$/m,
  );
  assert.doesNotMatch(table.stdout, / 0 ms$/m);
  assert.match(
    table.stdout,
    /\(median "after target": in most requests that measured the part it lies wholly after the target's end \(5 of 6 /,
  );
  // The talker's prefill+decode median (84.9 ms) is its time before the first audio, not its ~1.1 s: said under the table.
  assert.match(
    table.stdout,
    /^ {2}\(each part counts only up to time to first audio \(stage 1 · code2wav\): its excess and median are of its time before that first output, less than its own time where it runs on after it\)$/m,
  );
  const e2e = cli(['explain', log, '--target', 'e2e', '--quantile', 'p99']);
  assert.doesNotMatch(e2e.stdout, /counts only up to/);
});

test('explain: under its own stage\'s first output, a gen time the log does not split reads "not measured" with why, never +0 ms, in the table and the JSON', () => {
  // `simulate --talker-first-audio --model-runner v2 --async-chunk --stats-build before-fix --requests 12
  // --seed 3 --fixed-clock --debug-tables`: the codec's first audio comes after it was scheduled.
  const log = path.join(SIM, 'talker-first-audio-before-fix-seed3.log');
  const report = explainJson([log, '--target', 'stage1.firstOutput', '--quantile', 'p99']);
  const tail = report.tail[0]!;
  assert.equal(
    tail.parts.find((p) => p.key === '1/genOther'),
    undefined,
  );
  assert.deepEqual(
    tail.notMeasured?.map((p) => p.key),
    ['1/genOther'],
  );
  const table = cli(['explain', log, '--target', 'stage1.firstOutput', '--quantile', 'p99']);
  assert.equal(table.status, 0, table.stderr);
  assert.match(
    table.stdout,
    /^ {2}stage 1 · code2wav gen time not split \(no prefill\/decode values\) +not measured +- +not measured$/m,
  );
  assert.match(
    table.stdout,
    /^ {2}\("not measured": stage 1's first output lies inside its gen time, which the log does not split, /m,
  );
  assert.doesNotMatch(table.stdout, /gen time not split[^\n]*\+0 ms/);
  assert.doesNotMatch(table.stdout, /after target/);
});

test('explain: a rest of gen time that holds unmeasured phases is named so; an INFO-level log says why first', () => {
  const before = explainJson([path.join(UPSTREAM, 'qwen3tts-talker-first-audio-before-fix.log')]);
  const e2e = before.tail.find((t) => t.target === 'e2e' && t.quantile === 'p99');
  // The codec printed no prefill (None) and no decode row: its gen time beyond queued is unsplit work.
  assert.equal(e2e?.parts.find((p) => p.key === '1/genOther')?.withUnmeasuredPhases, true);
  // The talker's decode is inside its prefill+decode: its rest of gen time is the rest.
  assert.equal(e2e?.parts.find((p) => p.key === '0/genOther')?.withUnmeasuredPhases, undefined);
  const info = cli(['explain', path.join(UPSTREAM, 'qwen3tts-info-level-omnitiming-only.log')]);
  assert.equal(info.status, 0, info.stderr);
  const lines = info.stdout.split('\n');
  assert.match(lines[2] ?? '', /^No request has a \[StageRequestStats\] table, only \[OmniTiming\] lines/);
  assert.match(info.stdout, /^ {2}stage 0 · talker gen time not split \(no prefill\/decode values\) +\+/m);
  assert.doesNotMatch(info.stdout, /rest of gen time/);
});

test('explain --target of a TTFT that is not recorded says so, and which targets the log measures', () => {
  const r = cli([
    'explain',
    path.join(UPSTREAM, 'qwen3tts-talker-first-audio-before-fix.log'),
    '--target',
    'stage1.ttft',
  ]);
  assert.equal(r.status, 0, r.stderr);
  assert.match(
    r.stdout,
    /^Not measured by any request in scope: stage1\.ttft \(its TTFT is not recorded: finding ttft-not-recorded\)$/m,
  );
  assert.match(r.stdout, /^Targets this log measures: e2e, stage0\.firstOutput, stage1\.firstOutput, stage0\.ttft$/m);
  assert.doesNotMatch(r.stdout, /no request printed an end-to-end time/);
});

test('explain --target of a stage the log does not have: exit 2, naming the stages and targets it has, no report', () => {
  const log = path.join(UPSTREAM, 'qwen3tts-talker-first-audio-before-fix.log');
  const r = cli(['explain', log, '--target', 'stage5.ttft']);
  assert.equal(r.status, 2);
  assert.equal(r.stdout, '');
  assert.equal(
    r.stderr,
    'stage-lens explain: --target stage5.ttft: no such stage in the log; the log has stages 0, 1 and measures e2e, stage0.firstOutput, stage1.firstOutput, stage0.ttft\n',
  );
  // One target of a stage it has does not make the other one explainable.
  const mixed = cli(['explain', log, '--target', 'e2e', '--target', 'stage2.firstOutput']);
  assert.equal(mixed.status, 2);
  assert.match(mixed.stderr, /^stage-lens explain: --target stage2\.firstOutput: no such stage in the log;/);
});

test('explain a planted cause: --target and --quantile select the entry; the table names the talker prefill first; stdin works', () => {
  const log = plantedLog();
  const file = path.join(tmp, 'planted.log');
  fs.writeFileSync(file, log);
  const report = explainJson([file, '--target', 'e2e', '--target', 'stage1.firstOutput', '--quantile', 'p95']);
  assert.deepEqual(
    report.tail.map((t) => t.target),
    ['e2e', 'stage1.firstOutput'],
  );
  const e2e = report.tail[0]!;
  assert.deepEqual([e2e.requestCount, e2e.excessMs, e2e.targetMedianMs, e2e.residualMs], [2, 1000, 800, -1000]);
  assert.deepEqual(
    e2e.parts
      .slice(0, 2)
      .map((p) => [p.stageId, p.phase, p.excessMs, p.share])
      .sort(),
    [
      [0, 'prefill', 1000, 1],
      [1, 'inputWait', 1000, 1],
    ],
  );
  // Load: the slow two arrived one second apart with nothing else in flight (requests are 0.8 s long, a second apart).
  assert.equal(report.load[0]?.target, 'e2e');
  assert.equal(report.load[0]?.arrivalsKnown, 20);
  const table = cli(['explain', file, '--target', 'e2e', '--quantile', 'p95']);
  assert.match(
    table.stdout,
    /Why end-to-end time is slow at p95: 2 of 20 requests at or above 1\.80 s, on average 1\.00 s above the median 800 ms/,
  );
  assert.match(table.stdout, /stage 0 prefill\s+\+1\.00 s\s+100%/);
  // The codec's input wait is the talker prefill's time seen from downstream: shown apart, not
  // added, so the shares and the residual add up without it (the JSON keeps the attribution's
  // residual, −1000 ms above, with every part).
  assert.match(table.stdout, /^ {2}stage 1 input wait \(overlap\) +\+1\.00 s +apart +150 ms$/m);
  assert.match(table.stdout, /^ {2}residual +\+0 ms +0%$/m);
  assert.match(
    table.stdout,
    /\("overlap": stage 1 input wait \(\+1\.00 s\) is the wait for its input from the stages upstream: it runs while their parts do, the same time seen from downstream; shown apart, not in the shares nor the residual\)/,
  );
  const fromStdin = explainJson(['-', '--target', 'e2e', '--quantile', 'p95'], log);
  assert.deepEqual(fromStdin.tail, report.tail.slice(0, 1));
  // Cold switch and per-boot option are accepted; without boots in the log, one boot (0).
  const byBoot = explainJson([file, '--target', 'e2e', '--quantile', 'p95', '--by-boot', '--exclude-cold']);
  assert.deepEqual(
    byBoot.tail.map((t) => t.boot),
    [0],
  );
  assert.equal(byBoot.scope.excludeCold, true);
});

test('explain a saved session folder: its captured bytes replayed, like compare reads one', () => {
  const dir = path.join(tmp, 'sessions', 's-1');
  const imported = stoppedSession({ id: 's-1', kind: 'import', description: 'planted.log', requestCount: 20 });
  const files = writeSavedSession(dir, imported, Buffer.from(plantedLog()));
  const report = explainJson([dir, '--target', 'e2e', '--quantile', 'p95']);
  assert.equal(report.requestCount, 20);
  assert.deepEqual([...report.tail[0]!.requestIds].sort(), ['speech-07', 'speech-13']);
  assert.deepEqual(report.stageRoles, {}, 'neither the folder nor planted.log names a pipeline');

  // The folder's name names no pipeline; the session's deploy file does: its stages by role.
  files.writeMeta({
    info: stoppedSession({
      id: 's-1',
      kind: 'launch',
      description: 'vllm serve Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice --omni',
      requestCount: 20,
      deployConfig: '/work/deploy/qwen3_tts.yaml',
    }),
  });
  const named = explainJson([dir, '--target', 'e2e', '--quantile', 'p95']);
  assert.deepEqual(named.stageRoles, { '0': 'talker', '1': 'code2wav' });
  const table = cli(['explain', dir, '--target', 'e2e', '--quantile', 'p95']);
  assert.equal(table.status, 0, table.stderr);
  assert.match(table.stdout, /^ {2}stage 0 · talker prefill +\+1\.00 s +100%/m);
  assert.match(table.stdout, /^ {2}stage 1 · code2wav input wait \(overlap\) +\+1\.00 s +apart/m);
});

test("explain drops stage roles the stages' own output contradicts, as analyze does: a Qwen3-TTS log under a GLM-Image name goes by stage ids", () => {
  const log = path.join(UPSTREAM, 'qwen3tts-talker-first-audio-after-fix.log');
  const misnamed = path.join(tmp, 'glm_image-run.log');
  const named = path.join(tmp, 'qwen3-tts-run.log');
  fs.copyFileSync(log, misnamed);
  fs.copyFileSync(log, named);

  // Its codec printed audio, which no stage of an AR -> diffusion pipeline outputs.
  const analyzed = cli(['analyze', misnamed, '--format', 'json']);
  assert.equal(analyzed.status, 0, analyzed.stderr);
  assert.deepEqual((JSON.parse(analyzed.stdout) as { stageRoles: unknown }).stageRoles, {});
  assert.deepEqual(explainJson([misnamed]).stageRoles, {});
  const table = cli(['explain', misnamed, '--target', 'stage1.firstOutput', '--quantile', 'p95']);
  assert.equal(table.status, 0, table.stderr);
  assert.match(table.stdout, /^Why stage 1 time to first output is slow at p95/m);
  assert.match(table.stdout, /^ {2}stage 0 prefill\+decode \(one output\) +\+/m);
  assert.doesNotMatch(table.stdout, /· (AR|diffusion)\b/);

  // Under its own name the roles fit what its stages printed.
  assert.deepEqual(explainJson([named]).stageRoles, { '0': 'talker', '1': 'code2wav' });
  const own = cli(['explain', named, '--target', 'stage1.firstOutput', '--quantile', 'p95']);
  assert.equal(own.status, 0, own.stderr);
  assert.match(own.stdout, /^Why time to first audio \(stage 1 · code2wav\) is slow at p95/m);
  assert.match(own.stdout, /^ {2}stage 0 · talker prefill\+decode \(one output\) +\+/m);
});

test('explain a /metrics scrape: no tail, the metrics that do not report', () => {
  const scrape =
    [
      '# HELP vllm_omni:e2e_request_latency_s e2e',
      '# TYPE vllm_omni:e2e_request_latency_s histogram',
      'vllm_omni:e2e_request_latency_s_bucket{le="+Inf",model_name="m"} 12',
      'vllm_omni:e2e_request_latency_s_count{model_name="m"} 12',
      'vllm_omni:e2e_request_latency_s_sum{model_name="m"} 30',
      '# HELP vllm:time_to_first_token_seconds ttft',
      '# TYPE vllm:time_to_first_token_seconds histogram',
      'vllm:time_to_first_token_seconds_bucket{le="+Inf",model_name="m",stage="0",replica="0"} 0',
      'vllm:time_to_first_token_seconds_count{model_name="m",stage="0",replica="0"} 0',
      'vllm:time_to_first_token_seconds_sum{model_name="m",stage="0",replica="0"} 0',
    ].join('\n') + '\n';
  const table = cli(['explain', '-'], { input: scrape });
  assert.equal(table.status, 0, table.stderr);
  assert.match(table.stdout, /no per-request values/);
  assert.match(
    table.stdout,
    /vllm:time_to_first_token_seconds is registered but reads 0 while requests finish: 0 on all 1 \(stage, replica\) series while vllm_omni:e2e_request_latency_s counts 12 finished requests/,
  );
  assert.match(table.stdout, /known cause: vllm-omni #5170/);
  const json = explainJson(['-'], scrape);
  assert.equal(json.tail.length, 0);
  assert.equal(json.findings[0]?.code, 'metric-not-reporting');
});

test('explain usage and I/O errors exit 2 with a message', () => {
  const bad = cli([
    'explain',
    path.join(UPSTREAM, 'qwen3tts-info-level-omnitiming-only.log'),
    '--target',
    'stage1.latency',
  ]);
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /--target 'stage1\.latency' is not a target: e2e \| stage<N>\.firstOutput/);
  const q = cli(['explain', path.join(UPSTREAM, 'qwen3tts-info-level-omnitiming-only.log'), '--quantile', 'p50']);
  assert.equal(q.status, 2);
  assert.match(q.stderr, /--quantile must be one of p90, p95, p99/);
  const missing = cli(['explain', path.join(tmp, 'nope.log')]);
  assert.equal(missing.status, 2);
  assert.match(missing.stderr, /cannot read .*nope\.log: no such file or folder/);
  const folder = cli(['explain', tmp]);
  assert.equal(folder.status, 2);
  assert.match(folder.stderr, /is a folder without a session\.json/);
  // A target the log does not measure is reported, not an error.
  const unmeasured = explainJson([
    path.join(UPSTREAM, 'qwen3tts-info-level-omnitiming-only.log'),
    '--target',
    'stage1.ttft',
  ]);
  assert.deepEqual(unmeasured.unsupportedTargets, ['stage1.ttft']);
});
