// `talker_first_audio: true` with a prerequisite missing, on the effective config. The
// warning goes where this file can fix it: on the offending value when it is written
// here, else on the flag when it is written here, else on this file's `base_config`
// (the chain brings both in).
import { entryOf, isMap, renderValue, type ConfigEntry, type ConfigMap, type ConfigValue } from '../configTree';
import type { ParsedDeployFile } from '../parsedFile';
import { describeLocation, type SourceLocation } from '../sourceRange';
import { talkerFirstAudioReports, type TalkerFirstAudioReport, type TfaCheck } from '../talkerFirstAudio';
import {
  diagnostic,
  replaceFix,
  type DeployDiagnostic,
  type DeployQuickFix,
  type DeployRelated,
} from './deployDiagnostic';

export function talkerFirstAudioDiagnostics(parsed: ParsedDeployFile, effective: ConfigMap): DeployDiagnostic[] {
  const { path: file, root: own } = parsed;
  const found: DeployDiagnostic[] = [];
  for (const report of talkerFirstAudioReports(effective)) {
    for (const check of report.checks) {
      if (check.ok !== false) continue;
      const at = placement(file, own, report, check);
      if (!at) continue;
      const where =
        check.decidedBy && check.decidedBy.keyLocation.file !== file
          ? ` (${describeLocation(check.decidedBy.span, file)})`
          : '';
      const flagWhere =
        report.flag.keyLocation.file !== file ? ` set in ${describeLocation(report.flag.span, file)}` : '';
      const message =
        `\`talker_first_audio: true\`${flagWhere} cannot take effect: ${check.actual}${where}; it needs ${check.requirement}. ` +
        'The codec stage then takes the regular path, so time to first audio is not what the flag promises.';
      found.push(
        diagnostic(check.code, message, at, {
          fixes: fixesFor(parsed, report, check),
          related: related(file, report, check),
        }),
      );
    }
  }
  return found;
}

function placement(
  file: string,
  own: ConfigValue | null,
  report: TalkerFirstAudioReport,
  check: TfaCheck,
): SourceLocation | undefined {
  if (check.decidedBy && check.decidedBy.keyLocation.file === file) return check.decidedBy.span;
  if (report.flag.keyLocation.file === file) return report.flag.span;
  return entryOf(own, 'base_config')?.span;
}

function fixesFor(parsed: ParsedDeployFile, report: TalkerFirstAudioReport, check: TfaCheck): DeployQuickFix[] {
  const file = parsed.path;
  const fixes: DeployQuickFix[] = [];
  const decided = check.decidedBy;
  if (decided && check.fixValue !== undefined && decided.value.location.file === file) {
    fixes.push(replaceFix(`Set \`${decided.key}: ${check.fixValue}\``, decided.value.location, check.fixValue));
  }
  if (!decided && check.missingKey) {
    const insert =
      check.missingKey.scope === 'top-level'
        ? topLevelInsert(parsed, check.missingKey)
        : afterFlagInsert(parsed, report.flag, check.missingKey);
    if (insert) fixes.push(insert);
  }
  if (report.flag.value.location.file === file) {
    fixes.push(replaceFix('Turn `talker_first_audio` off', report.flag.value.location, 'false', false));
  }
  return fixes;
}

/** `model_runner: v2` as a new top-level line before the first top-level key. */
function topLevelInsert(
  parsed: ParsedDeployFile,
  missing: NonNullable<TfaCheck['missingKey']>,
): DeployQuickFix | undefined {
  const { root, lines } = parsed;
  if (!isMap(root)) return undefined;
  const first = [...root.entries.values()][0];
  if (!first || first.keyLocation.range.start.character !== 0) return undefined;
  const at = lines.location(
    lines.lineStart(first.keyLocation.range.start.line),
    lines.lineStart(first.keyLocation.range.start.line),
  );
  return {
    title: `Add \`${missing.key}: ${missing.value}\``,
    edits: [{ range: at.range, newText: `${missing.key}: ${missing.value}\n` }],
    preferred: true,
  };
}

/** A new line under the flag, at its indentation (block style only). */
function afterFlagInsert(
  parsed: ParsedDeployFile,
  flag: ConfigEntry,
  missing: NonNullable<TfaCheck['missingKey']>,
): DeployQuickFix | undefined {
  if (flag.keyLocation.file !== parsed.path) return undefined;
  const start = flag.keyLocation.range.start;
  const indent = start.character;
  const before = parsed.text.slice(parsed.lines.lineStart(start.line), flag.keyLocation.startOffset);
  // In a flow map (`extra: {talker_first_audio: true}`) a new line would not fit.
  if (before !== ' '.repeat(indent)) return undefined;
  const end = flag.span;
  return {
    title: `Add \`${missing.key}: ${missing.value}\``,
    edits: [
      {
        range: { start: end.range.end, end: end.range.end },
        newText: `\n${' '.repeat(indent)}${missing.key}: ${missing.value}`,
      },
    ],
    preferred: true,
  };
}

function related(file: string, report: TalkerFirstAudioReport, check: TfaCheck): DeployRelated[] {
  const items: DeployRelated[] = [];
  if (report.flag.keyLocation.file !== file)
    items.push({ location: report.flag.span, message: '`talker_first_audio: true` is set here' });
  if (check.decidedBy && check.decidedBy.keyLocation.file !== file) {
    items.push({
      location: check.decidedBy.span,
      message: `${check.decidedBy.key}: ${renderValue(check.decidedBy.value)}`,
    });
  }
  return items;
}
