// Inputs with hundreds of thousands of items, through the built CLI as a real process.
// Reports once spread such arrays into calls (`Math.max(...widths)`, `push(...rows)`),
// which overflows the stack: `analyze` then exited 2 with "cannot read <file>: Maximum
// call stack size exceeded", though the file was read fine.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { buildBundles } from './support/buildBundles';
import { MAX_SCRAPE_BYTES } from '../../server/capture/inputByKind';

const ROOT = path.resolve(__dirname, '..', '..');
const CLI = path.join(ROOT, 'dist', 'cli.js');
let scratch: string;

before(() => {
  buildBundles('cli');
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'stage-lens-large-'));
});

after(() => fs.rmSync(scratch, { recursive: true, force: true }));

function analyze(file: string, format: string) {
  return spawnSync(process.execPath, [CLI, 'analyze', file, '--format', format], {
    encoding: 'utf8',
    timeout: 300_000,
    maxBuffer: 512 * 1024 * 1024,
  });
}

test('a stage table with 60,000 stage columns: the text report', () => {
  const stages = 60_000;
  const ids = Array.from({ length: stages }, (_, i) => String(i));
  const row = (name: string, value: string) => `| ${name} | ${ids.map(() => value).join(' | ')} |`;
  const lines = [
    '[StageRequestStats [request_id=wide]]',
    '+---+',
    `| Field | ${ids.join(' | ')} |`,
    '+---+',
    row('vllm_ttft_ms', '1'),
    row('vllm_prefill_ms', '2'),
    '+---+',
  ];
  const file = path.join(scratch, 'wide.log');
  fs.writeFileSync(file, lines.map((line) => `INFO 08-21 18:00:00 [stats.py:1] ${line}\n`).join(''));

  const table = analyze(file, 'table');
  assert.equal(table.status, 0, table.stderr);
  assert.match(table.stdout, /^Stage Lens: 1 request, 60,000 stages from /);
  // One row per stage and percentile: the last stage is there, with its values (queued and
  // decode: rows the table did not print, hidden).
  assert.match(table.stdout, /\n59999 +1 +p50 +hidden +2\.000 +hidden +1\.000 /);
});

test('a /metrics scrape of 200,000 histogram series (under the size cap): a row per series', () => {
  const series = 200_000;
  const lines = ['# TYPE vllm:time_to_first_token_seconds histogram'];
  for (let i = 0; i < series; i++) {
    const labels = `stage="${i % 2}",replica="${i}"`;
    lines.push(
      `vllm:time_to_first_token_seconds_bucket{${labels},le="0.1"} 1`,
      `vllm:time_to_first_token_seconds_bucket{${labels},le="+Inf"} 2`,
      `vllm:time_to_first_token_seconds_count{${labels}} 2`,
    );
  }
  const file = path.join(scratch, 'scrape.prom');
  fs.writeFileSync(file, `${lines.join('\n')}\n`);
  assert.ok(fs.statSync(file).size < MAX_SCRAPE_BYTES, `${fs.statSync(file).size} bytes`);

  const table = analyze(file, 'table');
  assert.equal(table.status, 0, table.stderr);
  assert.match(table.stdout, /200000 histogram series/);
  const rows = table.stdout.split('\n').filter((line) => line.startsWith('vllm:time_to_first_token_seconds '));
  assert.equal(rows.length, series);
  assert.match(rows[rows.length - 1] ?? '', /^vllm:time_to_first_token_seconds +1 +199999 +2 /);
});
