// A log followed by a language-server session (over the real connection) that is truncated,
// then rotated: a problem of the new file names its line in that file, counted from 1, as
// `analyze --follow` names it; and the same once the stored session is opened again by another
// language server (the store marks where the file started again). The log is a real file
// written, truncated and renamed.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { startLanguageServer, storageForFile, type LspProcess } from './support/lspProcess';
import { waitFor } from './support/waitFor';
import { CUT_OFF_SUMMARY, PREFIX } from './support/cutOffSummary';

const ROOT = path.resolve(__dirname, '..', '..');
const SAMPLE = path.join(ROOT, 'samples', 'qwen3-tts-first-audio-cold-start.log');
const storage = storageForFile('stage-lens-tail-restart-');

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** [problem line, table start, cut-off line] of each cut-off [Overall Summary] the session's JSON export names. */
async function cutOffSummaries(lsp: LspProcess, sessionId: string, name: string): Promise<string[][]> {
  const out = path.join(storage, `${name}.json`);
  await lsp.request('stageLens/export', { sessionId, format: 'json', path: out });
  const doc = JSON.parse(fs.readFileSync(out, 'utf8')) as { problems: { line: number; message: string }[] };
  return doc.problems.flatMap((p) => {
    const m = /^\[Overall Summary\] table starting at line (\d+) was cut off by line (\d+)/.exec(p.message);
    return m === null ? [] : [[String(p.line), m[1]!, m[2]!]];
  });
}

test('a tailed log truncated, then rotated: problems name lines of the file as it is, live and reopened', async () => {
  const log = path.join(storage, 'server.log');
  // 50 lines of a real log before the truncation.
  fs.writeFileSync(log, fs.readFileSync(SAMPLE, 'utf8').split('\n').slice(0, 50).join('\n') + '\n');
  const lsp = await startLanguageServer(storage);
  const info = await lsp.request('stageLens/tail', { path: log, fromStart: true });
  await waitFor('the tail to run', async () => ((await lsp.session(info.id))?.status === 'running' ? true : undefined));
  // The source polls every 250 ms: each change is given a few polls to be seen.
  await sleep(1500);
  // copytruncate without a copy: the file starts again, the cut-off table at its lines 1-4.
  fs.truncateSync(log, 0);
  fs.writeFileSync(log, CUT_OFF_SUMMARY);
  await sleep(1500);
  // Rotation by rename: the new file holds two lines, then the cut-off table at lines 3-6.
  fs.renameSync(log, `${log}.1`);
  fs.writeFileSync(log, `${PREFIX}one\n${PREFIX}two\n${CUT_OFF_SUMMARY}`);
  await sleep(1500);
  await lsp.request('stageLens/stop', { sessionId: info.id });
  const expected = [
    ['1', '1', '5'],
    ['3', '3', '7'],
  ];
  assert.deepEqual(await cutOffSummaries(lsp, info.id, 'live'), expected);

  // Another language server opens the stored session: its chunks read again, the same lines.
  const reopened = await startLanguageServer(storage);
  assert.deepEqual(await cutOffSummaries(reopened, info.id, 'reopened'), expected);
});
