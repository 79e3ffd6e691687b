// A server log kept as JSON lines (vLLM's JSON formatter: one object per logging call, a whole
// stats table in one message) in the workspace, imported as a person would: right-click the
// `.jsonl` file in the Explorer, Import Log.... The side panel shows the 25 requests of the
// bundled sample, with their log times (the session is named by when it was logged).
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { uiTest } from '../harness/ui';
import { explorerRow, importFromContextMenu, sideBarWebview, waitText } from './uiHelpers';
import { vllmJsonFormatterLog } from '../../unit/support/jsonLinesLogs';

const SAMPLE = path.resolve(__dirname, '../../../samples/qwen3-tts-first-audio-cold-start.log');

uiTest(
  "Explorer: a .jsonl log of vLLM's JSON formatter imports as the log it wraps",
  async (wb) => {
    await wb.page.setViewportSize({ width: 1400, height: 900 });
    // The sample's colour codes are the text formatter's, not part of a JSON formatter's output.
    const log = fs.readFileSync(SAMPLE, 'utf8').replace(/\x1b\[[0-9;]*m/g, '');
    fs.writeFileSync(path.join(wb.workspace, 'vllm.jsonl'), vllmJsonFormatterLog(log));
    await importFromContextMenu(wb, await explorerRow(wb, 'vllm.jsonl'));

    const view = await sideBarWebview(wb, 60_000);
    const title = await waitText(
      view,
      '[data-testid="session-title"]',
      (t) => t.startsWith('vllm.jsonl') && t.includes('logged'),
      'the imported log as the current session',
    );
    // Logged at the sample's first time: the JSON formatter's asctime, read as the log's clock.
    assert.match(title, /^vllm\.jsonl(?: \(\d+\))? · logged 08-21 18:00/);
    await waitText(view, '[data-testid="session-meta"]', (t) => /imported · 25 requests/.test(t), 'the 25 requests');
    await wb.screenshot('json-lines-imported');
  },
  { timeoutMs: 120_000 },
);
