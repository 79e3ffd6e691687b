// Registers the side-panel latency view, the latency panel and its serializer. The
// view container and view id are contributed in package.json (stageLens.latencyView);
// the panel's restore after a reload needs the activation event
// `onWebviewPanel:stageLens.latencyPanel`.
import * as vscode from 'vscode';
import type { ViewFilter } from '../../server/protocol';
import type { FeedLog } from './answerHealth';
import type { LatencyDataSource } from './dataSource';
import { LatencyPanel, LatencyPanelSerializer } from './latencyPanel';
import { SidePanelViewProvider } from './sidePanelView';

export interface StageLensViews {
  readonly sidePanel: SidePanelViewProvider;
  readonly latencyPanel: LatencyPanel;
  /** Open (or reveal) Latency Details beside the active editor, focused on `filter`. */
  openLatencyPanel(filter?: ViewFilter, options?: { preserveFocus?: boolean }): void;
}

/** `log`: where a view whose server answers time out or fail says so (the Output channel). */
export function registerViews(
  context: vscode.ExtensionContext,
  source: LatencyDataSource,
  log: FeedLog,
): StageLensViews {
  const latencyPanel = new LatencyPanel(context.extensionUri, source, log);
  const sidePanel = new SidePanelViewProvider(context.extensionUri, source, (filter) => latencyPanel.show(filter), log);
  context.subscriptions.push(
    latencyPanel,
    sidePanel,
    vscode.window.registerWebviewViewProvider(SidePanelViewProvider.viewId, sidePanel),
    vscode.window.registerWebviewPanelSerializer(LatencyPanel.viewType, new LatencyPanelSerializer(latencyPanel)),
  );
  return { sidePanel, latencyPanel, openLatencyPanel: (filter, options) => latencyPanel.show(filter, options) };
}
