// A log in Docker's json-file format over a real connection to the language server (dist/server.js,
// a real child process on stdio): Attach to Log File... of the file while a writer appends it in
// pieces cut inside JSON lines, and Import Log... of it, give the summary the plain log gives.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { SummaryResult } from '../../server/protocol';
import { startLanguageServer, storageForFile } from './support/lspProcess';
import { dockerJsonLog } from '../unit/support/jsonLinesLogs';

const ROOT = path.resolve(__dirname, '..', '..');
const FIXTURE = path.join(ROOT, 'test', 'fixtures', 'upstream-rendered', 'qwen3tts-talker-first-audio-after-fix.log');
const storage = storageForFile('stage-lens-lsp-json-lines-');

/** What the side panel shows of a session: each stage's counts and p50s, the findings' codes. */
function shown(summary: SummaryResult): unknown {
  return {
    requestCount: summary.requestCount,
    stages: summary.stages.map((s) => ({
      stage: s.stageKey,
      requests: s.requestCount,
      prefill: s.split.prefillMs?.p50 ?? null,
      decode: s.split.decodeMs?.p50 ?? null,
      queued: s.split.queuedMs?.p50 ?? null,
      ttft: s.split.ttftMs?.p50 ?? null,
    })),
    endToEnd: summary.endToEnd?.ms.p50 ?? null,
    findings: summary.findings.map((f) => f.code).sort(),
  };
}

test(
  'a Docker json-file log, attached while it is written and imported, reads as the plain log',
  { timeout: 90_000 },
  async () => {
    const client = await startLanguageServer(storage);
    const plainFile = path.join(storage, 'plain', 'server.log');
    fs.mkdirSync(path.dirname(plainFile));
    fs.copyFileSync(FIXTURE, plainFile);
    const plain = await client.importLog(plainFile);
    assert.equal(plain.requestCount, 6);
    const want = shown(await client.request('stageLens/summary', { sessionId: plain.id }));

    const json = Buffer.from(dockerJsonLog(fs.readFileSync(FIXTURE, 'utf8')));
    const tailed = path.join(storage, 'tailed', 'server.log');
    fs.mkdirSync(path.dirname(tailed));
    // The first line whole (so the attach sees JSON), then pieces cut anywhere.
    const first = json.indexOf(10) + 1;
    fs.writeFileSync(tailed, json.subarray(0, first));
    const session = await client.request('stageLens/tail', { path: tailed, fromStart: true });
    const cuts = [first, 1_000, 1_001, 7_777, json.length >> 1, json.length - 3, json.length].sort((a, b) => a - b);
    for (let i = 1; i < cuts.length; i++) {
      fs.appendFileSync(tailed, json.subarray(cuts[i - 1], cuts[i]));
      await new Promise((resolve) => setTimeout(resolve, 150));
    }
    await client.requestsRead(session.id, 6);
    const live = shown(await client.request('stageLens/summary', { sessionId: session.id }));
    assert.deepEqual(live, want);

    const importedFile = path.join(storage, 'imported', 'server.log');
    fs.mkdirSync(path.dirname(importedFile));
    fs.writeFileSync(importedFile, json);
    const imported = await client.importLog(importedFile);
    assert.equal(imported.requestCount, 6);
    assert.deepEqual(shown(await client.request('stageLens/summary', { sessionId: imported.id })), want);
  },
);
