// `analyze --exclude-cold` and what `--follow` does with the options of a whole log's read, run as
// the built dist/cli.js in a child process on the bundled sample (two server boots, each with a
// cold first request): the header says the cold requests were left out (of the findings too), and the end to end never
// calls them requests that printed no time; `--follow` applies --exclude-cold and --deploy-config
// to its final summary as a whole read does (they were parsed and then dropped); `--follow` of a
// directory ends with the error instead of polling it for good; a one-output stage's decode column
// marked `*` has its legend.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { runCli as cli } from './support/cliProcess';
import { tempFolder } from './support/tempFolder';

const ROOT = path.resolve(__dirname, '..', '..');
const SAMPLE = path.join(ROOT, 'samples', 'qwen3-tts-first-audio-cold-start.log');
const TTS_YAML = path.join(ROOT, 'test', 'fixtures', 'deploy', 'qwen3_tts.yaml');
const OMNI_YAML = path.join(ROOT, 'test', 'fixtures', 'deploy', 'qwen3_omni_moe.yaml');
const dir = tempFolder('stage-lens-cold-follow-');

const HEADER_LEFT_OUT =
  /^Stage Lens: 25 requests, 2 stages, 2 server boots \(2 cold requests, left out of the percentiles and findings\) from /;
const E2E_WITHOUT_COLD = /^end to end {2}23 {2}1,059 {2}1,606 {2}2,083 {2}2,205$/m;

/** The final summary of `analyze --follow` run for 2 s, after its heading line. */
function followed(args: readonly string[]): string {
  const r = cli(['analyze', '--follow', SAMPLE, '--duration', '2', ...args], { timeoutMs: 30_000 });
  assert.equal(r.status, 0, r.stderr);
  const heading = r.stdout.indexOf('Final summary');
  assert.notEqual(heading, -1, r.stdout);
  return r.stdout.slice(r.stdout.indexOf('\n', heading) + 1);
}

test('--exclude-cold: the header says the cold requests are left out, of the findings too; none is said to have printed no end-to-end time', () => {
  const table = cli(['analyze', SAMPLE, '--exclude-cold']);
  assert.equal(table.status, 0, table.stderr);
  assert.match(table.stdout, HEADER_LEFT_OUT);
  assert.match(table.stdout, E2E_WITHOUT_COLD);
  assert.doesNotMatch(table.stdout, /printed no end-to-end time/);
  const json = cli(['analyze', SAMPLE, '--exclude-cold', '--format', 'json']);
  const doc = JSON.parse(json.stdout) as { endToEnd: { count: number; requestsWithout: number } };
  assert.equal(doc.endToEnd.count, 23);
  assert.equal(doc.endToEnd.requestsWithout, 0);
  // The findings count the 23 requests the percentiles are over, and name none of the cold ones.
  const findings = (JSON.parse(json.stdout) as { findings: { code: string; requestCount: number; message: string }[] })
    .findings;
  assert.deepEqual(
    findings.map((f) => `${f.code} ${f.requestCount}`),
    ['ttft-not-recorded 23', 'stage-times-overlap 23', 'prefill-covers-decode 23'],
  );
  assert.match(findings[1]?.message ?? '', /by up to 2,180 ms, on speech-80955919e1264000/);
  assert.doesNotMatch(table.stdout, /\] cold-start|speech-5bd188e314d812a5|10,020 ms/);
  // Without the option the cold requests are in, and the header says nothing of leaving them out.
  const all = cli(['analyze', SAMPLE]);
  assert.match(all.stdout, /^Stage Lens: 25 requests, 2 stages, 2 server boots \(2 cold requests\) from /);
  assert.match(all.stdout, /^end to end {2}25 /m);
  assert.match(all.stdout, /\[info\] cold-start, 2 requests: /);
  assert.match(all.stdout, /by up to 10,020 ms, on speech-5bd188e314d812a5/);
});

test('--follow applies --exclude-cold and --deploy-config to its final summary, as a whole read does', () => {
  const cold = followed(['--exclude-cold']);
  assert.match(cold, HEADER_LEFT_OUT);
  assert.match(cold, E2E_WITHOUT_COLD);
  const agrees = followed(['--deploy-config', TTS_YAML]);
  assert.match(agrees, /The deploy config qwen3_tts\.yaml agrees: /);
  const other = followed(['--deploy-config', OMNI_YAML]);
  assert.match(
    other.replace(/\n/g, ' '),
    /The deploy config qwen3_omni_moe\.yaml has stages 0, 1 and 2, this log's requests have stages 0 and 1: it is not the config this server ran/,
  );
});

test('--follow of a directory ends with the error at once instead of polling it', () => {
  const started = Date.now();
  const r = cli(['analyze', '--follow', dir], { timeoutMs: 20_000 });
  assert.equal(r.status, 1, `${r.stdout}\n${r.stderr}`);
  assert.ok(Date.now() - started < 10_000, `took ${Date.now() - started} ms`);
  assert.match(r.stderr, /cannot read .*: it is a directory/);
});

test("a one-output stage whose decode column has other requests' numbers marks them * and says what * means", () => {
  const P = '(APIServer pid=1) DEBUG 10-19 07:12:0%d [vllm_omni/metrics/stats.py:1044] ';
  const rows = (prefill: string, decode: string): [string, string, string][] => [
    ['num_tokens_out', '40', '5'],
    ['output_unit_count', '1', '6'],
    ['serving_time_to_first_output_ms', '1,000.000', '60.000'],
    ['stage_gen_time_ms', '1,000.000', '1,010.000'],
    ['vllm_decode_ms', decode, '900.000'],
    ['vllm_prefill_ms', prefill, '5.000'],
    ['vllm_queued_ms', '0.100', '40.000'],
    ['vllm_ttft_ms', '995.000', '50.000'],
  ];
  const table = (id: string, second: number, prefill: string, decode: string): string =>
    [
      '',
      `[StageRequestStats [request_id=${id}]]`,
      '+---------------------------------+-----------+---------+',
      '| Field                           |         0 |       1 |',
      '+---------------------------------+-----------+---------+',
      ...rows(prefill, decode).map(([n, a, b]) => `| ${n.padEnd(31)} | ${a.padStart(9)} | ${b.padStart(7)} |`),
      '+---------------------------------+-----------+---------+',
    ]
      .map((l) => P.replace('%d', String(second)) + l)
      .join('\n');
  // Five one-output talker requests, and one whose talker decode was measured (its tokens came out one by one).
  const log = path.join(dir, 'one-output-decode.log');
  fs.writeFileSync(
    log,
    [0, 1, 2, 3, 4].map((i) => table(`req-${i}`, i, '990.000', '0.000')).join('\n') +
      '\n' +
      table('req-steps', 5, '190.000', '800.000') +
      '\n',
  );
  const r = cli(['analyze', log]);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /^0 {6}6 {2}p50 {3}0\.100 {3}190\.0\* {2}800\.0\* {2}995\.0 /m);
  assert.match(r.stdout, /^ {2}stage 0: 5 of 6 requests \(\* = prefill and decode of the other requests only\)$/m);
});
