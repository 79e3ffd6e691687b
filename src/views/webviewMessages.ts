// What both hosts do with a webview's messages that are not view-specific: run one of
// the allowed commands.
import * as vscode from 'vscode';
import type { HostToWebview } from '../../server/protocol';
import type { WebviewCommand } from './commandIds';
import { WEBVIEW_COMMAND_IDS } from './commandIds';

export async function runWebviewCommand(command: WebviewCommand, post: (m: HostToWebview) => unknown): Promise<void> {
  try {
    await vscode.commands.executeCommand(WEBVIEW_COMMAND_IDS[command]);
  } catch (err) {
    post({ type: 'error', message: `${WEBVIEW_COMMAND_IDS[command]} failed: ${err instanceof Error ? err.message : String(err)}` });
  }
}
