// `base_config` problems: a missing file, a cycle, a value that is not a path, and base
// files that do not parse. A problem deep in the chain is reported on this file's own
// `base_config`, since that is where the chain starts.
import * as path from 'node:path';
import { entryOf, type ConfigValue } from '../configTree';
import type { EffectiveDeployConfig } from '../effectiveConfig';
import { describeLocation } from '../sourceRange';
import { diagnostic, type DeployDiagnostic } from './deployDiagnostic';
import { countOf } from '../../numberText';

export function overlayDiagnostics(
  file: string,
  own: ConfigValue | null,
  effective: EffectiveDeployConfig,
): DeployDiagnostic[] {
  const ownBase = entryOf(own, 'base_config');
  if (!ownBase) return [];
  const found: DeployDiagnostic[] = [];
  for (const problem of effective.problems) {
    if (problem.entry.keyLocation.file === file) {
      found.push(diagnostic(problem.kind, problem.message, problem.entry.value.location));
    } else {
      const where = describeLocation(problem.entry.span, file);
      found.push(
        diagnostic(problem.kind, `In the base config chain (${where}): ${problem.message}`, ownBase.value.location, {
          related: [{ location: problem.entry.span, message: problem.message }],
        }),
      );
    }
  }
  for (const base of effective.chain.slice(1)) {
    const errors = base.problems.filter((problem) => problem.severity === 'error');
    if (errors.length === 0) continue;
    const name = path.basename(base.path);
    found.push(
      diagnostic(
        'base-config-invalid',
        `Base config ${name} has ${countOf(errors.length, 'YAML error')} (first: ${errors[0].message}); the effective config may be incomplete.`,
        ownBase.value.location,
        {
          related: [{ location: errors[0].location, message: errors[0].message }],
        },
      ),
    );
  }
  return found;
}
