// The session on screen at a glance: requests seen, one headline latency, an error state.
// Shown only while there is a session (a window that never used Stage Lens has no item).
import * as vscode from 'vscode';
import type { SessionInfo, SummaryResult } from '../server/protocol';
import { statusBarWords, statusWords } from '../webview/shared/sessionStatus';

export class SessionStatusBar implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('stageLens.status', vscode.StatusBarAlignment.Left, 50);

  constructor() {
    this.item.name = 'Stage Lens';
    this.item.command = 'stageLens.openLatencyView';
    this.show(null, null);
  }

  show(session: SessionInfo | null, summary: SummaryResult | null): void {
    if (session === null) {
      this.item.hide();
      return;
    }
    const words = statusBarWords(session, summary);
    const failed = session.status === 'error' || session.status === 'crashed' || session.lastError !== null;
    const live = session.status === 'running' || session.status === 'starting';
    this.item.text = `${failed ? '$(warning)' : live ? '$(pulse)' : '$(history)'} ${words.text}`;
    // Read out without the icon's name ("pulse").
    this.item.accessibilityInformation = { label: words.label };
    this.item.tooltip = [
      `Stage Lens: ${session.title}`,
      `${statusWords(session)} · ${session.description}`,
      session.lastError === null ? '' : `Error: ${session.lastError}`,
      'Click to open Latency Details.',
    ]
      .filter((l) => l !== '')
      .join('\n');
    this.item.backgroundColor = failed ? new vscode.ThemeColor('statusBarItem.errorBackground') : undefined;
    this.item.show();
  }

  dispose(): void {
    this.item.dispose();
  }
}
