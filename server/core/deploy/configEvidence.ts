// The findings a deploy config can confirm or contradict, each with the sentence that says
// what the config sets: the one-output signature (Model Runner V2 + async chunk), the codec
// first-audio signature (talker_first_audio), stage times that overlap (async chunk) and
// preempted requests (the settings that bound a stage's KV-cache room).
import type { Finding, FindingCode } from '../analysis/types';
import type { ConfigMap } from './configTree';
import { asyncChunkEvidence } from './asyncChunkEvidence';
import { stageMismatch } from './evidenceText';
import { firstAudioEvidence } from './firstAudioEvidence';
import { oneOutputEvidence } from './oneOutputEvidence';
import { preemptionEvidence } from './preemptionEvidence';

/** The sentence for a finding (of a stage, or null for the request level); null when the config has none for it. */
type Evidence = (root: ConfigMap, configPath: string, stageId: number | null) => string | null;

/** Evidence about one stage: none for a finding that names no stage. */
function ofStage(evidence: (root: ConfigMap, configPath: string, stageId: number) => string): Evidence {
  return (root, configPath, stageId) => (stageId === null ? null : evidence(root, configPath, stageId));
}

const EVIDENCE: ReadonlyMap<FindingCode, Evidence> = new Map<FindingCode, Evidence>([
  ['prefill-covers-decode', ofStage(oneOutputEvidence)],
  ['ttft-not-recorded', ofStage(firstAudioEvidence)],
  ['stage-times-overlap', (root, configPath) => asyncChunkEvidence(root, configPath)],
  [
    'preempted-requests',
    (root, configPath, stageId) => (stageId === null ? null : preemptionEvidence(root, configPath, stageId)),
  ],
]);

/** Whether some finding is one a config may add evidence to (then the config is read). */
export function hasConfigEvidence(findings: readonly Finding[]): boolean {
  return findings.some((f) => EVIDENCE.has(f.code));
}

/** The sentence of what the config sets that speaks to one finding; null when it says nothing of it. */
export function configEvidenceOf(
  finding: Pick<Finding, 'code' | 'stageId'>,
  root: ConfigMap,
  configPath: string,
): string | null {
  return EVIDENCE.get(finding.code)?.(root, configPath, finding.stageId) ?? null;
}

/**
 * The findings with the config's evidence added to the message of each finding it speaks to;
 * when its stages are not the log's (`logStageIds`), that sentence instead: its settings are no evidence.
 */
export function withConfigEvidence(
  findings: readonly Finding[],
  root: ConfigMap,
  configPath: string,
  logStageIds?: readonly number[],
): Finding[] {
  const mismatch = stageMismatch(root, configPath, logStageIds);
  return findings.map((f) => {
    const sentence = configEvidenceOf(f, root, configPath);
    if (sentence === null) return f;
    return { ...f, message: `${f.message} ${mismatch ?? sentence}` };
  });
}
