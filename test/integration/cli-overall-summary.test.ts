// `stage-lens analyze` as a user runs it (the built dist/cli.js, a real child process) on real
// public logs that hold [Overall Summary] tables and no per-request stage table: the table says
// what the summaries print and what is missing, the JSON carries them as `overallSummaries`.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { buildBundles } from './support/buildBundles';

const ROOT = path.resolve(__dirname, '..', '..');
const CLI = path.join(ROOT, 'dist', 'cli.js');
const REAL = path.join(ROOT, 'test', 'fixtures', 'real-logs');

before(() => buildBundles('cli'));

function analyze(args: string[], input?: Buffer) {
  return spawnSync(process.execPath, [CLI, 'analyze', ...args], {
    encoding: 'utf8',
    input,
    timeout: 60_000,
    cwd: ROOT,
  });
}

test('real-logs 02 (table): the one table as printed, the notice and the fix, not "no statistics found"', () => {
  const run = analyze([path.join(REAL, '02-pr891-overall-apiserver-prefix.log')]);
  assert.equal(run.status, 0, run.stderr);
  const out = run.stdout;
  assert.doesNotMatch(out, /No per-request stage statistics found/);
  assert.match(out, /No per-request stage statistics: the log has 1 \[Overall Summary\] table/);
  assert.match(out.replaceAll('\n', ' '), /VLLM_LOGGING_LEVEL=DEBUG/);
  for (const line of [
    'e2e_requests                          1',
    'e2e_wall_time_ms             40,828.324',
    'e2e_total_tokens                  5,105',
    'e2e_avg_tokens_per_s            125.036',
    'e2e_stage_0_wall_time_ms     10,659.139',
    'e2e_stage_1_wall_time_ms     24,827.949',
    'e2e_stage_2_wall_time_ms        625.227',
  ])
    assert.ok(out.split('\n').includes(line), `${line}\n${out}`);
});

test('real-logs 01 from stdin (json): `overallSummaries` is one top-level line, and says the table covers 10 requests', () => {
  const run = analyze(['-', '--format', 'json'], fs.readFileSync(path.join(REAL, '01-pr891-overall-e2e-noprefix.log')));
  assert.equal(run.status, 0, run.stderr);
  const lines = run.stdout.split('\n');
  const member = lines.filter((l) => l.startsWith('"overallSummaries":'));
  assert.equal(member.length, 1, 'one line, as every top-level member');
  const json = JSON.parse(run.stdout) as {
    requests: { stages: Record<string, unknown>; e2e: Record<string, unknown> }[];
    stageSummary: Record<string, unknown>;
    overallSummaries: {
      tables: number;
      cutOffTables: number;
      coveringSeveral: number;
      fields: Record<string, { count: number; p50: number; max: number }>;
      fieldStates: Record<string, { measured: number; notMeasured: number; text: number; hidden: number }>;
    } | null;
  };
  // The request cut off after its title: no stage and no e2e value invented from the summary.
  assert.deepEqual(
    json.requests.map((r) => [Object.keys(r.stages).length, Object.keys(r.e2e).length]),
    [[0, 0]],
  );
  assert.deepEqual(json.stageSummary, {});
  const o = json.overallSummaries;
  assert.ok(o !== null);
  assert.deepEqual([o.tables, o.cutOffTables, o.coveringSeveral], [1, 0, 1]);
  assert.deepEqual(Object.fromEntries(Object.entries(o.fields).map(([k, d]) => [k, [d.count, d.max]])), {
    e2e_requests: [1, 10],
    e2e_wall_time_ms: [1, 81430.702],
    e2e_total_tokens: [1, 3347],
    e2e_avg_time_per_request_ms: [1, 8143.07],
    e2e_avg_tokens_per_s: [1, 41.102],
    e2e_stage_0_wall_time_ms: [1, 19442.824],
    e2e_stage_1_wall_time_ms: [1, 59771.091],
    e2e_stage_2_wall_time_ms: [1, 3015.388],
  });
  assert.deepEqual(o.fieldStates['e2e_wall_time_ms'], { measured: 1, notMeasured: 0, text: 0, hidden: 0 });
  const table = analyze([path.join(REAL, '01-pr891-overall-e2e-noprefix.log')]);
  assert.match(table.stdout.replaceAll('\n', ' '), /It covers several requests \(e2e_requests 10\)/);
});

test('a log with no [Overall Summary] keeps `overallSummaries` null and its own words', () => {
  const run = analyze(['-', '--format', 'json'], Buffer.from('INFO 02-06 15:29:11 [api_server.py:1] started\n'));
  assert.equal(run.status, 0, run.stderr);
  assert.equal((JSON.parse(run.stdout) as { overallSummaries: unknown }).overallSummaries, null);
  const table = analyze(['-'], Buffer.from('INFO 02-06 15:29:11 [api_server.py:1] started\n'));
  assert.match(table.stdout, /No per-request stage statistics found/);
});

test("real-logs 05 (csv): the [OmniTiming] lines give rows; stderr says the [Overall Summary]'s totals are in none of them", () => {
  const run = analyze([path.join(REAL, '05-pr3042-omnitiming-and-overall.log'), '--format', 'csv']);
  assert.equal(run.status, 0, run.stderr);
  const rows = run.stdout.split('\n').filter((l) => l !== '');
  assert.equal(rows.length, 4, 'the header and a row per stage of the one request (3 stages)');
  assert.match(rows[1] ?? '', /^chatcmpl-ac59cea85b422f04,0,false,2,0,0,0,llm,/);
  assert.equal(
    run.stderr,
    "stage-lens analyze: the input has 1 [Overall Summary] table (cut off) and no [StageRequestStats] table: it prints run totals, not any request's, so none of the CSV's rows holds them (its rows are the requests'); --format table shows it as printed, --format json as overallSummaries\n",
  );
});

test('real-logs 01 and 03 (csv): no row for the [Overall Summary], and stderr says where its values are; a log with stage tables says nothing of it', () => {
  const header = (out: string): string[] => out.split('\n').filter((l) => l !== '');
  const whole = analyze([path.join(REAL, '01-pr891-overall-e2e-noprefix.log'), '--format', 'csv']);
  assert.equal(whole.status, 0, whole.stderr);
  assert.equal(header(whole.stdout).length, 1, 'the header only');
  assert.equal(
    whole.stderr,
    "stage-lens analyze: the input has 1 [Overall Summary] table and no [StageRequestStats] table: it prints run totals, not any request's, so no CSV row; --format table shows it as printed, --format json as overallSummaries\n",
  );
  const cut = analyze([path.join(REAL, '03-pr1468-overall-empty-first-line.log'), '--format', 'csv']);
  assert.equal(cut.status, 0, cut.stderr);
  assert.equal(header(cut.stdout).length, 1, 'the header only');
  assert.match(
    cut.stderr,
    /^stage-lens analyze: the input has 1 \[Overall Summary\] table \(cut off\) and no \[StageRequestStats\] table: /,
  );
  // Offline Omni.generate prints one [Overall Summary] per prompt beside its stage tables: those rows are the CSV.
  const tables = analyze([
    path.join(ROOT, 'test', 'fixtures', 'upstream-rendered', 'qwen3-omni-three-stage-transfers.log'),
    '--format',
    'csv',
  ]);
  assert.equal(tables.status, 0, tables.stderr);
  assert.equal(
    header(tables.stdout).length,
    1 + 3 * 3 + 3 * 2,
    'a row per request and stage, and per request and edge',
  );
  assert.equal(tables.stderr, '');
});

test('the [Overall Summary] heading names the units of the rows shown: a table cut before e2e_avg_tokens_per_s names no tokens/s', () => {
  const heading = (file: string): string[] => {
    const run = analyze([path.join(REAL, file)]);
    assert.equal(run.status, 0, run.stderr);
    return run.stdout.split('\n').filter((l) => l.startsWith('From the [Overall Summary] table'));
  };
  // Cut after build_add_request_message_time_ms: a count and three _ms rows.
  assert.deepEqual(heading('05-pr3042-omnitiming-and-overall.log'), [
    'From the [Overall Summary] table, as printed (_ms fields in ms)',
  ]);
  for (const file of [
    '01-pr891-overall-e2e-noprefix.log',
    '02-pr891-overall-apiserver-prefix.log',
    '03-pr1468-overall-empty-first-line.log',
    '04-pr1977-diffusion-overall-glued-to-tqdm.log',
    '11-issue3039-proposed-overall-timing-breakdown.log',
  ])
    assert.deepEqual(
      heading(file),
      ['From the [Overall Summary] table, as printed (_ms fields in ms, e2e_avg_tokens_per_s in tokens/s)'],
      file,
    );
  // Counts alone have no unit to name.
  const counts = analyze(
    ['-'],
    Buffer.from(
      [
        'INFO 02-06 15:29:11 [stats.py:601] [Overall Summary]',
        'INFO 02-06 15:29:11 [stats.py:601] +------------------+-------+',
        'INFO 02-06 15:29:11 [stats.py:601] | Field            | Value |',
        'INFO 02-06 15:29:11 [stats.py:601] +------------------+-------+',
        'INFO 02-06 15:29:11 [stats.py:601] | e2e_requests     |     2 |',
        'INFO 02-06 15:29:11 [stats.py:601] | e2e_total_tokens |   310 |',
        'INFO 02-06 15:29:11 [stats.py:601] +------------------+-------+',
        '',
      ].join('\n'),
    ),
  );
  assert.equal(counts.status, 0, counts.stderr);
  assert.ok(counts.stdout.split('\n').includes('From the [Overall Summary] table, as printed'), counts.stdout);
});
