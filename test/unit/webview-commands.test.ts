// The commands a webview may run are one list (server/protocol.ts's WEBVIEW_COMMANDS): the
// host's guard accepts exactly its names, each names a command the extension contributes,
// and nothing else a page posts is run (not even a name every object has, like `toString`).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { WEBVIEW_COMMANDS, type WebviewCommand } from '../../server/protocol';
import { parseWebviewMessage } from '../../src/views/messageGuard';
import { START_GROUPS } from '../../webview/shared/startActions';

const manifest = JSON.parse(fs.readFileSync(path.resolve(__dirname, '..', '..', 'package.json'), 'utf8')) as {
  contributes: { commands: { command: string; title: string }[] };
};

test('every webview command runs a command the extension contributes', () => {
  const contributed = new Set(manifest.contributes.commands.map((c) => c.command));
  assert.deepEqual(Object.keys(WEBVIEW_COMMANDS), [
    'startDemo',
    'launch',
    'attachProcess',
    'attachLog',
    'attachMetrics',
    'attachPrometheus',
    'importLog',
    'openSession',
  ]);
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

/** Contributed commands that start no session: they act on the one shown, or on the deploy config open in the editor. */
const NOT_A_START = new Set([
  'stageLens.launchWithDeployConfig',
  'stageLens.stopCapture',
  'stageLens.openLatencyView',
  'stageLens.exportSession',
  'stageLens.compareSessions',
  'stageLens.useSessionForConfig',
]);

test("the empty state offers every way the palette has to start a session, in groups, in the palette's words", () => {
  const starts = manifest.contributes.commands.filter((c) => !NOT_A_START.has(c.command));
  const offered = START_GROUPS.flatMap((g) => g.actions);
  assert.deepEqual(
    offered.map((a) => WEBVIEW_COMMANDS[a.command]).sort(),
    starts.map((c) => c.command).sort(),
    'a command that starts a session and has no button (or a button for one that does not)',
  );
  for (const action of offered) {
    const title = starts.find((c) => c.command === WEBVIEW_COMMANDS[action.command])?.title;
    assert.equal(action.label, title?.replace(/\.\.\.$/, '…'), action.command);
  }
  // Grouped, not a wall: what the user has decides the group.
  assert.deepEqual(
    START_GROUPS.map((g) => [g.heading, g.actions.map((a) => a.label)]),
    [
      ['Try it', ['Start Demo Server']],
      ['Run your server', ['Launch Server…']],
      [
        'Watch a running server',
        ['Attach to Running Server…', 'Attach to Log File…', 'Attach to Metrics URL…', 'Attach to Prometheus…'],
      ],
      ['Read a log or a saved session', ['Import Log…', 'Open Session…']],
    ],
  );
});
