// A session attached to a /metrics URL whose body has lines it cannot read: the terminal says so
// once, and again only when what it cannot read changes, not at every scrape. Real language
// server over stdio, real loopback HTTP server.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { malformedNotice } from '../../server/capture/scrapeCapture';
import { parseExposition } from '../../server/core/metricsText/exposition';
import { BUGGY_CODEC_SCRAPE } from '../unit/support/scrapeFixtures';
import { startLanguageServer, storageForFile } from './support/lspProcess';
import { waitFor } from './support/waitFor';
import { metricsEndpoint } from './support/metricsEndpoint';

const storage = storageForFile('stage-lens-scrape-malformed-');

test('an attached endpoint with malformed lines: said once while its body stays, again when it changes', async () => {
  const first = `${BUGGY_CODEC_SCRAPE}this line is no sample\n`;
  const second = `${BUGGY_CODEC_SCRAPE}vllm:num_requests_running{ 1\nnor is this one\n`;
  const endpoint = await metricsEndpoint(first);
  const url = endpoint.url;
  const firstNotice = malformedNotice(url, parseExposition(first).problems);
  const secondNotice = malformedNotice(url, parseExposition(second).problems);
  assert.match(firstNotice ?? '', /: 1 malformed line skipped \(first: line \d+: /);
  assert.match(secondNotice ?? '', /: 2 malformed lines skipped \(first: line \d+: /);

  const lsp = await startLanguageServer(storage);
  const info = await lsp.request('stageLens/scrape', { url, intervalMs: 100 });
  const said = (): string[] =>
    (lsp.raw.get(info.id) ?? [])
      .join('')
      .split('\r\n')
      .filter((l) => l.includes('malformed line'));
  await waitFor('eight scrapes of the first body', () => (endpoint.served() >= 8 ? true : undefined), 20_000, 50);
  await waitFor('the notice', () => (said().length > 0 ? true : undefined));
  assert.deepEqual(said(), [`[stage-lens] ${firstNotice}`]);

  endpoint.serve(second);
  const before = endpoint.served();
  await waitFor(
    'eight scrapes of the second body',
    () => (endpoint.served() >= before + 8 ? true : undefined),
    20_000,
    50,
  );
  await waitFor('the second notice', () => (said().length > 1 ? true : undefined));
  assert.deepEqual(said(), [`[stage-lens] ${firstNotice}`, `[stage-lens] ${secondNotice}`]);
  // The histograms were still read: the lines before and after a malformed one are kept.
  const summary = await lsp.request('stageLens/summary', { sessionId: info.id });
  assert.ok(summary.histograms.length > 0);
  await lsp.request('stageLens/stop', { sessionId: info.id });
});
