// Deploy YAMLs built to take a language server down, over a real connection to
// `dist/server.js --stdio`: an alias bomb (a few hundred bytes that expand to 10^8
// values), thousands of aliases, nesting thousands of levels deep, and `base_config`
// pointing at a FIFO, `/dev/zero` and `/dev/stdin`. Each time the server stays up and
// answers, with a diagnostic that says what it did not read and why.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Diagnostic, MarkupContent } from 'vscode-languageserver-protocol';
import { DeployLspClient, FIXTURES, positionOf } from './support/lspDeployHarness';
import { aliasBomb, manyAliases, mapAliasBomb } from '../unit/support/deployHostile';

let client: DeployLspClient;
let scratch: string;

before(async () => {
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'stage-lens-hostile-'));
  // Its sessions are stored in the scratch folder, never in the user's.
  client = await DeployLspClient.start({ diagnosticsDelayMs: 0, storageDir: path.join(scratch, 'sessions') });
  // Warm the server up on a real config, so that the timings below are the hostile file's.
  const uri = await client.open(path.join(FIXTURES, 'qwen3_tts.yaml'));
  await client.diagnostics(uri, 1, 20_000);
});

after(async () => {
  if (!client.exited) await client.stop();
  fs.rmSync(scratch, { recursive: true, force: true });
});

function messageOf(diagnostic: Diagnostic): string {
  return typeof diagnostic.message === 'string' ? diagnostic.message : diagnostic.message.value;
}

function hoverText(hover: Awaited<ReturnType<DeployLspClient['hover']>>): string {
  assert.ok(hover, 'no hover');
  return (hover.contents as MarkupContent).value;
}

async function timed<T>(run: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const start = performance.now();
  const value = await run();
  return { value, ms: performance.now() - start };
}

function write(name: string, text: string): string {
  const file = path.join(scratch, name);
  fs.writeFileSync(file, text);
  return file;
}

test('an alias bomb of eight levels of ten aliases, used as a value: the server answers in under 1 s and stays up', async () => {
  const text = aliasBomb(8, 10);
  assert.ok(text.length < 700, `${text.length} bytes`);
  const uri = await client.open(write('bomb.yaml', text));
  const opened = await timed(() => client.diagnostics(uri, 1, 30_000));
  assert.deepEqual(
    opened.value.map((d) => [d.code, d.range.start.line]),
    // An aliased value is the anchored one: it is placed where the anchor is.
    [['wrong-type', positionOf(text, '&a8').line]],
  );
  assert.equal(
    messageOf(opened.value[0]),
    // Cut at 50 characters, as the hover cuts a value.
    '`max_num_seqs` expects an integer; `[[[[[[[["x","x","x","x","x","x","x","x","x","x"],…` is a list.',
  );
  const hover = await timed(() => client.hover(uri, positionOf(text, 'max_num_seqs', 2)));
  assert.match(hoverText(hover.value), /^\*\*`max_num_seqs`\*\*/);
  const stage = await timed(() => client.hover(uri, positionOf(text, 'stage_id', 2)));
  assert.match(hoverText(stage.value), /- `max_num_seqs: \[\[\[\[\[\[\[\["x","x","x",.*…` — this file:/);
  // An edit: diagnostics again, just as fast.
  const version = await client.change(uri, text.replace('stage_id: 0', 'stage_id: 1'));
  const edited = await timed(() => client.diagnostics(uri, version, 30_000));
  assert.equal(edited.value.length, 1);
  assert.equal(client.exited, null);
  for (const [what, ms] of [
    ['diagnostics', opened.ms],
    ['hover', hover.ms],
    ['stage hover', stage.ms],
    ['diagnostics after an edit', edited.ms],
  ] as const) {
    assert.ok(ms < 1000, `${what}: ${ms.toFixed(0)} ms`);
  }
});

test('a bomb of maps merged over a base that holds the same bomb: the overlay merge stays linear', async () => {
  const base = write('bomb-base.yaml', mapAliasBomb(8, 10));
  const overlay = write('bomb-overlay.yaml', `base_config: ${path.basename(base)}\n${mapAliasBomb(8, 10)}`);
  const uri = await client.open(overlay);
  const found = await timed(() => client.diagnostics(uri, 1, 30_000));
  assert.deepEqual(found.value, []);
  const chain = hoverText(await client.hover(uri, positionOf(fs.readFileSync(overlay, 'utf8'), 'base_config', 2)));
  assert.match(chain, /\*\*Overlay chain:\*\* this file → `bomb-base\.yaml`$/);
  assert.ok(found.ms < 1000, `${found.ms.toFixed(0)} ms`);
  assert.equal(client.exited, null);
});

test('6,500 aliases (a 356 KB file): diagnostics in seconds, not minutes', async () => {
  const text = manyAliases(6500);
  assert.ok(text.length > 200_000, `${text.length} bytes`);
  const uri = await client.open(write('aliases.yaml', text));
  const found = await timed(() => client.diagnostics(uri, 1, 60_000));
  assert.deepEqual(found.value, []);
  // Before alias resolution was made linear this took over 90 s; generous for a loaded machine.
  assert.ok(found.ms < 10_000, `${found.ms.toFixed(0)} ms`);
  const hover = await timed(() => client.hover(uri, positionOf(text, 'max_num_seqs', 2, 6000)));
  assert.match(hoverText(hover.value), /^\*\*`max_num_seqs`\*\*/);
  assert.ok(hover.ms < 1000, `hover ${hover.ms.toFixed(0)} ms`);
});

test('nesting thousands of levels deep: one clear diagnostic, whole or edited in pieces, and the server stays responsive', async () => {
  const good = fs.readFileSync(path.join(FIXTURES, 'qwen3_tts.yaml'), 'utf8');
  const deep = good.replace('    max_num_seqs: 64\n', `    max_num_seqs: ${'['.repeat(5000)}${']'.repeat(5000)}\n`);
  assert.notEqual(deep, good);
  const uri = await client.open(write('deep.yaml', deep));
  const found = await timed(() => client.diagnostics(uri, 1, 30_000));
  const line = positionOf(deep, '[[[').line;
  assert.deepEqual(
    found.value.map((d) => [d.code, d.range.start.line, d.severity]),
    [['yaml-too-deep', line, 1]],
  );
  assert.match(
    messageOf(found.value[0]),
    new RegExp(
      `^Nested more than 100 levels deep \\(line ${line + 1}\\): Stage Lens reads this file only up to line \\d+\\.`,
    ),
  );
  assert.ok(found.ms < 1000, `${found.ms.toFixed(0)} ms`);
  // Typed keystroke by keystroke (incremental sync) below the deep line: the same single diagnostic.
  let version: number;
  const end = positionOf(deep, 'max_num_seqs', 0, 1);
  for (const ch of ['x', '[', ']', '\n']) {
    version = await client.edit(
      uri,
      { start: { line: end.line + 1, character: 0 }, end: { line: end.line + 1, character: 0 } },
      ch,
    );
    const now = await client.diagnostics(uri, version, 30_000);
    assert.deepEqual(
      now.map((d) => [d.code, d.range.start.line]),
      [['yaml-too-deep', line]],
    );
  }
  // Fixed: the config reads clean again.
  version = await client.change(uri, good);
  assert.deepEqual(await client.diagnostics(uri, version, 30_000), []);
  // A file that is nothing but brackets, unclosed: refused, not parsed for seconds.
  const brackets = await client.open(
    write('brackets.yaml', `stages:\n  - stage_id: 0\n    x: ${'['.repeat(200_000)}\n`),
  );
  const refused = await timed(() => client.diagnostics(brackets, 1, 30_000));
  assert.deepEqual(
    refused.value.map((d) => d.code),
    ['yaml-too-deep'],
  );
  assert.ok(refused.ms < 1000, `${refused.ms.toFixed(0)} ms`);
  assert.equal(client.exited, null);
});

test('base_config naming a FIFO, a link to /dev/zero and a link to /dev/stdin: not read, said why, server unblocked', async () => {
  const fifo = path.join(scratch, 'fifo.yaml');
  execFileSync('mkfifo', [fifo]);
  fs.symlinkSync('/dev/zero', path.join(scratch, 'zero.yaml'));
  fs.symlinkSync('/dev/stdin', path.join(scratch, 'stdin.yaml'));
  const expected: Record<string, string> = {
    'fifo.yaml': 'is a named pipe (FIFO), not a regular file',
    'zero.yaml': 'is a character device, not a regular file',
    // The server's stdin is its LSP connection to this test (a socket pair, as Node makes pipes).
    'stdin.yaml': 'is a socket, not a regular file',
  };
  for (const [name, reason] of Object.entries(expected)) {
    const text = `base_config: ${name}\nasync_chunk: true\n`;
    const uri = await client.open(write(`over-${name}`, text));
    const found = await timed(() => client.diagnostics(uri, 1, 10_000));
    assert.deepEqual(
      found.value.map((d) => [d.code, d.range.start.line, messageOf(d)]),
      [['base-config-unreadable', 0, `\`base_config\` ${path.join(scratch, name)} was not read: it ${reason}.`]],
      name,
    );
    const hover = await timed(() => client.hover(uri, positionOf(text, 'async_chunk', 2)));
    assert.match(hoverText(hover.value), /^\*\*`async_chunk`\*\*/);
    assert.ok(
      found.ms < 1000 && hover.ms < 1000,
      `${name}: diagnostics ${found.ms.toFixed(0)} ms, hover ${hover.ms.toFixed(0)} ms`,
    );
  }
  // A base over the size cap, and one that is fine: read as before.
  fs.writeFileSync(path.join(scratch, 'huge.yaml'), `async_chunk: true\n# ${'x'.repeat(2 * 1024 * 1024)}\n`);
  const huge = await client.open(write('over-huge.yaml', 'base_config: huge.yaml\n'));
  assert.deepEqual(
    (await client.diagnostics(huge, 1)).map((d) => messageOf(d)),
    [
      `\`base_config\` ${path.join(scratch, 'huge.yaml')} was not read: it is 2.0 MB, more than the 1 MB a deploy config can be.`,
    ],
  );
  fs.copyFileSync(path.join(FIXTURES, 'qwen3_tts.yaml'), path.join(scratch, 'real.yaml'));
  const fine = await client.open(write('over-real.yaml', 'base_config: real.yaml\nasync_chunk: false\n'));
  assert.deepEqual(await client.diagnostics(fine, 1), []);
  assert.equal(client.exited, null);
});
