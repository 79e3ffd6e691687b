// A stage that reports twice for one request, as vLLM-Omni's own stats code prints it (the log
// was rendered by its stats.py and table helpers through vLLM's line format): the stats table
// heads its second column `1_2`, and [OmniTiming] prints the stage twice (`1:15.00s,1:15.38s`).
// Each item is its segment, keyed as the table keys it, in every output of `analyze` (the built
// dist/cli.js in a child process), with a stats table and from the [OmniTiming] line alone (an
// INFO-level server): neither time is lost, and the CSV puts each on its segment's row.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { runCli as cli } from './support/cliProcess';
import { tempFolder } from './support/tempFolder';

const ROOT = path.resolve(__dirname, '..', '..');
const DEBUG_LOG = path.join(ROOT, 'test', 'fixtures', 'logs', 'repeated-stage-segments.log');
const dir = tempFolder('stage-lens-repeated-stage-');

/** The [OmniTiming] line alone: what the same server prints at INFO. */
function infoLog(): string {
  const file = path.join(dir, 'info.log');
  const lines = fs.readFileSync(DEBUG_LOG, 'utf8').split('\n');
  fs.writeFileSync(file, `${lines.filter((l) => l.includes('[OmniTiming]')).join('\n')}\n`);
  return file;
}

interface RequestJson {
  stages: Record<string, { stageId: number; segment: number; fields: Record<string, unknown> }>;
  omniTiming: { stages: Record<string, number> };
}

function requestOf(log: string): RequestJson {
  const run = cli(['analyze', log, '--format', 'json']);
  assert.equal(run.status, 0, run.stderr);
  const doc = JSON.parse(run.stdout) as { requests: RequestJson[] };
  assert.equal(doc.requests.length, 1);
  return doc.requests[0] as RequestJson;
}

/** `analyze --format csv`: stage -> its omni_timing_stage_s cell, for the stage rows. */
function csvTimingByStage(log: string): Record<string, string> {
  const run = cli(['analyze', log, '--format', 'csv']);
  assert.equal(run.status, 0, run.stderr);
  const [header, ...rows] = run.stdout
    .trimEnd()
    .split('\n')
    .map((l) => l.split(','));
  const stage = (header as string[]).indexOf('stage');
  const kind = (header as string[]).indexOf('kind');
  const timing = (header as string[]).indexOf('omni_timing_stage_s');
  const out: Record<string, string> = {};
  for (const r of rows) if (r[kind] !== 'transfer') out[r[stage] as string] = r[timing] as string;
  return out;
}

test('with a stats table: [OmniTiming] keeps both times of the stage printed twice, each on its segment', () => {
  const r = requestOf(DEBUG_LOG);
  assert.deepEqual(r.omniTiming.stages, { 0: 9.91, 1: 15, 2: 0.16, '1_2': 15.38 });
  assert.deepEqual(Object.keys(r.stages).sort(), ['0', '1', '1_2', '2']);
  assert.deepEqual(csvTimingByStage(DEBUG_LOG), { 0: '9.91', 1: '15', '1_2': '15.38', 2: '0.16' });
});

test('from [OmniTiming] alone: the stage printed twice is two segments, 1 and 1_2, as its table would key them', () => {
  const log = infoLog();
  const r = requestOf(log);
  assert.deepEqual(r.omniTiming.stages, { 0: 9.91, 1: 15, 2: 0.16, '1_2': 15.38 });
  const stages = Object.entries(r.stages).map(([key, s]) => [
    key,
    s.stageId,
    s.segment,
    s.fields['omni_timing_stage_s'],
  ]);
  assert.deepEqual(stages, [
    ['0', 0, 1, 9.91],
    ['1', 1, 1, 15],
    ['2', 2, 1, 0.16],
    ['1_2', 1, 2, 15.38],
  ]);
  assert.deepEqual(csvTimingByStage(log), { 0: '9.91', 1: '15', '1_2': '15.38', 2: '0.16' });
  const table = cli(['analyze', log]);
  assert.equal(table.status, 0, table.stderr);
  assert.match(table.stdout, /^stage 1(?: · \w+)? +1 +15,000 +15,000 +15,000 +15,000$/m);
  assert.match(table.stdout, /^stage 1_2(?: · \w+)? +1 +15,380 +15,380 +15,380 +15,380$/m);
});
