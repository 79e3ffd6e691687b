// Parsed deploy files by path. The text comes from an injected reader, so the language
// server can serve unsaved editor buffers; a file is parsed again only when its text
// changed, which keeps a chain of base configs cheap while one overlay is being edited.
import { parseDeployFile, type ParsedDeployFile } from './parsedFile';

/** Returns the current text of a file, or undefined when it does not exist. */
export type DeployFileReader = (path: string) => string | undefined;

export class DeployFileCache {
  private readonly parsed = new Map<string, ParsedDeployFile>();

  constructor(private readonly readFile: DeployFileReader) {}

  load(path: string): ParsedDeployFile | undefined {
    const text = this.readFile(path);
    if (text === undefined) {
      this.parsed.delete(path);
      return undefined;
    }
    return this.parse(path, text);
  }

  /** Parse a text the caller already has (an open document), reusing the last parse. */
  parse(path: string, text: string): ParsedDeployFile {
    const cached = this.parsed.get(path);
    if (cached && cached.text === text) return cached;
    const file = parseDeployFile(path, text);
    this.parsed.set(path, file);
    return file;
  }

  forget(path: string): void {
    this.parsed.delete(path);
  }
}
