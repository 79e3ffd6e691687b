// The session on screen at a glance (statusBarView.ts says what). Shown only while there is a
// session (a window that never used Stage Lens has no item).
import * as vscode from 'vscode';
import type { SessionInfo, SummaryResult } from '../server/protocol';
import { statusBarView } from './statusBarView';

export class SessionStatusBar implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('stageLens.status', vscode.StatusBarAlignment.Left, 50);
  private visible = false;

  constructor() {
    this.item.name = 'Stage Lens';
    this.item.command = 'stageLens.openLatencyView';
    this.show(null, null, null, null);
  }

  /** `outage`: why the numbers are not current (the last summary asked did not come), or null; `lastBoot`: statusBarView's. */
  show(
    session: SessionInfo | null,
    summary: SummaryResult | null,
    outage: string | null,
    lastBoot: SummaryResult | null,
  ): void {
    this.visible = session !== null;
    if (session === null) {
      this.item.hide();
      return;
    }
    const view = statusBarView(session, summary, outage, lastBoot);
    this.item.text = view.text;
    this.item.accessibilityInformation = { label: view.label };
    this.item.tooltip = view.tooltip;
    this.item.backgroundColor =
      view.tone === null ? undefined : new vscode.ThemeColor(`statusBarItem.${view.tone}Background`);
    this.item.show();
  }

  /** What the item shows now (for the extension-host tests); null while it is hidden. */
  get shown(): { readonly text: string; readonly tooltip: string } | null {
    if (!this.visible) return null;
    return { text: this.item.text, tooltip: typeof this.item.tooltip === 'string' ? this.item.tooltip : '' };
  }

  dispose(): void {
    this.item.dispose();
  }
}
