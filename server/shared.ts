// The pure rules of server/core that the extension host (src/) and the webviews use too, so
// both sides say and compute the same thing: the split's names and labels, the one-output
// stage's label, the slowest-phase rule, compare's change words, the array helpers the
// charts use, which YAML files are deploy configs and which session such a file shows, how a
// log's names stay text in VS Code's own UI (the server's warnings apply it too). With
// server/protocol.ts (types and wire constants) this is the only module of server/ that src/
// and webview/ import (test/unit/layering.test.ts). Everything it reaches is in server/core
// and imports no node:* module and no library, so the browser bundles can include it.
export { maxOf, minOf } from './core/arrays';
export { containerName } from './core/containerName';
export { valuesAbovePercentile } from './core/reportedPercentiles';
export { SPLIT_FIELD, SPLIT_LABEL, SPLIT_NAMES } from './core/analysis/types';
export {
  notMeasuredOnOneOutput,
  ONE_OUTPUT_FIELD_TEXT,
  PREFILL_DECODE_LABEL,
  PREFILL_DECODE_SHORT,
  prefillCoversDecode,
} from './core/analysis/oneOutputStage';
export { PREEMPTIONS_FIELD, preemptionCaveat } from './core/analysis/preemptions';
export {
  isRankedSegment,
  PHASE_COLOUR_REASON,
  rankedPhaseLabel,
  rankedPhases,
  SLOWEST_PHASE_RULE,
  SLOWEST_PHASE_TEXT,
  slowestPhaseCaveats,
  slowestPhaseOf,
  SLOWEST_STAGE_FIELD,
  SLOWEST_STAGE_RULE,
  SLOWEST_STAGE_TEXT,
} from './core/analysis/slowest';
export { changeKind, changeText, verdictShort } from './core/compare/changeWords';
export { mayBeDeployConfig } from './core/deploy/mayBeDeployConfig';
export { NOT_MEASURED_CELL, tailNotes, tailRows, tailSideText } from './core/compare/tailText';
export { fewValuesTailText } from './core/explain/fewValuesTail';
export { TTFT_WAITED_MARK, TTFT_WAITED_TEXT, ttftUpstreamWaitMs } from './core/analysis/ttftUpstreamWait';
export { foldParts } from './core/explain/foldParts';
export { coldTailText, ttftWaitText } from './core/explain/tailCauses';
export {
  CHANGE_LABEL,
  cutOffPerRun,
  debugLinesPerRun,
  findingText,
  histogramNoDiffText,
  histogramSeriesText,
  sideMissing,
  tooFewToTestText,
  UNKNOWN_LABEL,
  unknownLabel,
} from './core/compare/format';
export { endToEndOf } from './core/analysis/endToEnd';
export { headlineStage } from './core/analysis/headlineStage';
export { TIME_PER_TOKEN_LABEL, TIME_PER_TOKEN_SOURCE, timePerTokenLeftOut } from './core/analysis/timePerTokenWords';
export { firstStageIdOf, NEGATIVE_ADDED_NOTE } from './core/analysis/crossStage';
export { UNRECORDED_TEXT, unrecordedReason } from './core/analysis/unrecordedValues';
export { overallSummaryOnlyMessage } from './core/analysis/overallSummaries';
export {
  RUN_SUMMARY_CUT_OFF,
  RUN_SUMMARY_NONE,
  RUN_SUMMARY_SCOPE,
  runSummaryEarlier,
  runSummarySource,
  runSummaryWhere,
} from './core/runSummaryWords';
export { runSummaryEntryKey, runSummaryFieldEntry, runSummaryStageText } from './core/runSummaryStages';
export { asPrinted } from './core/report/overallSummaryTable';
export { STATS_LOGGER_FIX, STATS_TABLES_CUT_FIX, STATS_TABLES_FIX } from './core/analysis/tablesMissing';
export {
  bootPickLabel,
  pipelinesDiffer,
  PIPELINES_HEAD,
  pipelinesText,
  POOLED_BOOTS_TEXT,
  viewBootNote,
  type ViewBoots,
} from './core/analysis/bootWords';
export { allServersLabel, serverPickLabel, viewServerNote } from './core/analysis/serverWords';
export { noStageStatsText } from './core/analysis/noStageStats';
export { unreadableInputFinding } from './core/analysis/unreadableInput';
export { withVisibleControls } from './core/textTable';
export { MIN_RATE_SPAN_MS, WINDOW_REQUESTS } from './core/explain/overTime';
export {
  contributionLimit,
  contributionNote,
  ONE_REQUEST_NO_TAIL,
  oneRequestText,
  partLabel,
  targetLabel,
} from './core/explain/explainTable';
export { additiveTail, overlapText, QUEUED_HOLDS_WAIT } from './core/explain/overlapApart';
export { stagePreemptionsText } from './core/explain/preemptionsInTail';
export { inFlightText, STAGE_LOAD_LABEL, stageLoadCells, type StageLoadCells } from './core/explain/loadWords';
export { byteSizesText, countOf, durationText } from './core/numberText';
export { gzipNotFollowedText, partialLogMark, partialLogText } from './core/gzipInput';
export { compressedFormatOf } from './core/log/compressedInput';
export { sentenceCase } from './core/sentenceCase';
export { runNameOfPath, runNameOfSession, runNameWithBoot, shownRunName } from './core/compare/runName';
export { baseName } from './core/baseName';
export { oldestFirst } from './core/rotationOrder';
export { LOG_SPAN_TITLE, logSpanText } from './core/sessionName';
export { outputsAudio, roleOfStage, stageLabel, stageRolesOf, stageRolesOfSession } from './core/stageRoles';
export { edgeLabel } from './core/edgeLabel';
export { statusWords } from './core/sessionStatusWords';
export { mayShowNumbers, readsRequests, sessionForDeployConfig } from './core/deployConfigSession';
export { downstreamQueueCaveat } from './core/metricsText/downstreamQueueTime';
export { NO_NUMBER_WORD, noNumberState, nonFiniteText } from './core/values';
export { withoutIcons, withoutLinks } from './core/plainText';
