// Deploy-YAML intelligence for vLLM-Omni deploy configs: pure (no editor, no LSP).
export { analyzeDeployText, filesRead, type DeployAnalysis } from './analysis';
export { deployDiagnostics } from './checks';
export { configStageIds } from './configStageIds';
export type {
  DeployDiagnostic,
  DeployDiagnosticCode,
  DeployQuickFix,
  DeployRelated,
  DeploySeverity,
  DeployTextEdit,
} from './checks';
export { DeployFileCache, isUnread, type DeployFileReader, type DeployFileText, type UnreadFile } from './fileCache';
export { deployHover, type DeployHover } from './hover';
export { liveHints, type LiveHint } from './liveHints';
export {
  codecTtftStatus,
  formatCodecTtftStatus,
  compactMs,
  formatMs,
  formatStageDetail,
  formatStageNumbers,
  INLAY_LABEL_BUDGET,
  type LiveStageNumbers,
  type StageLiveNumbers,
} from './liveNumbers';
export { isDeployConfig } from './recognise';
export { stageAnchors, type StageAnchor } from './stageAnchors';
export {
  talkerFirstAudioReports,
  type TalkerFirstAudioReport,
  type TfaCheck,
  type TfaCheckCode,
} from './talkerFirstAudio';
export type { SourceLocation, SourcePosition, SourceRange } from './sourceRange';
export type { EffectiveDeployConfig, OverlayProblem } from './effectiveConfig';
export type { ConfigEntry, ConfigMap, ConfigValue } from './configTree';
