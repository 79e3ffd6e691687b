// What the deploy checks report: a problem in one file, with a stable code, and the
// obvious fixes as text edits of that file.
import type { SourceLocation, SourceRange } from '../sourceRange';
import type { OverlayProblemKind } from '../effectiveConfig';
import type { YamlProblemCode } from '../parsedFile';
import type { TfaCheckCode } from '../talkerFirstAudio';

export type DeployDiagnosticCode =
  | YamlProblemCode
  | OverlayProblemKind
  | 'base-config-invalid'
  | TfaCheckCode
  | 'unknown-key'
  | 'misplaced-key'
  | 'wrong-type'
  | 'invalid-value'
  | 'missing-stage-id'
  | 'duplicate-stage-id'
  | 'connector-undefined'
  | 'edge-unknown-stage'
  | 'platform-stage-unknown'
  | 'gpu-memory-oversubscribed';

export type DeploySeverity = 'error' | 'warning' | 'information';

export interface DeployTextEdit {
  readonly range: SourceRange;
  readonly newText: string;
}

export interface DeployQuickFix {
  readonly title: string;
  readonly edits: readonly DeployTextEdit[];
  /** The fix an editor may apply on "fix all" / auto-fix. */
  readonly preferred: boolean;
}

export interface DeployRelated {
  readonly location: SourceLocation;
  readonly message: string;
}

export interface DeployDiagnostic {
  readonly code: DeployDiagnosticCode;
  readonly severity: DeploySeverity;
  readonly message: string;
  /** In the checked file. */
  readonly range: SourceRange;
  readonly fixes: readonly DeployQuickFix[];
  readonly related: readonly DeployRelated[];
}

export function diagnostic(
  code: DeployDiagnosticCode,
  message: string,
  location: SourceLocation,
  more: { severity?: DeploySeverity; fixes?: DeployQuickFix[]; related?: DeployRelated[] } = {},
): DeployDiagnostic {
  return {
    code,
    severity: more.severity ?? 'warning',
    message,
    range: location.range,
    fixes: more.fixes ?? [],
    related: more.related ?? [],
  };
}

export function replaceFix(title: string, location: SourceLocation, newText: string, preferred = true): DeployQuickFix {
  return { title, edits: [{ range: location.range, newText }], preferred };
}
