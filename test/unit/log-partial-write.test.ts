// A partial write inside a stats table: a line cut inside its log prefix, a row cut mid-cell, a
// row without its closing border. Each is a problem naming the line; the rows the lost line may
// have held (the table sorts its rows by name) are unknown, not hidden; every row that was
// readable is read. The log is upstream's own rendering (upstream-rendered/), damaged here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { analysedLog, analysedStream } from './support/analysedLog';
import { LogStreamParser } from '../../server/core/log';
import type { LogRecord, StageTableRecord } from '../../server/core/records';
import type { AnalyzedRequest, RequestStage } from '../../server/core/analysis/types';
import { prefillCoversDecode } from '../../server/core/analysis/oneOutputStage';

const LINES = fs
  .readFileSync(
    path.resolve(__dirname, '..', 'fixtures', 'upstream-rendered', 'qwen3tts-talker-first-audio-after-fix.log'),
    'utf8',
  )
  .replace(/\r/g, '')
  .split('\n');

const SECOND = 'speech-628f17161fc5a104a9aeb486cbfaa141';
const PREFILL_ROW = '| vllm_prefill_ms                 | 4,314.988 |       500.000 |';

/** The index of the second request's vllm_prefill_ms row (line 95 of the log). */
function prefillRowIndex(): number {
  const title = LINES.findIndex((l) => l.includes(`[StageRequestStats [request_id=${SECOND}]]`));
  const i = LINES.findIndex((l, k) => k > title && l.endsWith(PREFILL_ROW));
  assert.ok(title > 0 && i > title);
  return i;
}

/** The log with the second request's vllm_prefill_ms line replaced by `damaged(line)`. */
function withPrefillLine(damaged: (line: string) => string): { text: string; lineNo: number } {
  const i = prefillRowIndex();
  const lines = LINES.slice();
  lines[i] = damaged(lines[i] as string);
  return { text: lines.join('\n'), lineNo: i + 1 };
}

const cutInPrefix = (line: string): string => line.slice(0, line.indexOf(':1044]'));
const cutMidCell = (line: string): string => line.slice(0, line.indexOf('4,314.988') + 4);
const noClosingBorder = (line: string): string => line.slice(0, line.lastIndexOf('|')).trimEnd();

function request(requests: readonly AnalyzedRequest[], id: string): AnalyzedRequest {
  const r = requests.find((q) => q.requestId === id);
  assert.ok(r !== undefined, `no request ${id} in ${requests.map((q) => q.requestId).join()}`);
  return r;
}

for (const [name, damage, talkerPrefill] of [
  ['cut inside its log prefix', cutInPrefix, null],
  ['a row cut mid-cell', cutMidCell, null],
  // The talker's cell is closed by its `|`: read; the codec's may be missing digits: unknown.
  ['a row without its closing border', noClosingBorder, 4_314.988],
] as const) {
  test(`${name}: a problem names the line, the lost rows are unknown, the rest is read`, () => {
    const { text, lineNo } = withPrefillLine(damage);
    const snapshot = analysedLog(Buffer.from(text));
    assert.equal(snapshot.requestCount, 6);
    const r = request(snapshot.requests, SECOND);
    assert.equal(r.complete, false);
    assert.equal(r.stageTableCut, true);
    assert.deepEqual(r.stageTableUnreadRows, [{ after: 'vllm_itls_ms', before: 'vllm_queued_ms' }]);
    assert.equal(r.stages[0]?.split.values.prefillMs, talkerPrefill);
    assert.equal(r.stages[0]?.split.states.prefillMs, talkerPrefill === null ? 'notRecorded' : 'measured');
    assert.equal(r.stages[1]?.split.states.prefillMs, 'notRecorded');
    assert.equal(r.stages[1]?.fields['vllm_prefill_ms'], undefined);
    // The rows after the lost line were read.
    assert.equal(r.stages[0]?.split.values.queuedMs, 0.412);
    assert.equal(r.stages[1]?.split.values.ttftMs, 4_000);
    // The talker's printed decode 0 with 52 tokens out is still no measurement (one output), its prefill row lost or not.
    assert.equal(prefillCoversDecode(r, r.stages[0] as RequestStage), true);
    const codec = snapshot.stages.find((s) => s.stageKey === '1');
    assert.deepEqual(codec?.fieldsNotRecorded['vllm_prefill_ms'], { unread: 1 });
    const problem = snapshot.problems.find((p) => p.line === lineNo);
    assert.ok(problem !== undefined, JSON.stringify(snapshot.problems));
    assert.match(
      problem.message,
      talkerPrefill === null
        ? /line \d+ was cut short \(a partial write\) and not read; the values it may have held \(rows by name after vllm_itls_ms before vllm_queued_ms\) are unknown, not hidden/
        : /read only up to the cut \(the values of vllm_prefill_ms before it\); the values it may have held/,
    );
    assert.equal(snapshot.problems.length, 1, JSON.stringify(snapshot.problems));
    assert.ok(snapshot.findings.some((f) => f.code === 'truncated-record'));
  });
}

test('the stored request keeps its unread rows', () => {
  const analysis = analysedStream(Buffer.from(withPrefillLine(cutInPrefix).text));
  const index = 1;
  assert.equal(analysis.requests.requestIdAt(index), SECOND);
  const stored = analysis.requests.byId(SECOND);
  assert.deepEqual(stored?.stageTableUnreadRows, [{ after: 'vllm_itls_ms', before: 'vllm_queued_ms' }]);
  assert.equal(analysis.requests.stageAt(index, '0')?.split.states.prefillMs, 'notRecorded');
  assert.equal(analysis.requests.stageAt(index, '1')?.split.states.queuedMs, 'measured');
});

test('a lost last row before the bottom border leaves that row unknown and the table read', () => {
  const i = LINES.findIndex((l, k) => k > prefillRowIndex() && l.includes('| vllm_ttft_ms'));
  const lines = LINES.slice();
  lines[i] = (lines[i] as string).slice(0, 40);
  const r = request(analysedLog(Buffer.from(lines.join('\n'))).requests, SECOND);
  assert.deepEqual(r.stageTableUnreadRows, [{ after: 'vllm_queued_ms', before: null }]);
  assert.equal(r.stages[1]?.split.states.ttftMs, 'notRecorded');
  assert.equal(r.stages[1]?.split.values.prefillMs, 500);
});

test('an engine-stats line of the same process between two rows does not end the table', () => {
  const i = LINES.findIndex((l) => l.endsWith('| vllm_queued_ms                  |   0.251 |        88.402 |'));
  const lines = LINES.slice();
  lines.splice(
    i + 1,
    0,
    '(APIServer pid=5151) INFO 10-19 07:12:05 [loggers.py:127] Engine 000: Avg prompt throughput: 1.0 tokens/s, Running: 1 reqs, Waiting: 0 reqs',
  );
  const snapshot = analysedLog(Buffer.from(lines.join('\n')));
  assert.deepEqual(snapshot.problems, []);
  const first = request(snapshot.requests, 'speech-1d2893d9177b5763df3d547f5103319a');
  assert.equal(first.complete, true);
  assert.equal(first.stages[0]?.split.values.ttftMs, 608.904);
  assert.equal(first.stages[1]?.split.values.ttftMs, 133.202);
  const parser = new LogStreamParser();
  const records: LogRecord[] = [...parser.push(lines.join('\n')).records, ...parser.end().records];
  assert.equal(records.filter((r) => r.kind === 'engineStats').length, 1);
});

test('the same records however the damaged log is chunked', () => {
  const { text } = withPrefillLine(cutInPrefix);
  const whole = new LogStreamParser();
  const expected = [...whole.push(text).records, ...whole.end().records].filter(
    (r): r is StageTableRecord => r.kind === 'stageTable',
  );
  for (const size of [1, 7, 64, 333]) {
    const parser = new LogStreamParser();
    const records: LogRecord[] = [];
    for (let p = 0; p < text.length; p += size) records.push(...parser.push(text.slice(p, p + size)).records);
    records.push(...parser.end().records);
    assert.deepEqual(
      records.filter((r) => r.kind === 'stageTable'),
      expected,
      `chunks of ${size}`,
    );
  }
});
