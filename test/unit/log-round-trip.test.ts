// Round trip: tables rendered exactly as the server renders them (server/simulate/render.ts)
// parse back to the values that were rendered: numbers as printed ({:,.3f} for floats,
// thousands separators for ints), None as not measured, lists as mean + count, empty lists
// and keys missing from a column blank (the text cell ""), all-zero rows absent, strings and
// booleans as text.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  PyInt,
  formatCell,
  int,
  isHiddenValue,
  logPrefix,
  recordTitle,
  renderColumnsTable,
  renderFieldValueTable,
  renderLogRecord,
  renderTableRecord,
  type LogPrefixOptions,
  type PyValue,
} from '../../server/simulate/render';
import { BLANK, NOT_MEASURED, measured, type Cell, type FieldMap } from '../../server/core/values';
import { ofKind, parseChunks, prng, utf8 } from './support/logHelpers';

/** What the parser should make of a value the server printed. undefined: absent. */
function expectedCell(v: PyValue | undefined): Cell | undefined {
  if (v === undefined) return BLANK; // a key missing from one column prints blank
  if (v === null) return NOT_MEASURED;
  if (typeof v === 'boolean') return { state: 'text', value: v ? 'True' : 'False' };
  if (typeof v === 'string') return { state: 'text', value: v };
  if (v instanceof PyInt) return measured(Math.trunc(v.value));
  if (typeof v === 'number') return measured(printed(formatCell(v)));
  if (v.length === 0) return BLANK;
  const text = formatCell(v);
  return measured(printed(text.slice(0, text.indexOf(' ('))), v.length);
}

function printed(text: string): number {
  if (text === 'nan') return NaN;
  if (text === 'inf') return Infinity;
  if (text === '-inf') return -Infinity;
  return Number(text.replace(/,/g, ''));
}

function expectedFields(values: Readonly<Record<string, PyValue>>, shownRows: readonly string[]): FieldMap {
  const out: FieldMap = {};
  for (const name of shownRows) {
    const cell = expectedCell(values[name]);
    if (cell !== undefined) out[name] = cell;
  }
  return out;
}

const FIELD_NAMES = [
  'audio_duration_s',
  'batch_id',
  'num_tokens_in',
  'output_unit_type',
  'stage_gen_time_ms',
  'inter_output_latencies_ms',
  'vllm_itls_ms',
  'vllm_queued_ms',
  'vllm_input_wait_ms',
  'vllm_ready_queued_ms',
  'vllm_prefill_ms',
  'vllm_decode_ms',
  'vllm_num_preemptions',
  'vllm_ttft_ms',
  'some_future_field_ms',
  'is_streaming',
];

function randomValue(random: () => number): PyValue | undefined {
  const r = random();
  if (r < 0.08) return undefined; // key not in this column
  if (r < 0.16) return null;
  if (r < 0.24) return 0; // zero: hidden if zero everywhere
  if (r < 0.3) return int(0);
  if (r < 0.45) return int(Math.floor((random() - 0.1) * 10 ** Math.floor(random() * 10)));
  if (r < 0.7) return (random() - 0.2) * 10 ** Math.floor(random() * 9);
  if (r < 0.73) return [];
  if (r < 0.8) return Array.from({ length: 1 + Math.floor(random() * 60) }, () => random() * 500);
  if (r < 0.84) return random() < 0.5 ? 'audio' : 'latent';
  if (r < 0.86) return random() < 0.5;
  if (r < 0.87) return [NaN, Infinity, -Infinity, -0.0001][Math.floor(random() * 4)] as number;
  return random() * 1e-3;
}

function randomPrefix(random: () => number, level: LogPrefixOptions['level'], fileLine: number): string {
  const processes = [null, 'APIServer pid=4242', 'API', 'API (0)'];
  return logPrefix({
    process: processes[Math.floor(random() * processes.length)] ?? null,
    level,
    timestamp: `08-21 18:0${Math.floor(random() * 10)}:00`,
    file: random() < 0.5 ? 'stats.py' : 'vllm_omni/metrics/stats.py',
    fileLine,
    ansi: random() < 0.5,
  });
}

test('StageRequestStats / TransferEdgeStats / RequestE2EStats / Overall Summary rendered by render.ts parse back (500 seeded tables)', () => {
  const random = prng(4242);
  for (let round = 0; round < 500; round++) {
    const nColumns = 1 + Math.floor(random() * 4);
    const headers = Array.from({ length: nColumns }, (_, i) => (random() < 0.15 && i > 0 ? `${i - 1}_2` : String(i)));
    const columns = headers.map((header) => {
      const values: Record<string, PyValue> = {};
      for (const name of FIELD_NAMES) {
        const v = randomValue(random);
        if (v !== undefined) values[name] = v;
      }
      return { header, values };
    });
    const identity: Record<string, string> = { request_id: `chatcmpl-${round.toString(16).padStart(16, '0')}` };
    if (random() < 0.2) Object.assign(identity, { response: `resp-${round}`, turn: String(round % 5), reason: 'stop' });
    const e2eValues: Array<readonly [string, PyValue]> = [
      ['e2e_total_ms', random() * 1e5],
      ['e2e_total_tokens', int(Math.floor(random() * 1e4))],
      ['transfers_total_kbytes', random() < 0.5 ? 0 : random() * 1e5],
      ['transfers_total_time_ms', random() < 0.3 ? null : random() * 100],
    ];
    const edges = [
      {
        header: '0->1',
        values: {
          size_kbytes: random() * 1e5,
          tx_time_ms: random() * 10,
          in_flight_time_ms: 0,
          rx_decode_time_ms: null,
        } as Record<string, PyValue>,
      },
    ];

    let text = '';
    text += renderTableRecord(
      randomPrefix(random, 'INFO', 640),
      renderFieldValueTable(recordTitle('RequestE2EStats', identity), e2eValues),
    );
    text += renderTableRecord(
      randomPrefix(random, 'DEBUG', 672),
      renderColumnsTable(recordTitle('StageRequestStats', identity), columns),
    );
    if (random() < 0.3)
      text += renderLogRecord(randomPrefix(random, 'INFO', 227).replace(/\(.*?\) /, '(EngineCore_DP0 pid=9) '), [
        'unrelated',
      ]);
    text += renderTableRecord(
      randomPrefix(random, 'INFO', 690),
      renderColumnsTable(recordTitle('TransferEdgeStats', identity), edges),
    );
    text += renderTableRecord(
      randomPrefix(random, 'INFO', 612),
      renderFieldValueTable('Overall Summary', [
        ['e2e_requests', int(1)],
        ['e2e_wall_time_ms', random() * 1e5],
      ]),
    );

    const out = parseChunks([utf8(text)]);
    assert.deepEqual(out.problems, [], `round ${round}`);

    const allRows = [...new Set(columns.flatMap((c) => Object.keys(c.values)))].sort();
    const shown = allRows.filter((k) => columns.some((c) => !isHiddenValue(c.values[k])));
    const stage = ofKind(out, 'stageTable');
    if (shown.length === 0) {
      assert.equal(stage[0]?.columns.length, 0, `round ${round}: <empty> table`);
    } else {
      assert.equal(stage.length, 1, `round ${round}`);
      const table = stage[0];
      assert.ok(table !== undefined);
      assert.deepEqual(table.identity, identity);
      assert.deepEqual(table.rows, shown, `round ${round}: rows`);
      assert.deepEqual(
        table.columns.map((c) => c.column),
        headers,
      );
      columns.forEach((c, i) => {
        assert.deepStrictEqual(
          table.columns[i]?.fields,
          expectedFields(c.values, shown),
          `round ${round} column ${c.header}`,
        );
        const [id, segment] = c.header.split('_');
        assert.equal(table.columns[i]?.stageId, Number(id));
        assert.equal(table.columns[i]?.segment, segment === undefined ? 1 : Number(segment));
      });
    }
    const e2e = ofKind(out, 'requestE2E')[0];
    const shownE2E = e2eValues.filter(([, v]) => !isHiddenValue(v));
    assert.deepStrictEqual(
      e2e?.fields,
      Object.fromEntries(shownE2E.map(([k, v]) => [k, expectedCell(v)])),
      `round ${round}: e2e`,
    );
    const transfer = ofKind(out, 'transferTable')[0];
    const edgeValues = edges[0]?.values ?? {};
    const shownEdge = Object.keys(edgeValues)
      .sort()
      .filter((k) => !isHiddenValue(edgeValues[k]));
    assert.deepStrictEqual(
      transfer?.edges[0]?.fields,
      expectedFields(edgeValues, shownEdge),
      `round ${round}: transfer`,
    );
    assert.equal(ofKind(out, 'overallSummary').length, 1);
  }
});

test('the list rendering before June 2026 (every element {:,.3f} joined by ", ") reads as mean and count', () => {
  const prefix = logPrefix({
    process: 'API',
    level: 'INFO',
    timestamp: '03-01 10:00:00',
    file: 'stats.py',
    fileLine: 500,
    ansi: false,
  });
  const old = (v: readonly number[]): string => v.map((x) => formatCell(x)).join(', ');
  const text = renderTableRecord(prefix, [
    '[StageRequestStats [request_id=old]]',
    '+--------------------------+----------------------------+-------+',
    '| Field                    |                          0 |     1 |',
    '+--------------------------+----------------------------+-------+',
    `| inter_output_latencies_ms | ${old([1, 2.5, 3])} | ${old([1234.5, 5])} |`,
    `| vllm_itls_ms             | ${old([22.65])} |       |`,
    '+--------------------------+----------------------------+-------+',
  ]);
  const table = ofKind(parseChunks([text]), 'stageTable')[0];
  const [s0, s1] = table?.columns.map((c) => c.fields) ?? [];
  assert.deepEqual(s0?.['inter_output_latencies_ms'], measured(6.5 / 3, 3));
  assert.deepEqual(s1?.['inter_output_latencies_ms'], measured(619.75, 2));
  assert.deepEqual(s0?.['vllm_itls_ms'], measured(22.65), 'a one-element list prints like a float');
  assert.deepEqual(s1?.['vllm_itls_ms'], BLANK, 'an empty list prints blank');
});
