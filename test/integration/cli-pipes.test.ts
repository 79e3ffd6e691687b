// `stage-lens analyze` reading pipes as a user gives them: a named pipe (mkfifo) by its name,
// and stdin fed by a writer that has not finished. The CLI is the built dist/cli.js as a real
// child process; the writers are real shell processes.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { buildBundles } from './support/buildBundles';

const ROOT = path.resolve(__dirname, '..', '..');
const CLI = path.join(ROOT, 'dist', 'cli.js');
const SAMPLE = path.join(ROOT, 'samples', 'qwen3-tts-first-audio-cold-start.log');

let tmp = '';

before(() => {
  buildBundles('cli');
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'stage-lens-pipes-'));
});

after(() => {
  if (tmp !== '') fs.rmSync(tmp, { recursive: true, force: true });
});

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
