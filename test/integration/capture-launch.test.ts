// Launch source against real child processes (node -e scripts): streams, stop, kill,
// crash, spawn failure, no shell, restart, and process-group cleanup.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { LaunchSource, type LaunchOptions } from '../../server/capture/launchSource';
import { processAlive } from '../../server/capture/procStat';
import { Recorder } from './support/captureRecorder';

const node = process.execPath;
const cwd = os.tmpdir();

/** Starts a source and registers its stop with the test, so nothing outlives a failing test. */
function launch(
  t: { after(fn: () => Promise<void>): void },
  script: string,
  extra: Partial<LaunchOptions> = {},
  args: string[] = [],
): { source: LaunchSource; rec: Recorder } {
  const source = new LaunchSource({ argv: [node, '-e', script, ...args], cwd, graceMs: 3000, ...extra });
  const rec = new Recorder();
  t.after(() => source.stop());
  source.start(rec);
  return { source, rec };
}

function pidsIn(text: string, label: string): number[] {
  return [...text.matchAll(new RegExp(`${label}=(\\d+)`, 'g'))].map((m) => Number(m[1]));
}

async function waitGone(pid: number, timeoutMs = 3000): Promise<boolean> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (!processAlive(pid)) return true;
    await new Promise((r) => setTimeout(r, 20));
  }
  return !processAlive(pid);
}

test('captures stdout and stderr, each in order, and reports a clean exit', async (t) => {
  const script = `
    for (let i = 0; i < 300; i++) {
      process.stdout.write('out ' + i + '\\n');
      process.stderr.write('err ' + i + '\\n');
    }`;
  const { rec } = launch(t, script);
  await rec.untilStatus('exited');
  const expected = (label: string): string => Array.from({ length: 300 }, (_, i) => `${label} ${i}\n`).join('');
  assert.equal(rec.text('stdout'), expected('out'));
  assert.equal(rec.text('stderr'), expected('err'));
  assert.deepEqual(
    rec.statuses.map((s) => s.status),
    ['starting', 'running', 'exited'],
  );
  assert.deepEqual(rec.lastStatus?.exit, { code: 0, signal: null });
});

test('passes PYTHONUNBUFFERED=1 and merges the given env over ours', async (t) => {
  const { rec, source } = launch(
    t,
    `console.log(JSON.stringify([process.env.PYTHONUNBUFFERED, process.env.STAGE_LENS_X, typeof process.env.PATH]))`,
    {
      env: { STAGE_LENS_X: 'y' },
    },
  );
  await rec.untilStatus('exited');
  assert.deepEqual(JSON.parse(rec.text('stdout')), ['1', 'y', 'string']);
  assert.deepEqual(source.exit, { code: 0, signal: null });

  const given = launch(t, `console.log(process.env.PYTHONUNBUFFERED)`, { env: { PYTHONUNBUFFERED: '0' } });
  await given.rec.untilStatus('exited');
  assert.equal(given.rec.text('stdout'), '0\n');
});

test('stop sends SIGTERM, which a well-behaved server honours', async (t) => {
  const script = `
    process.on('SIGTERM', () => { process.stdout.write('got SIGTERM\\n'); process.exit(0); });
    console.log('ready pid=' + process.pid);
    setInterval(() => {}, 1000);`;
  const { source, rec } = launch(t, script, { graceMs: 4000 });
  await rec.untilText('ready');
  const [pid] = pidsIn(rec.text(), 'pid');
  assert.equal(source.pid, pid);
  const began = Date.now();
  await source.stop();
  assert.ok(Date.now() - began < 2000, 'stopped well within the grace period');
  assert.match(rec.text('stdout'), /got SIGTERM\n$/);
  const last = rec.lastStatus;
  assert.equal(last?.status, 'exited');
  assert.match(last?.detail ?? '', /stopped by Stage Lens/);
  assert.deepEqual(last?.exit, { code: 0, signal: null });
  assert.equal(source.pid, null);
  assert.ok(pid !== undefined && (await waitGone(pid)));
});

test('a child that ignores SIGTERM is killed with SIGKILL after the grace period', async (t) => {
  const script = `
    process.on('SIGTERM', () => process.stdout.write('ignoring SIGTERM\\n'));
    console.log('ready pid=' + process.pid);
    setInterval(() => {}, 1000);`;
  const { source, rec } = launch(t, script, { graceMs: 300 });
  await rec.untilText('ready');
  const [pid] = pidsIn(rec.text(), 'pid');
  const began = Date.now();
  await source.stop();
  const took = Date.now() - began;
  assert.ok(took >= 300, `waited the grace period (${took} ms)`);
  assert.ok(took < 2500, `did not wait much longer (${took} ms)`);
  assert.match(rec.text('stdout'), /ignoring SIGTERM/);
  assert.equal(rec.lastStatus?.status, 'exited');
  assert.match(rec.lastStatus?.detail ?? '', /SIGKILL/);
  assert.deepEqual(rec.lastStatus?.exit, { code: null, signal: 'SIGKILL' });
  assert.ok(pid !== undefined && !processAlive(pid), 'no process left');
  assert.throws(() => process.kill(pid ?? 0, 0), /ESRCH/);
});

test('a crash in the middle of a table delivers every byte and reports the exit code', async (t) => {
  // A large complete part (more than one pipe buffer) then half a table, then exit 3.
  const script = `
    const row = '| stage_gen_time_ms | 1234.567 | 987.654 |\\n';
    process.stdout.write('[Stage table] request_id=req-1\\n' + row.repeat(4000));
    process.stdout.write('[Stage table] request_id=req-2\\n| stage_gen_time_ms | 12');
    process.stderr.write('Traceback: boom\\n');
    process.exit(3);`;
  const { rec } = launch(t, script);
  await rec.untilStatus('crashed');
  const row = '| stage_gen_time_ms | 1234.567 | 987.654 |\n';
  assert.equal(
    rec.text('stdout'),
    '[Stage table] request_id=req-1\n' + row.repeat(4000) + '[Stage table] request_id=req-2\n| stage_gen_time_ms | 12',
  );
  assert.equal(rec.text('stderr'), 'Traceback: boom\n');
  assert.deepEqual(rec.lastStatus?.exit, { code: 3, signal: null });
  assert.match(rec.lastStatus?.detail ?? '', /code 3/);
});

test("a crash says stderr's last error line: colour codes removed, control characters made visible", async (t) => {
  const script = `
    process.stderr.write('INFO 12-05 00:39:54 loading model\\n');
    process.stderr.write('Traceback (most recent call last):\\n  File "x.py", line 1\\n');
    process.stderr.write('\\x1b[31mtorch.OutOfMemoryError: CUDA out of memory.\\x07 Tried to allocate 2.00 GiB\\x1b[0m\\r\\n');
    process.stderr.write('INFO 12-05 00:39:55 shutting down\\n');
    process.exit(1);`;
  const { rec } = launch(t, script);
  await rec.untilStatus('crashed');
  assert.equal(
    rec.lastStatus?.detail,
    'exited with code 1: torch.OutOfMemoryError: CUDA out of memory.\u2407 Tried to allocate 2.00 GiB',
  );
});

test('a signal we did not send is a crash', async (t) => {
  const { rec } = launch(t, `process.kill(process.pid, 'SIGSEGV')`);
  await rec.untilStatus('crashed');
  assert.deepEqual(rec.lastStatus?.exit, { code: null, signal: 'SIGSEGV' });
  assert.match(rec.lastStatus?.detail ?? '', /SIGSEGV/);
});

test('a program that does not exist is an error naming the program and the directory', async () => {
  const source = new LaunchSource({ argv: ['stage-lens-no-such-program', '--omni'], cwd });
  const rec = new Recorder();
  source.start(rec);
  await rec.untilStatus('error');
  const detail = rec.lastStatus?.detail ?? '';
  assert.match(detail, /stage-lens-no-such-program/);
  assert.ok(detail.includes(cwd), detail);
  assert.match(detail, /not found/);
  await source.stop(); // nothing to stop: resolves at once

  const badCwd = path.join(cwd, 'stage-lens-no-such-dir');
  const inMissingDir = new LaunchSource({ argv: [node, '-e', ''], cwd: badCwd });
  const rec2 = new Recorder();
  inMissingDir.start(rec2);
  await rec2.untilStatus('error');
  assert.match(rec2.lastStatus?.detail ?? '', /working directory .*stage-lens-no-such-dir does not exist/);
});

test('arguments with shell metacharacters arrive verbatim: there is no shell', async (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stage-lens-argv-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const literal = ['$(echo hi)', 'a; touch pwned', 'x | cat', '`id`', '> redirected.txt', "it's", '*', ''];
  const { rec, source } = launch(t, 'console.log(JSON.stringify(process.argv.slice(1)))', { cwd: dir }, literal);
  await rec.untilStatus('exited');
  assert.deepEqual(JSON.parse(rec.text('stdout')), literal);
  assert.deepEqual(fs.readdirSync(dir), [], 'no shell ran: nothing was created');
  assert.match(source.description, /'\$\(echo hi\)'/);
});

test('restart stops the running process and starts a new one with the same listener', async (t) => {
  const script = `console.log('pid=' + process.pid); setInterval(() => {}, 1000);`;
  const { source, rec } = launch(t, script, { graceMs: 1000 });
  await rec.untilText('pid=');
  await source.restart();
  await rec.until(() => pidsIn(rec.text(), 'pid').length === 2, 'a second pid');
  const [first, second] = pidsIn(rec.text(), 'pid');
  assert.notEqual(first, second);
  assert.ok(first !== undefined && !processAlive(first), 'the first process is gone');
  assert.equal(source.pid, second);
  assert.deepEqual(
    rec.statuses.map((s) => s.status),
    ['starting', 'running', 'exited', 'starting', 'running'],
  );
  await source.stop();
  assert.ok(second !== undefined && !processAlive(second));
});

test('stop takes the whole process group: a grandchild holding the pipe dies too', async (t) => {
  // The grandchild inherits stdout (like a stage worker) and ignores SIGTERM on top.
  const script = `
    const { spawn } = require('node:child_process');
    const g = spawn(process.execPath, ['-e', "process.on('SIGTERM', () => {}); console.log('grandchild up'); setInterval(() => {}, 1000)"], { stdio: 'inherit' });
    console.log('child=' + process.pid + ' grandchild=' + g.pid);
    setInterval(() => {}, 1000);`;
  const { source, rec } = launch(t, script, { graceMs: 300 });
  await rec.untilText('grandchild up');
  const [child] = pidsIn(rec.text(), 'child');
  const [grandchild] = pidsIn(rec.text(), 'grandchild');
  assert.ok(child !== undefined && grandchild !== undefined);
  assert.ok(processAlive(grandchild));
  await source.stop();
  assert.ok(!processAlive(child), 'child gone');
  assert.ok(!processAlive(grandchild), 'grandchild gone');
  assert.equal(rec.lastStatus?.status, 'exited');
});

test('a server that crashes leaving its workers behind: the workers are stopped too', async (t) => {
  const script = `
    const { spawn } = require('node:child_process');
    const g = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    console.log('worker=' + g.pid);
    setTimeout(() => process.exit(1), 100);`;
  const { rec } = launch(t, script, { graceMs: 500 });
  await rec.untilStatus('crashed');
  const [worker] = pidsIn(rec.text(), 'worker');
  assert.ok(worker !== undefined && !processAlive(worker), 'orphaned worker stopped');
  assert.ok(rec.notices.some((n) => /left child processes running/.test(n)));
  assert.deepEqual(rec.lastStatus?.exit, { code: 1, signal: null });
});

test('stop right after start waits for the spawn, then stops', async (t) => {
  const { source, rec } = launch(t, 'setInterval(() => {}, 1000)', { graceMs: 1000 });
  await source.stop();
  assert.deepEqual(
    rec.statuses.map((s) => s.status),
    ['starting', 'running', 'exited'],
  );
  assert.equal(source.pid, null);
});

test('a daemon that left the group but holds the pipes does not keep the run open forever', async (t) => {
  // The grandchild calls setsid (detached) so the group kill cannot reach it, and keeps our stdout.
  const script = `
    const { spawn } = require('node:child_process');
    const g = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { detached: true, stdio: ['ignore', 'inherit', 'inherit'] });
    console.log('daemon=' + g.pid);
    process.exit(0);`;
  const { rec } = launch(t, script);
  await rec.untilText('daemon=');
  const [daemon] = pidsIn(rec.text(), 'daemon');
  t.after(() => {
    if (daemon !== undefined && processAlive(daemon)) process.kill(daemon, 'SIGKILL');
  });
  await rec.untilStatus('exited', 5000);
  assert.deepEqual(rec.lastStatus?.exit, { code: 0, signal: null });
  assert.ok(rec.notices.some((n) => /outside its group still holds its output/.test(n)));
});
