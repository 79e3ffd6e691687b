// Transfer edges and the [Overall Summary] of a request's call: what the analysis makes of
// TransferEdgeStats columns and [OmniTiming]'s `transfers=[...]` (the two kept apart, and a
// `0.00ms` without a recorded send read as no transfer, not as a 0 ms hand-off), the per-edge
// distributions, the summary each request belongs to, and the offline per-prompt signature.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { LogStreamParser } from '../../server/core/log';
import { StreamAnalysis } from '../../server/core/analysis/streamAnalysis';
import { requestTransfers } from '../../server/core/analysis/transfers';
import {
  int,
  logPrefix,
  recordTitle,
  renderColumnsTable,
  renderFieldValueTable,
  renderLogRecord,
  renderTableRecord,
  type PyValue,
} from '../../server/simulate/render';
import type { OmniTimingRecord, TransferEdge } from '../../server/core/records';
import { measured } from '../../server/core/values';
import { fixedClock } from '../../server/simulate/clock';
import { LogWriter } from '../../server/simulate/logWriter';
import { FIXED_BUILD } from '../../server/simulate/stageFields';
import { TimingModel } from '../../server/simulate/timingModel';
import { scenarioTopology, type Topology } from '../../server/simulate/topology';

const prefix = (level: 'DEBUG' | 'INFO', line: number, second = 0): string =>
  logPrefix({
    process: 'APIServer pid=7',
    level,
    timestamp: `10-22 09:30:${String(second).padStart(2, '0')}`,
    file: 'vllm_omni/metrics/stats.py',
    fileLine: line,
    ansi: false,
  });

interface Call {
  readonly id: string;
  readonly e2eMs: number;
  readonly overall?: Readonly<Record<string, PyValue>>;
  readonly edges?: ReadonlyArray<{ readonly header: string; readonly values: Readonly<Record<string, PyValue>> }>;
  readonly timing?: string;
}

/** One request's call as upstream's build_and_log_summary prints it. */
function call(c: Call, second: number): string {
  let out = '';
  if (c.overall !== undefined)
    out += renderTableRecord(
      prefix('DEBUG', 961, second),
      renderFieldValueTable('Overall Summary', Object.entries(c.overall)),
    );
  out += renderTableRecord(
    prefix('DEBUG', 987, second),
    renderFieldValueTable(recordTitle('RequestE2EStats', { request_id: c.id }), [
      ['e2e_total_ms', c.e2eMs],
      ['e2e_total_tokens', int(10)],
    ]),
  );
  if (c.timing !== undefined)
    out += renderLogRecord(prefix('INFO', 910, second), [`[OmniTiming] req=${c.id} ${c.timing}`]);
  out += renderTableRecord(
    prefix('DEBUG', 1044, second),
    renderColumnsTable(recordTitle('StageRequestStats', { request_id: c.id }), [
      { header: '0', values: { stage_gen_time_ms: 10.5, vllm_queued_ms: 0.25 } },
      { header: '1', values: { stage_gen_time_ms: 20.25, vllm_queued_ms: 0.5 } },
    ]),
  );
  if (c.edges !== undefined)
    out += renderTableRecord(
      prefix('DEBUG', 1084, second),
      renderColumnsTable(recordTitle('TransferEdgeStats', { request_id: c.id }), c.edges),
    );
  return out;
}

function analyse(text: string, options: ConstructorParameters<typeof StreamAnalysis>[0] = {}): StreamAnalysis {
  const analysis = new StreamAnalysis(options);
  const parser = new LogStreamParser();
  analysis.ingest(parser.push(text));
  analysis.ingest(parser.end());
  analysis.flush();
  return analysis;
}

const timingOf = (transfers: Array<[number, number, number]>): OmniTimingRecord => ({
  kind: 'omniTiming',
  line: 1,
  header: null,
  requestId: 'r',
  identity: { request_id: 'r' },
  totalS: 1,
  preprocessS: 0,
  engineS: 1,
  stages: [],
  transfers: transfers.map(([fromStage, toStage, ms]) => ({ fromStage, toStage, ms })),
  ar2diffusionMs: null,
  extra: {},
});

test('an edge joins its TransferEdgeStats column and its [OmniTiming] part; 0.00 without a measured send is not recorded', () => {
  const table: TransferEdge[] = [
    { edge: '0->1', fromStage: 0, toStage: 1, fields: { size_kbytes: measured(12.5), tx_time_ms: measured(0.003) } },
    { edge: '1->2', fromStage: 1, toStage: 2, fields: { size_kbytes: measured(4) } },
  ];
  const edges = requestTransfers(
    table,
    timingOf([
      [0, 1, 0],
      [1, 2, 0],
      [2, 3, 0],
      [3, 4, 7.25],
    ]),
  );
  assert.deepEqual(
    edges.map((e) => [e.edge, e.tablePrinted, e.omniTimingTxMs, e.omniTimingTxState, Object.keys(e.fields).length]),
    [
      ['0->1', true, 0, 'measured', 2], // the table timed a send shorter than [OmniTiming]'s 0.01 ms
      ['1->2', true, 0, 'notRecorded', 1], // a payload size but no send time: the tx is not recorded
      ['2->3', false, 0, 'notRecorded', 0], // named by [OmniTiming] only: no payload transfer recorded
      ['3->4', false, 7.25, 'measured', 0],
    ],
  );
  assert.deepEqual(
    requestTransfers(table, null).map((e) => e.omniTimingTxState),
    ['absent', 'absent'],
  );
  assert.deepEqual(requestTransfers([], null), []);
});

test('per-edge distributions over measured values only; hidden rows and unrecorded sends are counted apart', () => {
  const edge = (size: number, tx: number, decode: number) => [
    { header: '0->1', values: { size_kbytes: size, tx_time_ms: tx, rx_decode_time_ms: decode, in_flight_time_ms: 0 } },
  ];
  const text = [
    call(
      {
        id: 'a',
        e2eMs: 100,
        edges: edge(100, 1.5, 2),
        timing: 'total=0.10s stages=[0:0.01s,1:0.02s] transfers=[0->1=1.50ms]',
      },
      1,
    ),
    call(
      {
        id: 'b',
        e2eMs: 100,
        edges: edge(300, 2.5, 4),
        timing: 'total=0.10s stages=[0:0.01s,1:0.02s] transfers=[0->1=2.50ms]',
      },
      2,
    ),
    call({ id: 'c', e2eMs: 100, timing: 'total=0.10s stages=[0:0.01s,1:0.02s] transfers=[0->1=0.00ms]' }, 3),
  ].join('');
  const analysis = analyse(text);
  const [summary] = analysis.summary().edges;
  assert.ok(summary !== undefined);
  assert.equal(summary.edge, '0->1');
  assert.equal(summary.requestCount, 3);
  assert.equal(summary.tableCount, 2);
  assert.deepEqual(summary.fields['size_kbytes'], { count: 2, mean: 200, p50: 200, p90: 280, p99: 298, max: 300 });
  assert.equal(summary.fields['in_flight_time_ms'], undefined, 'an all-zero row is hidden: no distribution, never a 0');
  assert.deepEqual(summary.fieldStates['size_kbytes'], { measured: 2, notMeasured: 0, notRecorded: 0, hidden: 1 });
  assert.deepEqual(
    summary.omniTimingTxMs,
    { count: 2, mean: 2, p50: 2, p90: 2.4, p99: 2.49, max: 2.5 },
    'the 0.00 of request c is not a sample',
  );
  assert.deepEqual(summary.omniTimingTxStates, { measured: 2, notRecorded: 1, absent: 0 });
  assert.deepEqual(analysis.snapshot().edges, [summary]);
  const c = analysis.requests.byId('c');
  assert.deepEqual(
    c?.transfers.map((t) => [t.edge, t.tablePrinted, t.omniTimingTxState]),
    [['0->1', false, 'notRecorded']],
  );
});

test('each request keeps the [Overall Summary] of its call: e2e_requests says how many requests the call printed', () => {
  const text = [
    call({ id: 'a', e2eMs: 10, overall: { e2e_requests: int(2), e2e_wall_time_ms: 30 } }, 1),
    call({ id: 'b', e2eMs: 20 }, 1),
    call({ id: 'c', e2eMs: 20 }, 2), // after the two the summary covers: none
    call({ id: 'd', e2eMs: 40, overall: { e2e_requests: int(1), e2e_wall_time_ms: 40 } }, 3),
  ].join('');
  const analysis = analyse(text);
  const overall = [...analysis.requests].map((r) =>
    r.overallSummary === null ? null : [r.overallSummary.line, r.overallSummary.fields['e2e_requests']],
  );
  const first = overall[0]?.[0];
  assert.deepEqual(overall, [[first, measured(2)], [first, measured(2)], null, [overall[3]?.[0], measured(1)]]);
  assert.ok(typeof first === 'number' && typeof overall[3]?.[0] === 'number' && overall[3][0] > first);
  // Not kept when asked not to (the assembled request still has it: findings read it).
  const lean = analyse(text, { keepOverallSummaries: false });
  assert.deepEqual(
    [...lean.requests].map((r) => r.overallSummary),
    [null, null, null, null],
  );
});

test('offline per-prompt summaries (shared start, e2e_requests 1) are detected and said to cover one prompt each', () => {
  // Omni.generate: one aggregator per prompt, one shared start: the wall time grows with finishing order.
  const offline = [
    call({ id: 'p0', e2eMs: 1000, overall: { e2e_requests: int(1), e2e_wall_time_ms: 1000 } }, 1),
    call({ id: 'p1', e2eMs: 900, overall: { e2e_requests: int(1), e2e_wall_time_ms: 1900 } }, 2),
    call({ id: 'p2', e2eMs: 1200, overall: { e2e_requests: int(1), e2e_wall_time_ms: 3100 } }, 3),
  ].join('');
  const finding = analyse(offline)
    .snapshot()
    .findings.find((f) => f.code === 'overall-summary-per-prompt');
  assert.ok(finding !== undefined);
  assert.deepEqual(finding.requestIds, ['p1', 'p2']);
  assert.equal(finding.severity, 'info');
  assert.match(finding.message, /^2 of 3 \[Overall Summary\] tables say e2e_requests 1/);
  assert.match(finding.message, /by up to 1,900 ms, on p2/);
  assert.match(finding.message, /Stage Lens does neither/);
  // Served requests: each summary is its request's own (wall = E2E): nothing to say.
  const served = [
    call({ id: 's0', e2eMs: 1000, overall: { e2e_requests: int(1), e2e_wall_time_ms: 1000 } }, 1),
    call({ id: 's1', e2eMs: 900, overall: { e2e_requests: int(1), e2e_wall_time_ms: 900.5 } }, 2),
  ].join('');
  assert.equal(
    analyse(served)
      .snapshot()
      .findings.find((f) => f.code === 'overall-summary-per-prompt'),
    undefined,
  );
});

test('the simulator prints every downstream edge in [OmniTiming] as upstream does: 0.00 ms under async chunk, read as no transfer recorded', () => {
  const write = (topology: Topology): string => {
    const model = new TimingModel(topology, { seed: 3, rps: 4, coldStartMs: 0, firstArrivalUs: 500_000 });
    const writer = new LogWriter(
      { process: 'APIServer pid=1', ansi: false, debug: true, clock: fixedClock() },
      FIXED_BUILD,
    );
    return Array.from({ length: 6 }, () => model.next())
      .map((r) =>
        writer.requestRecords(
          r,
          r.stages.map(() => r.index + 1),
        ),
      )
      .join('');
  };
  const tts = write(scenarioTopology('qwen3-tts'));
  assert.equal((tts.match(/transfers=\[0->1=0\.00ms\]/g) ?? []).length, 6);
  assert.doesNotMatch(tts, /TransferEdgeStats/, 'nothing transferred: the all-zero table is hidden');
  const requests = [...analyse(tts).requests];
  assert.deepEqual(
    requests.map((r) => r.transfers.map((t) => [t.edge, t.tablePrinted, t.omniTimingTxState])),
    requests.map(() => [['0->1', false, 'notRecorded']]),
  );
  // Without async chunk (GLM-Image's AR -> diffusion), the payload is forwarded and timed.
  const image = [...analyse(write(scenarioTopology('glm-image'))).requests];
  assert.ok(
    image.every(
      (r) =>
        r.transfers.length === 1 &&
        r.transfers[0]?.tablePrinted === true &&
        r.transfers[0]?.omniTimingTxState === 'measured',
    ),
  );
});
