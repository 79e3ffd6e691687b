// A log and its rotations given to analyze and explain (as a shell lists `server.log*`: newest
// first), cut inside tables and inside a line as copytruncate cuts: read as one log, oldest first,
// they give every request of the whole file, line numbers counted through the files and placed back in
// each file; the pipe the README gives for the same files, run by a
// real shell with a real gzip, gives the same. A missing file is named before anything is read; a
// .gz breaking off before the last file ends the read there, says which files were not read, exit 1.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as zlib from 'node:zlib';
import { CLI, runCli as cli } from './support/cliProcess';
import { tempFolder } from './support/tempFolder';
import { rotatedSample, SAMPLE } from './support/rotatedSample';

const dir = tempFolder('stage-lens-rotated-');

type Doc = { requests: { requestId: string; timestamp: string }[]; boots: number; problems: unknown[] };

/** The sample as logrotate leaves it (rotatedSample), and `stage-lens` on the PATH, as an installed CLI is. */
function rotate(): Buffer[] {
  const parts = rotatedSample(dir);
  const bin = path.join(dir, 'bin');
  fs.mkdirSync(bin, { recursive: true });
  fs.writeFileSync(path.join(bin, 'stage-lens'), `#!/bin/sh\nexec "${process.execPath}" "${CLI}" "$@"\n`, {
    mode: 0o755,
  });
  return parts;
}

function requestsOf(doc: Doc): string[] {
  return doc.requests.map((q) => `${q.requestId} ${q.timestamp}`);
}

test('several files are read as one log, oldest first: the requests, boots and problems of the whole file', () => {
  rotate();
  const r = cli(['analyze', 'server.log', 'server.log.1', 'server.log.2.gz', '--format', 'json'], { cwd: dir });
  assert.equal(r.status, 0, r.stderr);
  assert.equal(
    r.stderr,
    'stage-lens analyze: read as one log, oldest first: server.log.2.gz, server.log.1, server.log\n',
  );
  const joined = JSON.parse(r.stdout) as Doc;
  const whole = JSON.parse(cli(['analyze', SAMPLE, '--format', 'json']).stdout) as Doc;
  assert.equal(joined.requests.length, 25);
  assert.deepEqual(requestsOf(joined), requestsOf(whole));
  assert.equal(joined.boots, 2);
  assert.deepEqual(joined.problems, whole.problems);

  // The table names the files in the order read.
  const table = cli(['analyze', 'server.log.1', 'server.log.2.gz', 'server.log'], { cwd: dir });
  assert.equal(table.status, 0, table.stderr);
  assert.match(
    table.stdout,
    /^Stage Lens: 25 requests, 2 stages, 2 server boots .* from server\.log\.2\.gz \+ server\.log\.1 \+ server\.log\n/,
  );

  // The pipe the README gives for the same files reads the same log.
  const pipe = 'gzip -dcf server.log.2.gz server.log.1 server.log | stage-lens analyze - --format json';
  const piped = spawnSync('bash', ['-c', pipe], {
    cwd: dir,
    encoding: 'utf8',
    env: { ...process.env, PATH: `${path.join(dir, 'bin')}:${process.env['PATH'] ?? ''}` },
    maxBuffer: 64 << 20,
  });
  assert.equal(piped.status, 0, piped.stderr);
  assert.deepEqual(requestsOf(JSON.parse(piped.stdout) as Doc), requestsOf(whole));
});

test('explain reads them the same way; --follow of several names the log being written; stdin cannot join them', () => {
  rotate();
  const explained = cli(
    ['explain', 'server.log', 'server.log.1', 'server.log.2.gz', '--target', 'e2e', '--format', 'json'],
    {
      cwd: dir,
    },
  );
  assert.equal(explained.status, 0, explained.stderr);
  assert.equal(
    explained.stderr,
    'stage-lens explain: read as one log, oldest first: server.log.2.gz, server.log.1, server.log\n',
  );
  const wholeExplained = cli(['explain', SAMPLE, '--target', 'e2e', '--format', 'json']);
  type Explained = { requestCount: number; source: string };
  const joined = JSON.parse(explained.stdout) as Explained;
  assert.equal(joined.requestCount, (JSON.parse(wholeExplained.stdout) as Explained).requestCount);
  assert.equal(joined.requestCount, 25);
  assert.equal(joined.source, 'server.log.2.gz + server.log.1 + server.log');

  const followed = cli(['analyze', '--follow', 'server.log.1', 'server.log'], { cwd: dir });
  assert.equal(followed.status, 2);
  assert.match(
    followed.stderr,
    /^stage-lens analyze: --follow follows one file, got 2: the one log the server is writing \(stage-lens analyze --follow server\.log\)/,
  );
  const withStdin = cli(['analyze', '-', 'server.log'], { cwd: dir, input: '' });
  assert.equal(withStdin.status, 2);
  assert.match(withStdin.stderr, /^stage-lens analyze: '-' \(stdin\) is read alone, not with other inputs \(got 2\)/);
});

test('a missing file is named before anything is read; a .gz breaking off ends the read there, exit 1', () => {
  const parts = rotate();
  const missing = cli(['analyze', 'server.log', 'server.log.3.gz', '--format', 'json'], { cwd: dir });
  assert.equal(missing.status, 2);
  assert.equal(missing.stdout, '');
  assert.equal(missing.stderr, 'stage-lens analyze: cannot read server.log.3.gz: no such file\n');

  const gz = zlib.gzipSync(Buffer.concat([parts[0] as Buffer, parts[1] as Buffer]));
  const cut = gz.subarray(0, gz.length >> 1);
  fs.writeFileSync(path.join(dir, 'broken.log.1.gz'), cut);
  fs.writeFileSync(path.join(dir, 'broken.log'), parts[2] as Buffer);
  fs.writeFileSync(path.join(dir, 'kept.log'), zlib.gunzipSync(cut, { finishFlush: zlib.constants.Z_SYNC_FLUSH }));
  const broken = cli(['analyze', 'broken.log', 'broken.log.1.gz', '--format', 'json'], { cwd: dir });
  assert.equal(broken.status, 1, broken.stderr);
  const lines = broken.stderr.trimEnd().split('\n');
  assert.equal(lines[0], 'stage-lens analyze: read as one log, oldest first: broken.log.1.gz, broken.log');
  assert.match(
    lines[1] ?? '',
    /^stage-lens analyze: the gzip data of broken\.log\.1\.gz ends after .* of log: unexpected end of file; the report covers the log before it, the rest of broken\.log\.1\.gz was not read, nor broken\.log after it$/,
  );
  const kept = JSON.parse(cli(['analyze', 'kept.log', '--format', 'json'], { cwd: dir }).stdout) as Doc;
  const read = JSON.parse(broken.stdout) as Doc & { findings: { code: string; message: string }[] };
  assert.deepEqual(requestsOf(read), requestsOf(kept));
  assert.ok(read.requests.length > 0 && read.requests.length < 25, String(read.requests.length));
  const finding = read.findings.find((f) => f.code === 'input-gzip-damaged');
  assert.match(finding?.message ?? '', /^The gzip data of broken\.log\.1\.gz ends after /);
});

test("a problem's line counts through the files and is placed in its file: the table, the JSON, the CSV's note", () => {
  rotate();
  // A table cut off in the middle rotation, at its line 100, by a process that never finishes it.
  const middle = fs.readFileSync(path.join(dir, 'server.log.1'), 'utf8').split('\n');
  const cut = [
    '(APIServer pid=9999) INFO 08-21 18:00:10 [vllm_omni/metrics/stats.py:601] [RequestE2EStats [request_id=speech-cut]]',
    '(APIServer pid=9999) INFO 08-21 18:00:10 [vllm_omni/metrics/stats.py:601] +------------------+------------+',
  ];
  middle.splice(99, 0, ...cut);
  fs.writeFileSync(path.join(dir, 'cut.log.1'), middle.join('\n'));
  fs.copyFileSync(path.join(dir, 'server.log.2.gz'), path.join(dir, 'cut.log.2.gz'));
  fs.copyFileSync(path.join(dir, 'server.log'), path.join(dir, 'cut.log'));
  const files = ['cut.log', 'cut.log.1', 'cut.log.2.gz'];

  type Placed = Omit<Doc, 'problems'> & {
    problems: { line: number; message: string; file?: string; fileLine?: number }[];
    inputFiles?: { file: string; firstLine: number; lines: number }[];
  };
  const json = cli(['analyze', ...files, '--format', 'json'], { cwd: dir });
  assert.equal(json.status, 0, json.stderr);
  const doc = JSON.parse(json.stdout) as Placed;
  // server.log.2.gz holds the sample's first 503 lines; server.log.1 ends inside a line, which server.log goes on with.
  assert.deepEqual(doc.inputFiles, [
    { file: 'cut.log.2.gz', firstLine: 1, lines: 503 },
    { file: 'cut.log.1', firstLine: 504, lines: 477 },
    { file: 'cut.log', firstLine: 980, lines: 377 },
  ]);
  assert.equal(doc.problems.length, 1);
  assert.deepEqual(
    { line: doc.problems[0]?.line, file: doc.problems[0]?.file, fileLine: doc.problems[0]?.fileLine },
    { line: 603, file: 'cut.log.1', fileLine: 100 },
  );
  assert.equal(middle[99], cut[0]);
  // One file read alone: no `inputFiles`, its problems no place (it begins inside a table the rotation cut, a problem of its own).
  const alone = JSON.parse(cli(['analyze', 'cut.log.1', '--format', 'json'], { cwd: dir }).stdout) as Placed;
  assert.equal(alone.inputFiles, undefined);
  assert.deepEqual(
    alone.problems.find((p) => p.message.includes('speech-cut')),
    {
      line: 100,
      message:
        '[RequestE2EStats request_id=speech-cut] table starting at line 100 was cut off by the end of the input (0 complete rows kept)',
    },
  );

  const table = cli(['analyze', ...files], { cwd: dir });
  assert.equal(table.status, 0, table.stderr);
  // Wrapped for a terminal: read as one line.
  assert.ok(
    table.stdout
      .replace(/\n(?=\d)/g, ' ')
      .includes(
        '\n\nLine numbers count through the files as read: cut.log.2.gz lines 1–503, cut.log.1 lines 504–980, cut.log lines 980–1356.\n',
      ),
    table.stdout.slice(0, 400),
  );
  assert.match(
    table.stdout,
    /\nInput problems \(1\):\n {2}line 603 \(cut\.log\.1 line 100\): \[RequestE2EStats request_id=speech-cut\] table starting at line 603 was cut off/,
  );

  const csv = cli(['analyze', ...files, '--format', 'csv'], { cwd: dir });
  assert.equal(csv.status, 0, csv.stderr);
  assert.match(
    csv.stderr,
    /\nstage-lens analyze: the CSV's line column counts through the files as read: cut\.log\.2\.gz lines 1–503, cut\.log\.1 lines 504–980, cut\.log lines 980–1356\n/,
  );
});
