// Attach to Running Server end to end: a real simulator (a child process serving real HTTP
// /metrics on loopback), the language server over a real connection attaches to its pid, the
// simulator is killed, and the session says the process exited and stops capturing instead of
// staying "running" behind a refused scrape.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, test } from 'node:test';
import { killLanguageServers, startLanguageServer } from './support/lspProcess';
import { spawn, type ChildProcess } from 'node:child_process';
import { SIMULATE } from './support/simulateProcess';
import { waitFor } from './support/waitFor';

const storage = fs.mkdtempSync(path.join(os.tmpdir(), 'stage-lens-attach-'));
const sims: ChildProcess[] = [];

after(() => {
  killLanguageServers();
  for (const s of sims) if (s.exitCode === null && s.signalCode === null) s.kill('SIGKILL');
  fs.rmSync(storage, { recursive: true, force: true });
});

test('a server attached by pid that dies ends the session "exited", its scrape stopped and its refusal not shown', async () => {
  // Started from a shell's point of view: its output goes to a log file Attach can tail.
  const log = path.join(storage, 'server.log');
  const out = fs.openSync(log, 'w');
  const sim = spawn(process.execPath, [...SIMULATE, '--port', '0'], { stdio: ['ignore', out, out] });
  fs.closeSync(out);
  sims.push(sim);
  const exited = new Promise((resolve) => sim.on('exit', resolve));
  await waitFor('the simulator to listen', () =>
    /Starting vLLM API server on/.test(fs.readFileSync(log, 'utf8')) ? true : undefined,
  );
  const lsp = await startLanguageServer(storage);
  const info = await lsp.request('stageLens/attach', { pid: sim.pid as number });
  await waitFor('the attached session to run', async () =>
    (await lsp.session(info.id))?.status === 'running' ? true : undefined,
  );
  // The tail has read the server's log: a request it finished.
  await waitFor('a captured request', async () =>
    ((await lsp.session(info.id))?.requestCount ?? 0) > 0 ? true : undefined,
  );
  sim.kill('SIGKILL');
  await exited;
  const ended = await waitFor(
    'the session to end',
    async () => {
      const s = await lsp.session(info.id);
      return s !== undefined && s.status !== 'running' ? s : undefined;
    },
    8_000,
  );
  assert.equal(ended.status, 'exited');
  assert.equal(ended.lastError, null, 'no "connection refused" from the dead server\'s /metrics');
  // Its scrape stopped: still no refusal after several scrape intervals.
  await new Promise((r) => setTimeout(r, 5_000));
  const later = await lsp.session(info.id);
  assert.equal(later?.status, 'exited');
  assert.equal(later?.lastError, null);
});
