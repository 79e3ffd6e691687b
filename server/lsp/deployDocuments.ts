// The analysis of each open YAML document, cached per document version and per
// generation of the open buffers (a change in a base config's buffer makes its
// overlays' analyses stale). Files are read from open buffers first, then from disk,
// so unsaved edits of a base config count.
import * as fs from 'node:fs';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { TextDocuments } from 'vscode-languageserver';
import { analyzeDeployText, deployDiagnostics, DeployFileCache, filesRead, type DeployAnalysis, type DeployDiagnostic, type DeployFileReader } from '../core/deploy';
import { isYamlDocument, uriToPath } from './documentPaths';

interface CachedAnalysis {
  readonly version: number;
  readonly generation: number;
  readonly analysis: DeployAnalysis;
  diagnostics?: readonly DeployDiagnostic[];
}

export function readFromDisk(filePath: string): string | undefined {
  try {
    return fs.readFileSync(filePath, 'utf8');
  } catch {
    return undefined;
  }
}

export class DeployDocuments {
  private readonly cache = new Map<string, CachedAnalysis>();
  /** Documents once recognised as deploy configs stay so while open, so that a half-typed
   *  edit that breaks recognition still shows its YAML errors. */
  private readonly recognised = new Set<string>();
  private generation = 0;
  readonly files: DeployFileCache;

  constructor(
    private readonly documents: TextDocuments<TextDocument>,
    readFile: DeployFileReader = readFromDisk,
  ) {
    this.files = new DeployFileCache((filePath) => this.openText(filePath) ?? readFile(filePath));
  }

  /** Something in the open buffers changed: every cached analysis may depend on it. */
  invalidate(): void {
    this.generation++;
  }

  closed(uri: string): void {
    this.cache.delete(uri);
    this.recognised.delete(uri);
    // Free the closed document's parsed pieces (re-read from disk if another file's overlay needs it).
    if (uri.startsWith('file:')) this.files.forget(uriToPath(uri));
    this.generation++;
  }

  analysis(document: TextDocument): DeployAnalysis | undefined {
    if (!isYamlDocument(document.uri, document.languageId)) return undefined;
    return this.entry(document).analysis;
  }

  /** Whether the features apply: recognised now, or earlier in this editing session. */
  isDeploy(document: TextDocument): boolean {
    const analysis = this.analysis(document);
    if (!analysis) return false;
    if (analysis.isDeployConfig) this.recognised.add(document.uri);
    return this.recognised.has(document.uri);
  }

  diagnostics(document: TextDocument): readonly DeployDiagnostic[] {
    if (!this.isDeploy(document)) return [];
    const entry = this.entry(document);
    entry.diagnostics ??= deployDiagnostics({ ...entry.analysis, isDeployConfig: true });
    return entry.diagnostics;
  }

  /** Open documents whose last analysis read `filePath` (as itself or as a base). */
  dependentsOf(filePath: string): TextDocument[] {
    return this.documents.all().filter((document) => {
      const cached = this.cache.get(document.uri);
      return cached !== undefined && filesRead(cached.analysis).includes(filePath);
    });
  }

  private entry(document: TextDocument): CachedAnalysis {
    const cached = this.cache.get(document.uri);
    if (cached && cached.version === document.version && cached.generation === this.generation) return cached;
    const analysis = analyzeDeployText(uriToPath(document.uri), document.getText(), this.files);
    const fresh: CachedAnalysis = { version: document.version, generation: this.generation, analysis };
    this.cache.set(document.uri, fresh);
    return fresh;
  }

  private openText(filePath: string): string | undefined {
    for (const document of this.documents.all()) {
      if (document.uri.startsWith('file:') && uriToPath(document.uri) === filePath) return document.getText();
    }
    return undefined;
  }
}
