// Launching through the language server over a real connection (dist/server.js on stdio):
// the terminal's first line shows the environment added and the argument vector; a command
// that cannot start says which program it looked for and where, in the terminal lines and
// in the session, and no /metrics error hides it; an exit shows its code; and a server
// that ignores SIGPIPE does not outlive a language server killed with SIGKILL.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { processAlive } from '../../server/capture/procStat';
import { killLanguageServers, startLanguageServer } from './support/lspProcess';
import { waitFor } from './support/waitFor';
import { unusedPort } from './support/unusedPort';

const ROOT = path.resolve(__dirname, '..', '..');
const storage = fs.mkdtempSync(path.join(os.tmpdir(), 'stage-lens-launch-'));
const strays: number[] = [];

after(() => {
  killLanguageServers();
  for (const pid of strays) if (processAlive(pid)) process.kill(pid, 'SIGKILL');
  fs.rmSync(storage, { recursive: true, force: true });
});

test(
  'first line: the environment added and the argument vector; an exit shows its code',
  { timeout: 60_000 },
  async () => {
    const client = await startLanguageServer(storage);
    const argv = [
      process.execPath,
      '-e',
      "console.log('level=' + process.env.VLLM_LOGGING_LEVEL); process.exit(3)",
      'two words',
    ];
    const info = await client.request('stageLens/launch', { argv, cwd: ROOT, env: { VLLM_LOGGING_LEVEL: 'DEBUG' } });
    const ended = await waitFor('the process to end', async () => {
      const s = await client.session(info.id);
      return s !== undefined && s.status === 'crashed' ? s : undefined;
    });
    assert.deepEqual(ended.exit, { code: 3, signal: null });
    assert.match(ended.lastError ?? '', /exited with code 3$/);
    const lines = (client.raw.get(info.id) ?? [])
      .join('')
      .split('\r\n')
      .filter((l) => l !== '');
    assert.equal(
      lines[0],
      `[stage-lens] $ VLLM_LOGGING_LEVEL=DEBUG PYTHONUNBUFFERED=1 ${process.execPath} -e 'console.log('\\''level='\\'' + process.env.VLLM_LOGGING_LEVEL); process.exit(3)' 'two words'`,
    );
    assert.ok(lines.includes('level=DEBUG'), 'the server got the variable');
    assert.match(lines[lines.length - 1] ?? '', /^\[stage-lens\] .*: exited with code 3$/);
    client.child.kill('SIGTERM');
  },
);

test(
  'a program that cannot start: named with where it was looked for, in the terminal lines and the session',
  { timeout: 60_000 },
  async () => {
    const client = await startLanguageServer(storage);
    const port = await unusedPort();
    const info = await client.request('stageLens/launch', {
      argv: ['stage-lens-no-such-vllm', 'serve', 'm'],
      cwd: ROOT,
      env: { PATH: '/opt/stage-lens-a:/opt/stage-lens-b' },
      metricsUrl: `http://127.0.0.1:${port}/metrics`,
    });
    const failed = await waitFor('the launch error', async () => {
      const s = await client.session(info.id);
      return s !== undefined && s.status === 'error' ? s : undefined;
    });
    const expected = `cannot start "stage-lens-no-such-vllm" in ${ROOT}: not found on PATH (looked in /opt/stage-lens-a, /opt/stage-lens-b)`;
    assert.ok(failed.lastError?.includes(expected), failed.lastError ?? '');
    const text = (client.raw.get(info.id) ?? []).join('');
    assert.ok(
      text.startsWith(
        '[stage-lens] $ PATH=/opt/stage-lens-a:/opt/stage-lens-b PYTHONUNBUFFERED=1 stage-lens-no-such-vllm serve m\r\n',
      ),
      text,
    );
    assert.ok(text.includes(expected), text);
    // No scrape of a /metrics that never existed: after more than one scrape interval, the error is still the launch's.
    await new Promise((r) => setTimeout(r, 2600));
    const later = await client.session(info.id);
    assert.equal(later?.lastError, failed.lastError);
    assert.doesNotMatch(later?.lastError ?? '', /scrape|refused/i);

    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stage-lens-noexec-'));
    const script = path.join(dir, 'serve.sh');
    fs.writeFileSync(script, '#!/bin/sh\necho hi\n', { mode: 0o644 });
    const noExec = await client.request('stageLens/launch', { argv: [script], cwd: dir });
    const denied = await waitFor('permission error', async () => {
      const s = await client.session(noExec.id);
      return s !== undefined && s.status === 'error' ? s : undefined;
    });
    assert.match(
      denied.lastError ?? '',
      new RegExp(`${script.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} is not executable`),
    );
    const badCwd = await client.request('stageLens/launch', {
      argv: [process.execPath, '-e', ''],
      cwd: path.join(dir, 'missing'),
    });
    const cwdError = await waitFor('cwd error', async () => {
      const s = await client.session(badCwd.id);
      return s !== undefined && s.status === 'error' ? s : undefined;
    });
    assert.match(cwdError.lastError ?? '', /the working directory .*missing does not exist/);
    fs.rmSync(dir, { recursive: true, force: true });
    client.child.kill('SIGTERM');
  },
);

test(
  'a server that ignores SIGPIPE does not outlive a language server killed with SIGKILL',
  { timeout: 60_000 },
  async () => {
    const client = await startLanguageServer(storage);
    // Like a Python server: ignores SIGPIPE (Python's logging swallows BrokenPipeError), keeps
    // writing, and has a stage worker in its process group.
    const server = `
    process.on('SIGPIPE', () => {});
    process.stdout.on('error', () => {});
    const { spawn } = require('node:child_process');
    const worker = spawn(process.execPath, ['-e', "process.on('SIGPIPE', () => {}); process.stdout.on('error', () => {}); setInterval(() => { try { process.stdout.write('worker\\\\n'); } catch {} }, 50)"], { stdio: ['ignore', 'inherit', 'inherit'] });
    console.log('server=' + process.pid + ' worker=' + worker.pid);
    setInterval(() => { try { process.stdout.write('tick\\n'); } catch {} }, 50);`;
    const info = await client.request('stageLens/launch', { argv: [process.execPath, '-e', server], cwd: ROOT });
    const pids = await waitFor('the server and its worker', () => {
      const m = /server=(\d+) worker=(\d+)/.exec((client.raw.get(info.id) ?? []).join(''));
      return m === null ? undefined : [Number(m[1]), Number(m[2])];
    });
    strays.push(...pids);
    assert.ok(pids.every((pid) => processAlive(pid)));
    client.child.kill('SIGKILL');
    await new Promise((r) => client.child.once('exit', r));
    // The supervisor sees its pipe close: SIGTERM to the group at once (SIGKILL after 5 s).
    await waitFor(
      'the server and its worker gone',
      () => (pids.every((pid) => !processAlive(pid)) ? true : undefined),
      10_000,
    );
  },
);
