// Each request's end-to-end time through the built CLI (a child process): `analyze` of a DEBUG
// log gives its p50/p90/p99 beside the phase table, as `endToEnd` in the JSON and as each
// request's printed `e2e_total_ms` in the CSV, checked against the values upstream's own stats
// code printed (test/fixtures/upstream-rendered/*.expected.json). A request that printed no
// E2E table takes its [OmniTiming] total=, said so, and one that printed neither is counted apart.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { cliStdout as cli } from './support/cliProcess';

const ROOT = path.resolve(__dirname, '..', '..');
const RENDERED = path.join(ROOT, 'test', 'fixtures', 'upstream-rendered');
const AFTER_FIX = path.join(RENDERED, 'qwen3tts-talker-first-audio-after-fix');
const INFO_ONLY = path.join(RENDERED, 'qwen3tts-info-level-omnitiming-only');

interface EndToEndJson {
  count: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  fromOmniTiming: number;
  requestsWithout: number;
}

const endToEndJson = (log: string): EndToEndJson | null =>
  (JSON.parse(cli(['analyze', log, '--format', 'json'])) as { endToEnd: EndToEndJson | null }).endToEnd;

/** Each stage row's request id, stage and end-to-end cells. */
function csvE2e(log: string): { id: string; stage: string; value: string; state: string }[] {
  const [header, ...rows] = cli(['analyze', log, '--format', 'csv']).trimEnd().split('\n');
  const names = (header ?? '').split(',');
  const at = (cells: string[], name: string): string => cells[names.indexOf(name)] ?? '';
  return rows
    .map((row) => row.split(','))
    .filter((cells) => at(cells, 'kind') !== 'transfer')
    .map((cells) => ({
      id: at(cells, 'request_id'),
      stage: at(cells, 'stage'),
      value: at(cells, 'e2e_total_ms'),
      state: at(cells, 'e2e_total_ms_state'),
    }));
}

/** numpy's linear quantile, rounded to the log's 3 decimals as the report rounds derived values. */
function quantile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const rank = q * (sorted.length - 1);
  const lo = Math.floor(rank);
  const hi = Math.ceil(rank);
  const v = (sorted[lo] as number) + ((sorted[hi] as number) - (sorted[lo] as number)) * (rank - lo);
  return Math.round(v * 1000) / 1000;
}

/** The e2e_total_ms each request of an upstream-rendered log printed. */
function printedE2e(base: string): Map<string, number> {
  const expected = JSON.parse(fs.readFileSync(`${base}.expected.json`, 'utf8')) as {
    requests: Record<string, { e2e: { table: Record<string, unknown> } }>;
  };
  return new Map(Object.entries(expected.requests).map(([id, r]) => [id, r.e2e.table['e2e_total_ms'] as number]));
}

test('a DEBUG log: end to end p50/p90/p99 in the table, the JSON and the CSV, as upstream printed it', () => {
  const printed = printedE2e(AFTER_FIX);
  const values = [...printed.values()];
  assert.equal(values.length, 6);

  const table = cli(['analyze', `${AFTER_FIX}.log`]).split('\n');
  const head = table.indexOf('End to end per request, ms (e2e_total_ms of RequestE2EStats)');
  assert.ok(head > 0, table.join('\n'));
  // After the phase table, before the notes under it.
  assert.ok(head > table.findIndex((l) => l.startsWith('Phase split per stage')));
  assert.equal(table[head + 3], 'end to end  6  1,425  3,259  4,351  4,472');
  assert.ok(table.includes('  end to end (n = 6): p90 and p99'), 'said among the few values');

  const json = endToEndJson(`${AFTER_FIX}.log`);
  assert.deepEqual(json, {
    count: 6,
    mean: Math.round((values.reduce((a, b) => a + b, 0) / 6) * 1000) / 1000,
    p50: quantile(values, 0.5),
    p90: quantile(values, 0.9),
    p99: quantile(values, 0.99),
    max: Math.max(...values),
    fromOmniTiming: 0,
    requestsWithout: 0,
  });

  const rows = csvE2e(`${AFTER_FIX}.log`);
  assert.equal(rows.length, 12, 'two stage rows per request');
  for (const row of rows) {
    assert.equal(Number(row.value), printed.get(row.id), `${row.id} stage ${row.stage}`);
    assert.equal(row.state, 'measured');
  }
});

test('an INFO-level log: end to end from [OmniTiming] total= (JSON), and no E2E table is not measured (CSV)', () => {
  const json = endToEndJson(`${INFO_ONLY}.log`);
  assert.ok(json !== null);
  assert.deepEqual(
    [json.count, json.p50, json.p90, json.p99, json.max, json.fromOmniTiming, json.requestsWithout],
    [6, 1425, 3260, 4349, 4470, 6, 0],
  );
  const rows = csvE2e(`${INFO_ONLY}.log`);
  assert.equal(rows.length, 12);
  for (const row of rows) assert.deepEqual([row.value, row.state], ['notMeasured', 'notMeasured'], row.id);
});

test('a request without its E2E table takes its [OmniTiming] total; one without either is left out, counted', () => {
  const lines = fs.readFileSync(`${AFTER_FIX}.log`, 'utf8').split('\n');
  /** Drops the [RequestE2EStats] table of `id` (its title, the blank line before it, its rows) and, with `timing`, its [OmniTiming] line. */
  const without = (id: string, timing: boolean): string[] => {
    const title = lines.findIndex((l) => l.includes(`[RequestE2EStats [request_id=${id}]]`));
    let end = title + 1;
    while (/\| |\+-/.test(lines[end] ?? '')) end++;
    const kept = [...lines.slice(0, title - 1), ...lines.slice(end)];
    return timing ? kept.filter((l) => !l.includes(`[OmniTiming] req=${id} `)) : kept;
  };
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stage-lens-e2e-'));
  try {
    // speech-628f… printed e2e_total_ms 4,471.914 and [OmniTiming] total=4.47s.
    const fallback = path.join(dir, 'no-e2e-table.log');
    fs.writeFileSync(fallback, without('speech-628f17161fc5a104a9aeb486cbfaa141', false).join('\n'));
    const viaTiming = endToEndJson(fallback);
    assert.deepEqual([viaTiming?.count, viaTiming?.max, viaTiming?.fromOmniTiming], [6, 4470, 1]);
    assert.match(
      cli(['analyze', fallback]),
      /End to end per request, ms \(e2e_total_ms of RequestE2EStats; 1 of them from \[OmniTiming\] total=, 10 ms resolution\)/,
    );
    const row = csvE2e(fallback).find((r) => r.id === 'speech-628f17161fc5a104a9aeb486cbfaa141');
    assert.deepEqual([row?.value, row?.state], ['notMeasured', 'notMeasured']);

    const neither = path.join(dir, 'no-e2e.log');
    fs.writeFileSync(neither, without('speech-628f17161fc5a104a9aeb486cbfaa141', true).join('\n'));
    const left = endToEndJson(neither);
    const others = [...printedE2e(AFTER_FIX)].filter(([id]) => !id.startsWith('speech-628f')).map(([, v]) => v);
    assert.deepEqual(
      [left?.count, left?.max, left?.p50, left?.requestsWithout],
      [5, Math.max(...others), quantile(others, 0.5), 1],
    );
    const table = cli(['analyze', neither]);
    assert.match(table, /end to end {2}5 {2}/);
    assert.match(table, /\n {2}1 request printed no end-to-end time \(or not a time\): left out, not counted as 0\.\n/);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
