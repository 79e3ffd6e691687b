// A log kept by a container runtime or a log shipper wraps each printed line in a JSON object
// (Docker's json-file driver, journalctl -o json, Loki, Cloud Logging, Python's JSON formatters):
// the lines inside are read as the plain log's, whatever the pieces it arrives in, and records
// and problems carry the file's line numbers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseLogText } from '../../server/core/log';
import type { ParseOutput } from '../../server/core/records';
import { wrapperFieldOf } from '../../server/core/log/jsonLinesInput';
import { formatterPrefixOf } from '../../server/core/log/jsonFormatterPrefix';
import { assertLinear } from './support/linearity';
import { parseChunks } from './support/logHelpers';
import { dockerJsonLog, vllmJsonFormatterLog } from './support/jsonLinesLogs';

const UPSTREAM = path.join(__dirname, '../fixtures/upstream-rendered');
const LOGS = path.join(__dirname, '../fixtures/logs');
const THREE_STAGE = fs.readFileSync(path.join(UPSTREAM, 'qwen3-omni-three-stage-transfers.log'), 'utf8');
const FIRST_AUDIO = fs.readFileSync(path.join(UPSTREAM, 'qwen3tts-talker-first-audio-after-fix.log'), 'utf8');

/** Every line of `log` as `{field: line}`, without its newline. */
function wrapped(log: string, field: string, extra: Record<string, unknown> = {}): string {
  return log
    .replace(/\n$/, '')
    .split('\n')
    .map((l) => JSON.stringify({ ...extra, [field]: l }))
    .join('\n');
}

/** Parsed from `pieces`-sized byte pieces (0: at once, as text). */
function parsed(text: string, pieces = 0): ParseOutput {
  if (pieces === 0) return parseLogText(text);
  const bytes = Buffer.from(text);
  return parseChunks(
    Array.from({ length: Math.ceil(bytes.length / pieces) }, (_, i) => bytes.subarray(i * pieces, (i + 1) * pieces)),
  );
}

test('the first line tells a JSON-lines log and its field', () => {
  assert.equal(wrapperFieldOf('{"log":"x\\n","stream":"stderr","time":"2026-12-01T10:00:00Z"}'), 'log');
  assert.equal(wrapperFieldOf('{"__REALTIME_TIMESTAMP":"1","MESSAGE":"x","_PID":"7"}'), 'MESSAGE');
  assert.equal(wrapperFieldOf('{"labels":{},"line":"x","timestamp":"t"}'), 'line');
  assert.equal(wrapperFieldOf('{"textPayload":"x","severity":"DEBUG"}'), 'textPayload');
  assert.equal(wrapperFieldOf('{"levelname":"DEBUG","message":"x"}'), 'message');
  // log_utils.py's own stats lines are JSON of their own, not wrapped log lines.
  assert.equal(wrapperFieldOf('{"type": "overall_request", "request_id": "0_a", "e2e_time_ms": 1.5}'), null);
  // journalctl -o json writes a message that is not printable UTF-8 as its bytes.
  assert.equal(wrapperFieldOf('{"MESSAGE":[27,91,48,109,104,105]}'), 'MESSAGE');
  assert.equal(wrapperFieldOf('{"MESSAGE":[27,256]}'), null);
  assert.equal(wrapperFieldOf('{"log": [104, 105]}'), null);
  assert.equal(wrapperFieldOf('{"log": 3}'), null);
  assert.equal(wrapperFieldOf('["log"]'), null);
  assert.equal(wrapperFieldOf('{"log": "x"'), null);
});

test("Docker's json-file log reads as the log it wraps, in pieces of any size", () => {
  for (const log of [THREE_STAGE, FIRST_AUDIO]) {
    const plain = parseLogText(log);
    assert.ok(plain.records.length > 10);
    const json = dockerJsonLog(log);
    for (const pieces of [0, 1, 7, 4096]) {
      const out = parsed(json, pieces);
      assert.deepEqual(out.records, plain.records, `pieces of ${pieces}`);
      assert.deepEqual(out.problems, plain.problems);
    }
  }
});

test('a byte-order mark before the first line, as bytes or as text, is not part of it', () => {
  const plain = parseLogText(FIRST_AUDIO);
  const json = dockerJsonLog(FIRST_AUDIO);
  for (const out of [parsed(`\uFEFF${json}`), parsed(`\uFEFF${json}`, 100)]) {
    assert.deepEqual(out.records, plain.records);
    assert.deepEqual(out.problems, plain.problems);
  }
});

test('journald, Loki, Cloud Logging and a CRI shipper with partial lines read the same requests', () => {
  const plain = parseLogText(THREE_STAGE);
  // A line with a colour code's ESC as journald's byte array, the others as strings.
  const journald = THREE_STAGE.replace(/\n$/, '')
    .split('\n')
    .map((l, i) =>
      JSON.stringify({
        __REALTIME_TIMESTAMP: '1764583200000000',
        _PID: '12672',
        MESSAGE: i % 2 === 0 ? l : [...Buffer.from(`\x1b[0m${l}`)],
      }),
    )
    .join('\n');
  const loki = wrapped(THREE_STAGE, 'line', { labels: { app: 'vllm' }, timestamp: '2026-12-01T10:00:00Z' });
  const gcp = wrapped(THREE_STAGE, 'textPayload', { severity: 'DEBUG' });
  // Fluent Bit's cri parser: each line in `log` without its newline, a long one cut into P parts.
  const cri = THREE_STAGE.replace(/\n$/, '')
    .split('\n')
    .flatMap((l) =>
      l.length > 60
        ? [
            JSON.stringify({ log: l.slice(0, 60), logtag: 'P', stream: 'stderr' }),
            JSON.stringify({ log: l.slice(60), logtag: 'F', stream: 'stderr' }),
          ]
        : [JSON.stringify({ log: l, logtag: 'F', stream: 'stderr' })],
    )
    .join('\n');
  for (const [name, text] of [
    ['journald', journald],
    ['loki', loki],
    ['gcp', gcp],
  ] as const) {
    const out = parsed(text, 333);
    assert.deepEqual(out.records, plain.records, name);
    assert.deepEqual(out.problems, plain.problems, name);
  }
  const out = parsed(cri, 333);
  assert.deepEqual(
    out.records.map((r) => r.kind),
    plain.records.map((r) => r.kind),
  );
  // Lines joined from P parts: the records are the plain log's, each at the line of its first part.
  const partialLines = cri.split('\n');
  const stage = out.records.find((r) => r.kind === 'stageTable');
  const plainStage = plain.records.find((r) => r.kind === 'stageTable');
  assert.ok(stage !== undefined && plainStage !== undefined);
  assert.deepEqual({ ...stage, line: 0 }, { ...plainStage, line: 0 });
  assert.match(partialLines[stage.line - 1] as string, /StageRequestStats/);
  assert.deepEqual(out.problems, []);
});

test("a JSON formatter's multi-line messages: the same values, each record at its message's line", () => {
  const plain = parseLogText(THREE_STAGE);
  const json = vllmJsonFormatterLog(THREE_STAGE, false);
  const lines = json.split('\n');
  assert.ok(lines.length < 40, `${lines.length} messages`);
  for (const pieces of [0, 5, 1000]) {
    const out = parsed(json, pieces);
    assert.equal(out.records.length, plain.records.length);
    for (const [i, r] of out.records.entries()) {
      const p = plain.records[i];
      assert.ok(p !== undefined && p.kind === r.kind);
      // The formatter prints no vLLM prefix: no header; the values are the plain log's.
      if (r.kind === 'stageTable' && p.kind === 'stageTable') assert.deepEqual(r.columns, p.columns);
      if (r.kind === 'requestE2E' && p.kind === 'requestE2E') assert.deepEqual(r.fields, p.fields);
    }
    const e2e = out.records.filter((r) => r.kind === 'requestE2E');
    assert.equal(e2e.length, 3);
    for (const r of e2e) {
      assert.ok(r.kind === 'requestE2E');
      const line = lines[r.line - 1] as string;
      assert.match(line, new RegExp(`RequestE2EStats \\[request_id=${r.requestId}\\]`), `record at line ${r.line}`);
    }
  }
});

test("vLLM's JSON formatter: each line gets the prefix its text formatter prints, so the records are the plain log's", () => {
  for (const log of [THREE_STAGE, FIRST_AUDIO]) {
    const plain = parseLogText(log);
    const json = vllmJsonFormatterLog(log);
    assert.ok(json.split('\n').length < log.split('\n').length / 3);
    const out = parsed(json, 4096);
    assert.deepEqual(
      out.records.map((r) => ({ ...r, line: 0 })),
      plain.records.map((r) => ({ ...r, line: 0 })),
    );
    assert.deepEqual(out.problems, plain.problems);
    const stage = out.records.find((r) => r.kind === 'stageTable');
    assert.match(stage?.header?.process ?? '', /^APIServer pid=\d+$/);
    assert.match(stage?.header?.timestamp ?? '', /^10-\d\d \d\d:\d\d:\d\d$/);
  }
});

test("OpenTelemetry's JSON formatter (body, timestamp, severity_text) and the prefix's limits", () => {
  assert.equal(
    formatterPrefixOf({
      timestamp: '2026-12-01T10:00:05.123456Z',
      severity_text: 'WARN',
      logger: 'vllm_omni.metrics.stats',
    }),
    'WARNING 12-01 10:00:05 [vllm_omni.metrics.stats:0] ',
  );
  assert.equal(
    formatterPrefixOf({
      asctime: '2026-12-01 10:00:05,123',
      levelname: 'debug',
      process: 7,
      processName: 'Engine Core (0)',
    }),
    '(Engine_Core__0_ pid=7) DEBUG 12-01 10:00:05 [json:0] ',
  );
  // A colon would end the call site's path; spaces and brackets would end the prefix.
  assert.equal(
    formatterPrefixOf({ asctime: '12-01 10:00:05', levelname: 'INFO', filename: 'C:\\srv\\[x] y.py', lineno: 12 }),
    'INFO 12-01 10:00:05 [C__srv__x__y.py:12] ',
  );
  // No time or no level: no prefix, the message is read as printed.
  assert.equal(formatterPrefixOf({ levelname: 'DEBUG', message: 'x' }), null);
  assert.equal(formatterPrefixOf({ asctime: 'yesterday', levelname: 'DEBUG' }), null);
  assert.equal(formatterPrefixOf({ asctime: '12-01 10:00:05', levelname: 'NOTICE' }), null);
  const entry = (body: string, time: string) =>
    JSON.stringify({
      timestamp: time,
      severity_text: 'DEBUG',
      severity_number: 5,
      body,
      logger: 'vllm_omni.metrics.stats',
    });
  const text = [
    entry(
      '[OmniTiming] request_id=speech-1 total=1.25s preprocess=0.00s engine=1.24s stage0=1.10s stage1=1.24s tx0->1=0.00s',
      '2026-12-01T10:00:05.000001Z',
    ),
  ].join('\n');
  const out = parsed(text, 10);
  const timing = out.records.find((r) => r.kind === 'omniTiming');
  assert.ok(timing !== undefined, JSON.stringify(out));
  assert.equal(timing.header?.timestamp, '12-01 10:00:05');
  assert.equal(timing.header?.level, 'DEBUG');
});

test("a problem's line is the JSON line it came from, and a line that is not JSON is read as text and said", () => {
  const json = vllmJsonFormatterLog(THREE_STAGE, false).split('\n');
  // The second message's table, cut after five of its lines.
  const at = json.findIndex((l) => l.includes('[StageRequestStats'));
  const message = (JSON.parse(json[at] as string) as { message: string }).message;
  json[at] = JSON.stringify({ levelname: 'DEBUG', message: message.split('\n').slice(0, 5).join('\n') });
  json.splice(at + 1, 0, 'Traceback (most recent call last): not JSON');
  const out = parsed(json.join('\n'), 64);
  const cut = out.problems.find((p) => /cut off/.test(p.message));
  assert.ok(cut !== undefined, JSON.stringify(out.problems));
  assert.equal(cut.line, at + 1);
  const notJson = out.problems.find((p) => /not a JSON object/.test(p.message));
  assert.ok(notJson !== undefined);
  assert.equal(notJson.line, at + 2);
  assert.match(notJson.message, /string "message" field/);
  assert.equal(out.records.filter((r) => r.kind === 'requestE2E').length, 3);
});

test('not JSON lines: a plain log, a log_utils.py stats file and a first line that is no JSON object read as before', () => {
  for (const text of [
    THREE_STAGE,
    fs.readFileSync(path.join(LOGS, 'log-utils-overall.stats.jsonl'), 'utf8').replace(/^#.*\n/, ''),
    `{"not": "a wrapper"}\n${THREE_STAGE}`,
    `${'{'.repeat(70_000)}\n${THREE_STAGE}`,
  ]) {
    const plain = parseLogText(text);
    assert.ok(plain.records.length > 0);
    const out = parsed(text, 999);
    assert.deepEqual(out.records, plain.records);
    assert.deepEqual(out.problems, plain.problems);
  }
});

test('hostile JSON lines cost a line each, not the parse', () => {
  const deep = '['.repeat(200_000) + ']'.repeat(200_000);
  const text = `${JSON.stringify({ log: 'start\n' })}\n${deep}\n{"log": ${deep}}\n${dockerJsonLog(FIRST_AUDIO)}`;
  const out = parsed(text, 65_536);
  assert.equal(out.records.filter((r) => r.kind === 'requestE2E').length, 6);
  assert.ok(out.problems.some((p) => p.line === 2 && /not a JSON object/.test(p.message)));
  assert.ok(out.problems.some((p) => p.line === 3 && /2 lines of this JSON-lines log/.test(p.message)));
  // A line far past the line limit is given as it is and cut by the line splitter.
  const long = parseChunks([`{"log": "x\\n"}\n{"log": "${'y'.repeat(10_000)}\\n"}\n${dockerJsonLog(FIRST_AUDIO)}`], {
    maxLineLength: 1000,
  });
  assert.equal(long.records.filter((r) => r.kind === 'requestE2E').length, 6);
  assert.deepEqual(
    long.problems.map((p) => p.line),
    [2],
    JSON.stringify(long.problems),
  );
});

test("line numbers stay right past the line map's limit (its older half let go)", () => {
  const filler = Array.from({ length: 70_000 }, (_, i) => JSON.stringify({ message: `line ${i}\nits second line` }));
  const cut = JSON.stringify({ message: '[StageRequestStats [request_id=r-late]]\n+------+-----+\n| Field | 0 |' });
  const out = parsed([...filler, cut, JSON.stringify({ message: 'after' })].join('\n'), 1 << 20);
  const problem = out.problems.find((p) => /cut off/.test(p.message));
  assert.ok(problem !== undefined, JSON.stringify(out.problems));
  assert.equal(problem.line, 70_001);
});

test('a JSON-lines log is read in linear time', () => {
  const entry = (i: number) =>
    JSON.stringify({ levelname: 'DEBUG', message: `[OmniTiming] request_id=r${i} total=1.00s\nline two\nline three` });
  assertLinear(
    'JSON formatter messages of three lines',
    (n) => Array.from({ length: n }, (_, i) => entry(i)).join('\n'),
    (text) => parsed(text, 4096),
    { start: 64, maxN: 65_536 },
  );
});
