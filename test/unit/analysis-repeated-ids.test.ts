// Request ids seen more than once: a log concatenated with itself prints every record of every
// request twice (repeated-request-ids, each repeat still a request of its own), while one
// request's records that come apart (another request's between them, one stage table per
// stage) print different records and repeat nothing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { analysedLog } from './support/analysedLog';
import { FIXTURES, fixtureLog, utf8 } from './support/logHelpers';
import { RequestAssembler } from '../../server/core/analysis/requestAssembler';
import { RequestStore } from '../../server/core/analysis/requestStore';
import { FindingsBuilder } from '../../server/core/analysis/findings';
import type { StageTableRecord } from '../../server/core/records';
import type { AnalyzedRequest, Finding } from '../../server/core/analysis/types';

const ONE = readFileSync(join(FIXTURES, 'upstream-rendered', 'qwen3-omni-three-stage-transfers.log'), 'utf8');
const FIRST = 'chatcmpl-3c88c0cf9be8c9bf';
const SECOND = 'chatcmpl-7f0f5c781f1aae4a';

const repeated = (findings: readonly Finding[]): Finding | undefined =>
  findings.find((f) => f.code === 'repeated-request-ids');

/** The log's records as line blocks: a table from its lead-in (the bare prefix), a one-line record alone. */
function blocks(text: string): string[][] {
  const out: string[][] = [];
  for (const line of text.split('\n')) {
    if (line === '') continue;
    const message = line.slice(line.indexOf('] ') + 2);
    if (
      message === '' ||
      message.startsWith('[OmniTiming]') ||
      (!message.startsWith('|') && !message.startsWith('+') && !message.startsWith('['))
    )
      out.push([line]);
    else out[out.length - 1]?.push(line);
  }
  return out;
}

test('a log concatenated with itself: every request repeated, said once with an example, none dropped', () => {
  const once = analysedLog(utf8(ONE));
  assert.equal(repeated(once.findings), undefined);
  const twice = analysedLog(utf8(fixtureLog('qwen3-omni-concatenated-twice.log')));
  assert.equal(once.requestCount, 3);
  assert.equal(twice.requestCount, 6);
  const f = repeated(twice.findings);
  assert.ok(f !== undefined, twice.findings.map((x) => x.code).join(' '));
  assert.equal(f.severity, 'warning');
  assert.equal(f.requestCount, 3);
  assert.deepEqual(f.requestIds, [`${FIRST}#2`, `${SECOND}#2`, 'chatcmpl-ae4840a79e5b9ea1#2']);
  assert.match(f.message, /^3 request ids were seen more than once: 3 requests print again a record/);
  assert.match(f.message, new RegExp(`e\\.g\\. ${FIRST}, again at line 213 as ${FIRST}#2`));
  assert.match(f.message, /of the 6 requests read, 3 are repeats/);
  // The repeats are kept as requests, with their numbers.
  const copy = twice.requests.find((r) => r.requestId === `${FIRST}#2`);
  assert.equal(copy?.repeat, 'first');
  assert.equal(copy?.stages[0]?.split.values.prefillMs, 406.2);
  assert.equal(twice.requests.find((r) => r.requestId === FIRST)?.repeat, undefined);
});

test('three copies: three ids seen more than once, six repeats, the later ones not a first repeat', () => {
  const thrice = analysedLog(utf8(ONE + ONE + ONE));
  const f = repeated(thrice.findings);
  assert.equal(f?.requestCount, 6);
  assert.match(f?.message ?? '', /^3 request ids were seen more than once: 6 requests print again/);
  assert.equal(thrice.requests.find((r) => r.requestId === `${FIRST}#3`)?.repeat, 'again');
});

test('one request whose records another request interrupts: two requests of one id, no repeat', () => {
  const all = blocks(ONE);
  const of = (id: string) =>
    all.filter((b) => b.some((l) => l.includes(`[request_id=${id}]`) || l.includes(`req=${id} `)));
  const [e2e, timing, stage, transfer] = of(FIRST);
  assert.ok(e2e !== undefined && timing !== undefined && stage !== undefined && transfer !== undefined);
  const text = [e2e, timing, ...of(SECOND), stage, transfer].flat().join('\n') + '\n';
  const s = analysedLog(utf8(text));
  assert.deepEqual(
    s.requests.map((r) => r.requestId),
    [FIRST, SECOND, `${FIRST}#2`],
  );
  assert.equal(repeated(s.findings), undefined);
  // The same records once more repeat them.
  const again = analysedLog(utf8(text + text));
  assert.equal(repeated(again.findings)?.requestCount, 3);
});

function stageTable(id: string, line: number, stageIds: readonly number[]): StageTableRecord {
  return {
    kind: 'stageTable',
    line,
    header: null,
    requestId: id,
    identity: { request_id: id },
    columns: stageIds.map((stageId) => ({
      column: String(stageId),
      stageId,
      segment: 1,
      fields: { stage_gen_time_ms: { state: 'measured', value: 10 + stageId } },
    })),
    rows: ['stage_gen_time_ms'],
    complete: true,
  };
}

test('one stage table per stage for one id is no repeat; a stage printed again is', () => {
  const assembler = new RequestAssembler();
  const requests: AnalyzedRequest[] = [];
  for (const [line, stages] of [
    [1, [0]],
    [5, [1]],
    [9, [2]],
  ] as const)
    requests.push(...assembler.add(stageTable('r', line, stages)));
  requests.push(...assembler.flush());
  assert.deepEqual(
    requests.map((r) => [r.requestId, r.repeat ?? null]),
    [
      ['r', null],
      ['r#2', null],
      ['r#3', null],
    ],
  );
  requests.length = 0;
  requests.push(...assembler.add(stageTable('r', 13, [1, 2])));
  requests.push(...assembler.flush());
  assert.deepEqual(
    requests.map((r) => [r.requestId, r.repeat ?? null]),
    [['r#4', 'first']],
  );
});

test('a repeat kept in the packed store reads back as one, and its finding is made again from the store', () => {
  const twice = analysedLog(utf8(ONE + ONE));
  const store = new RequestStore();
  for (const r of twice.requests) store.add(r);
  const findings = new FindingsBuilder();
  for (const r of store) findings.add(r);
  assert.deepEqual(
    [...store].map((r) => r.repeat ?? null),
    [null, null, null, 'first', 'first', 'first'],
  );
  assert.equal(repeated(findings.findings())?.message, repeated(twice.findings)?.message);
});
