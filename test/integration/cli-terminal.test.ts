// `stage-lens analyze <file>` on a terminal: the read's progress on stderr, one line rewritten
// in place and erased before the report; nothing of it when stderr is not a terminal. The
// terminal is a real pseudo-terminal (util-linux `script`), the CLI the built dist/cli.js.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { buildBundles } from './support/buildBundles';

const ROOT = path.resolve(__dirname, '..', '..');
const CLI = path.join(ROOT, 'dist', 'cli.js');
const SAMPLE = path.join(ROOT, 'samples', 'qwen3-tts-first-audio-cold-start.log');
const hasScript = spawnSync('script', ['--version'], { encoding: 'utf8' }).status === 0;

let tmp = '';
let log = '';

before(() => {
  buildBundles('cli');
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'stage-lens-tty-'));
  log = path.join(tmp, 'server.log');
  // A few MB: read in many 64 KB pieces, so the progress line is drawn between them.
  const sample = fs.readFileSync(SAMPLE);
  fs.writeFileSync(log, Buffer.concat(Array.from({ length: 20 }, () => sample)));
});

after(() => {
  if (tmp !== '') fs.rmSync(tmp, { recursive: true, force: true });
});

const shellQuote = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;

test(
  'on a terminal, a long read shows its progress on stderr and erases it',
  { skip: hasScript ? false : 'needs util-linux script(1) for a pseudo-terminal' },
  () => {
    const out = path.join(tmp, 'report.json');
    const command = `${shellQuote(process.execPath)} ${shellQuote(CLI)} analyze ${shellQuote(log)} --format json > ${shellQuote(out)}`;
    // script runs the command on a pseudo-terminal and copies what it shows to our stdout.
    const run = spawnSync('script', ['-qfec', command, '/dev/null'], {
      encoding: 'utf8',
      timeout: 120_000,
      env: { ...process.env, STAGE_LENS_PROGRESS_DELAY_MS: '0' },
    });
    assert.equal(run.status, 0, run.stderr);
    const screen = run.stdout;
    const lines = [...screen.matchAll(/\r\x1b\[Kstage-lens: reading (\S+): ([\d.]+) of ([\d.]+) MB \((\d+)%\)/g)];
    assert.ok(lines.length >= 1, `no progress line on the terminal: ${JSON.stringify(screen.slice(0, 300))}`);
    const size = (fs.statSync(log).size / 1048576).toFixed(1);
    for (const m of lines) {
      assert.equal(m[1], log);
      assert.equal(m[3], size);
      assert.ok(Number(m[2]) <= Number(size));
    }
    // The last thing on the terminal erases the line; the report went to the file, whole.
    assert.ok(screen.endsWith('\r\x1b[K'), `ends with ${JSON.stringify(screen.slice(-40))}`);
    const report = JSON.parse(fs.readFileSync(out, 'utf8')) as { requests: unknown[] };
    assert.equal(report.requests.length, 25 * 20);
  },
);

test('stderr that is not a terminal gets no progress', () => {
  const run = spawnSync(process.execPath, [CLI, 'analyze', log, '--format', 'json'], {
    encoding: 'utf8',
    timeout: 120_000,
    maxBuffer: 256 * 1024 * 1024,
    env: { ...process.env, STAGE_LENS_PROGRESS_DELAY_MS: '0' },
  });
  assert.equal(run.status, 0);
  assert.equal(run.stderr, '');
});
