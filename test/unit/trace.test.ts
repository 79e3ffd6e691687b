// The Chrome-trace export on real analyses: the bundled sample log (Qwen3-TTS with talker
// first audio on a build without the stats fix, two cold starts) and simulator logs. Every
// trace is checked against the format's rules (traceFormat.ts), then its values against
// the analysis they came from.
import { preprocessOf } from '../../server/core/analysis/preprocess';
import { breakdownOf } from '../../server/core/explain/breakdown';
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { LogStreamParser } from '../../server/core/log';
import { StreamAnalysis } from '../../server/core/analysis/streamAnalysis';
import type { AnalyzedRequest } from '../../server/core/analysis/types';
import { measured, numberOf } from '../../server/core/values';
import { timelineOf } from '../../server/core/analysis/timeline';
import { PHASE_SLICE_NAME, traceChunks, traceText } from '../../server/core/report/trace';
import { PHASE_SPLIT } from '../../server/core/report/traceMetadata';
import { PREFILL_DECODE_LABEL } from '../../server/core/analysis/oneOutputStage';
import { PLACEMENT_TEXT } from '../../server/core/report/tracePlacement';
import { ByteChunks } from '../../server/core/report/byteChunks';
import { fixedClock } from '../../server/simulate/clock';
import { applyDeployConfig, loadMergedDeployConfig } from '../../server/simulate/deployConfig';
import { LogWriter } from '../../server/simulate/logWriter';
import { FIXED_BUILD } from '../../server/simulate/stageFields';
import { TimingModel } from '../../server/simulate/timingModel';
import { scenarioTopology, type Topology } from '../../server/simulate/topology';
import { checkTrace, type TraceCheck, type TraceSlice } from './support/traceFormat';

const ROOT = path.resolve(__dirname, '..', '..');
const SAMPLE = path.join(ROOT, 'samples/qwen3-tts-first-audio-cold-start.log');

function analyse(text: string | Buffer): AnalyzedRequest[] {
  const analysis = new StreamAnalysis();
  const parser = new LogStreamParser();
  analysis.ingest(parser.push(typeof text === 'string' ? Buffer.from(text) : text));
  analysis.ingest(parser.end());
  analysis.flush();
  return [...analysis.snapshot().requests];
}

function checked(requests: readonly AnalyzedRequest[], captureTimesMs?: readonly number[]): TraceCheck {
  const check = checkTrace(traceText(requests, { source: 'test', captureTimesMs }));
  assert.deepEqual(check.errors.slice(0, 5), [], 'the trace follows the format rules');
  return check;
}

function simulatedLog(topology: Topology, n: number, seed = 5): string {
  const model = new TimingModel(topology, { seed, rps: 4, coldStartMs: 0, firstArrivalUs: 500_000 });
  const writer = new LogWriter(
    { process: 'APIServer pid=1', ansi: false, debug: true, clock: fixedClock() },
    FIXED_BUILD,
  );
  return Array.from({ length: n }, () => model.next())
    .map((r) =>
      writer.requestRecords(
        r,
        r.stages.map(() => r.index + 1),
      ),
    )
    .join('');
}

const durationUs = (s: TraceSlice): number => s.endUs - s.startUs;
const slicesOf = (check: TraceCheck, requestId: string): TraceSlice[] => {
  const ids = new Set(check.slices.filter((s) => s.args['request'] === requestId).map((s) => s.id));
  return check.slices.filter((s) => ids.has(s.id));
};

describe('ByteChunks (the trace and JSON writer)', () => {
  const written = (f: (w: ByteChunks) => void, size = 8): string => {
    const w = new ByteChunks(size);
    f(w);
    return new TextDecoder().decode(w.take());
  };

  test('numbers read back as the same double; 3-decimal values print as String() does', () => {
    const asString = (v: number): void =>
      assert.equal(
        written((w) => w.number(v)),
        String(v),
      );
    /** Random numbers of thousandths below `max`, either sign. */
    const randomThousandths = (max: number): void => {
      for (let i = 0; i < 20_000; i++) asString((Math.round(Math.random() * max) / 1000) * (i % 2 ? -1 : 1));
    };
    for (const v of [0, -0.25, 0.001, 10020.219, 86443602, 123456789012.345, 1 / 3, 1e-7, 2 ** 60, 0.1 + 0.2])
      assert.equal(Number(written((w) => w.number(v))), v, String(v));
    randomThousandths(1e13);
    // 16 and 17 significant digits: the shortest text that reads back, as String() writes it.
    for (const v of [1234567890123.457, 9007199254740991 / 1000, 4503599627370.497, -2251799813685.249]) asString(v);
    randomThousandths(2 ** 53);
    // Either side of the Int32 digit path's end (2^31 - 1 thousandths), and below it.
    for (const k of [0x7fffffff, 0x80000000, 0x7ffffffe, 1, 10, 999, 1000, 1001, 999_999_999]) {
      asString(k / 1000);
      asString(-k / 1000);
    }
    randomThousandths(2 ** 32);
    // Whole numbers, Int32 or not (the integer path ends at 2^31 - 1).
    for (const v of [0, -0, 1, -1, 7, 10, 2 ** 31 - 1, -(2 ** 31), 2 ** 31, -(2 ** 31) - 1, 1e15, 2 ** 53]) asString(v);
    for (let i = 0; i < 20_000; i++) asString(Math.round((Math.random() - 0.5) * 2 ** (i % 40)));
    assert.equal(
      written((w) => w.number(Number.NaN)),
      'null',
    );
  });

  test('hex ids, JSON strings with escapes and non-ASCII, growing past the chunk size', () => {
    assert.equal(
      written((w) => w.hex(0)),
      '0',
    );
    assert.equal(
      written((w) => w.hex(0x1f3a2)),
      '1f3a2',
    );
    for (const s of ['speech-5bd188e314d812a5', 'a"b\\c\n', 'stage 1 · replica 0', 'é→', '\u0001'])
      assert.equal(
        written((w) => w.string(s)),
        JSON.stringify(s),
      );
    const long = 'x'.repeat(10_000) + 'ü';
    assert.equal(
      written((w) => w.text(long)),
      long,
    );
  });
});

describe('the checker itself', () => {
  const wrap = (events: object[]): string => JSON.stringify({ traceEvents: events, displayTimeUnit: 'ms' });
  const b = (name: string, ts: number, id = '0x1', pid = 1) => ({ ph: 'b', name, cat: 'c', id, pid, tid: pid, ts });
  const e = (name: string, ts: number, id = '0x1', pid = 1) => ({ ph: 'e', name, cat: 'c', id, pid, tid: pid, ts });

  test('accepts nested and overlapping async slices of different ids', () => {
    const ok = checkTrace(
      wrap([
        b('stage', 0),
        b('prefill', 0),
        e('prefill', 5),
        e('stage', 9),
        b('stage', 3, '0x2'),
        e('stage', 12, '0x2'),
      ]),
    );
    assert.deepEqual(ok.errors, []);
    assert.deepEqual(
      ok.slices.map((s) => [s.name, s.depth, s.startUs, s.endUs]),
      [
        ['prefill', 1, 0, 5],
        ['stage', 0, 0, 9],
        ['stage', 0, 3, 12],
      ],
    );
  });

  test('rejects what viewers get wrong', () => {
    const cases: [string, string, RegExp][] = [
      ['crossed slices of one id', wrap([b('a', 0), b('b', 1), e('a', 2), e('b', 3)]), /innermost open slice is "b"/],
      ['end before begin', wrap([e('a', 0), b('a', 1)]), /end without an open begin/],
      ['unclosed', wrap([b('a', 0)]), /never ends/],
      [
        'same key open twice',
        wrap([b('a', 0), b('a', 1), e('a', 2), e('a', 3)]),
        /same cat, id and name is still open/,
      ],
      ['negative ts', wrap([b('a', -1), e('a', 2)]), /ts must be a finite number >= 0/],
      ['missing id', wrap([{ ph: 'b', name: 'a', cat: 'c', pid: 1, tid: 1, ts: 0 }]), /exactly one of id \/ id2/],
      [
        'missing cat',
        wrap([
          { ph: 'b', name: 'a', id: '1', pid: 1, tid: 1, ts: 0 },
          { ph: 'e', name: 'a', id: '1', pid: 1, tid: 1, ts: 1 },
        ]),
        /async events need a cat/,
      ],
      ['id on two processes', wrap([b('a', 0, '0x1', 1), e('a', 1, '0x1', 2)]), /used on pid 1 and pid 2/],
      ['bad metadata', wrap([{ ph: 'M', name: 'process_name', pid: 1, args: {} }]), /needs args.name/],
      ['unknown metadata', wrap([{ ph: 'M', name: 'process_colour', pid: 1, args: {} }]), /unknown metadata event/],
      ['top-level array', wrap([{ ...b('a', 0), stack: [1] }, e('a', 1)]), /top-level array/],
      ['trailing comma', '{"traceEvents":[{"ph":"M","name":"process_name","pid":1,"args":{"name":"x"}},]}', /not JSON/],
      ['array format', '[]', /JSON Object Format/],
      ['X without dur', wrap([{ ph: 'X', name: 'a', pid: 1, tid: 1, ts: 0 }]), /X needs dur/],
    ];
    for (const [what, text, expected] of cases) assert.match(checkTrace(text).errors.join('\n'), expected, what);
  });
});

describe('trace of the bundled sample log', () => {
  const requests = analyse(readFileSync(SAMPLE));
  const check = checked(requests);
  const cold = requests.find((r) => r.requestId === 'speech-5bd188e314d812a5')!;

  test('one named process per stage, one async track name per process', () => {
    assert.equal(requests.length, 25);
    assert.deepEqual([...check.processNames.values()], ['requests (E2E)', 'stage 0', 'stage 1']);
    for (const [pid, name] of check.processNames) {
      const tracks = check.asyncTrackNames.get(pid);
      assert.deepEqual(
        [...(tracks ?? [])],
        [pid === 1 ? 'e2e' : name],
        `Perfetto merges the tracks of ${name} into one`,
      );
    }
  });

  test("with the stages' roles, tracks and top slices are named with them; without, by id", () => {
    const named = checkTrace(traceText(requests, { source: 'test', stageRoles: { '0': 'talker', '1': 'code2wav' } }));
    assert.deepEqual(named.errors.slice(0, 5), []);
    assert.deepEqual([...named.processNames.values()], ['requests (E2E)', 'stage 0 · talker', 'stage 1 · code2wav']);
    const tops = named.slices.filter((s) => s.depth === 0 && s.pid > 1).map((s) => s.name);
    assert.deepEqual([...new Set(tops)], ['stage 0 · talker', 'stage 1 · code2wav']);
    // The same events otherwise: only the names differ.
    const plainNames = check.slices.map((s) => ({ ...s, name: s.depth === 0 && s.pid > 1 ? '' : s.name }));
    const namedNames = named.slices.map((s) => ({ ...s, name: s.depth === 0 && s.pid > 1 ? '' : s.name }));
    assert.deepEqual(namedNames, plainNames);
  });

  test('measured phases keep their logged durations to the ns', () => {
    const slices = slicesOf(check, cold.requestId);
    const stage0 = slices.filter((s) => s.pid === 2);
    // The talker emits one output (54 tokens, decode hidden): its vllm_prefill_ms is prefill+decode, never a "prefill" slice.
    assert.equal(stage0.filter((s) => s.name === 'prefill' || s.name === 'decode').length, 0);
    const prefill = stage0.find((s) => s.name === PREFILL_DECODE_LABEL)!;
    assert.equal(Math.round(durationUs(prefill) * 1000), 10_020_219_000, 'vllm_prefill_ms 10020.219 -> 10,020,219 µs');
    assert.equal(prefill.args['ms'], 10020.219);
    assert.equal((check.metadata?.['sliceFields'] as Record<string, string>)[prefill.name], 'vllm_prefill_ms');
    assert.equal(prefill.args['provenance'], 'measured');
    assert.equal(prefill.args['rule'], undefined, 'measured phases are anchored by definition');
    assert.equal(stage0.find((s) => s.depth === 0)!.args['rule'], 'anchored');
    const queued = stage0.find((s) => s.name === 'queued')!;
    assert.equal(Math.round(durationUs(queued) * 1000), 326_000);
    assert.equal(queued.endUs, prefill.startUs, 'phases follow each other');
    // The top slice is the stage as the server timed it (stage_gen_time_ms 10022.297).
    const top = stage0.find((s) => s.depth === 0)!;
    assert.equal(top.name, 'stage 0');
    assert.equal(top.args['span'], 'gen-time');
    assert.equal(Math.round(durationUs(top) * 1000), 10_022_297_000);
    assert.equal(top.args['cold'], true);
    // Anchored: first output (10034.441) - prefill - queued = 13.896 ms after arrival (the e2e slice's start).
    const e2e = slices.find((s) => s.name === 'e2e')!;
    assert.equal(Math.round(durationUs(e2e) * 1000), 10_042_213_000);
    assert.equal(Math.round((queued.startUs - e2e.startUs) * 1000), 13_896_000);
  });

  test('not measured, hidden and not recorded phases have no slice', () => {
    const stage1 = slicesOf(check, cold.requestId).filter((s) => s.pid === 3);
    // Codec: prefill None, decode hidden, TTFT not recorded (talker first audio before the fix).
    assert.deepEqual(stage1.map((s) => s.name).sort(), ['input wait', 'ready queued', 'stage 1']);
    assert.equal(check.slices.filter((s) => s.pid === 3 && (s.name === 'prefill' || s.name === 'decode')).length, 0);
    // Stage 0 never prints the input split (None) nor a decode row.
    assert.equal(
      check.slices.filter((s) => s.pid === 2 && ['input wait', 'ready queued', 'decode'].includes(s.name)).length,
      0,
    );
    assert.ok(!check.slices.some((s) => /ttft/i.test(s.name)), 'TTFT is a point, never drawn as a phase');
    // Every 0-length slice is a value logged (or inferred) as 0, never a missing one.
    for (const s of check.slices.filter((x) => x.endUs === x.startUs && x.depth > 0))
      assert.equal(s.args['ms'], 0, `${s.name} of ${s.id}`);
  });

  test('reconstructed positions and inferred values are marked, with their rule', () => {
    const stage1 = slicesOf(check, cold.requestId).filter((s) => s.pid === 3);
    for (const s of stage1) {
      assert.equal(s.args['provenance'], 'reconstructed', `${s.name}: the codec has no anchor (TTFT not recorded)`);
      assert.equal(s.args['rule'], 'alongside-upstream', 'after the talker it would end after the request');
    }
    const ruleText = timelineOf(cold).find((s) => s.stageKey === '1')!.rule;
    assert.equal((check.metadata?.['rules'] as Record<string, string>)['alongside-upstream'], ruleText);
    assert.equal(stage1.find((s) => s.depth === 0)!.args['ruleText'], ruleText);
    const readyQueued = stage1.find((s) => s.name === 'ready queued')!;
    assert.equal(
      readyQueued.args['state'],
      'inferred',
      'hidden row with the other half measured: inferred 0, not logged',
    );
    assert.equal(durationUs(readyQueued), 0);
    const inputWait = stage1.find((s) => s.name === 'input wait')!;
    assert.equal(Math.round(durationUs(inputWait) * 1000), 9_083_602_000);
    assert.equal(inputWait.args['state'], undefined);
  });

  test('no stage is drawn past the end of its request (e2e_total_ms)', () => {
    for (const r of requests) {
      const e2e = numberOf(r.e2e, 'e2e_total_ms');
      assert.ok(e2e !== undefined, r.requestId);
      for (const s of timelineOf(r))
        assert.ok(s.endMs <= e2e + 0.01, `${r.requestId} stage ${s.stageKey} ${s.phase} ends at ${s.endMs} > ${e2e}`);
    }
  });

  test('a stage without an anchor is drawn after its upstream when it fits in the request, or when the E2E is unknown', () => {
    const codecStart = (request: AnalyzedRequest): { start: number; rule: string } => {
      const s = timelineOf(request).find((x) => x.stageKey === '1' && x.phase === 'stage')!;
      return { start: s.startMs, rule: s.rule };
    };
    const talkerEnd = Math.max(
      ...timelineOf(cold)
        .filter((x) => x.stageKey === '0')
        .map((x) => x.endMs),
    );
    const longer = codecStart({ ...cold, e2e: { ...cold.e2e, e2e_total_ms: measured(1e9) } });
    assert.equal(longer.start, talkerEnd);
    assert.match(longer.rule, /^assumed: drawn after the upstream stage ends/);
    const { e2e_total_ms: _dropped, ...withoutTotal } = cold.e2e;
    assert.equal(codecStart({ ...cold, e2e: withoutTotal, timing: null }).start, talkerEnd);
    // Without RequestE2EStats (an INFO-level log), the [OmniTiming] total bounds the request instead.
    assert.ok(cold.timing !== null);
    assert.match(codecStart({ ...cold, e2e: withoutTotal }).rule, /alongside the upstream stage/);
    // Alongside: from the end of the request's preprocessing, where the breakdown places it too.
    const alongside = codecStart(cold);
    assert.equal(alongside.start, preprocessOf(cold)?.ms);
    assert.equal(alongside.start, breakdownOf(cold).parts.find((p) => p.key === '1/inputWait')?.startMs);
    assert.match(alongside.rule, /alongside the upstream stage/);
  });

  test('every phase slice equals its split value; slice counts match the analysis', () => {
    let phases = 0;
    const pidOf: Record<string, number> = { '0': 2, '1': 3 };
    for (const r of requests) {
      const own = slicesOf(check, r.requestId);
      for (const stage of r.stages) {
        for (const [phase, label] of Object.entries(PHASE_SLICE_NAME)) {
          const split = PHASE_SPLIT[phase as keyof typeof PHASE_SPLIT];
          const value = stage.split.values[split];
          const drawn = timelineOf(r).some((s) => s.stageKey === stage.stageKey && s.phase === phase);
          const found = own.filter((s) => s.name === label && s.pid === pidOf[stage.stageKey]);
          if (value === null || !drawn) assert.equal(found.length, 0, `${r.requestId} ${stage.stageKey} ${phase}`);
          else {
            assert.equal(found.length, 1, `${r.requestId} ${stage.stageKey} ${phase}`);
            assert.ok(
              Math.abs(durationUs(found[0]!) - value * 1000) <= 0.001,
              `${phase} ${durationUs(found[0]!)} vs ${value}`,
            );
            phases += 1;
          }
        }
      }
    }
    assert.equal(phases, check.slices.filter((s) => s.depth === 1).length);
    assert.equal(check.metadata?.['slices'], check.slices.length);
  });

  test('wall clock: arrival = log timestamp - e2e_total_ms, stated in metadata and in the slices', () => {
    const byId = new Map(check.slices.filter((s) => s.name === 'e2e').map((s) => [s.args['request'] as string, s]));
    assert.equal(byId.size, 25);
    // The records print when the request finishes: e2e slices end on the logged second.
    const endOf = (r: AnalyzedRequest): number => byId.get(r.requestId)!.endUs;
    const sec = (r: AnalyzedRequest): number => {
      const [, hh, mm, ss] = /(\d\d):(\d\d):(\d\d)$/.exec(r.timestamp!)!;
      return Number(hh) * 3600 + Number(mm) * 60 + Number(ss);
    };
    const [a, b] = [requests[0]!, requests[10]!];
    assert.notEqual(a.timestamp, b.timestamp);
    assert.ok(Math.abs(endOf(b) - endOf(a) - (sec(b) - sec(a)) * 1e6) < 0.01);
    assert.ok(check.slices.every((s) => s.depth > 0 || s.args['placement'] === 'log-timestamp'));
    const clock = check.metadata?.['clock'] as { basis: string; origin: string; placement: Record<string, string> };
    assert.equal(clock.basis, 'log-timestamp');
    assert.equal(clock.placement['log-timestamp'], PLACEMENT_TEXT['log-timestamp']);
    assert.match(clock.origin, /^08-21 \d\d:\d\d:\d\d\.\d{3} log time/);
    assert.equal(Math.min(...check.slices.map((s) => s.startUs)), 0, 'the earliest arrival is the origin');
  });

  test('from the packed request store (as sessions and the CLI keep requests): the same trace', () => {
    const analysis = new StreamAnalysis();
    const parser = new LogStreamParser();
    analysis.ingest(parser.push(readFileSync(SAMPLE)));
    analysis.ingest(parser.end());
    analysis.flush();
    assert.equal(traceText(analysis.requests, { source: 'test' }), traceText(requests, { source: 'test' }));
  });

  test('the output comes in chunks that join into the same document', () => {
    const gen = traceChunks(requests, { source: 'test', chunkBytes: 2000 });
    const chunks: Uint8Array[] = [];
    let step = gen.next();
    while (step.done !== true) {
      chunks.push(step.value);
      step = gen.next();
    }
    assert.ok(chunks.length > 10, `${chunks.length} chunks`);
    assert.equal(Buffer.concat(chunks).toString('utf8'), traceText(requests, { source: 'test' }));
    assert.equal(step.value.events, check.eventCount);
    assert.equal(step.value.slices, check.slices.length);
  });
});

test('nan and inf cells (numbers Python prints) give no slice and keep the JSON valid', () => {
  const text = readFileSync(SAMPLE, 'utf8')
    .replace('| vllm_prefill_ms                 | 10,020.219 |', '| vllm_prefill_ms                 |        inf |')
    .replace('| e2e_total_ms     | 1,101.153 |', '| e2e_total_ms     |       nan |');
  const requests = analyse(text);
  const prefill = requests[0]!.stages[0]!.fields['vllm_prefill_ms'];
  assert.equal(prefill?.state === 'measured' ? prefill.value : 0, Infinity, 'the edit reached the analysis');
  // inf is no time: the split has no value for it (unrecordedValues.ts).
  assert.deepEqual(
    [requests[0]!.stages[0]!.split.values.prefillMs, requests[0]!.stages[0]!.split.states.prefillMs],
    [null, 'notRecorded'],
  );
  assert.ok(
    Number.isNaN(requests[1]!.e2e['e2e_total_ms']?.state === 'measured' ? requests[1]!.e2e['e2e_total_ms'].value : 0),
  );
  const check = checked(requests);
  assert.equal(slicesOf(check, requests[0]!.requestId).filter((s) => s.name === PREFILL_DECODE_LABEL).length, 0);
  assert.equal(check.slices.filter((s) => s.name === 'e2e').length, 24);
  // The sample's talker emits one output per request: its prefill slices are prefill+decode.
  assert.equal(check.slices.filter((s) => s.name === PREFILL_DECODE_LABEL).length, 24);
  assert.equal(check.slices.filter((s) => s.name === 'prefill').length, 0);
});

describe('placement without log timestamps', () => {
  const requests = analyse(readFileSync(SAMPLE)).map((r) => ({ ...r, timestamp: null }));

  test('sequential: each request starts where the previous one ended, marked as such', () => {
    const check = checked(requests);
    const e2e = check.slices.filter((s) => s.name === 'e2e').sort((x, y) => x.startUs - y.startUs);
    assert.equal(e2e.length, 25);
    assert.equal(e2e[0]!.startUs, 0);
    for (let i = 1; i < e2e.length; i++) assert.ok(Math.abs(e2e[i]!.startUs - e2e[i - 1]!.endUs) < 0.01);
    assert.ok(check.slices.filter((s) => s.depth === 0).every((s) => s.args['placement'] === 'sequential'));
    assert.equal((check.metadata?.['clock'] as { basis: string }).basis, 'sequential');
  });

  test('capture times of a live session are the clock when the log has none', () => {
    const times = requests.map((_, i) => Date.UTC(2026, 0, 1) + i * 5000);
    const check = checked(requests, times);
    const e2e = check.slices.filter((s) => s.name === 'e2e');
    const end = (id: string): number => e2e.find((s) => s.args['request'] === id)!.endUs;
    assert.ok(Math.abs(end(requests[3]!.requestId) - end(requests[1]!.requestId) - 10_000_000) < 0.01);
    assert.equal(e2e[0]!.args['placement'], 'capture-time');
    // Origin: the first request's capture time minus its e2e_total_ms (10042.213 ms).
    assert.equal((check.metadata?.['clock'] as { origin: string }).origin, '2025-12-31T23:59:49.957Z capture time');
  });
});

describe('simulated deployments', () => {
  test('two codec replicas: one process per replica, overlapping requests never pair up', () => {
    const { config } = loadMergedDeployConfig(
      path.join(ROOT, 'test/fixtures/sim/deploy/sim_tts_two_codec_replicas.yaml'),
    );
    const topology = applyDeployConfig(scenarioTopology('qwen3-tts'), config, 'x.yaml');
    const requests = analyse(simulatedLog({ ...topology }, 80));
    assert.equal(requests.length, 80);
    const check = checked(requests);
    assert.deepEqual(
      [...check.processNames.values()],
      ['requests (E2E)', 'stage 0', 'stage 1 · replica 0', 'stage 1 · replica 1'],
    );
    const replicaOf = new Map(requests.map((r) => [r.requestId, r.stages.find((s) => s.stageKey === '1')!.replicaId]));
    for (const s of check.slices.filter((x) => x.depth === 0 && x.pid >= 3)) {
      assert.equal(s.pid, 3 + replicaOf.get(s.args['request'] as string)!, 'on its replica');
      assert.equal(s.args['replica'], replicaOf.get(s.args['request'] as string));
    }
    // Requests overlap in time on a stage (what B/E events could not show).
    const tops = check.slices.filter((x) => x.depth === 0 && x.pid === 2).sort((x, y) => x.startUs - y.startUs);
    assert.ok(
      tops.some((t, i) => i > 0 && t.startUs < tops[i - 1]!.endUs),
      'overlapping stage-0 slices',
    );
    for (const [pid, names] of check.asyncTrackNames) assert.equal(names.size, 1, `one track name in pid ${pid}`);
  });

  test('AR -> diffusion: the diffusion stage has its timed bar and no LLM phases', () => {
    const requests = analyse(simulatedLog(scenarioTopology('glm-image'), 30));
    const check = checked(requests);
    const diffusion = requests[0]!.stages.find((s) => s.kind === 'diffusion')!;
    const pid = [...check.processNames].find(([, name]) => name === `stage ${diffusion.stageKey}`)![0];
    const onDiffusion = check.slices.filter((s) => s.pid === pid);
    assert.ok(onDiffusion.length > 0);
    assert.ok(
      onDiffusion.every((s) => s.depth === 0 && s.args['kind'] === 'diffusion'),
      'diffusion stages report no LLM split: only the stage slice',
    );
  });

  test('three-stage Qwen3-Omni: all stages valid and in stage order', () => {
    const requests = analyse(simulatedLog(scenarioTopology('qwen3-omni'), 40));
    const check = checked(requests);
    assert.deepEqual([...check.processNames.values()], ['requests (E2E)', 'stage 0', 'stage 1', 'stage 2']);
    assert.ok(check.slices.some((s) => s.args['provenance'] === 'measured'));
  });

  test('an empty analysis is still a valid trace', () => {
    const check = checked(analyse('INFO 08-21 18:00:00 [api_server.py:1] no stats here\n'));
    assert.equal(check.slices.length, 0);
    assert.equal(check.metadata?.['requests'], 0);
  });
});

describe('transfer edges', () => {
  const upstream = (name: string): string =>
    readFileSync(path.join(ROOT, 'test/fixtures/upstream-rendered', name), 'utf8');

  test('TransferEdgeStats: one process per edge, a reconstructed slice per request and edge after its upstream stage, its parts as logged', () => {
    const requests = analyse(upstream('qwen3-omni-three-stage-transfers.log'));
    const check = checked(requests);
    assert.deepEqual(
      [...check.processNames.values()],
      [
        'requests (E2E)',
        'stage 0',
        'stage 1 · replica 0',
        'stage 1 · replica 1',
        'stage 2',
        'transfer 0->1',
        'transfer 1->2',
      ],
    );
    const first = requests[0];
    const slices = slicesOf(check, first.requestId);
    const top = slices.find((s) => s.name === 'transfer 0->1');
    assert.ok(top !== undefined);
    assert.equal(top.args['provenance'], 'reconstructed');
    assert.equal(top.args['edge'], '0->1');
    assert.equal(top.args['sizeKbytes'], 109277.348);
    assert.match(String(top.args['ruleText']), /upstream stage ends/);
    // Send 78.701, in flight 2.015, receive decode 111.865, one after the other.
    const parts = check.slices.filter((s) => s.id === top.id && s.depth === 1).sort((a, b) => a.startUs - b.startUs);
    assert.deepEqual(
      parts.map((p) => [p.name, p.args['ms'], p.args['source']]),
      [
        ['send (tx)', 78.701, 'TransferEdgeStats'],
        ['in flight', 2.015, 'TransferEdgeStats'],
        ['receive decode', 111.865, 'TransferEdgeStats'],
      ],
    );
    assert.deepEqual(
      parts.map((p) => durationUs(p)),
      [78701, 2015, 111865],
    );
    assert.equal(parts[0]?.startUs, top.startUs);
    assert.equal(parts[2]?.endUs, top.endUs);
    // It starts where stage 0 ends as drawn.
    const stage0 = slices.find((s) => s.name === 'stage 0');
    assert.equal(top.startUs, stage0?.endUs);
    assert.equal(check.slices.filter((s) => s.name.startsWith('transfer ')).length, requests.length * 2);
  });

  test('[OmniTiming] 0.00 ms sends that are not recorded draw nothing; a measured one draws its send alone', () => {
    const none = checked(analyse(upstream('qwen3tts-info-level-omnitiming-only.log')));
    assert.ok(
      ![...none.processNames.values()].some((n) => n.startsWith('transfer ')),
      'no payload transfer recorded: no slice, no track',
    );
    const line =
      '(APIServer pid=1) INFO 10-19 07:12:05 [stats.py:910] [OmniTiming] req=r1 total=0.74s preprocess=0.00s engine=0.73s stages=[0:0.61s,1:0.73s] transfers=[0->1=12.50ms]\n';
    const timed = checked(analyse(line));
    const top = timed.slices.find((s) => s.name === 'transfer 0->1');
    assert.ok(top !== undefined);
    const parts = timed.slices.filter((s) => s.id === top.id && s.depth === 1);
    assert.deepEqual(
      parts.map((p) => [p.name, p.args['ms'], p.args['source'], durationUs(p)]),
      [['send (tx)', 12.5, '[OmniTiming]', 12500]],
    );
  });
});

describe('trace of a log that merges two servers', () => {
  // The sample as two pods printed it, line by line (the second's ids renamed).
  const lines = readFileSync(SAMPLE, 'utf8')
    .split('\n')
    .filter((l) => l !== '');
  const merged: string[] = [];
  for (const l of lines)
    merged.push(`[pod/vllm-a-0/vllm] ${l}`, `[pod/vllm-b-0/vllm] ${l.replaceAll('speech-', 'speechB-')}`);
  const requests = analyse(`${merged.join('\n')}\n`);
  const check = checked(requests);
  const alone = checked(analyse(readFileSync(SAMPLE)));

  test("each server's stages are processes of their own, its E2E slices a track of their own", () => {
    assert.equal(requests.length, 50);
    assert.deepEqual(
      [...check.processNames.values()],
      [
        'requests (E2E)',
        'pod/vllm-a-0/vllm: stage 0',
        'pod/vllm-a-0/vllm: stage 1',
        'pod/vllm-b-0/vllm: stage 0',
        'pod/vllm-b-0/vllm: stage 1',
      ],
    );
    assert.deepEqual([...(check.asyncTrackNames.get(1) ?? [])].sort(), [
      'pod/vllm-a-0/vllm: e2e',
      'pod/vllm-b-0/vllm: e2e',
    ]);
    // Each server's request slices are the sample's own, request by request.
    const topSlices = (c: TraceCheck, pids: readonly number[]): string[] =>
      c.slices
        .filter((s) => s.depth === 0 && pids.includes(s.pid))
        .map((s) => `${String(s.args['request'])} ${s.pid === 1 ? 'e2e' : s.name} ${s.endUs - s.startUs}`)
        .sort();
    const pidsOf = (c: TraceCheck, prefix: string): number[] =>
      [...c.processNames].filter(([, name]) => name.startsWith(prefix)).map(([pid]) => pid);
    const own = topSlices(alone, [...alone.processNames.keys()]);
    assert.ok(own.length > 50);
    const b = topSlices(check, [1, ...pidsOf(check, 'pod/vllm-b-0/vllm')]).filter((s) => s.startsWith('speechB-'));
    assert.deepEqual(
      b.map((s) => s.replace('speechB-', 'speech-')),
      own,
    );
    const a = topSlices(check, [1, ...pidsOf(check, 'pod/vllm-a-0/vllm')]).filter((s) => !s.startsWith('speechB-'));
    assert.deepEqual(a, own);
  });
});
