// Two unmerged layouts rendered from their branches' printing code (test/fixtures/logs, first
// lines): the Overall Summary's `stage_wall_time_ms` list of the vllm-omni#891 branch, read per
// stage; and the vllm-omni#3069 branch at 8323309a, whose stage columns are `N:name` and whose
// `[OmniTiming]` line comes before the request's summary and tables (docs/formats.md).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readFileSync } from 'node:fs';
import { LogStreamParser, parseLogText } from '../../server/core/log';
import { StreamAnalysis, type StreamAnalysisOptions } from '../../server/core/analysis/streamAnalysis';
import { stageRolesOf } from '../../server/core/stageRoles';
import { NOT_MEASURED, measured } from '../../server/core/values';
import { analysedLog } from './support/analysedLog';
import { FIXTURES, fixtureLog, ofKind, single, utf8 } from './support/logHelpers';
import { join } from 'node:path';

const PR891_LOG = 'pr891-stage-wall-time-list.log';
const PR3069_LOG = 'pr3069-labelled-columns-timing-breakdown.log';
const P = '(APIServer pid=7) INFO 01-22 14:00:00 [stats.py:467] ';

/** An [Overall Summary] table as `logger.info("\n%s", table)` prints it. */
function overallTable(rows: ReadonlyArray<readonly [string, string]>): string {
  const border = '+----------------------+-----------+';
  const lines = [
    '',
    '[Overall Summary]',
    border,
    '| Field | Value |',
    border,
    ...rows.map(([k, v]) => `| ${k} | ${v} |`),
    border,
  ];
  return lines.map((l) => P + l).join('\n') + '\n';
}

test('#891 branch: the stage_wall_time_ms list is one wall time per stage, as the merged change names them', () => {
  const out = parseLogText(fixtureLog(PR891_LOG));
  const fields = single(out, 'overallSummary').fields;
  assert.deepEqual(fields['e2e_stage_0_wall_time_ms'], measured(1404.027));
  assert.deepEqual(fields['e2e_stage_1_wall_time_ms'], measured(5215.88));
  assert.deepEqual(fields['e2e_stage_2_wall_time_ms'], measured(5068.114));
  assert.equal(fields['stage_wall_time_ms'], undefined, 'no mean of the three is left');
  assert.deepEqual(Object.keys(fields), [
    'e2e_requests',
    'e2e_wall_time_ms',
    'e2e_total_tokens',
    'e2e_avg_time_per_request_ms',
    'e2e_avg_tokens_per_s',
    'e2e_stage_0_wall_time_ms',
    'e2e_stage_1_wall_time_ms',
    'e2e_stage_2_wall_time_ms',
  ]);
  // The request of the tables carries them as its summary.
  const request = analysedLog(join(FIXTURES, 'logs', PR891_LOG)).requests.find((r) => r.hasStageTable);
  assert.deepEqual(request?.overallSummary?.fields['e2e_stage_1_wall_time_ms'], measured(5215.88));
});

test('#891 branch: a 0.0 place is a stage never timed, one number is the one stage, a stage table list stays a mean', () => {
  const zero = single(
    parseLogText(overallTable([['stage_wall_time_ms', '812.004, 0.000, 3,120.500']])),
    'overallSummary',
  ).fields;
  assert.deepEqual(zero['e2e_stage_0_wall_time_ms'], measured(812.004));
  assert.deepEqual(zero['e2e_stage_1_wall_time_ms'], NOT_MEASURED);
  assert.deepEqual(zero['e2e_stage_2_wall_time_ms'], measured(3120.5));
  const one = single(parseLogText(overallTable([['stage_wall_time_ms', '1,404.027']])), 'overallSummary').fields;
  assert.deepEqual(one, { e2e_stage_0_wall_time_ms: measured(1404.027) });
  // Where the merged names are printed too, nothing is renamed over them.
  const both = single(
    parseLogText(
      overallTable([
        ['e2e_stage_0_wall_time_ms', '9.000'],
        ['stage_wall_time_ms', '1.000, 2.000'],
      ]),
    ),
    'overallSummary',
  ).fields;
  assert.deepEqual(both, { e2e_stage_0_wall_time_ms: measured(9), stage_wall_time_ms: measured(1.5, 2) });
  const stageRow = [
    '',
    '[StageRequestStats [request_id=r]]',
    '+---+',
    '| Field | 0 |',
    '+---+',
    '| stage_wall_time_ms | 1.000, 2.000 |',
    '+---+',
  ];
  const stage = single(parseLogText(stageRow.map((l) => P + l).join('\n') + '\n'), 'stageTable');
  assert.deepEqual(stage.columns[0]?.fields['stage_wall_time_ms'], measured(1.5, 2));
});

/** A pprinted `request_level_metrics` dict of the #891 branch (stats.py:250), as its lines come. */
function requestDict(id: string, e2eMs: string, tpt: string, tokens: string, pid = 7): string {
  const q = `(APIServer pid=${pid}) INFO 01-22 14:00:00 [vllm_omni/metrics/stats.py:250] `;
  return [
    `{'type': 'request_level_metrics',`,
    ` 'request_id': '${id}',`,
    ` 'e2e_time_ms': ${e2eMs},`,
    ` 'e2e_tpt': ${tpt},`,
    ` 'e2e_total_tokens': ${tokens},`,
    ` 'transfers_total_time_ms': 1.5,`,
    ` 'transfers_total_bytes': 2048}`,
  ]
    .map((l) => q + l)
    .join('\n');
}

/** The branch's RequestE2EStats and StageRequestStats tables of one request (`e2eTotal`, `tokens` as printed). */
function requestTables(id: string, e2eTotal: string, pid = 7, tokens = '70'): string {
  const q = `(APIServer pid=${pid}) INFO 01-22 14:00:00 [vllm_omni/metrics/stats.py:484] `;
  return [
    '',
    `[RequestE2EStats [request_id=${id}]]`,
    '+---+',
    '| Field | Value |',
    '+---+',
    `| e2e_total_ms | ${e2eTotal} |`,
    `| e2e_total_tokens | ${tokens} |`,
    '| transfers_total_time_ms | 1.500 |',
    '| transfers_total_kbytes | 2.000 |',
    '+---+',
    '',
    `[StageRequestStats [request_id=${id}]]`,
    '+---+',
    '| Field | 0 | 1 |',
    '+---+',
    '| num_tokens_out | 64 | 6 |',
    '| stage_gen_time_ms | 300.000 | 90.000 |',
    '| preprocess_time_ms | 0.000 | 12.418 |',
    '+---+',
  ]
    .map((l) => q + l)
    .join('\n');
}

test('#891 branch: the request_level_metrics dict and the tables after it are one request, the tables first', () => {
  const snap = analysedLog(join(FIXTURES, 'logs', PR891_LOG));
  assert.deepEqual(
    snap.requests.map((r) => [r.requestId, r.line, r.hasStageTable, r.legacyDict]),
    [['chatcmpl-3c5e1a9b07d24f61', 73, true, undefined]],
  );
  const [request] = snap.requests;
  // Both print the end to end, the tokens and the transfer totals (one RequestE2EStats): the
  // table's, once; the dict adds only its e2e_tpt.
  assert.deepEqual(request?.e2e, {
    e2e_total_ms: measured(11691.352),
    e2e_total_tokens: measured(2063),
    transfers_total_time_ms: measured(11.039),
    transfers_total_kbytes: measured(2497),
    e2e_tpt: measured(5.667160445952497),
  });
  assert.equal(request?.overallSummary?.line, 81);
  const legacy = snap.findings.find((f) => f.code === 'legacy-stats-format');
  assert.equal(legacy?.severity, 'info');
  assert.match(
    legacy?.message ?? '',
    /1 request is read from its tables and the request_level_metrics dict printed before them/,
  );
  assert.doesNotMatch(legacy?.message ?? '', /none of them is a request_level_metrics dict/);
});

test('#891 branch: dicts printed before all the tables (offline), a None in the table, a dict with no tables', () => {
  const text =
    [
      requestDict('a', '400.0', '5.7', '70'),
      requestDict('b', '500.0', '7.1', '70'),
      requestTables('a', '400.000'),
      requestTables('b', 'None'),
      requestDict('c', '600.0', '8.5', '70'),
    ].join('\n') + '\n';
  const snap = analysedLog(utf8(text));
  assert.deepEqual(
    snap.requests.map((r) => [
      r.requestId,
      r.hasStageTable,
      r.legacyDict === true,
      r.e2e['e2e_total_ms'],
      r.e2e['e2e_time_ms'],
    ]),
    [
      ['a', true, false, measured(400), undefined],
      // The table's None is not measured: the dict's number stands, under its own name.
      ['b', true, false, NOT_MEASURED, measured(500)],
      ['c', false, true, undefined, measured(600)],
    ],
  );
  assert.equal(snap.legacyRequests, 1);
  // The same dict and tables again (a log read twice): a repeat of its own, not a third reading.
  const twice = analysedLog(
    utf8(`${requestDict('a', '400.0', '5.7', '70')}\n${requestTables('a', '400.000')}\n`.repeat(2)),
  );
  assert.deepEqual(
    twice.requests.map((r) => [r.requestId, r.repeat]),
    [
      ['a', undefined],
      ['a#2', 'first'],
    ],
  );
  // Another process's tables of the id are not this dict's.
  const other = analysedLog(
    utf8(`${requestDict('a', '400.0', '5.7', '70', 7)}\n${requestTables('a', '400.000', 8)}\n`),
  );
  assert.deepEqual(
    other.requests.map((r) => [r.requestId, r.hasStageTable]),
    [
      ['a', false],
      ['a#2', true],
    ],
  );
});

test("#891 branch: a value both print is the table's; the dict's fills a None in the table, never the reverse", () => {
  const text =
    [
      requestDict('a', '400.0', '5.7', '70'),
      requestTables('a', '400.000', 7, 'None'),
      requestDict('b', '500.0', '7.1', 'None'),
      requestTables('b', '500.000', 7, '71'),
      requestDict('c', '600.0', '8.5', '70'),
      requestTables('c', '600.000', 7, '72'),
    ].join('\n') + '\n';
  assert.deepEqual(
    analysedLog(utf8(text)).requests.map((r) => [r.requestId, r.e2e['e2e_total_tokens']]),
    [
      ['a', measured(70)],
      ['b', measured(71)],
      ['c', measured(72)],
    ],
  );
});

test('#891 branch: preprocess_time_ms, a field of every stage there, does not make a stage a diffusion stage', () => {
  const snap = analysedLog(join(FIXTURES, 'logs', PR891_LOG));
  assert.deepEqual(
    snap.requests[0]?.stages.map((s) => [s.stageKey, s.kind]),
    [
      ['0', 'llm'],
      ['1', 'llm'],
      ['2', 'llm'],
    ],
  );
  assert.equal(
    snap.findings.some((f) => f.code === 'diffusion-zero-ambiguous'),
    false,
  );
  // Measured (the orchestrator's input processing before the stage), still no diffusion evidence.
  const measuredPrep = analysedLog(utf8(`${requestTables('r', '400.000')}\n`));
  assert.deepEqual(
    measuredPrep.requests[0]?.stages.map((s) => [s.stageKey, s.kind, s.fields['preprocess_time_ms']]),
    [
      ['0', 'llm', measured(0)],
      ['1', 'llm', measured(12.418)],
    ],
  );
});

test('#3069 branch at 8323309a: `N:name` columns are stage N, named as printed', () => {
  const out = parseLogText(fixtureLog(PR3069_LOG));
  assert.deepEqual(out.problems, []);
  const tables = ofKind(out, 'stageTable');
  assert.equal(tables.length, 2);
  assert.deepEqual(
    tables[0]?.columns.map((c) => [c.column, c.stageId, c.segment, c.label]),
    [
      ['0:thinker', 0, 1, 'thinker'],
      ['1:talker', 1, 1, 'talker'],
      ['2:code2wav', 2, 1, 'code2wav'],
    ],
  );
  // The stage's fallback name holds `_` (`stage_1`): still stage 1, not segment of anything.
  const fallback = parseLogText(
    [
      '',
      '[StageRequestStats [request_id=r]]',
      '+---+',
      '| Field | 0:stage_0 | 1:stage_1 |',
      '+---+',
      '| batch_id | 1 | 1 |',
      '+---+',
    ]
      .map((l) => P + l)
      .join('\n') + '\n',
  );
  assert.deepEqual(
    single(fallback, 'stageTable').columns.map((c) => [c.stageId, c.segment, c.label]),
    [
      [0, 1, 'stage_0'],
      [1, 1, 'stage_1'],
    ],
  );
});

test('#3069 branch at 8323309a: the [OmniTiming] line and the tables after it are one request', () => {
  const snap = analysedLog(join(FIXTURES, 'logs', PR3069_LOG));
  assert.deepEqual(
    snap.requests.map((r) => r.requestId),
    ['chatcmpl-a1b2c3d4e5f60718', 'chatcmpl-0f9e8d7c6b5a4321'],
  );
  const [first, second] = snap.requests;
  assert.ok(first !== undefined && second !== undefined);
  assert.equal(first.hasStageTable, true);
  assert.equal(first.line, 8, 'the request starts at its [OmniTiming] line');
  assert.equal(first.timing?.totalS, 11.3);
  assert.deepEqual(
    first.timing?.stages.map((s) => [s.stageId, s.label, s.seconds]),
    [
      [0, 'thinker', 1.41],
      [1, 'talker', 4.99],
      [2, 'code2wav', 4.87],
    ],
  );
  assert.deepEqual(
    first.stages.map((s) => [s.stageKey, s.stageId, s.fields['stage_gen_time_ms'], s.fields['stage_name']]),
    [
      ['0', 0, measured(1411.206), { state: 'text', value: 'thinker' }],
      ['1', 1, measured(4988.53), { state: 'text', value: 'talker' }],
      ['2', 2, measured(4870.115), { state: 'text', value: 'code2wav' }],
    ],
  );
  // Its summary is the one printed after its [OmniTiming] line, not the next request's.
  assert.equal(first.overallSummary?.line, 10);
  assert.deepEqual(first.overallSummary?.fields['request_wall_time_ms'], measured(11298.907));
  assert.deepEqual(first.overallSummary?.fields['e2e_stage_2_wall_time_ms'], measured(4872.806));
  assert.deepEqual(second.overallSummary?.fields['request_wall_time_ms'], measured(4991.78));
  assert.deepEqual(second.stages[1]?.fields['stage_gen_time_ms'], measured(2210.417));
  assert.deepEqual(
    first.transfers.map((t) => [t.edge, t.fields['tx_time_ms'], t.fields['size_kbytes']]),
    [
      ['0->1', measured(4.102), measured(2412.5)],
      ['1->2', measured(0.655), measured(101.25)],
    ],
  );
  // The [Timing Breakdown] block restates the summary: no record, no problem, no request of its own.
  assert.deepEqual(parseLogText(fixtureLog(PR3069_LOG)).problems, []);
});

test("a summary printed before its [OmniTiming] line (older builds at INFO) stays that request's", () => {
  const line = (rid: string, total: string): string =>
    `${P}[OmniTiming] req=${rid} total=${total}s preprocess=0.00s engine=${total}s stages=[0:${total}s]\n`;
  const text =
    overallTable([
      ['e2e_requests', '1'],
      ['e2e_wall_time_ms', '1,000.000'],
    ]) +
    line('a', '1.00') +
    overallTable([
      ['e2e_requests', '1'],
      ['e2e_wall_time_ms', '2,000.000'],
    ]) +
    line('b', '2.00') +
    // The same id's [OmniTiming] again after a summary is another request, not the same one's tables.
    overallTable([
      ['e2e_requests', '1'],
      ['e2e_wall_time_ms', '3,000.000'],
    ]) +
    line('b', '3.00');
  const snap = analysedLog(utf8(text));
  assert.deepEqual(
    snap.requests.map((r) => [r.requestId, r.timing?.totalS, r.overallSummary?.fields['e2e_wall_time_ms']]),
    [
      ['a', 1, measured(1000)],
      ['b', 2, measured(2000)],
      ['b#2', 3, measured(3000)],
    ],
  );
  // An [OmniTiming] line first, as the #3069 branch prints it, then a summary and the same id's
  // line again: the line read twice (a log concatenated with itself), two requests.
  const twice = analysedLog(
    utf8(
      line('c', '1.00') +
        overallTable([
          ['e2e_requests', '1'],
          ['e2e_wall_time_ms', '1,000.000'],
        ]) +
        line('c', '4.00'),
    ),
  );
  assert.deepEqual(
    twice.requests.map((r) => [r.requestId, r.timing?.totalS]),
    [
      ['c', 1],
      ['c#2', 4],
    ],
  );
});

/** The analysis of a fixture log read whole with `options` (roles as the CLI passes them). */
function analysedWith(name: string, options: StreamAnalysisOptions): StreamAnalysis {
  const analysis = new StreamAnalysis(options);
  const parser = new LogStreamParser();
  analysis.ingest(parser.push(readFileSync(join(FIXTURES, 'logs', name))));
  analysis.ingest(parser.end());
  analysis.flush();
  return analysis;
}

test('#3069 branch at 8323309a: `N:name` columns give the stages their roles, over any name a file gives', () => {
  const labelled = analysedWith(PR3069_LOG, { stageRoles: () => ({}) });
  assert.deepEqual(labelled.stageRoles(), { '0': 'thinker', '1': 'talker', '2': 'code2wav' });
  assert.equal(labelled.stageRolesFromLabels(), true);
  // The printed names (the model_stage of the config the server loaded) stand over what the
  // log's or a deploy config's file name gives: a two-stage pipeline's name would fit no stage here.
  const named = analysedWith(PR3069_LOG, { stageRoles: () => stageRolesOf('qwen3_tts.log qwen3_tts.yaml') });
  assert.deepEqual(named.stageRoles(), { '0': 'thinker', '1': 'talker', '2': 'code2wav' });
  assert.equal(named.stageRolesFromLabels(), true);
  // Columns without names (the #891 branch's `0`, `1`, `2`) give none.
  assert.deepEqual(analysedWith(PR891_LOG, {}).stageRoles(), {});
});
