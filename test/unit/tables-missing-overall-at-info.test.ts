// The stage-tables-missing notice of an INFO log that printed [Overall Summary] tables beside its
// [OmniTiming] lines (an older build, which printed the summary at INFO): only the per-request
// stage tables are said to be at DEBUG, and the summary tables are said to be printed at INFO.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { analysedLog } from './support/analysedLog';

const FIXTURES = path.resolve(__dirname, '..', 'fixtures');
const INFO_OMNITIMING = readFileSync(
  path.join(FIXTURES, 'upstream-rendered', 'qwen3tts-info-level-omnitiming-only.log'),
);
/** real-logs 02's one [Overall Summary] table at INFO, without the file's source comment. */
const overallTable = (): Buffer => {
  const text = readFileSync(path.join(FIXTURES, 'real-logs', '02-pr891-overall-apiserver-prefix.log'), 'utf8');
  return Buffer.from(text.slice(text.indexOf('\n') + 1));
};
const SHOWN =
  "Shown instead: each stage's time and the end-to-end time from [OmniTiming] (10 ms resolution), and the /metrics histograms when scraped.";
const FIX =
  "Fix: restart the server with VLLM_LOGGING_LEVEL=DEBUG in its environment (Stage Lens's Launch Server... sets it: stageLens.serverEnv).";

test('[OmniTiming] lines and two [Overall Summary] tables at INFO: the notice and the finding say the tables were printed at INFO; without them it is unchanged', () => {
  const s = analysedLog(
    Buffer.concat([INFO_OMNITIMING, Buffer.from('\n'), overallTable(), Buffer.from('\n'), overallTable()]),
  );
  assert.equal(s.debugLines, false);
  assert.equal(s.overallSummaries?.tables, 2);
  const notice = `No request has a [StageRequestStats] table, only [OmniTiming] lines: vLLM-Omni logs its per-request stage tables at DEBUG and this server ran at INFO (this log's 2 [Overall Summary] tables were printed at INFO, as older vLLM-Omni builds print them), so there is no queued / prefill / decode / TTFT split. ${SHOWN} ${FIX}`;
  assert.equal(s.tablesMissing?.message, notice);
  assert.equal(s.findings.find((f) => f.code === 'stage-tables-missing')?.message, notice);
  // Without a summary table the notice keeps that the stats tables are at DEBUG.
  assert.equal(
    analysedLog(INFO_OMNITIMING).tablesMissing?.message,
    `No request has a [StageRequestStats] table, only [OmniTiming] lines: vLLM-Omni logs its stats tables at DEBUG and this server ran at INFO, so there is no queued / prefill / decode / TTFT split. ${SHOWN} ${FIX}`,
  );
});
