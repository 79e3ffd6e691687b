// V8's code cache of the bundles (server/codeCache.ts), through the built dist/cli.js and
// dist/server.js as real child processes: it is written after a first run and used by the
// next, with the same output; a run that reads no input leaves a partial cache that the next
// run reading one replaces; a damaged cache, another build's cache, a directory others may
// write to, the switch that turns it off; the language server's, written when its client ends it.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import {
  createProtocolConnection,
  InitializeRequest,
  ExitNotification,
  ShutdownRequest,
  StreamMessageReader,
  StreamMessageWriter,
} from 'vscode-languageserver-protocol/node';
import { buildBundles } from './support/buildBundles';

const ROOT = path.resolve(__dirname, '..', '..');
const CLI = path.join(ROOT, 'dist', 'cli.js');
const SAMPLE = path.join(ROOT, 'samples', 'qwen3-tts-first-audio-cold-start.log');

before(() => buildBundles('cli', 'server'));

function analyze(env: Record<string, string>): string {
  const run = spawnSync(process.execPath, [CLI, 'analyze', SAMPLE, '--format', 'json'], {
    encoding: 'utf8',
    timeout: 60_000,
    env: { ...process.env, ...env },
  });
  assert.equal(run.status, 0, run.stderr);
  assert.equal(run.stderr, '');
  return run.stdout;
}

function cacheHome(): { home: string; dir: string } {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'stage-lens-code-cache-'));
  return { home, dir: path.join(home, 'stage-lens', 'code-cache') };
}

const cacheFiles = (dir: string): string[] => (fs.existsSync(dir) ? fs.readdirSync(dir).sort() : []);

test('a first run writes the cache of its bundle (private), the next reads it, with the same output', () => {
  const { home, dir } = cacheHome();
  try {
    const plain = analyze({ STAGE_LENS_CODE_CACHE: '0' });
    assert.equal(analyze({ XDG_CACHE_HOME: home }), plain);
    const files = cacheFiles(dir);
    assert.equal(files.length, 1, files.join(', '));
    assert.match(files[0] ?? '', /^cli-analyze-\d+-\d+-v\d+\.\d+\.\d+-\w+\.bin$/);
    const file = path.join(dir, files[0] ?? '');
    assert.equal(fs.statSync(file).mode & 0o777, 0o600);
    assert.equal(fs.statSync(dir).mode & 0o777, 0o700);
    assert.ok(fs.statSync(file).size > 50_000, `cache of ${fs.statSync(file).size} bytes`);
    const written = fs.statSync(file).mtimeMs;
    assert.equal(analyze({ XDG_CACHE_HOME: home }), plain);
    // Accepted, so not written again.
    assert.equal(fs.statSync(file).mtimeMs, written);
  } finally {
    fs.rmSync(home, { recursive: true, force: true });
  }
});

/** Runs `stage-lens <args>` with the cache under `home`; returns its exit code. */
function cli(home: string, args: readonly string[]): number | null {
  return spawnSync(process.execPath, [CLI, ...args], {
    encoding: 'utf8',
    timeout: 60_000,
    env: { ...process.env, XDG_CACHE_HOME: home },
  }).status;
}

test('a run that reads no input leaves a partial cache; the next run that reads one replaces it, once', () => {
  const { home, dir } = cacheHome();
  try {
    // A user's first command is often --help: its cache holds the option parser, not the parser or the analysis.
    assert.equal(cli(home, ['analyze', '--help']), 0);
    const [partialName, ...extra] = cacheFiles(dir);
    assert.deepEqual(extra, []);
    assert.match(partialName ?? '', /^cli-analyze-\d+-\d+-v[\d.]+-\w+\.partial\.bin$/);
    const partialSize = fs.statSync(path.join(dir, partialName ?? '')).size;
    // Another run that reads nothing (a usage error) keeps it.
    assert.equal(cli(home, ['analyze']), 2);
    assert.deepEqual(cacheFiles(dir), [partialName]);

    assert.equal(cli(home, ['analyze', SAMPLE]), 0);
    const [fullName, ...others] = cacheFiles(dir);
    assert.deepEqual(others, [], 'the partial cache is removed');
    assert.equal(fullName, (partialName ?? '').replace(/\.partial\.bin$/, '.bin'));
    const full = path.join(dir, fullName ?? '');
    const fullSize = fs.statSync(full).size;
    assert.ok(fullSize > partialSize * 1.5, `full cache ${fullSize} bytes against the partial's ${partialSize}`);

    // Neither a later --help nor a later log replaces a full cache.
    const written = fs.statSync(full).mtimeMs;
    assert.equal(cli(home, ['analyze', '--help']), 0);
    assert.equal(cli(home, ['analyze', SAMPLE, '--format', 'csv']), 0);
    assert.deepEqual(cacheFiles(dir), [fullName]);
    assert.equal(fs.statSync(full).mtimeMs, written);

    // explain and compare mark their runs the same way.
    assert.equal(cli(home, ['explain', '--help']), 0);
    assert.equal(cli(home, ['compare', '--help']), 0);
    assert.equal(cli(home, ['explain', SAMPLE]), 0);
    assert.equal(cli(home, ['compare', SAMPLE, SAMPLE]), 0);
    const names = cacheFiles(dir);
    assert.ok(
      names.some((n) => /^cli-explain-.*\d\.bin$/.test(n) && !n.includes('.partial.')),
      names.join(', '),
    );
    assert.ok(
      names.some((n) => /^cli-compare-.*\d\.bin$/.test(n) && !n.includes('.partial.')),
      names.join(', '),
    );
    assert.ok(!names.some((n) => n.includes('.partial.')), names.join(', '));
  } finally {
    fs.rmSync(home, { recursive: true, force: true });
  }
});

test('a damaged cache is refused by V8 and replaced; caches of earlier builds are removed', () => {
  const { home, dir } = cacheHome();
  try {
    const plain = analyze({ STAGE_LENS_CODE_CACHE: '0' });
    analyze({ XDG_CACHE_HOME: home });
    const [name] = cacheFiles(dir);
    assert.ok(name !== undefined);
    const file = path.join(dir, name);
    fs.writeFileSync(file, Buffer.alloc(4096, 0x5a), { mode: 0o600 });
    const earlier = path.join(dir, 'cli-analyze-1-2-v0.0.0-x64.bin');
    const other = path.join(dir, 'cli-analyze-extra-1-2-v0.0.0-x64.bin');
    fs.writeFileSync(earlier, 'old', { mode: 0o600 });
    fs.writeFileSync(other, 'not this bundle', { mode: 0o600 });
    assert.equal(analyze({ XDG_CACHE_HOME: home }), plain);
    assert.ok(fs.statSync(file).size > 50_000, 'the damaged cache was rewritten');
    assert.deepEqual(cacheFiles(dir), [name, path.basename(other)].sort());
  } finally {
    fs.rmSync(home, { recursive: true, force: true });
  }
});

test('what a run killed while writing its cache left is removed by the next run that writes one; a running writer keeps its file', () => {
  const { home, dir } = cacheHome();
  try {
    analyze({ XDG_CACHE_HOME: home });
    const [name] = cacheFiles(dir);
    assert.ok(name !== undefined);
    // A process id above Linux's largest (2^22) runs nowhere; this test's own process runs.
    const killed = path.join(dir, `${name}.4194305`);
    const killedPartial = path.join(dir, `cli-analyze-1-2-v0.0.0-x64.partial.bin.4194306`);
    const running = path.join(dir, `cli-analyze-1-2-v0.0.0-x64.bin.${process.pid}`);
    const otherBundle = path.join(dir, 'cli-analyze-extra-1-2-v0.0.0-x64.bin.4194307');
    for (const file of [killed, killedPartial, running, otherBundle]) fs.writeFileSync(file, '', { mode: 0o600 });
    // A run that writes no cache (its own is whole and fits) leaves them all.
    analyze({ XDG_CACHE_HOME: home });
    assert.equal(cacheFiles(dir).length, 5);
    fs.writeFileSync(path.join(dir, name), Buffer.alloc(4096, 0x5a), { mode: 0o600 });
    analyze({ XDG_CACHE_HOME: home });
    assert.deepEqual(cacheFiles(dir), [name, path.basename(running), path.basename(otherBundle)].sort());
    // A cache that cannot be put in place (a directory holds its name) leaves no half-written file.
    fs.rmSync(path.join(dir, name));
    fs.mkdirSync(path.join(dir, name));
    analyze({ XDG_CACHE_HOME: home });
    assert.deepEqual(cacheFiles(dir), [name, path.basename(running), path.basename(otherBundle)].sort());
  } finally {
    fs.rmSync(home, { recursive: true, force: true });
  }
});

test('a cache directory that others may write to is not used; STAGE_LENS_CODE_CACHE=0 writes nothing', () => {
  const { home, dir } = cacheHome();
  try {
    const plain = analyze({ STAGE_LENS_CODE_CACHE: '0' });
    fs.mkdirSync(dir, { recursive: true });
    fs.chmodSync(dir, 0o777);
    assert.equal(analyze({ XDG_CACHE_HOME: home }), plain);
    assert.deepEqual(cacheFiles(dir), []);
    fs.rmSync(dir, { recursive: true });
    assert.equal(analyze({ XDG_CACHE_HOME: home, STAGE_LENS_CODE_CACHE: '0' }), plain);
    assert.equal(fs.existsSync(dir), false);
  } finally {
    fs.rmSync(home, { recursive: true, force: true });
  }
});

/** Starts dist/server.js on stdio, initializes it, ends it as a client does; resolves with its serverInfo name. */
async function languageServerSession(env: Record<string, string>, storageDir: string): Promise<string | undefined> {
  const child = spawn(process.execPath, [path.join(ROOT, 'dist', 'server.js'), '--stdio'], {
    stdio: ['pipe', 'pipe', 'inherit'],
    env: { ...process.env, ...env },
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const connection = createProtocolConnection(
    new StreamMessageReader(child.stdout),
    new StreamMessageWriter(child.stdin),
  );
  connection.listen();
  const result = await connection.sendRequest(InitializeRequest.type, {
    processId: process.pid,
    rootUri: null,
    capabilities: {},
    initializationOptions: { storageDir },
  });
  await connection.sendRequest(ShutdownRequest.type);
  await connection.sendNotification(ExitNotification.type);
  assert.equal(await exited, 0);
  connection.dispose();
  return result.serverInfo?.name;
}

test('the language server writes the cache of dist/server-main.js when it ends, and starts from it', async () => {
  const { home, dir } = cacheHome();
  const storage = fs.mkdtempSync(path.join(os.tmpdir(), 'stage-lens-code-cache-storage-'));
  try {
    assert.equal(await languageServerSession({ XDG_CACHE_HOME: home }, storage), 'stage-lens');
    const files = cacheFiles(dir);
    assert.equal(files.length, 1, files.join(', '));
    assert.match(files[0] ?? '', /^server-main-\d+-\d+-v[\d.]+-\w+\.bin$/);
    const file = path.join(dir, files[0] ?? '');
    const written = fs.statSync(file).mtimeMs;
    assert.ok(fs.statSync(file).size > 200_000, `cache of ${fs.statSync(file).size} bytes`);
    assert.equal(await languageServerSession({ XDG_CACHE_HOME: home }, storage), 'stage-lens');
    assert.equal(fs.statSync(file).mtimeMs, written, 'accepted, so not written again');
  } finally {
    fs.rmSync(home, { recursive: true, force: true });
    fs.rmSync(storage, { recursive: true, force: true });
  }
});
