// Variants of the log formats (docs/formats.md#the-server-log) one at a time: cells, column headers,
// titles, [OmniTiming], engine stats, boot markers, grouping of interleaved lines,
// cut-off and superseded tables, bad input, and the two field-map representations.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { LogStreamParser, parseLogText } from '../../server/core/log';
import { BLANK, NOT_MEASURED, measured } from '../../server/core/values';
import { PART, readPart } from '../../server/core/log/engineStats';
import { fixtureLog, num, ofKind, parseBytes, parseChunks, prng, single, utf8 } from './support/logHelpers';

const P = '(APIServer pid=7) INFO 08-21 18:00:00 [stats.py:600] ';

/** A stage table record as the server writes it (lines joined with CRLF + prefix). */
function stageTable(
  prefix: string,
  id: string,
  header: readonly string[],
  rows: ReadonlyArray<readonly string[]>,
): string {
  const line = (cells: readonly string[]): string => `| ${cells.join(' | ')} |`;
  const border = '+-------+';
  const lines = ['', `[StageRequestStats [request_id=${id}]]`, border, line(header), border, ...rows.map(line), border];
  return prefix + lines.join('\r\n' + prefix) + '\n';
}

test('cells: separators, negatives, (n=N), None, blank, nan/inf, text', () => {
  const out = parseLogText(
    stageTable(
      P,
      'cells',
      ['Field', '0', '1'],
      [
        ['a_ms', '97,920', '-154.683'],
        ['b_ms', '13.490 (n=51)', 'None'],
        ['c_ms', '', '1,234,567.125'],
        ['d', 'nan', '-inf'],
        ['e', 'inf', '-0.000'],
        ['f', 'True', 'image'],
        ['g', '1.000, 2.500, 3.000', '0'],
        ['h', '1e-05', '+7'],
      ],
    ),
  );
  assert.deepEqual(out.problems, []);
  const [s0, s1] = single(out, 'stageTable').columns.map((c) => c.fields);
  assert.ok(s0 !== undefined && s1 !== undefined);
  assert.deepEqual(s0['a_ms'], measured(97920));
  assert.deepEqual(s1['a_ms'], measured(-154.683));
  assert.deepEqual(s0['b_ms'], measured(13.49, 51));
  assert.deepEqual(s1['b_ms'], NOT_MEASURED);
  assert.deepEqual(s0['c_ms'], BLANK, 'blank: printed empty (the text cell ""), not hidden');
  assert.deepEqual(s1['c_ms'], measured(1234567.125));
  assert.ok(Number.isNaN(num(s0, 'd')));
  assert.equal(num(s1, 'd'), -Infinity);
  assert.equal(num(s0, 'e'), Infinity);
  assert.ok(Object.is(num(s1, 'e'), -0), 'Python prints -0.000 for a tiny negative');
  assert.deepEqual(s0['f'], { state: 'text', value: 'True' });
  assert.deepEqual(s1['f'], { state: 'text', value: 'image' });
  assert.deepEqual(s0['g'], measured(6.5 / 3, 3));
  assert.deepEqual(s1['g'], measured(0));
  assert.equal(num(s0, 'h'), 1e-5);
  assert.equal(num(s1, 'h'), 7);
});

test('column headers: N, N_k segments, non-numeric; transfer edges a->b', () => {
  const text =
    stageTable(P, 'seg', ['Field', '0', '1', '1_2', 'talker'], [['x', '1', '2', '3', '4']]) +
    P.replace('600', '690') +
    [
      '',
      '[TransferEdgeStats [request_id=seg]]',
      '+--+',
      '| Field | 0->1 | 1->2 | x |',
      '+--+',
      '| tx_time_ms | 1.5 | 2.5 | 3 |',
      '+--+',
    ].join('\r\n' + P.replace('600', '690')) +
    '\n';
  const out = parseLogText(text);
  const stages = single(out, 'stageTable');
  assert.deepEqual(
    stages.columns.map((c) => [c.column, c.stageId, c.segment, num(c.fields, 'x')]),
    [
      ['0', 0, 1, 1],
      ['1', 1, 1, 2],
      ['1_2', 1, 2, 3],
      ['talker', null, 1, 4],
    ],
  );
  const transfers = single(out, 'transferTable');
  assert.deepEqual(
    transfers.edges.map((e) => [e.edge, e.fromStage, e.toStage, num(e.fields, 'tx_time_ms')]),
    [
      ['0->1', 0, 1, 1.5],
      ['1->2', 1, 2, 2.5],
      ['x', null, null, 3],
    ],
  );
});

test('titles: duplex identity, `<empty>` tables, unknown snake_case fields kept', () => {
  const out = parseLogText(
    `${P}[RequestE2EStats [request_id=r9 response=resp-1 turn=3 reason=barge in]] <empty>\n` +
      `${P}[StageRequestStats [request_id=r9]] <empty>\n` +
      stageTable(
        P,
        'r10',
        ['Field', '0'],
        [
          ['a_brand_new_field_ms', '5.000'],
          ['vllm_input_wait_ms', '1.250'],
        ],
      ),
  );
  assert.deepEqual(out.problems, []);
  const e2e = single(out, 'requestE2E');
  assert.deepEqual(e2e.identity, { request_id: 'r9', response: 'resp-1', turn: '3', reason: 'barge in' });
  assert.equal(e2e.requestId, 'r9');
  assert.deepEqual(e2e.fields, {});
  assert.equal(e2e.complete, true);
  const [empty, full] = ofKind(out, 'stageTable');
  assert.deepEqual(empty?.columns, []);
  assert.equal(empty?.complete, true);
  assert.equal(num(full?.columns[0]?.fields ?? {}, 'a_brand_new_field_ms'), 5);
  assert.equal(num(full?.columns[0]?.fields ?? {}, 'vllm_input_wait_ms'), 1.25);
});

test('[OmniTiming]: numeric stages, transfers, ar2diffusion, duplex parts, unknown parts kept', () => {
  const out = parseLogText(
    `${P}[OmniTiming] req=r1 total=2.71s preprocess=0.01s engine=2.70s stages=[0:1.23s,1:1.30s] transfers=[0->1=1.20ms,1->2=0.35ms] ar2diffusion=12.50ms\n` +
      `${P}[OmniTiming] req=r2 response=resp-7 turn=2 reason=stop stages=[0:thinker=0.22s] queue=3.5ms\n`,
  );
  const [a, b] = ofKind(out, 'omniTiming');
  assert.ok(a !== undefined && b !== undefined);
  assert.deepEqual([a.totalS, a.preprocessS, a.engineS, a.ar2diffusionMs], [2.71, 0.01, 2.7, 12.5]);
  assert.deepEqual(a.stages, [
    { stageId: 0, label: null, seconds: 1.23 },
    { stageId: 1, label: null, seconds: 1.3 },
  ]);
  assert.deepEqual(a.transfers, [
    { fromStage: 0, toStage: 1, ms: 1.2 },
    { fromStage: 1, toStage: 2, ms: 0.35 },
  ]);
  assert.deepEqual(b.identity, { request_id: 'r2', response: 'resp-7', turn: '2', reason: 'stop' });
  assert.deepEqual([b.totalS, b.engineS], [null, null], 'duplex lines may omit total and engine');
  assert.deepEqual(b.stages, [{ stageId: 0, label: 'thinker', seconds: 0.22 }]);
  assert.deepEqual(b.extra, { queue: '3.5ms' });
});

test('[OmniTiming]: a bracketed part ends at the first space outside brackets (nested, glued, unclosed)', () => {
  const out = parseLogText(
    `${P}[OmniTiming] req=r3 x=[a [b] c] stages=[0:1.00s,1:2.00s] y=[1,2]z transfers=[0->1=2.00ms] w=2 v=[open end\n` +
      `${P}[OmniTiming] req=r4 stages=[0:1.00s]\n` +
      `${P}[OmniTiming] req=r5 transfers=[0-1=3ms,0-12=6ms,1->2=4ms,x-1->2=5ms] stages=[0:a=1s,2]\n`,
  );
  const [a, b, c] = ofKind(out, 'omniTiming');
  assert.deepEqual(a?.stages, [
    { stageId: 0, label: null, seconds: 1 },
    { stageId: 1, label: null, seconds: 2 },
  ]);
  assert.deepEqual(a?.transfers, [{ fromStage: 0, toStage: 1, ms: 2 }]);
  assert.deepEqual(a?.extra, { x: '[a [b] c]', y: '[1,2]z', w: '2', v: '[open end' });
  assert.deepEqual(b?.stages, [{ stageId: 0, label: null, seconds: 1 }]);
  // Items that do not read are left out; the list is then kept as printed too. (A labelled stage
  // marks a branch whose transfer times are not send times: none is read as one.)
  assert.deepEqual(c?.transfers, []);
  assert.deepEqual(c?.stages, [{ stageId: 0, label: 'a', seconds: 1 }]);
  assert.deepEqual(c?.extra, { transfers: '[0-1=3ms,0-12=6ms,1->2=4ms,x-1->2=5ms]', stages: '[0:a=1s,2]' });
});

// Lines as the unmerged branches' stats.py print them: vllm-omni 08329edf (#3042's
// format_request_timing_line: `<stage_labels.get(id, str(id))>=<s>`, transfers = send + in flight +
// decode, zero edges left out) and #3069's _log_omni_timing (handoffs=, transfers with 3 decimals).
// Edge 0->1: send 3.21, decode 1.50, in flight 0.42 ms; edge 1->2 nothing.
const BRANCH = '(APIServer pid=12672) INFO 04-23 21:47:29 [omni_base.py:253] ';
const BRANCH_LINES = [
  `${BRANCH}[OmniTiming] req=chatcmpl-labelled total=1.40s preprocess=0.01s engine=1.39s stages=[0:thinker=0.22s,1:talker=1.33s,2:code2wav=1.39s] transfers=[0->1=5.13ms]`,
  `${BRANCH}[OmniTiming] req=chatcmpl-nolabels total=1.40s preprocess=0.01s engine=1.39s stages=[0=0.22s,1=1.33s,2=1.39s] transfers=[0->1=5.13ms]`,
  `${BRANCH}[OmniTiming] req=chatcmpl-namesonly total=1.40s preprocess=0.01s engine=1.39s stages=[thinker=0.22s,talker=1.33s,code2wav=1.39s] transfers=[0->1=5.13ms]`,
  `${BRANCH}[OmniTiming] req=chatcmpl-3069 total=1.40s preprocess=0.01s engine=1.39s ar2diffusion=0.00s stages=[0:thinker=0.22s,1:talker=1.33s,2:code2wav=1.39s] handoffs=[0->1=7.778ms(ar2diffusion=3.000ms)] transfers=[0->1=5.130ms,1->2=0.000ms]`,
];

test('[OmniTiming] of the unmerged branches: `0=0.22s` stages read, edge totals never read as send times', () => {
  const [labelled, noLabels, namesOnly, handoffs] = ofKind(parseLogText(BRANCH_LINES.join('\n') + '\n'), 'omniTiming');
  const stages = [
    { stageId: 0, seconds: 0.22 },
    { stageId: 1, seconds: 1.33 },
    { stageId: 2, seconds: 1.39 },
  ];
  assert.deepEqual(
    labelled?.stages,
    stages.map((s, i) => ({ ...s, label: ['thinker', 'talker', 'code2wav'][i] })),
  );
  assert.deepEqual(
    noLabels?.stages,
    stages.map((s) => ({ ...s, label: null })),
  );
  assert.deepEqual(handoffs?.stages, labelled?.stages);
  for (const r of [labelled, noLabels, namesOnly]) {
    assert.deepEqual(r?.transfers, [], r?.requestId);
    assert.equal(r?.extra['transfers'], '[0->1=5.13ms]', r?.requestId);
    assert.deepEqual([r?.totalS, r?.preprocessS, r?.engineS], [1.4, 0.01, 1.39]);
  }
  // A bare name gives no stage id: the list stays as printed.
  assert.deepEqual(namesOnly?.stages, []);
  assert.equal(namesOnly?.extra['stages'], '[thinker=0.22s,talker=1.33s,code2wav=1.39s]');
  assert.deepEqual(handoffs?.transfers, []);
  assert.deepEqual(handoffs?.extra, {
    handoffs: '[0->1=7.778ms(ar2diffusion=3.000ms)]',
    transfers: '[0->1=5.130ms,1->2=0.000ms]',
  });
  assert.equal(handoffs?.ar2diffusionMs, 0);
});

test('engine stats: optional Preemptions / Deferred parts; V0 line without `Engine NNN:`', () => {
  const out = parseLogText(
    `(APIServer pid=1) INFO 08-21 18:00:00 [loggers.py:127] Engine 001: Avg prompt throughput: 1,024.5 tokens/s, Avg generation throughput: 3.0 tokens/s, Running: 2 reqs, Waiting: 0 reqs, GPU KV cache usage: 1.5%, Prefix cache hit rate: 50.0%, Preemptions: 3, Deferred: 4 reqs\n` +
      `INFO 08-21 18:00:00 [metrics.py:455] Avg prompt throughput: 10.0 tokens/s, Running: 1 reqs\n`,
  );
  const [v1, v0] = ofKind(out, 'engineStats');
  assert.equal(v1?.engine, '001');
  assert.deepEqual(v1?.values, {
    avg_prompt_throughput: 1024.5,
    avg_generation_throughput: 3,
    running: 2,
    waiting: 0,
    gpu_kv_cache_usage: 1.5,
    prefix_cache_hit_rate: 50,
    preemptions: 3,
    deferred: 4,
  });
  assert.equal(v0?.engine, '');
  assert.deepEqual(v0?.values, { avg_prompt_throughput: 10, running: 1 });
});

test('engine stats: a part is read as the PART pattern reads it (5,000 seeded parts, near-misses included)', () => {
  const rand = prng(17);
  const pieces = [
    'Avg',
    ' ',
    'KV',
    '(',
    ')',
    '/',
    '-',
    ':',
    ': ',
    '1',
    '0',
    ',',
    '.',
    '5',
    'tokens/s',
    '%',
    'reqs',
    '\t',
    '\u00a0',
    'x',
    '_',
    '12345678901234567',
    ';',
  ];
  let read = 0;
  for (let n = 0; n < 5000; n++) {
    const pick = (): string => pieces[Math.floor(rand() * pieces.length)] as string;
    // A well-formed part (`GPU KV cache usage: 1,234.5 %`), then a few pieces put in anywhere.
    const labels = [
      'Running',
      'GPU KV cache usage',
      'Avg prompt throughput',
      'Prefix cache hit rate',
      'Deferred (x/y)-z',
    ];
    const units = ['', ' reqs', ' tokens/s', '%', ' 1234567890123456', ' 12345678901234567'];
    let part = `${labels[Math.floor(rand() * labels.length)]}: ${rand() < 0.3 ? '-' : ''}${Math.floor(rand() * 1e6).toLocaleString('en-US')}${rand() < 0.5 ? '.5' : ''}${units[Math.floor(rand() * units.length)]}`;
    const edits = Math.floor(rand() * 3);
    for (let k = 0; k < edits; k++) {
      const at = Math.floor(rand() * (part.length + 1));
      part = part.slice(0, at) + pick() + part.slice(rand() < 0.3 ? at + 1 : at);
    }
    const m = PART.exec(part);
    const got = readPart(part);
    assert.deepEqual(got, m === null ? null : { label: m[1], number: m[2] }, JSON.stringify(part));
    if (got !== null) read++;
  }
  assert.ok(read > 1500 && read < 4500, `${read} parts read`);
});

test('boot markers: every marker line is reported, with its name', () => {
  const out = parseLogText(
    [
      '(APIServer pid=1) INFO 08-21 17:59:00 [api_server.py:1888] vLLM API server version 0.11.0',
      '(APIServer pid=1) INFO 08-21 17:59:01 [api_server.py:1900] Starting vLLM API server 0 on http://0.0.0.0:8000',
      'INFO 08-21 17:59:02 [omni.py:463] [Orchestrator] All stages initialized successfully',
      '(EngineCore_DP0 pid=2) INFO 08-21 17:58:00 [core.py:77] Initializing a V1 LLM engine (v0.11.0) with config: model=x, served_model_name=stage0_replica0',
      '(EngineCore_DP0 pid=3) INFO 08-21 17:58:00 [core.py:77] Initializing a V1 LLM engine (v0.11.0) with config: model=x, served_model_name=stage1_replica0',
    ].join('\n'),
  );
  assert.deepEqual(
    ofKind(out, 'bootMarker').map((b) => [b.marker, b.line]),
    [
      ['api-server-version', 1],
      ['api-server-start', 2],
      ['orchestrator-ready', 3],
      ['engine-init-stage0', 4],
    ],
  );
});

test('interleaving: other processes and bare lines between the rows of a table do not break it', () => {
  const rows = stageTable(
    P,
    'mix',
    ['Field', '0', '1'],
    [
      ['a_ms', '1.000', '2.000'],
      ['b_ms', '3.000', '4.000'],
      ['c_ms', '5.000', '6.000'],
    ],
  ).split('\r\n');
  const other = [
    '(EngineCore_DP0 pid=9) INFO 08-21 18:00:00 [core.py:1] step',
    'Processed prompts:  50%|\u2588\u2588   | 1/2',
    '(API (1)) INFO 08-21 18:00:00 [stats.py:600] [Overall Summary]',
  ];
  const text = rows
    .flatMap((r, i) => (i > 0 && i < rows.length - 1 ? [r, other[i % other.length] as string] : [r]))
    .join('\n');
  const out = parseLogText(text);
  const table = single(out, 'stageTable');
  assert.equal(table.complete, true);
  assert.deepEqual(
    table.columns.map((c) => [num(c.fields, 'a_ms'), num(c.fields, 'b_ms'), num(c.fields, 'c_ms')]),
    [
      [1, 3, 5],
      [2, 4, 6],
    ],
  );
  // The `(API (1))` Overall Summary titles are another process's: each new title on that
  // prefix supersedes the last one, which had no table.
  const overall = ofKind(out, 'overallSummary');
  assert.equal(overall.length, text.split('(API (1))').length - 1);
  assert.ok(overall.every((r) => !r.complete));
});

test('consecutive tables from one call site in the same second are separate records', () => {
  const a = stageTable(P, 'a', ['Field', '0'], [['x', '1']]);
  const b = stageTable(P, 'b', ['Field', '0'], [['x', '2']]);
  const out = parseLogText(a + b);
  assert.deepEqual(
    ofKind(out, 'stageTable').map((t) => [t.requestId, t.complete, num(t.columns[0]?.fields ?? {}, 'x')]),
    [
      ['a', true, 1],
      ['b', true, 2],
    ],
  );
});

test('a table superseded before its closing border is kept incomplete, with the line where it started', () => {
  const cut =
    stageTable(
      P,
      'cut',
      ['Field', '0'],
      [
        ['x', '1'],
        ['y', '2'],
      ],
    )
      .split('\r\n')
      .slice(0, -1)
      .join('\r\n') + '\n';
  const next = stageTable(P, 'next', ['Field', '0'], [['x', '3']]);
  const otherSite = `${P.replace('600', '655')}[OmniTiming] req=z total=1.00s engine=1.00s stages=[0:1.00s]\n`;
  const out = parseLogText(`${cut}${next}${cut}${otherSite}`);
  const tables = ofKind(out, 'stageTable');
  assert.deepEqual(
    tables.map((t) => [t.requestId, t.complete, t.line, Object.keys(t.columns[0]?.fields ?? {})]),
    [
      ['cut', false, 2, ['x', 'y']],
      ['next', true, 9, ['x']],
      ['cut', false, 16, ['x', 'y']],
    ],
  );
  assert.deepEqual(
    out.problems.map((p) => p.line),
    [2, 16],
  );
  assert.match(
    out.problems[0]?.message ?? '',
    /starting at line 2 was cut off by line 8 \(2 complete rows kept\)/,
    'the next lead-in ends it',
  );
  assert.match(out.problems[1]?.message ?? '', /cut off by line 22/, 'another record of the same process ends it');
});

test('a table cut off at the end of input: problem at its first line, complete tables before it kept', () => {
  const complete = fixtureLog('b7-examples-plain.log');
  const lines = complete.split('\n');
  const text = lines.slice(0, 40).join('\n'); // inside the (a) stage table, which starts at line 25
  const out = parseLogText(text);
  assert.deepEqual(
    out.records.map((r) => [r.kind, r.line, 'complete' in r ? r.complete : true]),
    [
      ['overallSummary', 2, true],
      ['requestE2E', 16, true],
      ['omniTiming', 23, true],
      ['stageTable', 25, false],
    ],
  );
  assert.equal(out.problems.length, 1);
  assert.equal(out.problems[0]?.line, 25);
  assert.match(
    out.problems[0]?.message ?? '',
    /StageRequestStats request_id=speech-5d0c9a7e2b4f4c1d\] table starting at line 25 was cut off by the end of the input/,
  );
  const table = single(out, 'stageTable');
  assert.equal(table.rows.length, 40 - 28, 'every complete row read (lines 29-40) is kept');
});

test('tables the parser has no record for are reported, not silently dropped', () => {
  const site = `${P}[Timing Breakdown]\r\n${P}+---+\r\n${P}| Field | Value |\r\n${P}+---+\r\n${P}| a_ms | 1.0 |\r\n${P}+---+\n`;
  const out = parseLogText(`${site}| x | 1 |\n| y | 2 |\n\n`);
  assert.deepEqual(out.records, []);
  assert.deepEqual(out.problems, [
    { line: 1, message: 'unrecognised table [Timing Breakdown] (1 rows) was not read' },
    { line: 7, message: 'a table without a title (2 rows) was not read' },
  ]);
});

test('bad input: invalid UTF-8, NUL and control bytes, stray CRs never throw', () => {
  const bytes = new Uint8Array([
    0xff,
    0xfe,
    0x00,
    0x0a,
    0xc3,
    0x28,
    0x0d,
    0x0d,
    0x0a,
    ...utf8(`${P}[OmniTiming] req=\u00e9\r x total=1s\n`),
    0xe2,
    0x82,
  ]);
  const out = parseBytes(bytes);
  const timing = single(out, 'omniTiming');
  // The id runs on over the part without `=` (the server prints it as it is, spaces included).
  assert.equal(timing.requestId, '\u00e9 x', 'the stray CR inside the line is dropped');
  assert.equal(timing.line, 3);
});

test('a 10 MB line without a newline is cut to 1 MiB and reported; later lines still read', () => {
  const parser = new LogStreamParser();
  const piece = utf8('x'.repeat(1 << 20));
  const problems = [];
  for (let i = 0; i < 10; i++) problems.push(...parser.push(piece).problems);
  const out = parser.push(`\n${P}[OmniTiming] req=after total=1s\n`);
  const end = parser.end();
  problems.push(...out.problems, ...end.problems);
  assert.equal(problems.length, 1);
  assert.equal(problems[0]?.line, 1);
  assert.match(problems[0]?.message ?? '', /10,485,760 characters long; only the first 1,048,576 were read/);
  assert.equal(single({ records: [...out.records, ...end.records], problems: [] }, 'omniTiming').line, 2);
});

test('maxLineLength option and a long line inside one chunk', () => {
  const out = parseChunks([`${'y'.repeat(5000)}\n${P}[OmniTiming] req=ok\n`], { maxLineLength: 1000 });
  assert.equal(out.problems.length, 1);
  assert.equal(single(out, 'omniTiming').requestId, 'ok');
});

test('push after end() is ignored and reported, not thrown', () => {
  const parser = new LogStreamParser();
  parser.end();
  const out = parser.push('more');
  assert.deepEqual(out.records, []);
  assert.match(out.problems[0]?.message ?? '', /after end\(\)/);
});

test('cells: the byte reader of ASCII input and the string reader give the same cells, edge cases included', () => {
  const shapes = [
    '0',
    '-0.000',
    '1.',
    '12,345.5',
    '1,2,3',
    '1,',
    ',5',
    '-',
    '-12',
    '+7',
    '.5',
    '1e-05',
    '2.5E+3',
    '1234567890123456',
    '123456789012345',
    '0.1234567890123456',
    '13.490 (n=51)',
    '13.490 (n=1,000)',
    '1.0 (n=-1)',
    '1.0 (n=2.5)',
    '1.0 (n=)',
    '1.0 (n=5',
    '2 (x=1)',
    'None',
    'Nonesuch',
    'nan',
    'audio',
    '1.000, 2.500',
    '7  ',
    '',
  ];
  const rows = shapes.map((shape, i) => [`f${i}`, shape, '1']);
  const text = stageTable(P, 'bytes', ['Field', '0', '1'], rows);
  assert.ok(/^[\x00-\x7f]*$/.test(text), 'ASCII: the byte reader applies');
  const fromString = parseChunks([text]);
  const fromBytes = parseBytes(utf8(text));
  assert.deepEqual(fromBytes, fromString);
  const s0 = single(fromBytes, 'stageTable').columns[0]?.fields;
  assert.ok(s0 !== undefined);
  assert.deepEqual(s0['f0'], measured(0));
  assert.ok(Object.is(num(s0, 'f1'), -0));
  assert.equal(num(s0, 'f2'), 1);
  assert.equal(num(s0, 'f3'), 12345.5);
  assert.equal(num(s0, 'f4'), 123);
  assert.deepEqual(s0['f5'], { state: 'text', value: '1,' });
  assert.equal(num(s0, 'f8'), -12);
  assert.equal(num(s0, 'f11'), 1e-5);
  assert.equal(num(s0, 'f12'), 2500);
  assert.equal(num(s0, 'f13'), 1234567890123456);
  assert.equal(num(s0, 'f14'), 123456789012345);
  assert.equal(num(s0, 'f15'), 0.1234567890123456);
  assert.deepEqual(s0['f16'], measured(13.49, 51));
  assert.deepEqual(s0['f17'], measured(13.49, 1000));
  assert.deepEqual(s0['f18'], { state: 'text', value: '1.0 (n=-1)' });
  assert.deepEqual(s0['f23'], NOT_MEASURED);
  assert.deepEqual(s0['f24'], { state: 'text', value: 'Nonesuch' });
  assert.equal(num(s0, 'f28'), 7);
  assert.deepEqual(s0['f29'], BLANK, 'blank: the text cell ""');
});

test('a stray CR inside a row of a CRLF table is dropped, as if it were not there (ASCII input, one chunk)', () => {
  const rows = [
    ['a_ms', '1.5', '2'],
    ['b_ms', '3', '4'],
  ];
  const clean = stageTable(P, 'cr', ['Field', '0', '1'], rows);
  const stray = clean.replace('| 1.5 |', '| 1.\r5 |');
  assert.notEqual(stray, clean);
  const out = parseBytes(utf8(stray));
  assert.deepEqual(out, parseBytes(utf8(clean)));
  assert.equal(num(single(out, 'stageTable').columns[0]?.fields ?? {}, 'a_ms'), 1.5);
});
