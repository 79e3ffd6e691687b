// The findings a deploy config can confirm or contradict, each with the sentence that says
// what the config sets: the one-output signature (Model Runner V2 + async chunk) and the
// codec first-audio signature (talker_first_audio).
import type { Finding, FindingCode } from '../analysis/types';
import type { ConfigMap } from './configTree';
import { stageMismatch } from './evidenceText';
import { firstAudioEvidence } from './firstAudioEvidence';
import { oneOutputEvidence } from './oneOutputEvidence';

type Evidence = (root: ConfigMap, configPath: string, stageId: number) => string;

const EVIDENCE: ReadonlyMap<FindingCode, Evidence> = new Map<FindingCode, Evidence>([
  ['prefill-covers-decode', oneOutputEvidence],
  ['ttft-not-recorded', firstAudioEvidence],
]);

/** Whether some finding is one a config can add evidence to. */
export function hasConfigEvidence(findings: readonly Finding[]): boolean {
  return findings.some((f) => EVIDENCE.has(f.code) && f.stageId !== null);
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
    const evidence = EVIDENCE.get(f.code);
    if (evidence === undefined || f.stageId === null) return f;
    return { ...f, message: `${f.message} ${mismatch ?? evidence(root, configPath, f.stageId)}` };
  });
}
