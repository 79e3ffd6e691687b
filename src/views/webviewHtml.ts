// The HTML shell of every Stage Lens webview: a strict content security policy with a
// fresh nonce per load, one bundled script and its stylesheet, nothing remote. Pure (no
// vscode runtime) so that it is unit-tested in Node; webviewBundle.ts reads the bundles.
//
// The bundle's code is put into the page (under the nonce) rather than loaded from its
// `asWebviewUri`: in VS Code for the Web (code-server, vscode.dev) every webview of a
// browser shares one service worker that serves those URIs, and a webview created while
// another registers it (the side bar's view and the Latency Details panel are shown
// together; a second window does the same) can find its page no longer intercepted: its
// script and stylesheet requests go to the network and fail, and the page stays blank.
// A page carrying its own code renders whatever the service worker does.
import { randomBytes } from 'node:crypto';

/** A script or stylesheet: the URI it is served at and, when it could be read, its text. */
export interface PageAsset {
  /** `asWebviewUri` of the file: loaded from there when its text is absent or cannot be inlined. */
  readonly uri: string;
  readonly text?: string;
}

export interface WebviewPage {
  /** `webview.cspSource`. */
  readonly cspSource: string;
  readonly nonce: string;
  /** dist/webview/<name>.js. */
  readonly script: PageAsset;
  /** dist/webview/<name>.css (and any other bundled stylesheet). */
  readonly styles: readonly PageAsset[];
  readonly title: string;
  /** Bundle name, put on <body data-view> for styles and tests. */
  readonly view: string;
}

/** 128+ bits from the OS generator, base64 (a valid CSP nonce-source). */
export function createNonce(): string {
  return randomBytes(24).toString('base64');
}

export function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string,
  );
}

export function contentSecurityPolicy(cspSource: string, nonce: string): string {
  return [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src ${cspSource} 'nonce-${nonce}'`,
    `img-src ${cspSource} data:`,
    `font-src ${cspSource}`,
  ].join('; ');
}

/**
 * Whether `text` can be the content of a <script> (`element` 'script') or <style> element
 * as it is: nothing in it may end the element early or start an HTML comment in it. (The
 * bundler already writes `</script` in strings as `<\/script`.)
 */
export function fitsInline(text: string, element: 'script' | 'style'): boolean {
  const lower = text.toLowerCase();
  return !lower.includes(`</${element}`) && !lower.includes('<!--');
}

function scriptTag(asset: PageAsset, nonce: string): string {
  return asset.text !== undefined && fitsInline(asset.text, 'script')
    ? `    <script nonce="${nonce}">${asset.text}</script>`
    : `    <script nonce="${nonce}" src="${escapeHtml(asset.uri)}"></script>`;
}

function styleTag(asset: PageAsset, nonce: string): string {
  return asset.text !== undefined && fitsInline(asset.text, 'style')
    ? `    <style nonce="${nonce}">${asset.text}</style>`
    : `    <link rel="stylesheet" href="${escapeHtml(asset.uri)}" nonce="${nonce}">`;
}

export function renderWebviewHtml(page: WebviewPage): string {
  const nonce = escapeHtml(page.nonce);
  const styles = page.styles.map((s) => styleTag(s, nonce)).join('\n');
  return `<!DOCTYPE html>
<html lang="en">
  <head>
    <meta charset="UTF-8">
    <meta http-equiv="Content-Security-Policy" content="${escapeHtml(contentSecurityPolicy(page.cspSource, page.nonce))}">
    <meta name="viewport" content="width=device-width, initial-scale=1.0">
${styles}
    <title>${escapeHtml(page.title)}</title>
  </head>
  <body data-view="${escapeHtml(page.view)}">
${scriptTag(page.script, nonce)}
  </body>
</html>
`;
}
