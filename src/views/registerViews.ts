// Registers the side-panel latency view, the latency panel and its serializer. The
// view container and view id are contributed in package.json (stageLens.latencyView);
// the panel's restore after a reload needs the activation event
// `onWebviewPanel:stageLens.latencyPanel`.
import * as vscode from 'vscode';
import type { ViewFilter } from '../../server/protocol';
import type { LatencyDataSource } from './dataSource';
import { LatencyPanel, LatencyPanelSerializer } from './latencyPanel';
import { SidePanelViewProvider } from './sidePanelView';

export interface StageLensViews {
  readonly sidePanel: SidePanelViewProvider;
  readonly latencyPanel: LatencyPanel;
  /** Open (or reveal) Latency Details beside the active editor, focused on `filter`. */
  openLatencyPanel(filter?: ViewFilter, options?: { preserveFocus?: boolean }): void;
}

export function registerViews(context: vscode.ExtensionContext, source: LatencyDataSource): StageLensViews {
  const latencyPanel = new LatencyPanel(context.extensionUri, source);
  const sidePanel = new SidePanelViewProvider(context.extensionUri, source, (filter) => latencyPanel.show(filter));
  context.subscriptions.push(
    latencyPanel,
    sidePanel,
    vscode.window.registerWebviewViewProvider(SidePanelViewProvider.viewId, sidePanel),
    vscode.window.registerWebviewPanelSerializer(LatencyPanel.viewType, new LatencyPanelSerializer(latencyPanel)),
  );
  return { sidePanel, latencyPanel, openLatencyPanel: (filter, options) => latencyPanel.show(filter, options) };
}
