// A log from a server at the default INFO level (only [OmniTiming] lines, printed by
// vLLM-Omni's own stats code), imported as a person would: command palette -> Import Log...,
// the path typed into the file dialog. The side panel says once what is missing and the fix,
// and shows each stage's time and the end-to-end time instead of an empty phase table.
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { uiTest } from '../harness/ui';
import { importLog, sideBarWebview, waitText } from './uiHelpers';

const LOG = path.resolve(__dirname, '../../fixtures/upstream-rendered/qwen3tts-info-level-omnitiming-only.log');

uiTest(
  'Import Log of an INFO-level server: the missing stats tables said once, stage time and end to end shown',
  async (wb) => {
    await wb.page.setViewportSize({ width: 1400, height: 900 });
    // A deploy YAML open, as a user has (the extension is loaded with it).
    await wb.openFile('qwen3_tts.yaml');
    await importLog(wb, LOG);
    await wb.runCommand('Stage Lens: Open Latency Details');
    const view = await sideBarWebview(wb, 60_000);
    // The imported log is the session on screen (other tests' sessions share the storage folder).
    const title = await waitText(
      view,
      '[data-testid="session-title"]',
      (t) => t.includes('qwen3tts-info-level') && t.includes('logged'),
      'the imported log as the current session',
    );
    // Named by its file and its log's span (an ordinal if the storage already has an import of
    // it), never its import time; "imported" is said once, by the status.
    assert.match(title, /^qwen3tts-info-level-omnitiming-only\.log(?: \(\d+\))? · logged 10-19 07:12:05 – 07:12:12$/);
    const meta = await waitText(view, '[data-testid="session-meta"]', (t) => t.startsWith('imported'), 'the status');
    assert.equal(`${title} ${meta}`.split('imported').length - 1, 1, `${title} / ${meta}`);
    const notice = await waitText(
      view,
      '[data-testid="tables-missing"]',
      (t) => t.length > 0,
      'the tables-missing notice',
    );
    assert.match(notice, /^No request has a \[StageRequestStats\] table, only \[OmniTiming\] lines/);
    assert.match(notice, /Fix: restart the server with VLLM_LOGGING_LEVEL=DEBUG in its environment/);
    const text = await waitText(view, '#side-panel', (t) => /end to end/.test(t), 'the stage-time table');
    assert.equal(text.split('VLLM_LOGGING_LEVEL=DEBUG').length - 1, 1, 'said once in the side panel');
    assert.match(text, /stage time and end to end from \[OmniTiming\]/);
    assert.doesNotMatch(text, /stage-tables-missing/, 'not repeated as a finding');
    await wb.screenshot('omnitiming-only-side-panel');
  },
  { timeoutMs: 120_000 },
);
