// The simulator prints what a real vLLM-Omni server prints at each log level: at the
// default INFO one [OmniTiming] line per request and no table (exactly the shape of the
// upstream-rendered INFO log, `transfers=[0->1=0.00ms]` included); the stats tables only
// with VLLM_LOGGING_LEVEL=DEBUG in its environment (or --debug-tables). Real child processes.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, describe, test } from 'node:test';
import { LogStreamParser } from '../../server/core/log';
import { StreamAnalysis } from '../../server/core/analysis/streamAnalysis';
import { killAll, runToEnd } from './support/simulateProcess';

/** Printed by vLLM-Omni's own stats code at INFO (test/fixtures/upstream-rendered/). */
const FIXTURE = path.join(__dirname, '../fixtures/upstream-rendered/qwen3tts-info-level-omnitiming-only.log');
const ARGS = [
  '--port',
  '0',
  '--speed',
  '50',
  '--requests',
  '4',
  '--seed',
  '11',
  '--scenario',
  'qwen3-tts',
  '--talker-first-audio',
];
const TABLE_TITLES = /\[(Overall Summary|RequestE2EStats|StageRequestStats|TransferEdgeStats)\b/;

after(killAll);

function analyse(text: string) {
  const parser = new LogStreamParser();
  const analysis = new StreamAnalysis();
  analysis.ingest(parser.push(Buffer.from(text)));
  analysis.ingest(parser.end());
  analysis.flush();
  return analysis.snapshot();
}

/** A line with its numbers and the request id taken out: what must match upstream exactly. */
const shape = (line: string): string => line.replace(/req=\S+/, 'req=R').replace(/\d+/g, 'N');

const env = (extra: Record<string, string>): NodeJS.ProcessEnv => {
  const base = { ...process.env };
  delete base['VLLM_LOGGING_LEVEL'];
  return { ...base, ...extra };
};

describe('simulator log levels (real processes)', { concurrency: true }, () => {
  test('INFO (no VLLM_LOGGING_LEVEL): [OmniTiming] only, shaped exactly as upstream prints it', async () => {
    const { exit, stdout } = await runToEnd(ARGS, 30_000, env({}));
    assert.deepEqual(exit, { code: 0, signal: null });
    assert.doesNotMatch(stdout, TABLE_TITLES, 'no table at INFO');
    const timing = stdout.split('\n').filter((l) => l.includes('[OmniTiming]'));
    assert.equal(timing.length, 4);
    const upstream = fs
      .readFileSync(FIXTURE, 'utf8')
      .split('\n')
      .filter((l) => l.includes('[OmniTiming]'));
    assert.ok(upstream.length > 0);
    assert.deepEqual([...new Set(timing.map(shape))], [...new Set(upstream.map(shape))]);
    for (const line of timing) {
      assert.match(line, /^\(APIServer pid=\d+\) INFO \d\d-\d\d \d\d:\d\d:\d\d \[stats\.py:910\] \[OmniTiming\] /);
      assert.match(
        line,
        / transfers=\[0->1=0\.00ms\]$/,
        'the codec edge is printed with 0.00 ms though nothing was transferred',
      );
    }
    // Stage Lens reads it as what it is: stage times and end to end, no phase split, and says so.
    const snap = analyse(stdout);
    assert.equal(snap.requests.length, 4);
    assert.equal(snap.tablesMissing?.all, true);
    assert.equal(snap.endToEnd?.ms.count, 4);
    assert.ok(
      snap.stages.every((s) => s.split.prefillMs === undefined && s.fields['omni_timing_stage_s'] !== undefined),
    );
  });

  test('VLLM_LOGGING_LEVEL=DEBUG in the environment: every table, and the phase split', async () => {
    const { exit, stdout } = await runToEnd(ARGS, 30_000, env({ VLLM_LOGGING_LEVEL: 'debug' }));
    assert.deepEqual(exit, { code: 0, signal: null });
    assert.equal(stdout.split('[StageRequestStats [request_id=').length - 1, 4);
    assert.equal(stdout.split('[RequestE2EStats [request_id=').length - 1, 4);
    assert.match(stdout, / DEBUG \d\d-\d\d \d\d:\d\d:\d\d \[vllm_omni\/metrics\/stats\.py:1044\] \[StageRequestStats/);
    assert.match(
      stdout,
      / INFO \d\d-\d\d \d\d:\d\d:\d\d \[vllm_omni\/metrics\/stats\.py:910\] \[OmniTiming\]/,
      'relative file paths at DEBUG',
    );
    const snap = analyse(stdout);
    assert.equal(snap.tablesMissing, null);
    assert.ok(
      snap.stages.every((s) => (s.split.queuedMs?.count ?? 0) === 4),
      'queued measured on both stages',
    );
    // The talker emits one output (Model Runner V2 + async chunk): its prefill is kept as prefill+decode.
    assert.equal((snap.stages[0]?.split.prefillMs?.count ?? 0) + (snap.stages[0]?.prefillDecodeMs?.count ?? 0), 4);
  });

  test('VLLM_LOGGING_LEVEL=INFO or WARNING: no tables; --debug-tables: tables', async () => {
    const [info, flag] = await Promise.all([
      runToEnd(ARGS, 30_000, env({ VLLM_LOGGING_LEVEL: 'INFO' })),
      runToEnd([...ARGS, '--debug-tables'], 30_000, env({})),
    ]);
    assert.doesNotMatch(info.stdout, TABLE_TITLES);
    assert.equal(flag.stdout.split('[StageRequestStats [request_id=').length - 1, 4);
  });
});
