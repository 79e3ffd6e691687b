// The stats files log_utils.py of vLLM-Omni before February 2026 writes beside its log
// (`<log file>.overall.stats.jsonl`, `.orchestrator.stats.jsonl`) through the built CLI: their
// requests' stage times, end to end and edges in JSON and the table, read by content (a copy
// under another name reads the same), and what the files are instead of the --log-stats advice.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runCli as cli } from './support/cliProcess';

const ROOT = path.resolve(__dirname, '..', '..');
const LOGS = path.join(ROOT, 'test', 'fixtures', 'logs');
const OVERALL = path.join(LOGS, 'log-utils-overall.stats.jsonl');
const ORCHESTRATOR = path.join(LOGS, 'log-utils-orchestrator.stats.jsonl');
const FIRST = '0_5d0b5a4e-7c1f-4d8e-9a43-2f6c1b7e9d10';
const SECOND = '1_a81f3c22-0b6e-4f7a-8d5c-6e2a9f41c3b7';
const NO_STATS_ADVICE = 'No per-request stage statistics found. vLLM-Omni prints them with --log-stats';

let dir = '';

before(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stage-lens-jsonl-'));
});

after(() => fs.rmSync(dir, { recursive: true, force: true }));

interface RequestJson {
  requestId: string;
  e2e: Record<string, number | null>;
  stages: Record<string, { fields: Record<string, number | null>; splitState: Record<string, string> }>;
  transfers: Record<string, { fields: Record<string, number | null> }>;
}

interface AnalyzeJson {
  legacyRecords: number;
  legacyRequests: number;
  findings: { code: string; message: string }[];
  requests: RequestJson[];
  runSummaries: { count: number; kept: { format: string; values: Record<string, number | null> }[] } | null;
}

function analyzeJson(file: string): AnalyzeJson {
  const out = cli(['analyze', file, '--format', 'json']);
  assert.equal(out.status, 0, out.stderr);
  return JSON.parse(out.stdout) as AnalyzeJson;
}

test('overall.stats.jsonl --format json: per-stage times and tokens, end to end, transfer totals', () => {
  const j = analyzeJson(OVERALL);
  assert.equal(j.legacyRecords, 3);
  assert.equal(j.legacyRequests, 2);
  assert.deepEqual(
    j.requests.map((r) => r.requestId),
    [FIRST, SECOND],
  );
  const r = j.requests[1];
  assert.deepEqual(
    Object.entries(r?.stages ?? {}).map(([k, s]) => [k, s.fields]),
    [
      ['0', { stage_gen_time_ms: 530, num_tokens_out: 128 }],
      ['1', { stage_gen_time_ms: 1490.5, num_tokens_out: 688 }],
    ],
  );
  for (const s of Object.values(r?.stages ?? {})) assert.equal(s.splitState['prefillMs'], 'notMeasured');
  assert.equal(r?.e2e['e2e_time_ms'], 2405);
  assert.equal(r?.e2e['transfers_total_time_ms'], 15);
  assert.equal(r?.e2e['transfers_total_bytes'], 3276800);
  assert.equal(j.runSummaries?.kept[0]?.format, 'log_utils overall_summary');
  assert.equal(j.runSummaries?.kept[0]?.values['wall_time_ms'], 2631.25);
  const finding = j.findings.find((f) => f.code === 'legacy-stats-format');
  assert.match(
    finding?.message ?? '',
    /<log file>\.orchestrator\.stats\.jsonl \(per request e2e_time_ms and each edge/,
  );
});

test('orchestrator.stats.jsonl --format json: end to end and each edge per request', () => {
  const j = analyzeJson(ORCHESTRATOR);
  assert.equal(j.legacyRequests, 2);
  const r = j.requests.find((q) => q.requestId === FIRST);
  assert.deepEqual(r?.stages, {});
  assert.equal(r?.e2e['e2e_time_ms'], 1712.5);
  assert.deepEqual(r?.transfers['0->1']?.fields, {
    size_bytes: 2457600,
    tx_time_ms: 6.25,
    in_flight_time_ms: 1.5,
    rx_decode_time_ms: 3.75,
    total_time_ms: 11.5,
    total_time_per_kb_ms: 0.004791666666666666,
    size_kbytes: 2400,
  });
});

test('the table says what the file is, not to turn on --log-stats; a renamed copy reads the same', () => {
  const renamed = path.join(dir, 'run-stats.txt');
  fs.copyFileSync(ORCHESTRATOR, renamed);
  const out = cli(['analyze', renamed]);
  assert.equal(out.status, 0, out.stderr);
  assert.ok(!out.stdout.includes(NO_STATS_ADVICE), out.stdout);
  assert.match(out.stdout, /Stage Lens: 2 requests, 0 stages from /);
  assert.match(out.stdout, /The input has 9 JSON records of the stats files log_utils\.py/);
  assert.match(out.stdout, /\nend to end +2 +2,059 +2,336 +2,398 +2,405\n/);
  assert.match(out.stdout, /\n0 → 1 +2 +2 +p50 +7\.375 +1\.750 +4\.125 +13\.25 +2,800\n/);
});

test('explain and compare read the file as a run of requests', () => {
  const explain = cli(['explain', OVERALL]);
  assert.equal(explain.status, 0, explain.stderr);
  assert.match(explain.stdout, /· 2 requests \(2 in scope\)/);
  assert.match(explain.stdout, /slowest: 1_a81f3c22-0b6e-4f7a-8d5c-6e2a9f41c3b7/);
  const compare = cli(['compare', OVERALL, OVERALL]);
  assert.equal(compare.status, 0, compare.stderr);
  assert.match(compare.stdout, /\nrequest +e2e +2\/2 +p50 +2,059 +2,059 /);
});

test('a broken line: the other records are read and the problem is counted', () => {
  const lines = fs.readFileSync(OVERALL, 'utf8').split('\n');
  const broken = path.join(dir, 'broken.overall.stats.jsonl');
  fs.writeFileSync(
    broken,
    [lines[0], '{"type": "overall_request", "request_id": "z", "e2e', lines[2], lines[3]].join('\n'),
  );
  const out = cli(['analyze', broken, '--format', 'json']);
  assert.equal(out.status, 0, out.stderr);
  const j = JSON.parse(out.stdout) as AnalyzeJson & { problems: { line: number; message: string }[] };
  assert.deepEqual(
    j.requests.map((r) => r.requestId),
    [SECOND],
  );
  assert.equal(j.problems.length, 1);
  assert.equal(j.problems[0]?.line, 2);
  assert.match(j.problems[0]?.message ?? '', /overall_request JSON line .*cut off/);
});

test('the two files piped as one input: each request once, with its stages, end to end and edge', () => {
  const both = fs.readFileSync(OVERALL, 'utf8') + fs.readFileSync(ORCHESTRATOR, 'utf8');
  const run = (args: string[]) => cli(['analyze', '-', ...args], { input: both });
  const json = run(['--format', 'json']);
  assert.equal(json.status, 0, json.stderr);
  const j = JSON.parse(json.stdout) as AnalyzeJson;
  assert.deepEqual(
    j.requests.map((r) => r.requestId),
    [FIRST, SECOND],
  );
  assert.deepEqual(
    j.findings.map((f) => f.code),
    ['legacy-stats-format'],
  );
  const first = j.requests[0];
  assert.equal(first?.stages['1']?.fields['stage_gen_time_ms'], 1103.75);
  assert.equal(first?.e2e['e2e_time_ms'], 1712.5);
  assert.equal(first?.e2e['e2e_time_per_token_ms'], 3.3447265625);
  assert.equal(first?.transfers['0->1']?.fields['total_time_ms'], 11.5);
  const table = run([]);
  assert.equal(table.status, 0, table.stderr);
  assert.match(table.stdout, /Stage Lens: 2 requests, 2 stages from stdin/);
  // 1712.5 and 2405 once each: the p90 interpolates between them, never 2405 from a duplicate.
  assert.match(table.stdout, /\nend to end +2 +2,059 +2,336 +2,398 +2,405\n/);
  assert.match(table.stdout, /\n0 → 1 +2 +2 +p50 +7\.375 +1\.750 +4\.125 +13\.25 +2,800\n/);
  assert.doesNotMatch(table.stdout, /#2/);
});
