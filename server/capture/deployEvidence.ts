// Findings of a session with what its deploy config (the one it was launched with, or
// `analyze` / `explain --deploy-config`) says about them (read from disk, base_config overlays resolved).
// The one-output and the codec first-audio findings use it (core/deploy/configEvidence.ts); a
// config that cannot be read adds nothing (the finding stands on the numbers alone), and
// `deployConfigProblem` says why up front.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Finding } from '../core/analysis/types';
import type { AnalysisSnapshot } from '../core/analysis/streamAnalysis';
import type { FindingCitation } from '../core/explain/types';
import { DeployFileCache, isUnread, type DeployFileText } from '../core/deploy/fileCache';
import { resolveEffectiveConfig } from '../core/deploy/effectiveConfig';
import { configEvidenceOf, hasConfigEvidence, withConfigEvidence } from '../core/deploy/configEvidence';
import { stageMismatch } from '../core/deploy/evidenceText';
import { isMap, type ConfigMap } from '../core/deploy/configTree';
import { stageViews } from '../core/deploy/stageViews';
import { configStageIds } from '../core/deploy/configStageIds';
import { deployDiagnostics, type DeployDiagnostic } from '../core/deploy/checks';
import { isDeployConfig } from '../core/deploy/recognise';

/** A deploy config is kilobytes; anything larger is not one. */
const MAX_CONFIG_BYTES = 1024 * 1024;
// Not defined on Windows, where opening a FIFO this way cannot block anyway.
const OPEN_FLAGS = fs.constants.O_RDONLY | ((fs.constants as { O_NONBLOCK?: number }).O_NONBLOCK ?? 0);

/**
 * A config or a base it names, read synchronously but never blocking: a `base_config` path
 * is whatever the file says (a FIFO, /dev/zero, /dev/stdin), so only a regular file up to
 * 1 MB is read, checked before opening and again once open.
 */
function readText(filePath: string): DeployFileText {
  let fd: number | null = null;
  try {
    const before = fs.statSync(filePath);
    if (!before.isFile()) return { unread: 'refused', reason: 'is not a regular file' };
    if (before.size > MAX_CONFIG_BYTES) return { unread: 'refused', reason: 'is larger than 1 MB' };
    fd = fs.openSync(filePath, OPEN_FLAGS);
    const opened = fs.fstatSync(fd);
    if (!opened.isFile() || opened.size > MAX_CONFIG_BYTES)
      return { unread: 'refused', reason: 'changed while it was opened' };
    const buf = Buffer.alloc(opened.size);
    const n = fs.readSync(fd, buf, 0, buf.length, 0);
    return buf.toString('utf8', 0, n);
  } catch {
    return undefined;
  } finally {
    if (fd !== null) fs.closeSync(fd);
  }
}

/** One cache for the process: a config is parsed again only when its text changed. */
const files = new DeployFileCache(readText);

/**
 * Why `deployConfig` cannot serve as evidence, as a phrase after its name, or null when it
 * can: unreadable, not YAML, or YAML without the stages of a vLLM-Omni deploy config.
 */
export function deployConfigProblem(deployConfig: string): string | null {
  const file = files.load(path.resolve(deployConfig));
  if (file === undefined) return 'cannot be read';
  if (isUnread(file)) return file.reason;
  const error = file.problems.find((p) => p.severity === 'error');
  if (error !== undefined) return `is not valid YAML: line ${error.location.range.start.line + 1}: ${error.message}`;
  if (!isMap(file.root)) return 'is not a vLLM-Omni deploy config (not a mapping of keys)';
  const effective = resolveEffectiveConfig(file, (base) => files.load(base));
  // Without its base an overlay is a fragment: its few stages would read as another pipeline.
  const overlay = effective.problems[0];
  if (overlay !== undefined)
    return `cannot be resolved: ${overlay.message} (${path.basename(overlay.entry.value.location.file)} line ${overlay.entry.value.location.range.start.line + 1})`;
  if (stageViews(effective.root).length === 0)
    return 'is not a vLLM-Omni deploy config (no stages with a stage_id, base_config included)';
  // A config no server runs as written (two stages with one id, a stage without a replica)
  // is not evidence of what one ran: the editor's checks of it, as errors here.
  const invalid = deployDiagnostics({ file, isDeployConfig: isDeployConfig(file.root), effective }).find(unrunnable);
  if (invalid !== undefined)
    return `is not a config a server runs: line ${invalid.range.start.line + 1}: ${invalid.message}`;
  return null;
}

/** Stage ids given twice, and a num_replicas out of range or not an integer. */
function unrunnable(d: DeployDiagnostic): boolean {
  if (d.code === 'duplicate-stage-id') return true;
  return (d.code === 'invalid-value' || d.code === 'wrong-type') && /^`num_replicas`/.test(d.message);
}

/** The config's effective root (base_config overlays resolved) and its absolute path; null when it cannot be read as a map. */
function effectiveRootOf(deployConfig: string): { readonly root: ConfigMap; readonly configPath: string } | null {
  const configPath = path.resolve(deployConfig);
  const file = files.load(configPath);
  if (file === undefined || isUnread(file) || !isMap(file.root)) return null;
  return { root: resolveEffectiveConfig(file, (base) => files.load(base)).root, configPath };
}

/** `logStageIds`: the stage ids the log's requests have; a config with other stages is said not to match. */
export function withDeployEvidence(
  findings: readonly Finding[],
  deployConfig: string | null,
  logStageIds?: readonly number[],
): readonly Finding[] {
  if (deployConfig === null || !hasConfigEvidence(findings)) return findings;
  const config = effectiveRootOf(deployConfig);
  return config === null ? findings : withConfigEvidence(findings, config.root, config.configPath, logStageIds);
}

/**
 * The sentence that `deployConfig` is not the config the server ran (its stage ids are not the
 * log's), said once for the whole report; null when they match or cannot be told.
 */
export function deployConfigMismatch(deployConfig: string, logStageIds: readonly number[]): string | null {
  const config = effectiveRootOf(deployConfig);
  return config === null ? null : stageMismatch(config.root, config.configPath, logStageIds);
}

/** The stage ids of the log's requests (a deploy config with other stages did not serve it). */
export function logStageIds(snapshot: Pick<AnalysisSnapshot, 'stages'>): number[] {
  const ids: number[] = [];
  for (const s of snapshot.stages) if (s.stageId !== null && s.replicaId === null) ids.push(s.stageId);
  return ids;
}

/** deployConfigMismatch against the stages of a log's analysis; null for an input without stages (a scrape). */
export function deployConfigMismatchOf(
  deployConfig: string,
  snapshot: Pick<AnalysisSnapshot, 'stages'>,
): string | null {
  return snapshot.stages.length === 0 ? null : deployConfigMismatch(deployConfig, logStageIds(snapshot));
}

/**
 * The findings citing `deployConfig`'s settings, as `analyze --deploy-config` reports them; the
 * findings themselves when its stages are not the log's (`mismatch`, deployConfigMismatchOf's
 * answer, then stands for the whole report).
 */
export function findingsWithDeployEvidence(
  findings: readonly Finding[],
  deployConfig: string,
  snapshot: Pick<AnalysisSnapshot, 'stages'>,
  mismatch: string | null = deployConfigMismatchOf(deployConfig, snapshot),
): readonly Finding[] {
  return mismatch !== null ? findings : withDeployEvidence(findings, deployConfig, logStageIds(snapshot));
}

/**
 * Each finding `deployConfig` speaks to, with the sentence findingsWithDeployEvidence ends its
 * message with: what a report cites beside the numbers the finding explains. None when its
 * stages are not the log's (`mismatch`) or it cannot be read.
 */
export function deployCitations(
  findings: readonly Finding[],
  deployConfig: string,
  snapshot: Pick<AnalysisSnapshot, 'stages'>,
  mismatch: string | null = deployConfigMismatchOf(deployConfig, snapshot),
): FindingCitation[] {
  const config = mismatch === null ? effectiveRootOf(deployConfig) : null;
  if (config === null) return [];
  const cited: FindingCitation[] = [];
  for (const f of findings) {
    const text = configEvidenceOf(f, config.root, config.configPath);
    if (text !== null) cited.push({ code: f.code, stageId: f.stageId, text });
  }
  return cited;
}

/**
 * The snapshot whose findings cite `deployConfig`'s settings, as `analyze --deploy-config`
 * reports them; the snapshot itself when there is no config or its stages are not the log's
 * (`mismatch`, deployConfigMismatchOf's answer, then stands for the whole report). Its lazy
 * parts stay lazy: only the findings are replaced.
 */
export function snapshotWithDeployEvidence(
  snapshot: AnalysisSnapshot,
  deployConfig: string | null,
  mismatch: string | null = deployConfig === null ? null : deployConfigMismatchOf(deployConfig, snapshot),
): AnalysisSnapshot {
  if (deployConfig === null || mismatch !== null) return snapshot;
  return Object.create(snapshot, {
    findings: { value: findingsWithDeployEvidence(snapshot.findings, deployConfig, snapshot, null) },
  }) as AnalysisSnapshot;
}

/** The stage ids `deployConfig` defines (base_config included), sorted; null when it cannot serve (deployConfigProblem). */
export function deployConfigStageIds(deployConfig: string): number[] | null {
  const file = files.load(path.resolve(deployConfig));
  if (file === undefined || isUnread(file)) return null;
  return configStageIds(
    file,
    resolveEffectiveConfig(file, (base) => files.load(base)),
  );
}

/**
 * The file a log names as its deploy config, when that exact path is a deploy config on this
 * machine; null otherwise (a relative path says nothing of where it was, a server's path may
 * not exist here, and a file of the same name elsewhere may be another config).
 */
export function localDeployConfig(logged: string): string | null {
  return path.isAbsolute(logged) && deployConfigProblem(logged) === null ? path.normalize(logged) : null;
}
