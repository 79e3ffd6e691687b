// All deploy checks of one file, in document order, each problem once.
import type { DeployAnalysis } from '../analysis';
import { diagnostic, type DeployDiagnostic } from './deployDiagnostic';
import { gpuShareDiagnostics } from './gpuShareCheck';
import { withMisplacedKeyFixes } from './misplacedKeyFix';
import { overlayDiagnostics } from './overlayCheck';
import { schemaDiagnostics } from './schemaCheck';
import { stageGraphDiagnostics } from './stageGraphCheck';
import { talkerFirstAudioDiagnostics } from './talkerFirstAudioCheck';

export function deployDiagnostics(analysis: DeployAnalysis): DeployDiagnostic[] {
  const { file, effective } = analysis;
  const yaml = yamlDiagnostics(analysis);
  if (!analysis.isDeployConfig) return yaml;
  // Past a syntax error the parser's recovery guesses the structure; checks there would
  // report the guess (a key swallowed into a map...), so only the text before it is checked.
  const firstError = yaml.find((d) => d.severity === 'error')?.range.start.line ?? Infinity;
  const semantic = [
    // The move fixes read the whole file and its bases (where the connectors are), so they are not
    // kept with a stage's findings the schema check reuses while that stage is unchanged.
    ...schemaDiagnostics(file.root).map((d) =>
      d.code === 'misplaced-key' ? withMisplacedKeyFixes(file, d, effective.root) : d,
    ),
    ...overlayDiagnostics(file.path, file.root, effective),
    ...stageGraphDiagnostics(file.path, file.root, effective.root),
    ...gpuShareDiagnostics(file.path, effective.root),
    ...talkerFirstAudioDiagnostics(file, effective.root),
  ].filter((d) => d.range.end.line < firstError);
  const all = [...yaml, ...semantic];
  const seen = new Set<string>();
  const unique = all.filter((d) => {
    const key = `${d.code}|${d.range.start.line}:${d.range.start.character}|${d.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  return unique.sort(
    (a, b) => a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character,
  );
}

/** YAML problems, one syntax error per line: the parser reports follow-on errors of one mistake. */
function yamlDiagnostics(analysis: DeployAnalysis): DeployDiagnostic[] {
  const lines = new Set<number>();
  const found: DeployDiagnostic[] = [];
  for (const problem of analysis.file.problems) {
    const line = problem.location.range.start.line;
    if (problem.code === 'yaml-syntax') {
      if (lines.has(line)) continue;
      lines.add(line);
    }
    found.push(diagnostic(problem.code, problem.message, problem.location, { severity: problem.severity }));
  }
  return found;
}

export type {
  DeployDiagnostic,
  DeployDiagnosticCode,
  DeployQuickFix,
  DeployTextEdit,
  DeploySeverity,
  DeployRelated,
} from './deployDiagnostic';
