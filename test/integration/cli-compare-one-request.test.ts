// `stage-lens compare` where a run has one request for the tail's target (the built dist/cli.js
// as a real child process): that run has no tail, since its one request is its own median and
// every part would read +0 ms. Its side says so as explain says it, with the request and its
// value, and has no parts; the other run's tail stays, in the table, the JSON and Markdown.
// Logs: one request of vLLM-Omni's own stats output (test/fixtures/logs/qwen3tts-one-request.log:
// code2wav serving_time_to_first_output_ms 3,996.500) and six (qwen3tts-talker-first-audio-after-fix.log).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { buildBundles } from './support/buildBundles';

const ROOT = path.resolve(__dirname, '..', '..');
const CLI = path.join(ROOT, 'dist', 'cli.js');
const ONE = path.join(ROOT, 'test/fixtures/logs/qwen3tts-one-request.log');
const SIX = path.join(ROOT, 'test/fixtures/upstream-rendered/qwen3tts-talker-first-audio-after-fix.log');
const SLOW = 'speech-628f17161fc5a104a9aeb486cbfaa141';
const MARKUP = 'speech-<img src=x onerror=alert(1)>';
const TARGET = 'time to first audio (stage 1 · code2wav)';
const NO_TAIL = 'There is no tail to explain: a tail is compared with the other requests part by part.';
const oneRequestLine = (id: string): string =>
  `Time to first audio (stage 1 · code2wav): only one request in scope measured it, ${id} (4.00 s). ${NO_TAIL}`;
const SIX_TAIL = '1 of 6 requests ≥ 3.80 s, +3.90 s over the median 96.7 ms';
const TOP = 'most in stage 0 · talker prefill+decode (one output) (+3.90 s)';

let dir = '';
let markupLog = '';

before(() => {
  buildBundles('cli');
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stage-lens-compare-one-'));
  markupLog = path.join(dir, 'markup.log');
  fs.writeFileSync(markupLog, fs.readFileSync(ONE, 'utf8').replaceAll(SLOW, MARKUP));
});

after(() => {
  if (dir !== '') fs.rmSync(dir, { recursive: true, force: true });
});

function compare(args: string[]): { status: number | null; stdout: string; stderr: string } {
  return spawnSync(process.execPath, [CLI, 'compare', ...args], { encoding: 'utf8', timeout: 120_000, cwd: ROOT });
}

/** The report's tail block: from its "Tail, p99" line to the blank line before the findings. */
function tailBlock(stdout: string): string[] {
  const lines = stdout.split('\n');
  const start = lines.findIndex((l) => l.startsWith('Tail, p99'));
  assert.ok(start >= 0, stdout);
  const end = lines.indexOf('', start);
  return lines.slice(start, end);
}

interface TailJson {
  target: string;
  baseline: { scopeCount: number; excessMs: number; parts: unknown[] } | null;
  candidate: { scopeCount: number; excessMs: number; parts: unknown[] } | null;
  oneRequest: {
    baseline: { target: string; requestId: string; valueMs: number } | null;
    candidate: { target: string; requestId: string; valueMs: number } | null;
  };
  sentence: string;
}

test('table: the one-request baseline is said with its request and value, no +0 ms column; the candidate keeps its tail', () => {
  const r = compare([ONE, SIX]);
  assert.equal(r.status, 0, r.stderr);
  const block = tailBlock(r.stdout);
  assert.deepEqual(block.slice(0, 3), [
    `Tail, p99 of ${TARGET}: the p99 excess of ${TARGET}: +3.90 s over the median in the candidate, ${TOP}; the baseline has no tail, only one request measured it.`,
    `  baseline:  ${oneRequestLine(SLOW)}`,
    `  candidate: ${SIX_TAIL}`,
  ]);
  // Every part row: nothing in the baseline's column, the candidate's excess in its own.
  const rows = block.slice(5).filter((l) => !l.startsWith('  '));
  assert.deepEqual(
    rows.map((l) => l.split(/ {2,}/).slice(1)),
    [
      ['–', '+3.90 s (100%)'],
      ['–', '+1.82 ms (0%)'],
      ['–', '+0.06 ms (0%)'],
      ['–', '+1.99 s (apart)'],
      ['–', '+1.25 s (apart)'],
      ['–', '+500 ms (apart)'],
      ['–', '+162 ms (apart)'],
      ['–', '−1.42 ms'],
    ],
  );
  assert.doesNotMatch(block.join('\n'), /\+0 ms|1 of 1 requests/);
});

test('JSON: the baseline has no tail (null) and its one request under oneRequest; the candidate tail as before', () => {
  const r = compare([ONE, SIX, '--format', 'json']);
  assert.equal(r.status, 0, r.stderr);
  const tail = (JSON.parse(r.stdout) as { tail: TailJson }).tail;
  assert.equal(tail.target, 'stage1.firstOutput');
  assert.equal(tail.baseline, null);
  assert.deepEqual(tail.oneRequest, {
    baseline: { target: 'stage1.firstOutput', requestId: SLOW, valueMs: 3996.5 },
    candidate: null,
  });
  assert.equal(tail.candidate?.scopeCount, 6);
  assert.equal(tail.candidate?.excessMs, 3899.772);
  assert.equal(
    tail.sentence,
    `the p99 excess of ${TARGET}: +3.90 s over the median in the candidate, ${TOP}; the baseline has no tail, only one request measured it.`,
  );
});

test('both runs of one request: no parts table, each side its request; Markdown the same', () => {
  const r = compare([ONE, ONE]);
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual(tailBlock(r.stdout), [
    `Tail, p99 of ${TARGET}: the p99 excess of ${TARGET}: neither run has a tail, only one request measured it in each.`,
    `  baseline:  ${oneRequestLine(SLOW)}`,
    `  candidate: ${oneRequestLine(SLOW)}`,
  ]);
  const md = compare([ONE, ONE, '--format', 'markdown']);
  assert.equal(md.status, 0, md.stderr);
  const at = md.stdout.indexOf('**Tail, p99');
  assert.equal(
    md.stdout.slice(at, md.stdout.indexOf('<details><summary>Method', at)),
    `**Tail, p99 of ${TARGET}:** the p99 excess of ${TARGET}: neither run has a tail, only one request measured it in each.\n\n` +
      `Baseline: ${oneRequestLine(SLOW)} Candidate: ${oneRequestLine(SLOW)}\n\n`,
  );
  assert.deepEqual((JSON.parse(compare([ONE, ONE, '--format', 'json']).stdout) as { tail: TailJson }).tail.oneRequest, {
    baseline: { target: 'stage1.firstOutput', requestId: SLOW, valueMs: 3996.5 },
    candidate: { target: 'stage1.firstOutput', requestId: SLOW, valueMs: 3996.5 },
  });
});

test('a one-request candidate under an id with markup: Markdown escapes it, JSON keeps it exactly', () => {
  const md = compare([SIX, markupLog, '--format', 'markdown']);
  assert.equal(md.status, 0, md.stderr);
  const escaped = 'speech-&lt;img src=x onerror=alert(1)&gt;';
  assert.ok(
    md.stdout.includes(`Baseline: ${SIX_TAIL}. Candidate: ${oneRequestLine(escaped)}\n`),
    md.stdout.slice(md.stdout.indexOf('**Tail')),
  );
  assert.ok(!md.stdout.includes('<img'));
  // The candidate's column is empty in every row of the table.
  const rows = md.stdout
    .slice(md.stdout.indexOf('**Tail'))
    .split('\n')
    .filter((l) => /^\| (stage|preprocess|residual)/.test(l));
  assert.equal(rows.length, 8);
  for (const row of rows) assert.match(row, / \| – \|$/);
  const json = compare([SIX, markupLog, '--format', 'json']);
  const tail = (JSON.parse(json.stdout) as { tail: TailJson }).tail;
  assert.equal(tail.candidate, null);
  assert.equal(tail.oneRequest.candidate?.requestId, MARKUP);
});
