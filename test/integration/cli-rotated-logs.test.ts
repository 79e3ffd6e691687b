// A log and its rotations given to analyze (as a shell lists `server.log*`: newest first): the
// message's pipe, run as printed by a real shell with a real gzip, reads every request of the log
// as the whole file does, oldest first; explain says the same; --follow names the current log.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as zlib from 'node:zlib';
import { CLI, runCli as cli } from './support/cliProcess';
import { tempFolder } from './support/tempFolder';

const ROOT = path.resolve(__dirname, '..', '..');
const SAMPLE = path.join(ROOT, 'samples', 'qwen3-tts-first-audio-cold-start.log');
const dir = tempFolder('stage-lens-rotated-');

/** The sample as logrotate leaves it: two older parts (the oldest compressed), the current log. */
function rotate(): void {
  const lines = fs.readFileSync(SAMPLE, 'utf8').split(/(?<=\n)/);
  // Cuts inside tables: a record runs on from one file into the next.
  const parts = [lines.slice(0, 503), lines.slice(503, 977), lines.slice(977)].map((p) => p.join(''));
  fs.writeFileSync(path.join(dir, 'server.log.2.gz'), zlib.gzipSync(parts[0] ?? ''));
  fs.writeFileSync(path.join(dir, 'server.log.1'), parts[1] ?? '');
  fs.writeFileSync(path.join(dir, 'server.log'), parts[2] ?? '');
  // `stage-lens` on the PATH, as an installed CLI is.
  const bin = path.join(dir, 'bin');
  fs.mkdirSync(bin);
  fs.writeFileSync(path.join(bin, 'stage-lens'), `#!/bin/sh\nexec "${process.execPath}" "${CLI}" "$@"\n`, {
    mode: 0o755,
  });
}

test("several files: exit 2 with the pipe that reads them oldest first, and that pipe reads the whole log's requests", () => {
  rotate();
  const r = cli(['analyze', 'server.log', 'server.log.1', 'server.log.2.gz', '--format', 'json'], { cwd: dir });
  assert.equal(r.status, 2);
  assert.equal(r.stdout, '');
  const pipe = 'gzip -dcf server.log.2.gz server.log.1 server.log | stage-lens analyze - --format json';
  assert.equal(
    r.stderr,
    `stage-lens analyze: expected one input file (or '-' for stdin), got 3. To read a log and its rotations as one log, pipe them in, oldest first: ${pipe}\n`,
  );
  const piped = spawnSync('bash', ['-c', pipe], {
    cwd: dir,
    encoding: 'utf8',
    env: { ...process.env, PATH: `${path.join(dir, 'bin')}:${process.env['PATH'] ?? ''}` },
    maxBuffer: 64 << 20,
  });
  assert.equal(piped.status, 0, piped.stderr);
  const whole = cli(['analyze', SAMPLE, '--format', 'json']);
  type Doc = { requests: { requestId: string; timestamp: string }[]; boots: number; problems: unknown[] };
  const fromPipe = JSON.parse(piped.stdout) as Doc;
  const fromFile = JSON.parse(whole.stdout) as Doc;
  assert.equal(fromPipe.requests.length, 25);
  assert.deepEqual(
    fromPipe.requests.map((q) => `${q.requestId} ${q.timestamp}`),
    fromFile.requests.map((q) => `${q.requestId} ${q.timestamp}`),
  );
  assert.equal(fromPipe.boots, 2);
  assert.deepEqual(fromPipe.problems, fromFile.problems);
});

test('explain says the same; --follow of several files names the log being written', () => {
  const explained = cli(['explain', 'server.log', 'server.log.1', '--target', 'e2e'], { cwd: dir });
  assert.equal(explained.status, 2);
  assert.match(
    explained.stderr,
    /^stage-lens explain: expected one input \(a file, a session folder, or '-' for stdin\), got 2\. .*: cat server\.log\.1 server\.log \| stage-lens explain - --target e2e\n$/,
  );
  const followed = cli(['analyze', '--follow', 'server.log.1', 'server.log'], { cwd: dir });
  assert.equal(followed.status, 2);
  assert.match(
    followed.stderr,
    /--follow follows the one log the server is writing \(stage-lens analyze --follow server\.log\)/,
  );
});
