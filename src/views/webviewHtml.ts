// The HTML shell of every Stage Lens webview: a strict content security policy with a
// fresh nonce per load, one bundled script and its stylesheet, nothing remote. Pure (no
// vscode runtime) so that it is unit-tested in Node; webviewResources.ts supplies the URIs.
import { randomBytes } from 'node:crypto';

export interface WebviewPage {
  /** `webview.cspSource`. */
  readonly cspSource: string;
  readonly nonce: string;
  /** `asWebviewUri` of dist/webview/<name>.js. */
  readonly scriptUri: string;
  /** `asWebviewUri` of dist/webview/<name>.css (and any other bundled stylesheet). */
  readonly styleUris: readonly string[];
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

export function renderWebviewHtml(page: WebviewPage): string {
  const nonce = escapeHtml(page.nonce);
  const styles = page.styleUris
    .map((u) => `    <link rel="stylesheet" href="${escapeHtml(u)}" nonce="${nonce}">`)
    .join('\n');
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
    <script nonce="${nonce}" src="${escapeHtml(page.scriptUri)}"></script>
  </body>
</html>
`;
}
