// Host of the side-panel latency view (a webview view in the Stage Lens container): feeds
// it the current session's summary and turns its clicks into the latency panel or
// commands.
import type * as vscode from 'vscode';
import type { HostToWebview, ViewFilter } from '../../server/protocol';
import type { FeedLog } from './answerHealth';
import type { LatencyDataSource } from './dataSource';
import { parseWebviewMessage } from './messageGuard';
import { SessionFeed } from './sessionFeed';
import { runWebviewCommand } from './webviewMessages';
import { webviewHtml, webviewOptions } from './webviewResources';

export class SidePanelViewProvider implements vscode.WebviewViewProvider, vscode.Disposable {
  static readonly viewId = 'stageLens.latencyView';

  private feed: SessionFeed | undefined;
  private viewDisposables: vscode.Disposable[] = [];

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly source: LatencyDataSource,
    private readonly openLatencyPanel: (filter: ViewFilter) => void,
    private readonly log: FeedLog,
  ) {}

  /** Called when the view first becomes visible, and again if VS Code re-creates it. */
  resolveWebviewView(view: vscode.WebviewView): void {
    this.disposeView();
    // A view that is shown is a Stage Lens action: the language server starts (lists the sessions).
    void this.source.start().catch(() => undefined);
    view.webview.options = webviewOptions(this.extensionUri);
    const post = (m: HostToWebview): Thenable<boolean> => view.webview.postMessage(m);
    const feed = new SessionFeed(
      this.source,
      { post, isVisible: () => view.visible, wantsTail: true, name: 'side panel' },
      undefined,
      this.log,
    );
    this.feed = feed;
    this.viewDisposables.push(
      feed,
      view.webview.onDidReceiveMessage((raw: unknown) => this.onMessage(raw, post)),
      view.onDidChangeVisibility(() => feed.visibilityChanged()),
      view.onDidDispose(() => this.disposeView()),
    );
    // The page carries its own code (webviewHtml.ts), and says `ready` when it listens: then it is sent
    // the session and summary (nothing posted before that is relied on).
    view.webview.html = webviewHtml(view.webview, this.extensionUri, 'sidePanel', 'Stage Lens');
  }

  private onMessage(raw: unknown, post: (m: HostToWebview) => Thenable<boolean>): void {
    const message = parseWebviewMessage(raw);
    if (message === null) return;
    switch (message.type) {
      case 'ready':
        void this.feed?.resend();
        break;
      case 'openLatencyPanel':
        this.openLatencyPanel(message.filter);
        break;
      case 'selectBoot':
        this.feed?.selectBoot(message.sessionId, message.boot);
        break;
      case 'selectServer':
        this.feed?.selectServer(message.sessionId, message.server);
        break;
      case 'runCommand':
        void runWebviewCommand(message.command, post);
        break;
      default:
        break;
    }
  }

  private disposeView(): void {
    for (const d of this.viewDisposables.splice(0)) d.dispose();
    this.feed = undefined;
  }

  dispose(): void {
    this.disposeView();
  }
}
