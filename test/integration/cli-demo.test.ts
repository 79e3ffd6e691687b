// `stage-lens demo` as a user runs it: the built dist/cli.js as a real child process, which
// starts the simulator as its own child. Its options are checked before anything starts; a
// simulator that dies ends the demo at once with its stderr; the live view fits the terminal
// (under `script`, a real pseudo-terminal) and prints no frames into a pipe.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { buildBundles } from './support/buildBundles';

const ROOT = path.resolve(__dirname, '..', '..');
const CLI = path.join(ROOT, 'dist', 'cli.js');

function demo(args: string[], nodeArgs: string[] = []) {
  const started = Date.now();
  const r = spawnSync(process.execPath, [...nodeArgs, CLI, 'demo', ...args], {
    encoding: 'utf8',
    timeout: 60_000,
    cwd: ROOT,
  });
  return { ...r, seconds: (Date.now() - started) / 1000 };
}

before(() => buildBundles('cli'));

test('demo with an option the simulator refuses exits 2 at once with the simulator’s reason', () => {
  const cases: [string[], RegExp][] = [
    [['--scenario', 'nope'], /--scenario must be one of qwen3-tts, qwen3-omni, glm-image, cold-start, got 'nope'/],
    [['--rps', '0'], /--rps must be a number in \(0, 100000\], got '0'/],
    [['--speed', '0'], /--speed must be a positive number, got '0'/],
    // A negative value reaches the check as a value, not node's "argument is ambiguous".
    [['--rps', '-1'], /--rps must be a number in \(0, 100000\], got '-1'/],
    [['--duration', '-5'], /--duration must be a positive number of seconds, got '-5'/],
  ];
  for (const [args, reason] of cases) {
    const r = demo(args[0] === '--duration' ? args : [...args, '--duration', '60']);
    assert.equal(r.status, 2, `${args.join(' ')}: ${r.stderr}`);
    assert.match(r.stderr, reason);
    assert.match(r.stderr, /^stage-lens demo: /);
    assert.doesNotMatch(r.stderr, /ambiguous/);
    assert.equal(r.stdout, '');
    assert.ok(r.seconds < 10, `${args.join(' ')} took ${r.seconds} s of a 60 s demo`);
  }
});

test('a simulator that dies ends the demo at once: its stderr shown, no advice about DEBUG', (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stage-lens-demo-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  // Node's own --require reaches the simulator too (demo starts it with its execArgv): there it dies.
  const dies = path.join(dir, 'dies.cjs');
  fs.writeFileSync(
    dies,
    "if (process.argv.includes('simulate')) { process.stderr.write('RuntimeError: CUDA out of memory\\n'); process.exit(3); }\n",
  );
  const r = demo(['--duration', '60'], ['--require', dies]);
  assert.equal(r.status, 1, r.stderr);
  assert.ok(r.seconds < 15, `took ${r.seconds} s of a 60 s demo`);
  assert.match(
    r.stderr,
    // The exit names its last error line, then the stderr's end follows.
    /stage-lens demo: simulator \(cold-start\) exited with code 3: RuntimeError: CUDA out of memory; its stderr ends with:\nRuntimeError: CUDA out of memory/,
  );
  assert.match(r.stdout, /Final summary · simulator \(cold-start\) · \d+s · exited with code 3/);
  assert.match(
    r.stdout,
    /No request was read: simulator \(cold-start\) ended \(exited with code 3: RuntimeError: CUDA out of memory\) before printing one\./,
  );
  assert.doesNotMatch(r.stdout, /VLLM_LOGGING_LEVEL=DEBUG/);
});

test('demo into a pipe prints a line per change of the request count, then one final summary', () => {
  const r = demo(['--duration', '4', '--scenario', 'qwen3-tts', '--speed', '8']);
  assert.equal(r.status, 0, r.stderr);
  const [live, final] = r.stdout.split('\nFinal summary') as [string, string];
  assert.ok(final !== undefined, r.stdout);
  const liveLines = live.split('\n').filter((l) => l !== '');
  assert.ok(liveLines.length >= 1 && liveLines.length <= 5, live);
  for (const l of liveLines) assert.match(l, /^Live · simulator \(qwen3-tts\) · \d+s · \d+ requests? so far$/);
  // The counts said are each different: no line repeats the last.
  const counts = liveLines.map((l) => Number(/(\d+) requests? so far/.exec(l)?.[1]));
  assert.equal(new Set(counts).size, counts.length);
  assert.equal(r.stdout.match(/Phase split per stage/g)?.length, 1);
  assert.doesNotMatch(r.stdout, /\x1b\[/);
});

test('demo runs each scenario at its own rate unless --rps is given', () => {
  // glm-image's requests take seconds: the simulator's default for it is 0.15/s, not a demo's 4.
  const own = demo(['--duration', '1', '--scenario', 'glm-image']);
  assert.equal(own.status, 0, own.stderr);
  assert.match(own.stdout, /simulate --scenario=glm-image /);
  assert.doesNotMatch(own.stdout, /--rps/);
  const given = demo(['--duration', '1', '--scenario', 'glm-image', '--rps', '0.5']);
  assert.equal(given.status, 0, given.stderr);
  assert.match(given.stdout, / --rps=0\.5 /);
});

test('on an 80×30 terminal every live frame fits: no line over 80 columns, at most 29 lines, the phase table and findings in it', (t) => {
  if (spawnSync('script', ['--version']).status !== 0) {
    t.skip('no script(1) for a pseudo-terminal');
    return;
  }
  const command = `stty cols 80 rows 30; ${JSON.stringify(process.execPath)} ${JSON.stringify(CLI)} demo --duration 5 --scenario qwen3-omni`;
  const r = spawnSync('script', ['-qfc', command, '/dev/null'], { encoding: 'utf8', timeout: 60_000, cwd: ROOT });
  assert.equal(r.status, 0, r.stderr);
  const frames = r.stdout.split('\x1b[H\x1b[2J').slice(1);
  const last = frames.pop() as string;
  const [lastLive] = last.split('\r\nFinal summary');
  frames.push(lastLive as string);
  assert.ok(frames.length >= 3, `${frames.length} frames`);
  for (const frame of frames) {
    const lines = frame.replace(/\r\n$/, '').split('\r\n');
    assert.ok(lines.length <= 29, `a frame of ${lines.length} lines:\n${frame}`);
    for (const line of lines) assert.ok([...line].length <= 80, `a line of ${[...line].length}: ${line}`);
  }
  const withRequests = frames.filter((f) => /stage {9}n/.test(f));
  assert.ok(withRequests.length > 0, frames.join('\n====\n'));
  const full = withRequests[withRequests.length - 1] as string;
  assert.match(full, /2 · code2wav/);
  assert.match(full, /Findings:\r\n {2}\[info\] cold-start/);
  // The final summary is printed whole.
  assert.match(
    last,
    /Final summary[^]*Findings:[^]*stage-times-overlap, \d+ requests: On \d+ of \d+ requests with an \[OmniTiming\] line the stage times add up to more than the engine time/,
  );
});

test('on an 80×40 terminal the phase table folds the columns past 80 into more blocks: every column shown, the findings still in view', (t) => {
  if (spawnSync('script', ['--version']).status !== 0) {
    t.skip('no script(1) for a pseudo-terminal');
    return;
  }
  const command = `stty cols 80 rows 40; ${JSON.stringify(process.execPath)} ${JSON.stringify(CLI)} demo --duration 6 --speed 16`;
  const r = spawnSync('script', ['-qfc', command, '/dev/null'], { encoding: 'utf8', timeout: 60_000, cwd: ROOT });
  assert.equal(r.status, 0, r.stderr);
  const frames = r.stdout.split('\x1b[H\x1b[2J').slice(1);
  const last = frames.pop() as string;
  frames.push(last.split('\r\nFinal summary')[0] as string);
  const full = frames.filter((f) => /Findings:/.test(f)).at(-1);
  assert.ok(full !== undefined, frames.join('\n====\n'));
  for (const line of full.split('\r\n')) assert.ok([...line].length <= 80, `a line of ${[...line].length}: ${line}`);
  // Wider than 80 columns: its last columns fold into a second block, never cut off.
  const headers = full.split('\r\n').filter((l) => /^stage +n /.test(l));
  assert.ok(headers.length >= 2, full);
  const titles = headers.flatMap((l) => l.replace(/^stage +n +/, '').split(/ {2,}/));
  assert.deepEqual(titles, [
    'queued',
    'input wait',
    'ready queued',
    'prefill',
    'decode',
    'TTFT',
    'gen time',
    '1st output',
    '+1st output',
  ]);
  assert.match(full, /Findings:\r\n {2}\[(warning|info)\] /);
});
