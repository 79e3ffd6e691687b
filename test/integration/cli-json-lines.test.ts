// A server log kept by Docker's json-file driver (/var/lib/docker/containers/<id>/<id>-json.log:
// each printed line a JSON object) or exported by a log shipper, read by the built CLI as a real
// child process: the same report as the plain log, its rotations read as one log, and a JSON
// formatter's multi-line messages placed at their file lines.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as zlib from 'node:zlib';
import { runCli as cli } from './support/cliProcess';
import { tempFolder } from './support/tempFolder';
import { dockerJsonLog } from '../unit/support/jsonLinesLogs';

const ROOT = path.resolve(__dirname, '..', '..');
const UPSTREAM = path.join(ROOT, 'test', 'fixtures', 'upstream-rendered');
const FIXTURES = fs.readdirSync(UPSTREAM).filter((f) => f.endsWith('.log'));
const dir = tempFolder('stage-lens-json-lines-');

interface Json {
  requests: {
    requestId: string;
    line: number;
    timestamp: string | null;
    stages: Record<string, { split: Record<string, number | null> }>;
  }[];
  problems: { line: number; message: string }[];
}

test("every upstream-rendered fixture in Docker's json-file format: analyze gives the plain log's JSON and table", () => {
  assert.ok(FIXTURES.length >= 4, FIXTURES.join());
  fs.mkdirSync(path.join(dir, 'docker'), { recursive: true });
  for (const fixture of FIXTURES) {
    const plain = path.join(UPSTREAM, fixture);
    // The same file name: stage roles are read from it.
    const wrapped = path.join(dir, 'docker', fixture);
    fs.writeFileSync(wrapped, dockerJsonLog(fs.readFileSync(plain, 'utf8')));
    const want = cli(['analyze', plain, '--format', 'json']);
    const got = cli(['analyze', wrapped, '--format', 'json']);
    assert.equal(got.status, 0, got.stderr);
    assert.equal(got.stderr, '');
    assert.ok((JSON.parse(want.stdout) as Json).requests.length > 0, fixture);
    assert.equal(got.stdout, want.stdout, fixture);
    const table = cli(['analyze', wrapped]);
    assert.equal(table.stdout, cli(['analyze', plain]).stdout.replace(plain, wrapped), fixture);
  }
  const table = cli(['analyze', path.join(dir, 'docker', 'qwen3-omni-three-stage-transfers.log')]).stdout;
  assert.match(table, /^0 · thinker {3}3 {2}p50 {3}1\.610 {4}411\.2 {3}982\.1 {2}415\.3/m);
});

test("Docker's rotated json-file logs (<id>-json.log.1.gz, <id>-json.log) read as one log", () => {
  const text = dockerJsonLog(fs.readFileSync(path.join(UPSTREAM, 'qwen3tts-talker-first-audio-after-fix.log'), 'utf8'));
  // Docker rotates between entries; the cut is inside a table.
  const lines = text.split(/(?<=\n)/);
  const cut = Math.floor(lines.length / 2);
  const older = path.join(dir, 'abc-json.log.1.gz');
  const current = path.join(dir, 'abc-json.log');
  fs.writeFileSync(older, zlib.gzipSync(lines.slice(0, cut).join('')));
  fs.writeFileSync(current, lines.slice(cut).join(''));
  const whole = path.join(dir, 'whole-json.log');
  fs.writeFileSync(whole, text);
  const r = cli(['analyze', current, older, '--format', 'json']);
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stderr, `stage-lens analyze: read as one log, oldest first: ${older}, ${current}\n`);
  const joined = JSON.parse(r.stdout) as Json;
  const want = JSON.parse(cli(['analyze', whole, '--format', 'json']).stdout) as Json;
  assert.equal(joined.requests.length, 6);
  assert.deepEqual(joined.requests, want.requests);
  assert.deepEqual(joined.problems, []);
});

test("vLLM's JSON formatter: multi-line messages read with their log time, each request at its message's line", () => {
  // One object per logging call, a whole table in `message`; the time, level and process beside it.
  const at = { asctime: '12-01 10:00:05', levelname: 'DEBUG', process: 4242, vllm_process_name: 'APIServer' };
  const entries = [
    { levelname: 'INFO', message: 'vLLM-Omni API server started' },
    {
      ...at,
      message: [
        '[StageRequestStats [request_id=speech-1]]',
        '+------------------+---------+---------+',
        '| Field            |       0 |       1 |',
        '+------------------+---------+---------+',
        '| num_tokens_out   |      24 |       0 |',
        '| stage_gen_time_ms| 612.904 | 731.804 |',
        '| vllm_decode_ms   |  12.000 | 596.402 |',
        '| vllm_prefill_ms  | 607.053 |  41.104 |',
        '| vllm_queued_ms   |   0.251 |  88.402 |',
        '| vllm_ttft_ms     | 608.904 | 133.202 |',
        '+------------------+---------+---------+',
      ].join('\n'),
    },
    'a line a shipper wrote that is not JSON',
    {
      ...at,
      message: [
        '[RequestE2EStats [request_id=speech-1]]',
        '+--------------+---------+',
        '| Field        |   Value |',
        '+--------------+---------+',
        '| e2e_total_ms | 737.074 |',
        '+--------------+---------+',
      ].join('\n'),
    },
  ];
  const file = path.join(dir, 'formatter.jsonl');
  fs.writeFileSync(file, entries.map((e) => (typeof e === 'string' ? e : JSON.stringify(e))).join('\n') + '\n');
  const r = cli(['analyze', file, '--format', 'json']);
  assert.equal(r.status, 0, r.stderr);
  const doc = JSON.parse(r.stdout) as Json;
  assert.equal(doc.requests.length, 1);
  const [request] = doc.requests;
  assert.ok(request !== undefined);
  assert.equal(request.line, 2);
  assert.equal(request.timestamp, '12-01 10:00:05');
  assert.equal(request.stages['0']?.split['prefillMs'], 607.053);
  assert.equal(request.stages['1']?.split['queuedMs'], 88.402);
  assert.deepEqual(
    doc.problems.map((p) => [p.line, p.message]),
    [
      [
        3,
        'line 3 is not a JSON object with a string "message" field, as this JSON-lines log\'s first line is: read as plain text',
      ],
    ],
  );
});
