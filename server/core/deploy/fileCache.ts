// Parsed deploy files by path. The text comes from an injected reader, so the language
// server can serve unsaved editor buffers; a file is parsed again only when its text
// changed, which keeps a chain of base configs cheap while one overlay is being edited,
// and then only in the pieces the edit touched (incrementalParse.ts).
import { IncrementalDeployParser, type IncrementalParseStats } from './incrementalParse';
import type { ParsedDeployFile } from './parsedFile';

/** Why the text of a file is not there: it is still being read, or it was refused (not a
 *  regular file, too large, unreadable), with the reason as a phrase (`is a named pipe…`). */
export interface UnreadFile {
  readonly unread: 'pending' | 'refused';
  readonly reason: string;
}

/** The current text of a file; undefined when it does not exist. */
export type DeployFileText = string | UnreadFile | undefined;

export type DeployFileReader = (path: string) => DeployFileText;

export function isUnread(value: unknown): value is UnreadFile {
  return typeof value === 'object' && value !== null && 'unread' in value;
}

export class DeployFileCache {
  private readonly parsed = new Map<string, ParsedDeployFile>();
  private readonly parsers = new Map<string, IncrementalDeployParser>();

  constructor(private readonly readFile: DeployFileReader) {}

  load(path: string): ParsedDeployFile | UnreadFile | undefined {
    const text = this.readFile(path);
    if (typeof text !== 'string') {
      this.forget(path);
      return text;
    }
    return this.parse(path, text);
  }

  /**
   * Parse a text the caller already has (an open document), reusing the last parse. Use
   * the result before parsing another text of the same path: the pieces the two share
   * then move to their places in the newer text (pieceLocation.ts).
   */
  parse(path: string, text: string): ParsedDeployFile {
    const cached = this.parsed.get(path);
    if (cached && cached.text === text) return cached;
    let parser = this.parsers.get(path);
    if (!parser) this.parsers.set(path, (parser = new IncrementalDeployParser(path)));
    const file = parser.parse(text);
    this.parsed.set(path, file);
    return file;
  }

  /** How the last text of `path` was parsed (whole or in pieces), for tests and the benchmark. */
  lastParse(path: string): IncrementalParseStats | undefined {
    return this.parsers.get(path)?.last;
  }

  forget(path: string): void {
    this.parsed.delete(path);
    this.parsers.delete(path);
  }
}
