// Deploy-core results as LSP values. Core ranges already use LSP's convention (0-based
// lines, UTF-16 characters), so this only renames and wraps.
import { CodeAction, CodeActionKind, DiagnosticSeverity, type Diagnostic, type Range } from 'vscode-languageserver';
import type { DeployDiagnostic, DeploySeverity } from '../core/deploy';
import { pathToUri } from './documentPaths';

/** `source` of every diagnostic this server publishes. */
export const DIAGNOSTIC_SOURCE = 'stage-lens';

const SEVERITY: Record<DeploySeverity, DiagnosticSeverity> = {
  error: DiagnosticSeverity.Error,
  warning: DiagnosticSeverity.Warning,
  information: DiagnosticSeverity.Information,
};

export function toLspDiagnostic(found: DeployDiagnostic): Diagnostic {
  const diagnostic: Diagnostic = {
    range: found.range,
    severity: SEVERITY[found.severity],
    code: found.code,
    source: DIAGNOSTIC_SOURCE,
    message: found.message,
  };
  if (found.related.length > 0) {
    diagnostic.relatedInformation = found.related.map((item) => ({
      location: { uri: pathToUri(item.location.file), range: item.location.range },
      message: item.message,
    }));
  }
  return diagnostic;
}

export function quickFixes(uri: string, found: DeployDiagnostic): CodeAction[] {
  return found.fixes.map((fix) => {
    const action = CodeAction.create(
      fix.title,
      { changes: { [uri]: fix.edits.map((edit) => ({ range: edit.range, newText: edit.newText })) } },
      CodeActionKind.QuickFix,
    );
    action.diagnostics = [toLspDiagnostic(found)];
    action.isPreferred = fix.preferred;
    return action;
  });
}

export function rangesOverlap(a: Range, b: Range): boolean {
  return !(before(a.end, b.start) || before(b.end, a.start));
}

function before(a: Range['start'], b: Range['start']): boolean {
  return a.line < b.line || (a.line === b.line && a.character < b.character);
}
