// Webview options and HTML for a bundle of dist/webview/: scripts enabled, local
// resources limited to the bundles folder (the source maps a developer's tools fetch, and
// a bundle that could not be put into its page), URIs through asWebviewUri.
import * as vscode from 'vscode';
import { bundleAssets, type WebviewBundle } from './webviewBundle';
import { createNonce, renderWebviewHtml } from './webviewHtml';

function bundleRoot(extensionUri: vscode.Uri): vscode.Uri {
  return vscode.Uri.joinPath(extensionUri, 'dist', 'webview');
}

export function webviewOptions(extensionUri: vscode.Uri): vscode.WebviewOptions {
  return { enableScripts: true, enableCommandUris: false, localResourceRoots: [bundleRoot(extensionUri)] };
}

/** A fresh page (and nonce) for each load, carrying its bundle's code. */
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
    ...bundleAssets(root.fsPath, bundle, (file) => webview.asWebviewUri(vscode.Uri.joinPath(root, file)).toString()),
    title,
    view: bundle,
  });
}
