// Host of the latency panel (a webview panel beside the editor, one instance re-used):
// answers the panel's queries through the data source and pushes summary updates. After a
// window reload VS Code hands the panel back through LatencyPanelSerializer; the webview
// restores its own view state from getState().
import * as vscode from 'vscode';
import type { HostToWebview, ViewFilter } from '../../server/protocol';
import type { FeedLog } from './answerHealth';
import type { LatencyDataSource } from './dataSource';
import { parseWebviewMessage } from './messageGuard';
import { answerPanelQuery, isPanelQuery } from './panelQueries';
import { SessionFeed } from './sessionFeed';
import { runWebviewCommand } from './webviewMessages';
import { webviewHtml, webviewOptions } from './webviewResources';

const TITLE = 'Stage Lens: Latency Details';

export class LatencyPanel implements vscode.Disposable {
  static readonly viewType = 'stageLens.latencyPanel';

  private panel: vscode.WebviewPanel | undefined;
  private feed: SessionFeed | undefined;
  private ready = false;
  private pendingFilter: ViewFilter | undefined;
  private panelDisposables: vscode.Disposable[] = [];

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly source: LatencyDataSource,
    private readonly log: FeedLog,
  ) {}

  get isOpen(): boolean {
    return this.panel !== undefined;
  }

  /**
   * Open beside the active editor (the deploy YAML), or reveal; then focus on `filter`.
   * `preserveFocus`: the keyboard stays where it is (opened by Start Demo Server, not by the user).
   */
  show(filter?: ViewFilter, { preserveFocus = false }: { preserveFocus?: boolean } = {}): void {
    void this.source.start().catch(() => undefined);
    if (this.panel === undefined) {
      const panel = vscode.window.createWebviewPanel(
        LatencyPanel.viewType,
        TITLE,
        { viewColumn: vscode.ViewColumn.Beside, preserveFocus },
        { ...webviewOptions(this.extensionUri), retainContextWhenHidden: true, enableFindWidget: true },
      );
      this.attach(panel);
    } else {
      this.panel.reveal(undefined, preserveFocus);
    }
    if (filter !== undefined) this.postFilter(filter);
  }

  /** A panel VS Code restored after a reload (from the serializer). */
  restore(panel: vscode.WebviewPanel): void {
    if (this.panel !== undefined) {
      // Only one latency panel: the restored one replaces a newer one (rare).
      this.panel.dispose();
    }
    panel.webview.options = webviewOptions(this.extensionUri);
    this.attach(panel);
    void this.source.start().catch(() => undefined);
  }

  private attach(panel: vscode.WebviewPanel): void {
    this.panel = panel;
    this.ready = false;
    const post = (m: HostToWebview): Thenable<boolean> => panel.webview.postMessage(m);
    // retainContextWhenHidden keeps the page alive, so it is fed while hidden too.
    const feed = new SessionFeed(
      this.source,
      { post, isVisible: () => true, name: 'latency panel' },
      undefined,
      this.log,
    );
    this.feed = feed;
    this.panelDisposables.push(
      feed,
      panel.webview.onDidReceiveMessage((raw: unknown) => void this.onMessage(raw, post)),
      panel.onDidDispose(() => this.forgetPanel()),
    );
    panel.webview.html = webviewHtml(panel.webview, this.extensionUri, 'latencyPanel', TITLE);
  }

  private postFilter(filter: ViewFilter): void {
    if (this.ready && this.panel !== undefined)
      void this.panel.webview.postMessage({ type: 'filter', filter } satisfies HostToWebview);
    else this.pendingFilter = filter;
  }

  private async onMessage(raw: unknown, post: (m: HostToWebview) => Thenable<boolean>): Promise<void> {
    const message = parseWebviewMessage(raw);
    if (message === null) return;
    if (isPanelQuery(message)) {
      await post(await answerPanelQuery(message, this.source));
      return;
    }
    switch (message.type) {
      case 'ready': {
        this.ready = false;
        // Session first, then the filter: the page resets its filter on a new session.
        await this.feed?.resend();
        this.ready = true;
        const filter = this.pendingFilter;
        this.pendingFilter = undefined;
        if (filter !== undefined) await post({ type: 'filter', filter });
        break;
      }
      case 'runCommand':
        await runWebviewCommand(message.command, post);
        break;
      case 'openLatencyPanel':
        this.postFilter(message.filter);
        break;
      case 'selectBoot':
        this.feed?.selectBoot(message.sessionId, message.boot);
        break;
      case 'selectServer':
        this.feed?.selectServer(message.sessionId, message.server);
        break;
      default:
        break;
    }
  }

  private forgetPanel(): void {
    for (const d of this.panelDisposables.splice(0)) d.dispose();
    this.panel = undefined;
    this.feed = undefined;
    this.ready = false;
  }

  dispose(): void {
    const panel = this.panel;
    this.forgetPanel();
    panel?.dispose();
  }
}

/** Register with `vscode.window.registerWebviewPanelSerializer(LatencyPanel.viewType, …)`. */
export class LatencyPanelSerializer implements vscode.WebviewPanelSerializer {
  constructor(private readonly latencyPanel: LatencyPanel) {}

  async deserializeWebviewPanel(panel: vscode.WebviewPanel, _state: unknown): Promise<void> {
    this.latencyPanel.restore(panel);
  }
}
