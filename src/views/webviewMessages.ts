// What both hosts do with a webview's messages that are not view-specific: run one of
// the allowed commands.
import * as vscode from 'vscode';
import { WEBVIEW_COMMANDS, type HostToWebview, type WebviewCommand } from '../../server/protocol';

export async function runWebviewCommand(command: WebviewCommand, post: (m: HostToWebview) => unknown): Promise<void> {
  try {
    await vscode.commands.executeCommand(WEBVIEW_COMMANDS[command]);
  } catch (err) {
    post({
      type: 'error',
      message: `${WEBVIEW_COMMANDS[command]} failed: ${err instanceof Error ? err.message : String(err)}`,
    });
  }
}
