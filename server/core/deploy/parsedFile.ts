// Parses the text of one deploy YAML. Never throws: whatever the text (half-typed, tabs,
// several documents), the result has the problems as data and as much of the tree as
// the parser could recover.
import { LineCounter, parseAllDocuments, type YAMLError, type YAMLWarning } from 'yaml';
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

export function parseDeployFile(path: string, text: string): ParsedDeployFile {
  const counter = new LineCounter();
  const lines = new LineIndex(path, counter);
  // YAML 1.1 because vLLM-Omni reads deploy files with PyYAML: `yes`/`on` are booleans
  // and `<<` merge keys work there.
  const documents = parseAllDocuments(text, { lineCounter: counter, version: '1.1', prettyErrors: false, uniqueKeys: true });
  const list = Array.isArray(documents) ? documents : [];
  const problems: YamlProblem[] = [];
  for (const doc of list) {
    for (const error of doc.errors) problems.push(fromYamlError(error, lines));
    for (const warning of doc.warnings) problems.push(fromYamlError(warning, lines, 'warning'));
  }
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
  return { path, text, lines, root, problems };
}

function fromYamlError(error: YAMLError | YAMLWarning, lines: LineIndex, severity?: 'warning'): YamlProblem {
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
