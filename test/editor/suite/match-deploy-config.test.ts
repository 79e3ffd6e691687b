// "Show This Session's Numbers in This Deploy Config..." inside a real VS Code, the command
// itself with its pick list and warning answered by the test: a session whose stages are not
// the file's (a three-stage Qwen3-Omni log for qwen3_tts.yaml) is matched only after the
// warning is answered "Show Anyway", and a cancelled pick renames nothing; a session with the
// file's stages replaces the one shown before, whose hints go. The stages checked are the
// editor's: an unsaved edit counts, the file on disk does not.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { StageLensApi } from '../../../src/extension';
import type { SessionInfo } from '../../../server/protocol';
import { SHOW_ANYWAY } from '../../../src/commands/matchDeployConfig';
import { importedFixture, openFixture, stageLensExtension, waitFor, withAnsweredDialogs } from './helpers';

interface Answers {
  readonly pick: string;
  readonly warning?: string;
}

/** Runs the command with the pick list answered by `pick`'s session and the warning by `warning`; what it was asked. */
async function runCommand(answers: Answers): Promise<{ warnings: string[] }> {
  const warnings = await withAnsweredDialogs(answers, () =>
    vscode.commands.executeCommand('stageLens.useSessionForConfig'),
  );
  return { warnings };
}

async function tooltips(document: vscode.TextDocument): Promise<string[]> {
  const hints = await vscode.commands.executeCommand<vscode.InlayHint[]>(
    'vscode.executeInlayHintProvider',
    document.uri,
    new vscode.Range(0, 0, document.lineCount, 0),
  );
  return hints.map((h) => (typeof h.tooltip === 'string' ? h.tooltip : (h.tooltip?.value ?? '')));
}

describe("Show This Session's Numbers in This Deploy Config...", () => {
  it('warns before another pipeline’s numbers land on the stages, renames nothing unless the pick takes effect', async function () {
    this.timeout(90_000);
    const ext = stageLensExtension();
    const { client } = (await ext.activate()) as StageLensApi;
    const omni = await importedFixture(client, ext.extensionPath, 'qwen3-omni-three-stage-transfers.log');
    const afterFix = await importedFixture(client, ext.extensionPath, 'qwen3tts-talker-first-audio-after-fix.log');
    // Imported last, so it is the newest of the sessions matched to the file below.
    const beforeFix = await importedFixture(client, ext.extensionPath, 'qwen3tts-talker-first-audio-before-fix.log');
    const editor = await openFixture('qwen3_tts.yaml');
    const file = editor.document.uri.fsPath;
    const info = async (id: string): Promise<SessionInfo | undefined> =>
      (await client.refreshSessions()).find((s) => s.id === id);
    const measuredIn = (s: SessionInfo) => async () => {
      const tips = await tooltips(editor.document);
      return tips.length > 0 && tips.every((t) => t.includes(`Measured in ${s.title}`)) ? tips : undefined;
    };

    let asked = await runCommand({ pick: beforeFix.id });
    assert.deepEqual(asked.warnings, [], 'same stages: no warning');
    const before = await info(beforeFix.id);
    assert.equal(before?.deployConfig, file);
    await waitFor('the before-fix numbers', measuredIn(before as SessionInfo), 30_000);

    // Another pipeline, cancelled: nothing changes.
    asked = await runCommand({ pick: omni.id, warning: undefined });
    assert.equal(asked.warnings.length, 1);
    assert.match(
      asked.warnings[0] ?? '',
      /qwen3_tts\.yaml has stages 0 and 1; the session .*three-stage.* has stages 0, 1 and 2, so it did not run this config/,
    );
    assert.equal((await info(omni.id))?.title, omni.title, 'the session is not renamed');
    assert.equal((await info(omni.id))?.deployConfig, null);
    assert.equal((await info(beforeFix.id))?.deployConfig, file);
    await waitFor('still the before-fix numbers', measuredIn(before as SessionInfo), 5_000);

    // Same stages, an older session than the one shown: it takes effect, the other is unmatched.
    asked = await runCommand({ pick: afterFix.id });
    assert.deepEqual(asked.warnings, []);
    const after = await info(afterFix.id);
    assert.equal(after?.deployConfig, file);
    assert.match(after?.title ?? '', /qwen3_tts\.yaml/);
    assert.equal((await info(beforeFix.id))?.deployConfig, null);
    assert.equal((await info(beforeFix.id))?.title, beforeFix.title);
    await waitFor('the after-fix numbers', measuredIn(after as SessionInfo), 30_000);

    // Another pipeline, "Show Anyway": the user chose it after the warning.
    asked = await runCommand({ pick: omni.id, warning: SHOW_ANYWAY });
    assert.equal(asked.warnings.length, 1);
    assert.equal((await info(omni.id))?.deployConfig, file);
    assert.equal((await info(afterFix.id))?.deployConfig, null);

    for (const s of [omni, afterFix, beforeFix])
      await client.request('stageLens/matchDeployConfig', { sessionId: s.id, deployConfig: null });
  });

  it('checks the stages of the open editor, unsaved edits included, not the file on disk', async function () {
    this.timeout(90_000);
    const ext = stageLensExtension();
    const { client } = (await ext.activate()) as StageLensApi;
    const afterFix = await importedFixture(client, ext.extensionPath, 'qwen3tts-talker-first-audio-after-fix.log');
    const editor = await openFixture('qwen3_tts.yaml');
    const document = editor.document;
    const file = document.uri.fsPath;
    const info = async (id: string): Promise<SessionInfo | undefined> =>
      (await client.refreshSessions()).find((s) => s.id === id);
    // Stage 1 renumbered 2 in the buffer only: on disk the file still has the session's stages 0 and 1.
    const line = Array.from({ length: document.lineCount }, (_, i) => document.lineAt(i)).find(
      (l) => l.text === '  - stage_id: 1',
    );
    assert.ok(line !== undefined, 'the second stage of qwen3_tts.yaml');
    const digit = new vscode.Range(line.range.end.translate(0, -1), line.range.end);
    assert.ok(await editor.edit((e) => e.replace(digit, '2')));
    assert.ok(document.isDirty && document.lineAt(line.lineNumber).text === '  - stage_id: 2');
    try {
      let asked = await runCommand({ pick: afterFix.id, warning: undefined });
      assert.equal(asked.warnings.length, 1, "the edited stages are not the session's");
      assert.match(
        asked.warnings[0] ?? '',
        /qwen3_tts\.yaml has stages 0 and 2; the session .* has stages 0 and 1, so it did not run this config/,
      );
      assert.equal((await info(afterFix.id))?.deployConfig, null, 'nothing matched');

      // The edit undone, still unsaved: the stages are the session's again.
      assert.ok(await editor.edit((e) => e.replace(digit, '1')));
      asked = await runCommand({ pick: afterFix.id });
      assert.deepEqual(asked.warnings, []);
      assert.equal((await info(afterFix.id))?.deployConfig, file);
    } finally {
      await vscode.window.showTextDocument(document);
      await vscode.commands.executeCommand('workbench.action.files.revert');
      await client.request('stageLens/matchDeployConfig', { sessionId: afterFix.id, deployConfig: null });
    }
  });
});
