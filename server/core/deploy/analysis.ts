// One deploy YAML understood: parsed, recognised by content, and resolved through its
// `base_config` chain. Hover, checks and hints all read this.
import * as path from 'node:path';
import { resolveEffectiveConfig, type EffectiveDeployConfig } from './effectiveConfig';
import type { DeployFileCache } from './fileCache';
import type { ParsedDeployFile } from './parsedFile';
import { isDeployConfig } from './recognise';

export interface DeployAnalysis {
  readonly file: ParsedDeployFile;
  readonly isDeployConfig: boolean;
  readonly effective: EffectiveDeployConfig;
}

/** `text` is the file's current content (an editor buffer); bases are read through `files`. */
export function analyzeDeployText(filePath: string, text: string, files: DeployFileCache): DeployAnalysis {
  const file = files.parse(path.resolve(filePath), text);
  const effective = resolveEffectiveConfig(file, (base) => files.load(base));
  return { file, isDeployConfig: isDeployConfig(file.root), effective };
}

/** Absolute paths this analysis depends on: itself, its bases, and bases it could not find. */
export function filesRead(analysis: DeployAnalysis): string[] {
  const missing = analysis.effective.problems
    .map((problem) => problem.target)
    .filter((target): target is string => target !== null);
  return [...analysis.effective.chain.map((file) => file.path), ...missing];
}
