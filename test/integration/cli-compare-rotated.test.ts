// compare of runs whose logs were rotated, each run's files on either side of `vs` (as a shell
// lists `before/server.log*`: newest first), by the built CLI as a real child process: each side's
// files are read as one log, oldest first, so the report is the one of the whole logs, on the
// worker threads and without them; what cannot be compared is said before anything is read.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { runCli as cli } from './support/cliProcess';
import { tempFolder } from './support/tempFolder';
import { rotatedSample, SAMPLE } from './support/rotatedSample';

const dir = tempFolder('stage-lens-compare-rotated-');

/** The rotated files of `folder`, as a shell lists `folder/server.log*`. */
function listed(folder: string): string[] {
  return ['server.log', 'server.log.1', 'server.log.2.gz'].map((f) => path.join(folder, f));
}

interface CompareDoc {
  baseline: { source: string; requestCount: number };
  candidate: { source: string; requestCount: number };
}

/** The JSON report with the runs' sources, which name the files read, left out. */
function withoutSources(json: string): unknown {
  return JSON.parse(json, (key, value: unknown) => (key === 'source' ? undefined : value));
}

test("each run's rotated files read as one log: the report of the whole logs, with and without workers", () => {
  const before = path.join(dir, 'before');
  const after = path.join(dir, 'after');
  rotatedSample(before);
  rotatedSample(after);
  const whole = path.join(dir, 'whole.log');
  fs.copyFileSync(SAMPLE, whole);
  const want = cli(['compare', whole, whole, '--format', 'json']);
  assert.equal(want.status, 0, want.stderr);
  for (const env of [process.env, { ...process.env, STAGE_LENS_COMPARE_WORKERS: '0' }]) {
    const r = cli(['compare', ...listed(before), 'vs', ...listed(after), '--format', 'json'], { env });
    assert.equal(r.status, 0, r.stderr);
    const order = (folder: string) =>
      ['server.log.2.gz', 'server.log.1', 'server.log'].map((f) => path.join(folder, f));
    assert.equal(
      r.stderr,
      `stage-lens compare: the baseline read as one log, oldest first: ${order(before).join(', ')}\n` +
        `stage-lens compare: the candidate read as one log, oldest first: ${order(after).join(', ')}\n`,
    );
    const doc = JSON.parse(r.stdout) as CompareDoc;
    assert.equal(doc.baseline.requestCount, 25);
    assert.equal(doc.candidate.requestCount, 25);
    assert.equal(doc.baseline.source, order(before).join(' + '));
    assert.equal(doc.candidate.source, order(after).join(' + '));
    assert.deepEqual(withoutSources(r.stdout), withoutSources(want.stdout));
  }
  // One side rotated, the other one file: the table names each run as it was read.
  const mixed = cli(['compare', ...listed(before), 'vs', whole]);
  assert.equal(mixed.status, 0, mixed.stderr);
  assert.match(
    mixed.stdout,
    /baseline {3}.*server\.log\.2\.gz \+ .*server\.log\.1 \+ .*server\.log · log · 25 requests, 2 cold/,
  );
  assert.match(mixed.stdout, /candidate {2}.*whole\.log · log · 25 requests, 2 cold/);
});

test('what cannot be compared is said before anything is read (exit 2)', () => {
  const before = path.join(dir, 'said');
  rotatedSample(before);
  const files = listed(before);
  const cases: [string[], RegExp][] = [
    [[...files, 'vs'], /nothing after 'vs': give the candidate run's files there/],
    [['vs', ...files], /nothing before 'vs': give the baseline run's files there/],
    [[files[0] as string, 'vs', files[1] as string, 'vs', files[2] as string], /'vs' parts the two runs' files once/],
    [
      [files[0] as string, '-', 'vs', files[1] as string],
      /'-' \(stdin\) is read alone, not with other inputs \(got 2 for the baseline\): give the files alone/,
    ],
    [
      [...files, 'vs', files[0] as string, path.join(before, 'server.log.9')],
      /the candidate: cannot read .*server\.log\.9: no such file/,
    ],
    [
      files,
      /expected two inputs, <baseline> <candidate>, got 3 .*: give exactly two, or each run's files on either side of 'vs'/,
    ],
  ];
  for (const [args, said] of cases) {
    const r = cli(['compare', ...args]);
    assert.equal(r.status, 2, `${args.join(' ')}: ${r.stderr}`);
    assert.match(r.stderr, said);
    assert.equal(r.stdout, '');
  }
});
