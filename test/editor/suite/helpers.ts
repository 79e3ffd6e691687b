// Small helpers for extension-host test suites.
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { StageLensClient } from '../../../src/client';
import type { SessionInfo } from '../../../server/protocol';

export const EXTENSION_ID = 'stage-lens.stage-lens';

/** Our extension as loaded from the repo (extensionDevelopmentPath); throws if it is not there. */
export function stageLensExtension(): vscode.Extension<unknown> {
  const ext = vscode.extensions.getExtension<unknown>(EXTENSION_ID);
  if (!ext) throw new Error(`extension ${EXTENSION_ID} is not loaded`);
  return ext;
}

/** The test workspace folder; it holds the deploy fixtures (test/fixtures/deploy/*.yaml) at its top level. */
export function workspaceFolder(): vscode.WorkspaceFolder {
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!folder) throw new Error('no workspace folder is open');
  return folder;
}

export function workspaceFile(name: string): vscode.Uri {
  return vscode.Uri.joinPath(workspaceFolder().uri, name);
}

/** Opens a workspace file in an editor, e.g. openFixture('qwen3_tts.yaml'). */
export async function openFixture(name: string): Promise<vscode.TextEditor> {
  const doc = await vscode.workspace.openTextDocument(workspaceFile(name));
  return vscode.window.showTextDocument(doc);
}

/** Polls `probe` until it returns a value other than undefined/false, or throws after `timeoutMs`. */
export async function waitFor<T>(
  what: string,
  probe: () => T | undefined | false | Promise<T | undefined | false>,
  timeoutMs = 10_000,
  intervalMs = 100,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

/** Imports test/fixtures/upstream-rendered/<log> through the language server; the session once read whole. */
export async function importedFixture(
  client: StageLensClient,
  extensionPath: string,
  log: string,
): Promise<SessionInfo> {
  const file = path.join(extensionPath, 'test', 'fixtures', 'upstream-rendered', log);
  const started = await client.request('stageLens/import', { path: file });
  return waitFor(
    `the import of ${log}`,
    async () => {
      const s = (await client.refreshSessions()).find((x) => x.id === started.id);
      return s !== undefined && s.status !== 'starting' && s.status !== 'running' ? s : undefined;
    },
    30_000,
  );
}

type Window = typeof vscode.window;

/**
 * Runs `run` with the pick list answered by the item whose id is `pick` and every warning by
 * `warning` (undefined: dismissed), as a person would answer them; the warnings shown, each
 * with its detail.
 */
export async function withAnsweredDialogs(
  answers: { readonly pick?: string; readonly warning?: string },
  run: () => Thenable<unknown>,
): Promise<string[]> {
  const window = vscode.window as { -readonly [K in keyof Window]: Window[K] };
  const original = { showQuickPick: window.showQuickPick, showWarningMessage: window.showWarningMessage };
  const warnings: string[] = [];
  // The commands pass their items as an array.
  window.showQuickPick = ((items: readonly (vscode.QuickPickItem & { id?: string })[]) =>
    Promise.resolve(items.find((i) => i.id === answers.pick))) as unknown as Window['showQuickPick'];
  window.showWarningMessage = ((message: string, options: vscode.MessageOptions) => {
    warnings.push(`${message}\n${options.detail ?? ''}`);
    return Promise.resolve(answers.warning);
  }) as unknown as Window['showWarningMessage'];
  try {
    await run();
  } finally {
    Object.assign(window, original);
  }
  return warnings;
}

/**
 * Answers every information message that offers buttons with its first button, as a person
 * taking the offer would, and records it as `message [button|…]` in `offers`; one without
 * buttons is dismissed. Returns what restores the window's own.
 */
export function takeOffers(offers: string[]): () => void {
  const window = vscode.window as { showInformationMessage: Window['showInformationMessage'] };
  const original = window.showInformationMessage;
  window.showInformationMessage = ((message: string, ...buttons: string[]) => {
    if (buttons.length === 0) return Promise.resolve(undefined);
    offers.push(`${message} [${buttons.join('|')}]`);
    return Promise.resolve(buttons[0]);
  }) as unknown as Window['showInformationMessage'];
  return () => {
    window.showInformationMessage = original;
  };
}
