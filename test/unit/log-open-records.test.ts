// At most one record is open per process, and at most 256 at once: past that the oldest open
// record is cut off (kept with the rows it has, flagged incomplete). Processes that finish a
// record every few lines reuse their slot; a log naming a new process on every line keeps a
// bounded number of slots.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseLogText } from '../../server/core/log';
import { OpenRecords } from '../../server/core/log/openRecords';
import type { OpenRecord } from '../../server/core/log/openRecord';

const prefix = (p: number): string => `(P${p}) DEBUG 10-19 07:12:05 [vllm_omni/metrics/stats.py:987] `;
const lines = (p: number, texts: readonly string[]): string => texts.map((t) => prefix(p) + t + '\n').join('');
const BORDER = '+------------------+---------+';
/** A RequestE2EStats table up to its first row, left open. */
const opening = (p: number, id: string): string =>
  lines(p, [
    `[RequestE2EStats [request_id=${id}]]`,
    BORDER,
    '| Field            |   Value |',
    BORDER,
    `| e2e_total_ms     | ${p}.5 |`,
  ]);
const closing = (p: number): string => lines(p, ['| e2e_total_tokens |      41 |', BORDER]);

function e2eRecords(text: string): { id: string; complete: boolean; fields: string[] }[] {
  return parseLogText(text).records.map((r) => {
    assert.equal(r.kind, 'requestE2E');
    return { id: r.requestId, complete: r.complete, fields: Object.keys(r.fields) };
  });
}

test('past 256 open records the oldest is cut off first, and a process reuses its slot afterwards', () => {
  let text = '';
  for (let round = 0; round < 2; round++) {
    for (let p = 0; p < 300; p++) text += opening(p, `r${round}-${p}`);
    for (let p = 0; p < 300; p++) text += closing(p);
  }
  const records = e2eRecords(text);
  assert.equal(records.length, 600);
  for (let round = 0; round < 2; round++) {
    const of = records.slice(round * 300, round * 300 + 300);
    // The 257th process's table cuts P0's, the 258th P1's, ... the 300th P43's. P0's last rows,
    // read after its table was cut, open an untitled table of P0's own, which cuts P44's: 45
    // tables end cut with their first row, the other 255 whole.
    assert.deepEqual(
      of.slice(0, 45).map((r) => [r.id, r.complete, r.fields.length]),
      Array.from({ length: 45 }, (_, p) => [`r${round}-${p}`, false, 1]),
    );
    assert.deepEqual(
      of.slice(45).map((r) => [r.id, r.complete, r.fields.length]),
      Array.from({ length: 255 }, (_, i) => [`r${round}-${i + 45}`, true, 2]),
    );
  }
});

test('records still open at the end of the input are emitted oldest first', () => {
  // P2 opens first, then P0, then P1 (after P1 finished one table and opened another).
  const text = opening(2, 'a') + opening(0, 'b') + opening(1, 'c0') + closing(1) + opening(1, 'c1');
  assert.deepEqual(
    e2eRecords(text).map((r) => [r.id, r.complete]),
    [
      ['c0', true],
      ['a', false],
      ['b', false],
      ['c1', false],
    ],
  );
});

test('slots of processes gone quiet are dropped: a new process per record keeps at most twice the limit', () => {
  const open = new OpenRecords(4);
  const record = (): OpenRecord => ({}) as OpenRecord;
  for (let p = 0; p < 1000; p++) {
    const r = record();
    assert.equal(open.set(`P${p}`, r), null);
    open.forget(`P${p}`, r);
    assert.ok(open.slotCount <= 8, `${open.slotCount} slots after ${p + 1} processes`);
  }
  assert.equal(open.size, 0);
  // A record forgotten after another took its process's slot leaves the newer one open.
  const first = record();
  const second = record();
  open.set('P', first);
  open.set('P', second);
  open.forget('P', first);
  assert.equal(open.get('P'), second);
  assert.equal(open.size, 1);
});
