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
import { assertReadProgressShown } from './support/progressScreen';

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
    assertReadProgressShown(run.stdout, log);
    // The report went to the file, whole.
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

test(
  'analyze --follow on a terminal of unknown size (a pty of 0×0) draws its live frame as on 80×24',
  { skip: hasScript ? false : 'needs util-linux script(1) for a pseudo-terminal' },
  () => {
    // A pty whose size nobody set (script run without a terminal) says 0 rows and 0 columns.
    // Under a folder whose name alone is longer than a line: the head line gives up the path's
    // start and keeps the file name and the clock.
    const deep = path.join(tmp, 'a-folder-whose-name-alone-is-longer-than-one-line-of-an-eighty-column-terminal');
    fs.mkdirSync(deep, { recursive: true });
    const followed = path.join(deep, 'talker-codec.log');
    fs.copyFileSync(SAMPLE, followed);
    const command = `stty rows 0 cols 0; ${shellQuote(process.execPath)} ${shellQuote(CLI)} analyze --follow ${shellQuote(followed)} --duration 2.5`;
    const run = spawnSync('script', ['-qfec', command, '/dev/null'], { encoding: 'utf8', timeout: 60_000 });
    assert.equal(run.status, 0, run.stderr);
    const frames = run.stdout.split('\x1b[H\x1b[2J').slice(1);
    assert.ok(frames.length >= 1, `no live frame: ${JSON.stringify(run.stdout.slice(0, 200))}`);
    const frame = frames[0]!.split('\nFinal summary')[0]!;
    const lines = frame.split('\r\n');
    assert.match(lines[0]!, /^Live · …[^ ]*\/talker-codec\.log · \d+s$/);
    assert.match(frame, /Stage Lens: 25 requests/);
    assert.match(frame, /\r\nstage +n +/);
    // Fitted to 80×24: no line wider, and at most 23 lines (the last row stays free).
    assert.ok(lines.filter((l) => l !== '').length <= 23, `${lines.length} lines`);
    for (const line of lines) assert.ok([...line].length <= 80, line);
  },
);
