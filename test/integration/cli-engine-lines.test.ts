// A log whose only statistics are vLLM's periodic `Engine NNN:` lines, run through the built
// dist/cli.js: analyze says how many it read and that explain reads them, in the table and in
// the JSON's findings; a log with requests gets no such finding.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runCli as cli } from './support/cliProcess';

const ROOT = path.resolve(__dirname, '..', '..');
const SAMPLE = path.join(ROOT, 'samples', 'qwen3-tts-first-audio-cold-start.log');
let dir = '';
let log = '';

// vLLM's loggers.py lines as docs/formats.md shows them: two engines, three stats intervals
// (engine 001 silent in the last one), at INFO: no stage table, no [OmniTiming].
function engineLine(second: number, engine: string, running: number, kv: number): string {
  return (
    `(APIServer pid=2963765) INFO 11-28 14:29:${second} [loggers.py:127] Engine ${engine}: ` +
    `Avg prompt throughput: 2549.0 tokens/s, Avg generation throughput: 2.4 tokens/s, ` +
    `Running: ${running} reqs, Waiting: 2 reqs, GPU KV cache usage: ${kv}%, Prefix cache hit rate: 0.0%`
  );
}

before(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stage-lens-engine-lines-'));
  log = path.join(dir, 'engines.log');
  const lines = [
    '(APIServer pid=2963765) INFO 11-28 14:29:30 [api_server.py:1] vLLM API server version 0.11.0',
    engineLine(39, '000', 8, 23.2),
    engineLine(39, '001', 7, 18.8),
    engineLine(49, '000', 6, 25.0),
    engineLine(49, '001', 5, 19.5),
    engineLine(59, '000', 4, 12.5),
  ];
  fs.writeFileSync(log, lines.join('\n') + '\n');
});

after(() => {
  if (dir !== '') fs.rmSync(dir, { recursive: true, force: true });
});

const SAID =
  "The log has 5 vLLM engine stats lines (`Engine NNN:`, 2 engines) and no request: they say each engine's running and waiting requests, KV-cache usage and throughput at each stats interval, not any request's times, so they give no phase split. `stage-lens explain --format json` reads them for load over time (each engine's running / waiting / KV-cache usage, overTime.gauges).";

interface Finding {
  code: string;
  severity: string;
  message: string;
}

test('analyze of a log with only Engine lines counts them and says explain reads them (table, JSON, CSV on stderr)', () => {
  const table = cli(['analyze', log]);
  assert.equal(table.status, 0, table.stderr);
  assert.match(table.stdout, /^Stage Lens: 0 requests, 0 stages, 1 server boot \(0 cold requests\) from /);
  assert.match(table.stdout, /\n\nNo per-request stage statistics found\./);
  assert.ok(table.stdout.includes(`\nFindings:\n  [info] engine-stats-only: ${SAID}\n`), table.stdout);

  const json = cli(['analyze', log, '--format', 'json']);
  assert.equal(json.status, 0, json.stderr);
  const report = JSON.parse(json.stdout) as { requests: unknown[]; findings: Finding[] };
  assert.equal(report.requests.length, 0);
  assert.deepEqual(
    report.findings.map((f) => [f.code, f.severity, f.message]),
    [['engine-stats-only', 'info', SAID]],
  );

  // The CSV has rows only (none here): the same words on stderr.
  const csv = cli(['analyze', log, '--format', 'csv']);
  assert.equal(csv.status, 0, csv.stderr);
  assert.equal(csv.stdout.split('\n').filter((l) => l !== '').length, 1, 'the header row only');
  assert.equal(csv.stderr, `stage-lens analyze: ${SAID}\n`);

  // What the finding says explain does: the two engines' series over time.
  const explain = cli(['explain', log, '--format', 'json']);
  assert.equal(explain.status, 0, explain.stderr);
  const gauges = (JSON.parse(explain.stdout) as { overTime: { gauges: { engine: string; source: string }[] } }).overTime
    .gauges;
  assert.deepEqual(
    gauges.map((g) => `${g.engine} ${g.source}`),
    ['000 log', '001 log'],
  );
});

test('a log with requests and Engine lines gets no engine-stats-only finding', () => {
  assert.ok(fs.readFileSync(SAMPLE, 'utf8').includes('Engine 000:'));
  const json = cli(['analyze', SAMPLE, '--format', 'json']);
  assert.equal(json.status, 0, json.stderr);
  const report = JSON.parse(json.stdout) as { requests: unknown[]; findings: Finding[] };
  assert.equal(report.requests.length, 25);
  assert.ok(!report.findings.some((f) => f.code === 'engine-stats-only'));
});
