// The analysis of each open YAML document, cached per document version and per
// generation of the open buffers (a change in a base config's buffer makes its
// overlays' analyses stale). Files are read from open buffers first, then from disk,
// so unsaved edits of a base config count.
//
// Base configs on disk are read asynchronously (baseFiles.ts): an analysis that needs a
// base not read yet is computed again once it is, so every answer (diagnostics, hover,
// hints) waits for the reads it needs and the server never blocks on a file. Each new
// analysis checks again, by `stat`, the disk files it read.
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { TextDocuments } from 'vscode-languageserver';
import {
  analyzeDeployText,
  configStageIds,
  deployDiagnostics,
  DeployFileCache,
  filesRead,
  isUnread,
  type DeployAnalysis,
  type DeployDiagnostic,
  type DeployFileText,
} from '../core/deploy';
import { BaseFiles, readBaseFile, type BaseFileReader } from './baseFiles';
import { isYamlDocument, uriToPath } from './documentPaths';

interface CachedAnalysis {
  readonly version: number;
  readonly generation: number;
  readonly analysis: DeployAnalysis;
  /** Files this analysis read from disk (or wanted to). */
  readonly diskPaths: ReadonlySet<string>;
  /** The disk reads it used were checked after it was computed. */
  diskChecked: boolean;
  diagnostics?: readonly DeployDiagnostic[];
}

/** A chain of bases is at most 32 files (effectiveConfig.ts): one more round than that ends any loop. */
const MAX_READ_ROUNDS = 34;

export class DeployDocuments {
  private readonly cache = new Map<string, CachedAnalysis>();
  /** Documents once recognised as deploy configs stay so while open, so that a half-typed
   *  edit that breaks recognition still shows its YAML errors. */
  private readonly recognised = new Set<string>();
  private generation = 0;
  readonly files: DeployFileCache;
  private readonly disk: BaseFiles;
  /** What the last reads from disk gave, by path: what analyses see. */
  private readonly diskTexts = new Map<string, DeployFileText>();
  /** Disk paths read by the analysis being computed. */
  private reading: Set<string> | null = null;

  constructor(
    private readonly documents: TextDocuments<TextDocument>,
    readFile: BaseFileReader = readBaseFile,
  ) {
    this.disk = new BaseFiles(readFile);
    this.files = new DeployFileCache((filePath) => this.openText(filePath) ?? this.fromDisk(filePath));
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

  /** The analysis of the document's current text, with every base it names read. */
  async analysis(document: TextDocument): Promise<DeployAnalysis | undefined> {
    if (!isYamlDocument(document.uri, document.languageId)) return undefined;
    return (await this.ready(document)).analysis;
  }

  /** Whether the features apply: recognised now, or earlier in this editing session (or refused as too deep to read). */
  async isDeploy(document: TextDocument): Promise<boolean> {
    const analysis = await this.analysis(document);
    if (!analysis) return false;
    if (analysis.isDeployConfig || analysis.file.problems.some((p) => p.code === 'yaml-too-deep'))
      this.recognised.add(document.uri);
    return this.recognised.has(document.uri);
  }

  /** The diagnostics, and the version of the document they are for. */
  async diagnostics(
    document: TextDocument,
  ): Promise<{ readonly version: number; readonly diagnostics: readonly DeployDiagnostic[] }> {
    if (!(await this.isDeploy(document))) return { version: document.version, diagnostics: [] };
    const entry = await this.ready(document);
    entry.diagnostics ??= deployDiagnostics({ ...entry.analysis, isDeployConfig: true });
    return { version: entry.version, diagnostics: entry.diagnostics };
  }

  /**
   * The stage ids of the open document at `filePath` as its buffer has them now (unsaved edits
   * and unsaved bases included; configStageIds.ts), or undefined when no document there is open.
   */
  openStageIds(filePath: string): Promise<number[] | null> | undefined {
    const document = this.openDocument(filePath);
    if (document === undefined) return undefined;
    return this.ready(document).then(({ analysis }) => configStageIds(analysis.file, analysis.effective));
  }

  /** Open documents whose last analysis read `filePath` (as itself or as a base). */
  dependentsOf(filePath: string): TextDocument[] {
    return this.documents.all().filter((document) => {
      const cached = this.cache.get(document.uri);
      return cached !== undefined && filesRead(cached.analysis).includes(filePath);
    });
  }

  /**
   * The analysis once the disk files it needs are read and current: read them, and while
   * a read gives something the analysis did not see (a base not read yet, a file changed
   * on disk), analyse again; each round reads one more level of the chain at most.
   */
  private async ready(document: TextDocument): Promise<CachedAnalysis> {
    let entry = this.entry(document);
    for (let round = 0; !entry.diskChecked && round < MAX_READ_ROUNDS; round++) {
      let changed = false;
      for (const filePath of entry.diskPaths) {
        const text = await this.disk.read(filePath);
        if (!sameText(this.diskTexts.get(filePath), text, this.diskTexts.has(filePath))) {
          this.diskTexts.set(filePath, text);
          changed = true;
        }
      }
      if (changed) this.generation++;
      const now = this.entry(document);
      if (!changed && now === entry) entry.diskChecked = true;
      entry = now;
    }
    return entry;
  }

  private entry(document: TextDocument): CachedAnalysis {
    const cached = this.cache.get(document.uri);
    if (cached && cached.version === document.version && cached.generation === this.generation) return cached;
    const diskPaths = new Set<string>();
    this.reading = diskPaths;
    let analysis: DeployAnalysis;
    try {
      analysis = analyzeDeployText(uriToPath(document.uri), document.getText(), this.files);
    } finally {
      this.reading = null;
    }
    const fresh: CachedAnalysis = {
      version: document.version,
      generation: this.generation,
      analysis,
      diskPaths,
      diskChecked: diskPaths.size === 0,
    };
    this.cache.set(document.uri, fresh);
    return fresh;
  }

  private fromDisk(filePath: string): DeployFileText {
    this.reading?.add(filePath);
    if (this.diskTexts.has(filePath)) return this.diskTexts.get(filePath);
    return { unread: 'pending', reason: 'is still being read' };
  }

  private openText(filePath: string): string | undefined {
    return this.openDocument(filePath)?.getText();
  }

  private openDocument(filePath: string): TextDocument | undefined {
    return this.documents.all().find((d) => d.uri.startsWith('file:') && uriToPath(d.uri) === filePath);
  }
}

function sameText(before: DeployFileText, after: DeployFileText, known: boolean): boolean {
  if (!known) return false;
  if (isUnread(before) || isUnread(after))
    return isUnread(before) && isUnread(after) && before.unread === after.unread && before.reason === after.reason;
  return before === after;
}
