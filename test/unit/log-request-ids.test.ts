// Request ids as the server prints them: as they are, spaces and quotes included, in a table
// title (`[request_id=<id> response=… turn=… reason=…]`) and after `req=` on the [OmniTiming]
// line, which prints only `key=value` parts after it. One request stays one request.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { analysedLog } from './support/analysedLog';
import { LogStreamParser } from '../../server/core/log';
import type { LogRecord, OmniTimingRecord } from '../../server/core/records';
import { parseIdentity } from '../../server/core/log/title';

const LOG = fs
  .readFileSync(
    path.resolve(__dirname, '..', 'fixtures', 'upstream-rendered', 'qwen3tts-talker-first-audio-after-fix.log'),
    'utf8',
  )
  .replace(/\r/g, '');
const FIRST = 'speech-1d2893d9177b5763df3d547f5103319a';
const PREFIX = '(APIServer pid=5151) INFO 10-19 07:12:05 [vllm_omni/metrics/stats.py:910] ';
const TIMING_TAIL = 'total=0.74s preprocess=0.00s engine=0.73s stages=[0:0.61s,1:0.73s] transfers=[0->1=0.00ms]';

function parsed(text: string): { records: LogRecord[]; problems: string[] } {
  const parser = new LogStreamParser();
  const a = parser.push(text);
  const b = parser.end();
  return { records: [...a.records, ...b.records], problems: [...a.problems, ...b.problems].map((p) => p.message) };
}

const timings = (records: LogRecord[]): OmniTimingRecord[] =>
  records.filter((r): r is OmniTimingRecord => r.kind === 'omniTiming');

test('an id with spaces and quotes keeps its E2E table, [OmniTiming] line and stage table in one request', () => {
  const id = '=cmd|"/c calc"!A1,x';
  const snapshot = analysedLog(Buffer.from(LOG.split(FIRST).join(id)));
  assert.equal(snapshot.requestCount, 6);
  assert.deepEqual(snapshot.problems, []);
  const r = snapshot.requests.find((q) => q.requestId === id);
  assert.ok(r !== undefined, snapshot.requests.map((q) => q.requestId).join(' / '));
  assert.equal(r.e2e['e2e_total_ms']?.state, 'measured');
  assert.equal(r.timing?.totalS, 0.74);
  assert.equal(r.stages.length, 2);
  assert.equal(r.stages[0]?.split.values.prefillMs, 607.053);
  assert.ok(!snapshot.requests.some((q) => q.requestId.endsWith('#2')));
});

test('an id with a terminal escape (an unbalanced `[`) stays one request: the [OmniTiming] parts after it are read', () => {
  for (const escape of ['\x1b[2J', '\x1b[K', '\x1b[H', '\x1b[1A', 'a[b']) {
    const id = `a${escape}b`;
    const snapshot = analysedLog(Buffer.from(LOG.split(FIRST).join(id)));
    assert.equal(snapshot.requestCount, 6, JSON.stringify(escape));
    const r = snapshot.requests.find((q) => q.requestId === id);
    assert.ok(r !== undefined, snapshot.requests.map((q) => JSON.stringify(q.requestId)).join(' / '));
    assert.equal(r.timing?.totalS, 0.74);
    assert.deepEqual(
      r.timing?.stages.map((s) => [s.stageId, s.seconds]),
      [
        [0, 0.61],
        [1, 0.73],
      ],
    );
    assert.equal(r.stages.length, 2);
    assert.equal(r.e2e['e2e_total_ms']?.state, 'measured');
    assert.equal(snapshot.tablesMissing, null);
  }
});

test('[OmniTiming] without a title: the id runs on over parts without `=`, identity values too', () => {
  const { records, problems } = parsed(
    `${PREFIX}[OmniTiming] req=my id "with" spaces response=r 1 turn=2 reason=end of turn ${TIMING_TAIL}\n`,
  );
  const [t] = timings(records);
  assert.equal(t?.requestId, 'my id "with" spaces');
  assert.deepEqual(t?.identity, {
    request_id: 'my id "with" spaces',
    response: 'r 1',
    turn: '2',
    reason: 'end of turn',
  });
  assert.equal(t?.totalS, 0.74);
  assert.equal(t?.stages.length, 2);
  assert.deepEqual(problems, []);
});

test('[OmniTiming] id followed by an unknown key=value part: read up to it, and said', () => {
  const { records, problems } = parsed(`${PREFIX}[OmniTiming] req=a b=c ${TIMING_TAIL}\n`);
  assert.equal(timings(records)[0]?.requestId, 'a');
  assert.equal(problems.length, 1);
  assert.match(problems[0] ?? '', /request id a may go on with b=c .* read as a/);
});

test('the same line after the request table titled with the whole id: read as that id, one request', () => {
  const id = 'a b=c';
  const title = (name: string) => `${PREFIX}[${name} [request_id=${id}]]`;
  const text = [
    PREFIX,
    title('RequestE2EStats'),
    `${PREFIX}+------------------+---------+`,
    `${PREFIX}| Field            |   Value |`,
    `${PREFIX}+------------------+---------+`,
    `${PREFIX}| e2e_total_ms     | 737.074 |`,
    `${PREFIX}+------------------+---------+`,
    `${PREFIX}[OmniTiming] req=${id} ${TIMING_TAIL}`,
    '',
  ].join('\n');
  const { records, problems } = parsed(text);
  assert.deepEqual(problems, []);
  const ids = records.flatMap((r) => ('requestId' in r ? [r.requestId] : []));
  assert.deepEqual(ids, [id, id]);
  assert.equal(analysedLog(Buffer.from(text)).requestCount, 1);
});

test('a title identity: a part with a key the server does not print continues the value', () => {
  assert.deepEqual(parseIdentity('request_id=a b=c'), { request_id: 'a b=c' });
  assert.deepEqual(parseIdentity('request_id=x y response=r turn=2 reason=end of turn'), {
    request_id: 'x y',
    response: 'r',
    turn: '2',
    reason: 'end of turn',
  });
});
