// Webview options and HTML for a bundle of dist/webview/: scripts enabled, local
// resources limited to the bundles folder, URIs through asWebviewUri.
import * as vscode from 'vscode';
import { createNonce, renderWebviewHtml } from './webviewHtml';

export type WebviewBundle = 'sidePanel' | 'latencyPanel';

function bundleRoot(extensionUri: vscode.Uri): vscode.Uri {
  return vscode.Uri.joinPath(extensionUri, 'dist', 'webview');
}

export function webviewOptions(extensionUri: vscode.Uri): vscode.WebviewOptions {
  return { enableScripts: true, enableCommandUris: false, localResourceRoots: [bundleRoot(extensionUri)] };
}

/** A fresh page (and nonce) for each load. */
export function webviewHtml(
  webview: vscode.Webview,
  extensionUri: vscode.Uri,
  bundle: WebviewBundle,
  title: string,
): string {
  const root = bundleRoot(extensionUri);
  return renderWebviewHtml({
    cspSource: webview.cspSource,
    nonce: createNonce(),
    scriptUri: webview.asWebviewUri(vscode.Uri.joinPath(root, `${bundle}.js`)).toString(),
    styleUris: [webview.asWebviewUri(vscode.Uri.joinPath(root, `${bundle}.css`)).toString()],
    title,
    view: bundle,
  });
}
