// Live numbers in a deploy YAML as VS Code shows them: Start Demo Server with the deploy
// config in the active editor launches the simulator matched to that file; its measured
// numbers appear as inlay hints after each stage_id and after `talker_first_audio: true`,
// disappear when the session is no longer matched, and come back when it is matched again
// (what "Show This Session's Numbers in This Deploy Config..." does).
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { StageLensApi } from '../../../src/extension';
import { openFixture, stageLensExtension, waitFor } from './helpers';

/** What leads the p99 tail: a hint of its own after that stage's numbers, where the line has room (server/core/deploy/liveHints.ts). */
const isTailLead = (label: string): boolean => /^p99( tail)?: [^·]+ -?\d+%$/.test(label);

const CONFIG = 'qwen3_tts_high_concurrency_mrv2_single_gpu.yaml';

function labelOf(hint: vscode.InlayHint): string {
  return typeof hint.label === 'string' ? hint.label : hint.label.map((part) => part.value).join('');
}

async function hintsOf(document: vscode.TextDocument): Promise<{ line: number; character: number; label: string }[]> {
  const range = new vscode.Range(0, 0, document.lineCount, 0);
  const hints = await vscode.commands.executeCommand<vscode.InlayHint[]>(
    'vscode.executeInlayHintProvider',
    document.uri,
    range,
  );
  return hints.map((hint) => ({ line: hint.position.line, character: hint.position.character, label: labelOf(hint) }));
}

/** 0-based line and the character after the value of the first line containing `text`. */
function endOf(document: vscode.TextDocument, text: string): { line: number; character: number } {
  const at = document.getText().indexOf(text);
  assert.ok(at >= 0, `${text} not in ${CONFIG}`);
  const position = document.positionAt(at + text.length);
  return { line: position.line, character: position.character };
}

describe('deploy YAML inlay hints', () => {
  it('show the matched live session per stage, vanish when unmatched, return when matched again', async function () {
    this.timeout(90_000);
    const { client } = (await stageLensExtension().activate()) as StageLensApi;
    const editor = await openFixture(CONFIG);
    const document = editor.document;
    assert.deepEqual(await hintsOf(document), [], 'no session is matched to this file yet');

    await vscode.commands.executeCommand('stageLens.startDemo');
    const session = await waitFor('the demo session', () => client.currentSession() ?? undefined, 15_000);
    assert.equal(
      session.deployConfig,
      document.uri.fsPath,
      'Start Demo Server matches the deploy config of the active editor',
    );

    const stage0 = endOf(document, 'stage_id: 0');
    const stage1 = endOf(document, 'stage_id: 1');
    const flag = endOf(document, 'talker_first_audio: true');
    // The cold-start demo's first request waits for a JIT build; then both stages are measured.
    const hints = await waitFor(
      'inlay hints with both stages measured',
      async () => {
        const found = (await hintsOf(document)).filter((hint) => !isTailLead(hint.label));
        return found.length === 3 && found.every((hint) => !hint.label.startsWith('codec TTFT: no measurement'))
          ? found
          : undefined;
      },
      60_000,
      500,
    );
    // VS Code lists them in document order: the connector's flag comes before the stages.
    assert.deepEqual(
      hints.map(({ line, character }) => ({ line, character })),
      [flag, stage0, stage1],
    );
    // The demo runs a build without the codec TTFT stats fix: "not recorded", never 0.
    assert.equal(hints[0].label, 'codec TTFT not recorded (no stats fix)');
    // The talker emits one output (Model Runner V2 + async chunk): prefill+decode, never "prefill".
    assert.match(hints[1].label, /^p50 prefill\+decode [\d,.]+ m?s · TTFT [\d,.]+ m?s( \(n=\d+\))?$/);
    // The codec prints the input-wait split: its wait for the talker is named so, never "queued".
    assert.match(hints[2].label, /^p50 input wait [\d,.]+ m?s · TTFT not recorded( \(n=\d+\))?$/);
    // Once two requests are measured, a hint after the numbers of the stage whose part leads the
    // p99 tail says so where the line has room: at most one, and each line's labels together
    // within the editor's 43 characters (editor.inlayHints.maximumLength counts a line's hints together).
    const all = await hintsOf(document);
    assert.ok(all.filter((hint) => isTailLead(hint.label)).length <= 1, JSON.stringify(all));
    for (const hint of all) {
      const line = all.filter((other) => other.line === hint.line).reduce((sum, other) => sum + other.label.length, 0);
      assert.ok(line <= 43, JSON.stringify(all));
    }

    // Unmatched: the hints go.
    await client.request('stageLens/matchDeployConfig', { sessionId: session.id, deployConfig: null });
    await waitFor(
      'no inlay hints once no session matches',
      async () => ((await hintsOf(document)).length === 0 ? true : undefined),
      15_000,
    );

    // Matched again by the user (the request behind "Show This Session's Numbers in This Deploy Config..."): back.
    await client.request('stageLens/matchDeployConfig', { sessionId: session.id, deployConfig: document.uri.fsPath });
    const again = await waitFor(
      'inlay hints again',
      async () => {
        const found = (await hintsOf(document)).filter((hint) => !isTailLead(hint.label));
        return found.length === 3 ? found : undefined;
      },
      15_000,
    );
    assert.match(again[1].label, /^p50 prefill\+decode /);

    await vscode.commands.executeCommand('stageLens.stopCapture');
    await waitFor(
      'capture stopped',
      () => {
        const s = client.currentSession();
        return s !== null && s.status !== 'running' && s.status !== 'starting' ? s : undefined;
      },
      15_000,
    );
    // A stopped session keeps its numbers for the file it was launched with.
    assert.equal((await hintsOf(document)).filter((hint) => !isTailLead(hint.label)).length, 3);
    await client.request('stageLens/matchDeployConfig', { sessionId: session.id, deployConfig: null });
  });
});
