// `--deploy-config <yaml>` of analyze and explain: the checks that stop a command before it
// reads its input, in one wording, and the evidence code (with the YAML library) loaded only
// when the option is given.
import { statSync } from 'node:fs';
import type { AnalysisSnapshot } from '../core/analysis/streamAnalysis';

/** Why a file cannot be read, in the words the CLI says it with. */
export function readErrorWords(e: NodeJS.ErrnoException): string {
  if (e.code === 'ENOENT') return 'no such file';
  if (e.code === 'EISDIR') return 'is a directory';
  if (e.code === 'EACCES') return 'permission denied';
  return e.message;
}

/** Why `filePath` is not a regular file to read; null when it is one. */
function notAFileReason(filePath: string): string | null {
  try {
    const stat = statSync(filePath);
    if (stat.isFile()) return null;
    return stat.isDirectory() ? 'is a directory' : 'not a regular file';
  } catch (err) {
    return readErrorWords(err as NodeJS.ErrnoException);
  }
}

// The deploy config's evidence needs the YAML library: loaded only with --deploy-config
// (`require`: a bundle of its own in dist/, which the build marks external).
export function loadDeployEvidence(): typeof import('../capture/deployEvidence') {
  return require('../capture/deployEvidence') as typeof import('../capture/deployEvidence');
}

/**
 * Why `deployConfig` cannot serve as evidence, as the command says it after its name
 * (`stage-lens analyze: …`): not a file to read, not YAML, not a deploy config, not one a
 * server runs; null when it can.
 */
export function deployConfigOptionProblem(deployConfig: string): string | null {
  const notAFile = notAFileReason(deployConfig);
  if (notAFile !== null) return `cannot read the deploy config ${deployConfig}: ${notAFile}`;
  const problem = loadDeployEvidence().deployConfigProblem(deployConfig);
  return problem === null ? null : `the deploy config ${deployConfig} ${problem}`;
}

/** What --deploy-config does to a report: the config's stages checked against the log's, its settings cited as evidence. */
export interface DeployConfigReport {
  /** Why the config's stages are not the log's (said once, for the whole report); null when they are, or no config was given. */
  readonly mismatchOf: (snapshot: AnalysisSnapshot) => string | null;
  /** The snapshot whose findings cite the config's settings; as it is without a config or when the stages differ. */
  readonly withEvidence: (snapshot: AnalysisSnapshot, mismatch: string | null) => AnalysisSnapshot;
}

export function deployConfigReport(deployConfig: string | null): DeployConfigReport {
  return {
    mismatchOf: (snapshot) =>
      deployConfig === null ? null : loadDeployEvidence().deployConfigMismatchOf(deployConfig, snapshot),
    withEvidence: (snapshot, mismatch) =>
      deployConfig === null
        ? snapshot
        : loadDeployEvidence().snapshotWithDeployEvidence(snapshot, deployConfig, mismatch),
  };
}
