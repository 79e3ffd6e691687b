// `analyze` with stdout redirected to a file (`> report.json`, `>> all.csv`), as CI jobs run it:
// the file holds exactly what a pipe receives, after what was already there; a write that fails
// (a full disk, a descriptor not open for writing) is one clear line and exit 2, not a stack trace.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { buildBundles } from './support/buildBundles';

const ROOT = path.resolve(__dirname, '..', '..');
const CLI = path.join(ROOT, 'dist', 'cli.js');
const SAMPLE = path.join(ROOT, 'samples', 'qwen3-tts-first-audio-cold-start.log');
let scratch: string;
let bigLog: string;

before(() => {
  buildBundles('cli');
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'stage-lens-output-file-'));
  // 80 copies of the sample (25 requests and two server boots each): its JSON is ~9.7 MB, many
  // writes of the report's 1 MB chunks.
  bigLog = path.join(scratch, 'big.log');
  const sample = fs.readFileSync(SAMPLE);
  fs.writeFileSync(bigLog, Buffer.concat(Array.from({ length: 80 }, () => sample)));
});

after(() => fs.rmSync(scratch, { recursive: true, force: true }));

function toPipe(args: readonly string[]) {
  const run = spawnSync(process.execPath, [CLI, 'analyze', ...args], {
    encoding: 'buffer',
    maxBuffer: 256 * 1024 * 1024,
    timeout: 120_000,
  });
  assert.equal(run.status, 0, run.stderr.toString());
  return run.stdout;
}

/** Runs analyze with stdout on `file` opened with `flags`; returns the exit code and stderr. */
function toFile(args: readonly string[], file: string, flags: string) {
  const fd = fs.openSync(file, flags);
  try {
    const run = spawnSync(process.execPath, [CLI, 'analyze', ...args], {
      stdio: ['ignore', fd, 'pipe'],
      encoding: 'utf8',
      timeout: 120_000,
    });
    return { status: run.status, stderr: run.stderr };
  } finally {
    fs.closeSync(fd);
  }
}

for (const format of ['json', 'csv', 'trace', 'table']) {
  test(`--format ${format} into a file: the same bytes as through a pipe`, () => {
    const piped = toPipe([bigLog, '--format', format]);
    const file = path.join(scratch, `report.${format}`);
    const run = toFile([bigLog, '--format', format], file, 'w');
    assert.equal(run.status, 0, run.stderr);
    const written = fs.readFileSync(file);
    assert.equal(written.length, piped.length);
    assert.ok(written.equals(piped), 'the file holds the piped bytes');
    if (format === 'json') {
      const report = JSON.parse(written.toString('utf8')) as { requests: unknown[] };
      assert.equal(report.requests.length, 80 * 25);
      assert.ok(written.length > 8 << 20, `${written.length} bytes`);
    }
  });
}

test('appended to a file (>>): what was there stays, the report follows it', () => {
  const file = path.join(scratch, 'all.csv');
  fs.writeFileSync(file, 'an earlier line\n');
  const run = toFile([SAMPLE, '--format', 'csv'], file, 'a');
  assert.equal(run.status, 0, run.stderr);
  const text = fs.readFileSync(file, 'utf8');
  assert.ok(text.startsWith('an earlier line\nrequest_id,'), text.slice(0, 80));
  assert.equal(text.slice('an earlier line\n'.length), toPipe([SAMPLE, '--format', 'csv']).toString('utf8'));
});

test('a file that cannot be written: exit 2 and a clear message', () => {
  const file = path.join(scratch, 'read-only.json');
  fs.writeFileSync(file, '');
  for (const format of ['json', 'table']) {
    const run = toFile([SAMPLE, '--format', format], file, 'r');
    assert.equal(run.status, 2, format);
    assert.equal(run.stderr, 'stage-lens: cannot write the output: stdout is not open for writing (EBADF)\n');
  }
  assert.equal(fs.readFileSync(file, 'utf8'), '');
});

test('a full disk (/dev/full): exit 2 and a clear message', () => {
  for (const format of ['json', 'csv', 'trace', 'table']) {
    const run = toFile([SAMPLE, '--format', format], '/dev/full', 'w');
    assert.equal(run.status, 2, format);
    assert.equal(run.stderr, 'stage-lens: cannot write the output: no space left on the device (ENOSPC)\n');
  }
});
