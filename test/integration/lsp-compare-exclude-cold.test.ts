// Compare with cold starts left out, through the language server (dist/server.js over stdio): an
// imported session (its findings from the session's scoped summary) and the same log picked on
// disk (read by the compare reader) both count their findings over the requests the quantiles are
// over, as `analyze --exclude-cold` does: 23 of 23, no cold-start; with the cold requests in, 25.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { startLanguageServer, storageForFile } from './support/lspProcess';
import type { FindingDiff } from '../../server/protocol';

const ROOT = path.resolve(__dirname, '..', '..');
const SAMPLE = path.join(ROOT, 'samples', 'qwen3-tts-first-audio-cold-start.log');
const storage = storageForFile('stage-lens-compare-cold-');

test(
  'a session and a file compared with cold starts left out: findings over the 23 requests of the quantiles',
  { timeout: 60_000 },
  async () => {
    const lsp = await startLanguageServer(storage);
    const session = await lsp.importLog(SAMPLE);
    const compare = async (excludeCold: boolean): Promise<readonly FindingDiff[]> => {
      const result = await lsp.request('stageLens/compare', {
        baseline: { sessionId: session.id },
        candidate: { path: SAMPLE },
        excludeCold,
      });
      return result.report.findings;
    };
    const row = (rows: readonly FindingDiff[], code: string): string => {
      const f = rows.find((r) => r.code === code);
      return f === undefined ? 'none' : `${f.baselineRequests}/${f.baselineOf} ${f.candidateRequests}/${f.candidateOf}`;
    };
    const cold = await compare(true);
    assert.equal(row(cold, 'ttft-not-recorded'), '23/23 23/23');
    assert.equal(row(cold, 'prefill-covers-decode'), '23/23 23/23');
    assert.equal(row(cold, 'cold-start'), 'none');
    const all = await compare(false);
    assert.equal(row(all, 'ttft-not-recorded'), '25/25 25/25');
    assert.equal(row(all, 'cold-start'), '2/25 2/25');
  },
);
