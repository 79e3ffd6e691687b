// Parses the text of one deploy YAML. Never throws: whatever the text (half-typed, tabs,
// several documents), the result has the problems as data and as much of the tree as
// the parser could recover.
import { Composer, Parser, type Document, type YAMLError, type YAMLWarning } from 'yaml';
import type { ConfigValue } from './configTree';
import { cstNestingExcess, MAX_NESTING, scanNestingExcess } from './nesting';
import { documentToTree } from './yamlToTree';
import { LineIndex, type SourceLocation } from './sourceRange';

export type YamlProblemCode = 'yaml-syntax' | 'yaml-duplicate-key' | 'yaml-multiple-documents' | 'yaml-too-deep';

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

/**
 * The documents of a YAML text as vLLM-Omni reads them, with their lines counted; none,
 * and the offset where it happens, when the text nests deeper than MAX_NESTING (see
 * nesting.ts: such a text is not given to the `yaml` composer at all).
 */
export function parseYamlDocuments(
  path: string,
  text: string,
  lines = LineIndex.ofText(path, text),
): { documents: Document[]; lines: LineIndex; tooDeepAt: number | null } {
  const scanned = scanNestingExcess(text);
  if (scanned !== null) return { documents: [], lines, tooDeepAt: scanned };
  const tokens = Array.from(new Parser().parse(text));
  const counted = cstNestingExcess(tokens);
  if (counted !== null) return { documents: [], lines, tooDeepAt: counted };
  // YAML 1.1 because vLLM-Omni reads deploy files with PyYAML: `yes`/`on` are booleans
  // and `<<` merge keys work there. (What `parseAllDocuments` does, from the tokens counted.)
  const documents = Array.from(new Composer({ version: '1.1', uniqueKeys: true }).compose(tokens));
  return { documents, lines, tooDeepAt: null };
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
  const { documents, lines, tooDeepAt } = parseYamlDocuments(path, text);
  if (tooDeepAt === null) return fromDocuments(path, text, documents, lines);
  // Read what comes before the top-level entry that nests too deep, and say where it stops.
  const cut = topLevelEntryStart(text, tooDeepAt);
  const before = parseYamlDocuments(path, text.slice(0, cut), lines);
  const read =
    before.tooDeepAt === null ? fromDocuments(path, text, before.documents, lines) : { root: null, problems: [] };
  const line = lines.position(tooDeepAt).line;
  const tooDeep: YamlProblem = {
    code: 'yaml-too-deep',
    severity: 'error',
    message: `Nested more than ${MAX_NESTING} levels deep (line ${line + 1}): ${cut === 0 ? 'Stage Lens does not read this file' : `Stage Lens reads this file only up to line ${lines.position(cut).line}`}. A deploy config nests a handful of levels; deeper nesting is refused so that it cannot exhaust the language server.`,
    location: lines.location(tooDeepAt, tooDeepAt),
  };
  return { path, text, lines, root: read.root, problems: inDocumentOrder([...read.problems, tooDeep]) };
}

function fromDocuments(path: string, text: string, list: readonly Document[], lines: LineIndex): ParsedDeployFile {
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

/** Start of the line, at or before `offset`, that begins at column 0 with something other than a comment or a closing bracket. */
function topLevelEntryStart(text: string, offset: number): number {
  let at = offset > 0 ? text.lastIndexOf('\n', offset - 1) + 1 : 0;
  for (;;) {
    const c = text.charCodeAt(at);
    if (at === 0 || !(c === 0x20 || c === 0x23 || c === 0x0a || c === 0x0d || c === 0x09 || c === 0x5d || c === 0x7d))
      return at;
    at = at >= 2 ? text.lastIndexOf('\n', at - 2) + 1 : 0;
  }
}

/**
 * Errors, then warnings, each in the order of the text. (`yaml` reports some errors only
 * at the end of a document, after those of everything below them.)
 */
export function inDocumentOrder(problems: readonly YamlProblem[]): YamlProblem[] {
  const byOffset = (a: YamlProblem, b: YamlProblem) => a.location.startOffset - b.location.startOffset;
  return [
    ...problems.filter((p) => p.severity === 'error').sort(byOffset),
    ...problems.filter((p) => p.severity !== 'error').sort(byOffset),
  ];
}

export function fromYamlError(error: YAMLError | YAMLWarning, lines: LineIndex, severity?: 'warning'): YamlProblem {
  const [start, end] = error.pos;
  const duplicate = error.code === 'DUPLICATE_KEY';
  // PyYAML accepts a repeated key and keeps the last value, so that is a warning.
  return {
    code: duplicate ? 'yaml-duplicate-key' : 'yaml-syntax',
    severity: severity ?? (duplicate ? 'warning' : 'error'),
    message: duplicate
      ? 'Duplicate key: PyYAML keeps the last value, so this one is overridden or overrides an earlier one.'
      : firstLine(error.message),
    location: lines.location(start, Math.max(start, end)),
  };
}

function firstLine(message: string): string {
  const line = message.split('\n')[0].trim();
  return line.replace(/ at line \d+, column \d+:?$/, '');
}
