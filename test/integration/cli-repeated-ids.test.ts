// A log concatenated with itself (`cat a.log a.log`) through the built CLI: every request is
// read twice, and the table, the JSON and the CSV (on stderr) say so, with the repeats counted.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { runCli as cli } from './support/cliProcess';

const ROOT = path.resolve(__dirname, '..', '..');
const ONCE = path.join(ROOT, 'test', 'fixtures', 'upstream-rendered', 'qwen3-omni-three-stage-transfers.log');
// That log twice in one file.
const TWICE = path.join(ROOT, 'test', 'fixtures', 'logs', 'qwen3-omni-concatenated-twice.log');
const SAID =
  /3 request ids were seen more than once: 3 requests print again a record an earlier request of the same id printed \(e\.g\. chatcmpl-3c88c0cf9be8c9bf, again at line 213 as chatcmpl-3c88c0cf9be8c9bf#2\)/;

test('table: the repeats counted as requests, and the warning says they are repeats', () => {
  const out = cli(['analyze', TWICE]);
  assert.equal(out.status, 0, out.stderr);
  assert.match(out.stdout, /^Stage Lens: 6 requests, 3 stages/);
  assert.match(out.stdout, /\[warning\] repeated-request-ids, 3 requests: /);
  assert.match(out.stdout.replace(/\s+/g, ' '), SAID);
  const once = cli(['analyze', ONCE]);
  assert.equal(once.status, 0, once.stderr);
  assert.doesNotMatch(once.stdout, /repeated-request-ids/);
});

test('--format json: the finding with the repeated requests, which stay in requests', () => {
  const out = cli(['analyze', TWICE, '--format', 'json']);
  assert.equal(out.status, 0, out.stderr);
  const j = JSON.parse(out.stdout) as {
    requestCount: number;
    requests: { requestId: string }[];
    findings: { code: string; severity: string; requestIds: string[]; requestCount: number; message: string }[];
  };
  const f = j.findings.find((x) => x.code === 'repeated-request-ids');
  assert.ok(f !== undefined, j.findings.map((x) => x.code).join(' '));
  assert.equal(f.severity, 'warning');
  assert.equal(f.requestCount, 3);
  assert.deepEqual(f.requestIds, [
    'chatcmpl-3c88c0cf9be8c9bf#2',
    'chatcmpl-7f0f5c781f1aae4a#2',
    'chatcmpl-ae4840a79e5b9ea1#2',
  ]);
  assert.match(f.message, SAID);
  assert.equal(j.requests.length, 6);
});

test('--format csv: the rows of both copies, and the note on stderr', () => {
  const out = cli(['analyze', TWICE, '--format', 'csv']);
  assert.equal(out.status, 0, out.stderr);
  const ids = new Set(
    out.stdout
      .trim()
      .split('\n')
      .slice(1)
      .map((row) => row.split(',')[0]),
  );
  assert.deepEqual(
    [...ids],
    [
      'chatcmpl-3c88c0cf9be8c9bf',
      'chatcmpl-7f0f5c781f1aae4a',
      'chatcmpl-ae4840a79e5b9ea1',
      'chatcmpl-3c88c0cf9be8c9bf#2',
      'chatcmpl-7f0f5c781f1aae4a#2',
      'chatcmpl-ae4840a79e5b9ea1#2',
    ],
  );
  assert.match(out.stderr.replace(/\s+/g, ' '), SAID);
  assert.match(out.stderr, /of the 6 requests read, 3 are repeats/);
  const once = cli(['analyze', ONCE, '--format', 'csv']);
  assert.doesNotMatch(once.stderr, /seen more than once/);
});
