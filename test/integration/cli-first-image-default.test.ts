// An AR + diffusion image pipeline as vllm-project/vllm-omni@226b43d9 prints it: every stage's
// column has image_time_to_first_output_ms and denoise_step_latency_ms, 0.000 on the AR stage that
// made no image (the fields' default, as serving_time_to_first_output_ms's 0.0 is). Through the
// built CLI: those 0s are kept as printed but are no time in the stage summaries, counted as no
// output instead.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { buildBundles } from './support/buildBundles';

const ROOT = path.resolve(__dirname, '..', '..');
const CLI = path.join(ROOT, 'dist', 'cli.js');
const LOG = path.join(ROOT, 'test', 'fixtures', 'logs', 'image-first-output-default.log');
const FIELD = 'image_time_to_first_output_ms';
const DENOISE = 'denoise_step_latency_ms';

before(() => buildBundles('cli'));

interface Distribution {
  count: number;
  mean: number;
  max: number;
}

interface Json {
  problems: unknown[];
  requests: { requestId: string; stages: Record<string, { fields: Record<string, number | string | null> }> }[];
  stageSummary: Record<string, Record<string, Distribution | undefined>>;
  splitSummary: Record<string, { fieldsNotRecorded?: Record<string, Record<string, number>> }>;
}

test('--format json: an AR stage image_time_to_first_output_ms and denoise_step_latency_ms 0.000 are no time', () => {
  const out = spawnSync(process.execPath, [CLI, 'analyze', LOG, '--format', 'json'], {
    encoding: 'utf8',
    timeout: 60_000,
    cwd: ROOT,
  });
  assert.equal(out.status, 0, out.stderr);
  const j = JSON.parse(out.stdout) as Json;
  assert.deepEqual(j.problems, []);
  assert.deepEqual(
    j.requests.map((r) => [r.requestId, r.stages['0']?.fields[FIELD], r.stages['1']?.fields[FIELD]]),
    [
      ['chatcmpl-4c1d0e7a9b3f4e21', 0, 5398.702],
      ['chatcmpl-8e27f5b1c6d04a93', 0, 5093.05],
    ],
  );
  assert.equal(j.stageSummary['0']?.[FIELD], undefined);
  assert.deepEqual(j.splitSummary['0']?.fieldsNotRecorded?.[FIELD], { noOutput: 2 });
  const image = j.stageSummary['1']?.[FIELD];
  assert.deepEqual([image?.count, image?.mean, image?.max], [2, 5245.876, 5398.702]);
  assert.equal(j.splitSummary['1']?.fieldsNotRecorded?.[FIELD], undefined);
  assert.equal(j.stageSummary['0']?.[DENOISE], undefined);
  assert.deepEqual(j.splitSummary['0']?.fieldsNotRecorded?.[DENOISE], { noOutput: 2 });
  const denoise = j.stageSummary['1']?.[DENOISE];
  assert.deepEqual([denoise?.count, denoise?.mean, denoise?.max], [2, 102.929, 105.75]);
  // The stage's serving time to first output is its own field, measured on both stages.
  assert.equal(j.stageSummary['0']?.['serving_time_to_first_output_ms']?.mean, 40.695);
});
