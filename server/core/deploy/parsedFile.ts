// Parses the text of one deploy YAML. Never throws: whatever the text (half-typed, tabs,
// several documents), the result has the problems as data and as much of the tree as
// the parser could recover.
import { parseAllDocuments, type Document, type YAMLError, type YAMLWarning } from 'yaml';
import type { ConfigValue } from './configTree';
import { documentToTree } from './yamlToTree';
import { LineIndex, type SourceLocation } from './sourceRange';

export type YamlProblemCode = 'yaml-syntax' | 'yaml-duplicate-key' | 'yaml-multiple-documents';

export interface YamlProblem {
  readonly code: YamlProblemCode;
  readonly severity: 'error' | 'warning';
  readonly message: string;
  readonly location: SourceLocation;
}

export interface ParsedDeployFile {
  readonly path: string;
  readonly text: string;
  readonly lines: LineIndex;
  /** The first document's value; null for an empty file. */
  readonly root: ConfigValue | null;
  readonly problems: readonly YamlProblem[];
}

/** The documents of a YAML text as vLLM-Omni reads them, with their lines counted. */
export function parseYamlDocuments(path: string, text: string, lines = LineIndex.ofText(path, text)): { documents: Document[]; lines: LineIndex } {
  // YAML 1.1 because vLLM-Omni reads deploy files with PyYAML: `yes`/`on` are booleans
  // and `<<` merge keys work there.
  const documents = parseAllDocuments(text, { version: '1.1', prettyErrors: false, uniqueKeys: true });
  return { documents: Array.isArray(documents) ? documents : [], lines };
}

/** Each document's errors, then its warnings, document by document. */
function documentProblems(documents: readonly Document[], lines: LineIndex): YamlProblem[] {
  const problems: YamlProblem[] = [];
  for (const doc of documents) {
    for (const error of doc.errors) problems.push(fromYamlError(error, lines));
    for (const warning of doc.warnings) problems.push(fromYamlError(warning, lines, 'warning'));
  }
  return problems;
}

/** Parses the whole text at once (see incrementalParse.ts for edits of a large file). */
export function parseDeployFile(path: string, text: string): ParsedDeployFile {
  const { documents: list, lines } = parseYamlDocuments(path, text);
  const problems = documentProblems(list, lines);
  if (list.length > 1) {
    const secondStart = list[1].range?.[0] ?? 0;
    const marker = text.lastIndexOf('---', secondStart);
    const at = marker >= 0 ? marker : secondStart;
    problems.push({
      code: 'yaml-multiple-documents',
      severity: 'warning',
      message: `This file holds ${list.length} YAML documents; vLLM-Omni loads a deploy config as a single document and rejects a stream of several. Stage Lens reads only the first.`,
      location: lines.location(at, marker >= 0 ? at + 3 : at),
    });
  }
  const root = list.length > 0 ? documentToTree(list[0], lines) : null;
  return { path, text, lines, root, problems: inDocumentOrder(problems) };
}

/**
 * Errors, then warnings, each in the order of the text. (`yaml` reports some errors only
 * at the end of a document, after those of everything below them.)
 */
export function inDocumentOrder(problems: readonly YamlProblem[]): YamlProblem[] {
  const byOffset = (a: YamlProblem, b: YamlProblem) => a.location.startOffset - b.location.startOffset;
  return [...problems.filter((p) => p.severity === 'error').sort(byOffset), ...problems.filter((p) => p.severity !== 'error').sort(byOffset)];
}

export function fromYamlError(error: YAMLError | YAMLWarning, lines: LineIndex, severity?: 'warning'): YamlProblem {
  const [start, end] = error.pos;
  const duplicate = error.code === 'DUPLICATE_KEY';
  // PyYAML accepts a repeated key and keeps the last value, so that is a warning.
  return {
    code: duplicate ? 'yaml-duplicate-key' : 'yaml-syntax',
    severity: severity ?? (duplicate ? 'warning' : 'error'),
    message: duplicate ? 'Duplicate key: PyYAML keeps the last value, so this one is overridden or overrides an earlier one.' : firstLine(error.message),
    location: lines.location(start, Math.max(start, end)),
  };
}

function firstLine(message: string): string {
  const line = message.split('\n')[0].trim();
  return line.replace(/ at line \d+, column \d+:?$/, '');
}
