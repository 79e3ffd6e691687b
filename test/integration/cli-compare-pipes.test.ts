// `stage-lens compare` on paths that are not regular files: a FIFO another process writes and a
// shell's process substitution (`compare <(zcat a.gz) <(zcat b.gz)`), read once as streams, as
// analyze reads them. The built dist/cli.js as a child process, under a real bash.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as zlib from 'node:zlib';
import { buildBundles } from './support/buildBundles';

const ROOT = path.resolve(__dirname, '..', '..');
const CLI = path.join(ROOT, 'dist', 'cli.js');
const LOG = path.join(ROOT, 'test', 'fixtures', 'upstream-rendered', 'qwen3tts-talker-first-audio-after-fix.log');
let dir = '';

before(() => {
  buildBundles('cli');
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stage-lens-compare-pipes-'));
  fs.writeFileSync(path.join(dir, 'run.log.gz'), zlib.gzipSync(fs.readFileSync(LOG)));
});

after(() => {
  if (dir !== '') fs.rmSync(dir, { recursive: true, force: true });
});

interface Json {
  baseline: { requestCount: number };
  candidate: { requestCount: number };
}

test('compare reads two process substitutions as streams', () => {
  const r = spawnSync(
    'bash',
    [
      '-c',
      `"${process.execPath}" "${CLI}" compare <(cat "${LOG}") <(gzip -dc "${path.join(dir, 'run.log.gz')}") --format json`,
    ],
    { encoding: 'utf8', timeout: 120_000, cwd: ROOT },
  );
  assert.equal(r.status, 0, r.stderr);
  const json = JSON.parse(r.stdout) as Json;
  assert.equal(json.baseline.requestCount, 6);
  assert.equal(json.candidate.requestCount, 6);
});

test('compare reads a FIFO another process writes', async () => {
  const fifo = path.join(dir, 'candidate.fifo');
  assert.equal(spawnSync('mkfifo', [fifo]).status, 0);
  const writer = spawn('bash', ['-c', `cat "${LOG}" > "${fifo}"`], { stdio: 'ignore' });
  const r = spawnSync(process.execPath, [CLI, 'compare', LOG, fifo, '--format', 'json'], {
    encoding: 'utf8',
    timeout: 120_000,
    cwd: ROOT,
  });
  await new Promise((resolve) => (writer.exitCode !== null ? resolve(null) : writer.on('exit', resolve)));
  assert.equal(r.status, 0, r.stderr);
  assert.equal((JSON.parse(r.stdout) as Json).candidate.requestCount, 6);
});
