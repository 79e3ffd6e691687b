// `stage-lens analyze` reading pipes as a user gives them: a named pipe (mkfifo) by its name,
// and stdin fed by a writer that has not finished. The CLI is the built dist/cli.js as a real
// child process; the writers are real shell processes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { CLI } from './support/cliProcess';
import { tempFolder } from './support/tempFolder';

const ROOT = path.resolve(__dirname, '..', '..');
const SAMPLE = path.join(ROOT, 'samples', 'qwen3-tts-first-audio-cold-start.log');

const tmp = tempFolder('stage-lens-pipes-');

interface Ended {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

function ended(child: ChildProcess): Promise<Ended> {
  let stdout = '';
  let stderr = '';
  child.stdout?.setEncoding('utf8').on('data', (s: string) => (stdout += s));
  child.stderr?.setEncoding('utf8').on('data', (s: string) => (stderr += s));
  return new Promise((resolve) => child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr })));
}

const shellQuote = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;

for (const command of ['analyze', 'explain'] as const) {
  test(`${command} of a named pipe (mkfifo) reads what its writer writes; the writer is not cut off`, async () => {
    const fifo = path.join(tmp, `${command}.fifo`);
    execFileSync('mkfifo', [fifo]);
    // The writer as in `cat server.log > f &`: it blocks in open until the CLI opens the pipe.
    const writer = spawn('sh', ['-c', `cat ${shellQuote(SAMPLE)} > ${shellQuote(fifo)}`], {
      stdio: 'ignore',
      timeout: 20_000,
    });
    const writerEnd = ended(writer);
    const run = await ended(spawn(process.execPath, [CLI, command, fifo], { cwd: ROOT, timeout: 20_000 }));
    const wrote = await writerEnd;
    assert.equal(run.code, 0, run.stderr);
    assert.doesNotMatch(run.stderr, /empty/);
    if (command === 'analyze') assert.match(run.stdout, /25 requests, 2 stages, 2 server boots/);
    else assert.match(run.stdout, /25 requests/);
    assert.deepEqual({ code: wrote.code, signal: wrote.signal }, { code: 0, signal: null }, 'the writer wrote it all');
  });
}

/** Whether the process catches the signal (its handler is installed): SigCgt of /proc/<pid>/status. */
function catches(pid: number, signal: number): boolean {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const mask = /^SigCgt:\s*([0-9a-f]+)$/m.exec(status)?.[1] ?? '0';
  return ((BigInt(`0x${mask}`) >> BigInt(signal - 1)) & 1n) === 1n;
}

async function waitUntil(what: string, ok: () => boolean, ms = 20_000): Promise<void> {
  const until = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** `tail -f server.log | stage-lens analyze -`: stdin stays open, with the sample's bytes in it. */
function analyzeOfOpenStdin(format: string): { child: ChildProcess; end: Promise<Ended> } {
  const child = spawn(process.execPath, [CLI, 'analyze', '-', '--format', format], { cwd: ROOT, timeout: 30_000 });
  const end = ended(child);
  child.stdin?.write(fs.readFileSync(SAMPLE));
  return { child, end };
}

const SIGINT = 2;
const SIGTERM = 15;

test('analyze - (table) stopped by Ctrl-C prints the report of what it read, says so, and exits 130', async () => {
  const { child, end } = analyzeOfOpenStdin('table');
  await waitUntil('the SIGINT handler', () => catches(child.pid!, SIGINT));
  // The sample's 200 KB are parsed in milliseconds once read; the writer keeps the pipe open.
  await new Promise((r) => setTimeout(r, 1500));
  const sent = Date.now();
  child.kill('SIGINT');
  const run = await end;
  assert.ok(Date.now() - sent < 5000, 'ended soon after the signal, stdin still open');
  assert.deepEqual({ code: run.code, signal: run.signal }, { code: 130, signal: null }, run.stderr);
  assert.match(run.stdout, /^Stage Lens: 25 requests, 2 stages, 2 server boots/);
  assert.match(run.stdout, /Phase split per stage/);
  assert.equal(run.stderr, 'stage-lens analyze: interrupted: the report covers what was read before Ctrl-C\n');
});

test('analyze - (json) stopped by SIGTERM ends its document and exits 143; a second Ctrl-C ends the process at once', async () => {
  const { child, end } = analyzeOfOpenStdin('json');
  await waitUntil('the SIGTERM handler', () => catches(child.pid!, SIGTERM));
  await new Promise((r) => setTimeout(r, 1500));
  child.kill('SIGTERM');
  const run = await end;
  assert.deepEqual({ code: run.code, signal: run.signal }, { code: 143, signal: null }, run.stderr);
  const doc = JSON.parse(run.stdout) as { requests: unknown[]; stageSummary: Record<string, unknown> };
  assert.equal(doc.requests.length, 25);
  assert.deepEqual(Object.keys(doc.stageSummary), ['0', '1']);
  assert.equal(run.stderr, 'stage-lens analyze: interrupted: the report covers what was read before SIGTERM\n');

  // Only the first signal is caught: after it, the next one has its default effect.
  const second = analyzeOfOpenStdin('csv');
  await waitUntil('the SIGINT handler', () => catches(second.child.pid!, SIGINT));
  second.child.kill('SIGINT');
  await waitUntil('the handler removed', () => {
    try {
      return !catches(second.child.pid!, SIGINT);
    } catch {
      return true; // already gone
    }
  });
  second.child.kill('SIGINT');
  const twice = await second.end;
  assert.ok(twice.code === 130 || twice.signal === 'SIGINT', `exit ${twice.code} ${twice.signal}`);
});
