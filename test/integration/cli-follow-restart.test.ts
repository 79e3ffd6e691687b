// `stage-lens analyze --follow` on a log that is truncated, then rotated: a problem of the new
// file names its line in that file, counted from 1, not after the old file's lines. The CLI is
// the built dist/cli.js as a real child process, the log a real file written, truncated and renamed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { followLog } from './support/cliProcess';
import { CUT_OFF_SUMMARY, PREFIX } from './support/cutOffSummary';
import { tempFolder } from './support/tempFolder';

const ROOT = path.resolve(__dirname, '..', '..');
const SAMPLE = path.join(ROOT, 'samples', 'qwen3-tts-first-audio-cold-start.log');

const tmp = tempFolder('stage-lens-follow-');

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

test('analyze --follow: after a truncation and a rotation, problems name lines of the file as it is', async () => {
  const log = path.join(tmp, 'server.log');
  // 50 lines of a real log before the truncation.
  const head = fs.readFileSync(SAMPLE, 'utf8').split('\n').slice(0, 50).join('\n') + '\n';
  fs.writeFileSync(log, head);
  const cli = followLog(log);
  // The source polls every 250 ms: each change is given a few polls to be seen.
  await sleep(1500);
  // copytruncate without a copy: the file starts again, the cut-off table at its lines 1-4.
  fs.truncateSync(log, 0);
  fs.writeFileSync(log, CUT_OFF_SUMMARY);
  await sleep(1500);
  // Rotation by rename: the new file holds two lines, then the cut-off table at lines 3-6.
  fs.renameSync(log, `${log}.1`);
  fs.writeFileSync(log, `${PREFIX}one\n${PREFIX}two\n${CUT_OFF_SUMMARY}`);
  await sleep(1500);
  const final = await cli.interrupt();
  const cutOff = [
    ...final.matchAll(/line (\d+): \[Overall Summary\] table starting at line (\d+) was cut off by line (\d+)/g),
  ];
  assert.deepEqual(
    cutOff.map((m) => [m[1], m[2], m[3]]),
    [
      ['1', '1', '5'],
      ['3', '3', '7'],
    ],
    final,
  );
});
