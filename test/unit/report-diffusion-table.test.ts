// A diffusion stage prints no LLM phase split: its own timings (docs/formats.md#diffusion-keys)
// get a table of their own under the phase table, in ms whichever unit was printed, never
// added up, and only for the stages that printed them; the CSV has them per request.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { analysedLog } from './support/analysedLog';
import { glmImageLog, olderGlmImageLog } from './support/simulatedLog';
import { TABLE_SUMMARY_FIELDS, tableReport } from '../../server/core/report/tableReport';
import { StreamAnalysis } from '../../server/core/analysis/streamAnalysis';
import { LogStreamParser } from '../../server/core/log';
import { diffusionLines } from '../../server/core/report/diffusionTable';
import { formatMs } from '../../server/core/textTable';
import { CSV_HEADER } from '../../server/core/report/csvReport';
import { toLogPrecision } from '../../server/core/values';
import { csvRows } from './support/csvRows';

const block = (lines: readonly string[]): string[] => {
  const start = lines.findIndex((l) => l.startsWith('Diffusion stage timings, ms'));
  if (start < 0) return [];
  const end = lines.indexOf('', start);
  return lines.slice(start, end < 0 ? lines.length : end);
};

test('a diffusion stage that prints _s timings: each in ms, p50/p90/p99, its columns only', () => {
  // One text-to-image request of an older example: preprocess_time_s 0.014, diffusion_engine_exec_time_s 8.431, ...
  const snapshot = analysedLog(path.join(__dirname, '../fixtures/logs/b7-examples-plain.log'));
  const lines = block(tableReport(snapshot, { source: 'x' }));
  assert.deepEqual(lines.slice(1), [
    'stage  n       preprocess  engine exec  per denoise step  output wait  postprocess',
    '-----  -  ---  ----------  -----------  ----------------  -----------  -----------',
    '0      2  p50       14.00        8,431             172.2        2.000        93.00',
    '          p90       14.00        8,431             172.2        2.000        93.00',
    '          p99       14.00        8,431             172.2        2.000        93.00',
    // Stage 0 of the other request is a talker: its n counts it, its columns do not.
    '  (0: every column 1 of 2 requests printed a value; the others printed none (not measured, or a 0 the table hid with its all-zero row): left out, not counted as 0)',
  ]);
  assert.match(lines[0] ?? '', /never add them up/);
});

test('a column printed by fewer requests than the stage has says over how many, not as 0s', () => {
  const analysis = new StreamAnalysis({ summaryFields: TABLE_SUMMARY_FIELDS });
  const parser = new LogStreamParser();
  analysis.ingest(parser.push(olderGlmImageLog()));
  analysis.ingest(parser.end());
  analysis.flush();
  const snapshot = analysis.snapshot();
  const stage = snapshot.stages.find((s) => s.stageKey === '1');
  assert.ok(stage !== undefined);
  const lines = block(tableReport(snapshot, { source: 'x', stageRoles: { '0': 'AR', '1': 'diffusion' } }));
  // Every count the note gives is the number of requests that printed that row, of the stage's n.
  const counts = (['scheduler_queue_wait_ms', 'output_ready_wait_time_ms'] as const).map(
    (f) => stage.fields[f]?.count ?? 0,
  );
  assert.ok(
    counts.every((c) => c > 0 && c < stage.requestCount),
    `${counts.join()} of ${stage.requestCount}`,
  );
  assert.ok(
    lines.includes(
      `  (1 · diffusion: queue wait ${counts[0]}, output wait ${counts[1]} of ${stage.requestCount} requests printed a value; the others printed none (not measured, or a 0 the table hid with its all-zero row): left out, not counted as 0)`,
    ),
    lines.join('\n'),
  );
});

test("AR -> diffusion (GLM-Image): the diffusion stage's row, not the AR stage's, with the fields analyze's table summarizes", () => {
  // As `analyze` reads a log for its table: only TABLE_SUMMARY_FIELDS are summarized.
  const analysis = new StreamAnalysis({ summaryFields: TABLE_SUMMARY_FIELDS });
  const parser = new LogStreamParser();
  analysis.ingest(parser.push(glmImageLog()));
  analysis.ingest(parser.end());
  analysis.flush();
  const snapshot = analysis.snapshot();
  const lines = block(tableReport(snapshot, { source: 'x', stageRoles: { '0': 'AR', '1': 'diffusion' } }));
  assert.ok(lines.length > 3, lines.join('\n'));
  const stageRows = lines.slice(3).filter((l) => /^\S/.test(l));
  assert.deepEqual(
    stageRows.map((l) => l.split(/\s{2,}/)[0]),
    ['1 · diffusion'],
  );
  // Every number in the table is a number: nothing was left unsummarized ("-" only where not printed).
  const header = lines[1] ?? '';
  assert.match(header, /engine exec/);
  const p50 = (lines[3] ?? '').trim().split(/\s{2,}/);
  const exec = header
    .trim()
    .split(/\s{2,}/)
    .indexOf('engine exec');
  assert.match(p50[exec + 1] ?? '', /^[\d,.]+$/, lines.join('\n'));
});

test("an older build's diffusion stage: its postprocess_time_ms is its postprocess column (every stage prints that name)", () => {
  const analysis = new StreamAnalysis({ summaryFields: TABLE_SUMMARY_FIELDS });
  const parser = new LogStreamParser();
  analysis.ingest(parser.push(olderGlmImageLog()));
  analysis.ingest(parser.end());
  analysis.flush();
  const snapshot = analysis.snapshot();
  const lines = block(tableReport(snapshot, { source: 'x' }));
  const header = (lines[1] ?? '').trim().split(/\s{2,}/);
  const column = header.indexOf('postprocess');
  assert.ok(column > 0, lines.join('\n'));
  const printed = snapshot.stages.find((s) => s.stageKey === '1')?.fields['postprocess_time_ms'];
  assert.ok(printed !== undefined && printed.count > 0);
  const p50 = (lines[3] ?? '').trim().split(/\s{2,}/);
  assert.equal(p50[column + 1], formatMs(printed.p50), lines.join('\n'));
  // The AR stage prints postprocess_time_ms too: it does not become a diffusion row.
  assert.deepEqual(
    lines
      .slice(3)
      .filter((l) => /^\S/.test(l))
      .map((l) => l.split(/\s{2,}/)[0]),
    ['1'],
  );
});

test('no diffusion stage: no table', () => {
  const snapshot = analysedLog(
    path.join(__dirname, '../fixtures/upstream-rendered/qwen3-omni-three-stage-transfers.log'),
  );
  assert.deepEqual(diffusionLines(snapshot.stages, {}, new Set()), []);
  assert.deepEqual(block(tableReport(snapshot, { source: 'x' })), []);
});

test("the CSV: a diffusion stage's timings in ms whichever unit was printed, with their states; empty on other rows", () => {
  for (const [log, unit] of [
    [glmImageLog(), '_s'],
    [olderGlmImageLog(), '_ms'],
  ] as const) {
    const analysis = new StreamAnalysis();
    const parser = new LogStreamParser();
    analysis.ingest(parser.push(log));
    analysis.ingest(parser.end());
    analysis.flush();
    const requests = analysis.snapshot().requests;
    const [header, ...rows] = csvRows(requests).map((l) => l.split(','));
    assert.deepEqual(header, CSV_HEADER);
    const col = (name: string): number => CSV_HEADER.indexOf(name);
    const stages = requests.flatMap((r) => r.stages);
    assert.equal(rows.length, stages.length + requests.reduce((n, r) => n + r.transfers.length, 0));
    // Each request's rows: its stages, then its transfer edges.
    const stageRows = requests.flatMap((r, k) => {
      const first = requests.slice(0, k).reduce((n, q) => n + q.stages.length + q.transfers.length, 0);
      return r.stages.map((_, j) => rows[first + j] ?? []);
    });
    stages.forEach((s, i) => {
      const row = stageRows[i] ?? [];
      const exec = row[col('diffusion_engine_exec_time_ms')];
      const state = row[col('diffusion_engine_exec_time_ms_state')];
      if (s.kind !== 'diffusion') {
        assert.equal(exec, '');
        assert.equal(state, '');
        return;
      }
      const printed = s.fields[`diffusion_engine_exec_time${unit}`];
      assert.ok(printed?.state === 'measured', `${unit}: ${JSON.stringify(Object.keys(s.fields))}`);
      assert.equal(Number(exec), toLogPrecision(printed.value * (unit === '_s' ? 1000 : 1)));
      assert.equal(state, 'measured');
      // A timing this build never printed is hidden, never 0.
      assert.equal(row[col('diffusion_kv_recv_time_ms')], 'hidden');
    });
    assert.ok(stages.some((s) => s.kind === 'diffusion'));
  }
});
