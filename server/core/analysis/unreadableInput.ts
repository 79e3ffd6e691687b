// An input that is not a text log (a compressed file, binary data, zeros only, a deploy config), or gzip data that broke
// off, may hold no record: the one
// finding that says so, wherever a report would otherwise read it as a log without stats.
import type { FindingCode } from './types';
import type { ParseProblem } from '../records';

const UNREADABLE_INPUT_CODES: ReadonlySet<FindingCode> = new Set<FindingCode>([
  'input-compressed',
  'input-binary',
  'input-zero-filled',
  'input-deploy-config',
  'input-gzip-damaged',
]);

export function isUnreadableInput(finding: { readonly code: FindingCode }): boolean {
  return UNREADABLE_INPUT_CODES.has(finding.code);
}

/** The finding that says the input is not a text log, if one does. */
export function unreadableInputFinding<F extends { readonly code: FindingCode }>(
  findings: readonly F[],
): F | undefined {
  return findings.find(isUnreadableInput);
}

/** The parser's problem that says the input is not a text log, if one does. */
export function unreadableInputProblem(problems: readonly ParseProblem[]): ParseProblem | undefined {
  return problems.find(
    (p) =>
      p.compressed !== undefined ||
      p.binary === true ||
      p.zeroFilledBytes !== undefined ||
      p.deployConfig === true ||
      p.gzipDamaged !== undefined,
  );
}
