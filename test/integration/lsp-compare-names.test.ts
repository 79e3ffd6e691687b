// Compare through the language server (dist/server.js over stdio) on two upstream-rendered logs
// imported as sessions: the session titles and the result name each run by its file (and its
// ordinal when the same log is imported again), say which runs are imported, and carry each
// log's own time span; the import time is in none of them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { startTimeLabel } from '../../server/capture/sessionTitle';
import { startLanguageServer, storageForFile } from './support/lspProcess';
import { waitFor } from './support/waitFor';

const ROOT = path.resolve(__dirname, '..', '..');
const UPSTREAM = path.join(ROOT, 'test', 'fixtures', 'upstream-rendered');
const BEFORE = path.join(UPSTREAM, 'qwen3tts-talker-first-audio-before-fix.log');
const AFTER = path.join(UPSTREAM, 'qwen3tts-talker-first-audio-after-fix.log');
const storage = storageForFile('stage-lens-compare-names-');

test(
  'two imported logs compared: named by their files, their log spans, no import time',
  { timeout: 60_000 },
  async () => {
    const lsp = await startLanguageServer(storage);
    const ids: string[] = [];
    for (const file of [BEFORE, AFTER]) {
      const session = await lsp.importLog(file);
      ids.push(session.id);
    }
    const [before, after] = ids as [string, string];
    // The session titles are the files and their log spans; "imported" is the status, said once.
    const beforeInfo = await lsp.session(before);
    assert.equal(beforeInfo?.title, 'qwen3tts-talker-first-audio-before-fix.log · logged 10-19 07:12:04 – 07:12:12');
    assert.equal(
      (await lsp.session(after))?.title,
      'qwen3tts-talker-first-audio-after-fix.log · logged 10-19 07:12:05 – 07:12:12',
    );
    assert.deepEqual(beforeInfo?.logSpan, { first: '10-19 07:12:04', last: '10-19 07:12:12' });
    // The import time as a live session's title says its start ("Dec 3 05:40"): in no name.
    const importTime = startTimeLabel(beforeInfo?.startedAt ?? 0);
    assert.ok(!(beforeInfo?.title ?? '').includes(importTime), importTime);

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

    // The same log imported again: told apart by its ordinal, in its title and in Compare.
    const again = await lsp.request('stageLens/import', { path: BEFORE });
    const againInfo = await waitFor('the second import to end', async () => {
      const s = await lsp.session(again.id);
      return s?.status === 'exited' ? s : undefined;
    });
    assert.equal(againInfo.importOrdinal, 2);
    assert.equal(againInfo.title, 'qwen3tts-talker-first-audio-before-fix.log (2) · logged 10-19 07:12:04 – 07:12:12');
    const twice = await lsp.request('stageLens/compare', {
      baseline: { sessionId: before },
      candidate: { sessionId: again.id },
    });
    assert.equal(twice.baselineRun.name, 'qwen3tts-talker-first-audio-before-fix.log');
    assert.equal(twice.candidateRun.name, 'qwen3tts-talker-first-audio-before-fix.log (2)');
  },
);
