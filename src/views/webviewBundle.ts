// The script and stylesheet of a webview bundle (dist/webview/<name>.js and .css), read to be
// put into its page (see webviewHtml.ts for why), each with the URI it is served at. Read at
// every load, so a rebuilt bundle shows on the next load. No vscode runtime (the caller
// supplies the URIs), so that the browser tests build their pages with it.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { PageAsset } from './webviewHtml';

export type WebviewBundle = 'sidePanel' | 'latencyPanel' | 'compare';

export interface BundleAssets {
  readonly script: PageAsset;
  readonly styles: readonly PageAsset[];
}

function readText(file: string): string | undefined {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    // Loaded from its URI instead.
    return undefined;
  }
}

/**
 * A development build ends its file with a source map comment naming the map beside it; in
 * the page that name would be taken relative to the page, so it is given as the map's URI
 * (the developer tools fetch it; the page never does).
 */
export function pointSourceMap(text: string, uriOf: (file: string) => string, kind: 'js' | 'css'): string {
  const marker = kind === 'js' ? '//# sourceMappingURL=' : '/*# sourceMappingURL=';
  const at = text.lastIndexOf(marker);
  if (at < 0) return text;
  const start = at + marker.length;
  const close = kind === 'js' ? text.indexOf('\n', start) : text.indexOf('*/', start);
  const end = close < 0 ? text.length : close;
  const file = text.slice(start, end).trim();
  // Only a plain file name beside the bundle; an inline data: map or a URL stays as it is.
  if (!/^[\w.-]+\.map$/.test(file)) return text;
  return `${text.slice(0, start)}${uriOf(file)}${kind === 'css' ? ' ' : ''}${text.slice(end)}`;
}

/** `dir`: the bundles' folder on disk; `uriOf`: a file name of that folder -> the URI the webview loads it from. */
export function bundleAssets(dir: string, bundle: WebviewBundle, uriOf: (file: string) => string): BundleAssets {
  const asset = (kind: 'js' | 'css'): PageAsset => {
    const file = `${bundle}.${kind}`;
    const text = readText(path.join(dir, file));
    const uri = uriOf(file);
    return text === undefined ? { uri } : { uri, text: pointSourceMap(text, uriOf, kind) };
  };
  return { script: asset('js'), styles: [asset('css')] };
}
