// The commands a webview may run are one list (server/protocol.ts's WEBVIEW_COMMANDS): the
// host's guard accepts exactly its names, each names a command the extension contributes,
// and nothing else a page posts is run (not even a name every object has, like `toString`).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { WEBVIEW_COMMANDS, type WebviewCommand } from '../../server/protocol';
import { parseWebviewMessage } from '../../src/views/messageGuard';

const manifest = JSON.parse(fs.readFileSync(path.resolve(__dirname, '..', '..', 'package.json'), 'utf8')) as {
  contributes: { commands: { command: string }[] };
};

test('every webview command runs a command the extension contributes', () => {
  const contributed = new Set(manifest.contributes.commands.map((c) => c.command));
  assert.deepEqual(Object.keys(WEBVIEW_COMMANDS), ['startDemo', 'launch', 'attachLog', 'attachMetrics', 'importLog']);
  for (const id of Object.values(WEBVIEW_COMMANDS))
    assert.ok(contributed.has(id), `${id} is not in package.json's contributes.commands`);
});

test("the host's guard accepts the protocol's commands and nothing else", () => {
  for (const command of Object.keys(WEBVIEW_COMMANDS) as WebviewCommand[])
    assert.deepEqual(parseWebviewMessage({ type: 'runCommand', command }), { type: 'runCommand', command });
  for (const command of [
    'toString',
    'constructor',
    '__proto__',
    'hasOwnProperty',
    'stageLens.startDemo',
    'workbench.action.terminal.sendSequence',
    1,
    null,
    undefined,
  ]) {
    assert.equal(parseWebviewMessage({ type: 'runCommand', command }), null, String(command));
  }
});
