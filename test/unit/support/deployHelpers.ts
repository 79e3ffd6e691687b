// In-memory deploy files for the unit tests: paths under a fake folder, read through the
// same injected reader the language server uses.
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  analyzeDeployText,
  deployDiagnostics,
  DeployFileCache,
  type DeployAnalysis,
  type DeployDiagnostic,
} from '../../../server/core/deploy';

export const FIXTURES = path.resolve(__dirname, '..', '..', 'fixtures', 'deploy');
export const VIRTUAL = path.resolve('/virtual/deploy');

export function fixtureText(name: string): string {
  return fs.readFileSync(path.join(FIXTURES, name), 'utf8');
}

/** Analyse `files[main]` with the other entries as its neighbours (and nothing on disk). */
export function analyzeVirtual(files: Record<string, string>, main: string): DeployAnalysis {
  const byPath = new Map(Object.entries(files).map(([name, text]) => [path.join(VIRTUAL, name), text]));
  const cache = new DeployFileCache((p) => byPath.get(p));
  return analyzeDeployText(path.join(VIRTUAL, main), files[main], cache);
}

export function analyzeFixture(name: string): DeployAnalysis {
  const cache = new DeployFileCache((p) => (fs.existsSync(p) ? fs.readFileSync(p, 'utf8') : undefined));
  const file = path.join(FIXTURES, name);
  return analyzeDeployText(file, fs.readFileSync(file, 'utf8'), cache);
}

/** `code@line` (1-based) of each diagnostic: compact enough to assert whole lists. */
export function summary(diagnostics: readonly DeployDiagnostic[]): string[] {
  return diagnostics.map((d) => `${d.code}@${d.range.start.line + 1}`);
}

export function diagnosticsOf(files: Record<string, string>, main: string): DeployDiagnostic[] {
  return deployDiagnostics(analyzeVirtual(files, main));
}

/** Applies a quick fix's edits to a text (edits in one file, not overlapping). */
export function applyEdits(
  text: string,
  edits: readonly {
    range: { start: { line: number; character: number }; end: { line: number; character: number } };
    newText: string;
  }[],
): string {
  const lines = text.split('\n');
  const offset = (p: { line: number; character: number }) =>
    lines.slice(0, p.line).reduce((n, l) => n + l.length + 1, 0) + p.character;
  const sorted = [...edits].sort((a, b) => offset(b.range.start) - offset(a.range.start));
  let out = text;
  for (const edit of sorted)
    out = out.slice(0, offset(edit.range.start)) + edit.newText + out.slice(offset(edit.range.end));
  return out;
}
