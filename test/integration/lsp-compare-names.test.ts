// Compare through the language server (dist/server.js over stdio) on two upstream-rendered logs
// imported as sessions: the result names each run by its file, says which runs are imported,
// and carries each log's own time span; the session titles' import times are not in it.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { killLanguageServers, startLanguageServer } from './support/lspProcess';
import { waitFor } from './support/waitFor';

const ROOT = path.resolve(__dirname, '..', '..');
const UPSTREAM = path.join(ROOT, 'test', 'fixtures', 'upstream-rendered');
const BEFORE = path.join(UPSTREAM, 'qwen3tts-talker-first-audio-before-fix.log');
const AFTER = path.join(UPSTREAM, 'qwen3tts-talker-first-audio-after-fix.log');
const storage = fs.mkdtempSync(path.join(os.tmpdir(), 'stage-lens-compare-names-'));
after(() => {
  killLanguageServers();
  fs.rmSync(storage, { recursive: true, force: true });
});

test(
  'two imported logs compared: named by their files, their log spans, no import time',
  { timeout: 60_000 },
  async () => {
    const lsp = await startLanguageServer(storage);
    const ids: string[] = [];
    for (const file of [BEFORE, AFTER]) {
      const session = await lsp.request('stageLens/import', { path: file });
      await waitFor('the import to end', async () =>
        (await lsp.session(session.id))?.status === 'exited' ? true : undefined,
      );
      ids.push(session.id);
    }
    const [before, after] = ids as [string, string];
    // The session titles end with the import time ("imported <file> · Oct 20 16:40").
    const title = (await lsp.session(before))?.title ?? '';
    assert.match(title, /^imported qwen3tts-talker-first-audio-before-fix\.log · [A-Z][a-z]{2} \d{1,2} \d\d:\d\d$/);
    const importTime = title.slice(title.lastIndexOf(' · ') + 3);

    const both = await lsp.request('stageLens/compare', {
      baseline: { sessionId: before },
      candidate: { sessionId: after },
    });
    assert.deepEqual(both.baselineRun, {
      name: 'qwen3tts-talker-first-audio-before-fix.log',
      imported: true,
      detail: BEFORE,
    });
    assert.deepEqual(both.candidateRun, {
      name: 'qwen3tts-talker-first-audio-after-fix.log',
      imported: true,
      detail: AFTER,
    });
    assert.deepEqual(both.report.baseline.logSpan, { first: '10-19 07:12:04', last: '10-19 07:12:12' });
    assert.deepEqual(both.report.candidate.logSpan, { first: '10-19 07:12:05', last: '10-19 07:12:12' });
    assert.ok(!JSON.stringify([both.baselineRun, both.candidateRun]).includes(importTime), importTime);

    // A file picked on disk is not an imported session.
    const mixed = await lsp.request('stageLens/compare', {
      baseline: { sessionId: before },
      candidate: { path: AFTER },
    });
    assert.deepEqual(mixed.candidateRun, {
      name: 'qwen3tts-talker-first-audio-after-fix.log',
      imported: false,
      detail: AFTER,
    });
    assert.deepEqual(mixed.report.candidate.logSpan, { first: '10-19 07:12:05', last: '10-19 07:12:12' });
  },
);
