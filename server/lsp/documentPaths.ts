// Document URIs to file paths and back. Deploy configs on disk are `file:` URIs; an
// untitled buffer gets a stable pseudo path so it can still be analysed on its own.
import * as path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export function uriToPath(uri: string): string {
  if (uri.startsWith('file:')) return fileURLToPath(uri);
  return path.resolve('/', encodeURIComponent(uri));
}

export function pathToUri(filePath: string): string {
  return pathToFileURL(filePath).href;
}

/** Whether a document can be a deploy config at all: YAML by language id or extension. */
export function isYamlDocument(uri: string, languageId: string): boolean {
  return languageId === 'yaml' || /\.ya?ml$/i.test(uri);
}
