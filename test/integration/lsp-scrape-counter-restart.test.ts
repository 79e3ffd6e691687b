// A restart of a scraped /metrics server: the language server over a real connection scrapes a
// real HTTP server on loopback. Seen by its counters alone: a request-success counter grows,
// then starts again from a lower value while no histogram series says so (the body has none
// that the scrape before had). Seen by `_created` alone: bodies rendered by the real
// prometheus_client whose counts grew past the old ones across the restart. The session says
// the restart and which series.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, test } from 'node:test';
import { killLanguageServers, startLanguageServer } from './support/lspProcess';
import { waitFor } from './support/waitFor';
import { metricsEndpoint } from './support/metricsEndpoint';

const storage = fs.mkdtempSync(path.join(os.tmpdir(), 'stage-lens-counter-restart-'));
const CREATED_BODIES = path.resolve(__dirname, '..', 'fixtures', 'scrapes', 'restart-created');
const createdBody = (name: string): string => fs.readFileSync(path.join(CREATED_BODIES, name), 'utf8');

after(() => {
  killLanguageServers();
  fs.rmSync(storage, { recursive: true, force: true });
});

/** A body as prometheus_client writes it: counters declared `X_total`, with `_created` beside them. */
function body(succeeded: number, tokens: number): string {
  return [
    '# HELP vllm:num_requests_running Number of requests in model execution batches.',
    '# TYPE vllm:num_requests_running gauge',
    'vllm:num_requests_running{engine="0",model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice"} 0.0',
    '# HELP vllm:request_success_total Count of successfully processed requests.',
    '# TYPE vllm:request_success_total counter',
    `vllm:request_success_total{engine="0",finished_reason="stop",model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice"} ${succeeded.toFixed(1)}`,
    '# HELP vllm:request_success_created Count of successfully processed requests.',
    '# TYPE vllm:request_success_created gauge',
    'vllm:request_success_created{engine="0",finished_reason="stop",model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice"} 1.7e+09',
    '# HELP vllm:generation_tokens_total Number of generation tokens processed.',
    '# TYPE vllm:generation_tokens_total counter',
    `vllm:generation_tokens_total{engine="0",model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice"} ${tokens.toFixed(1)}`,
    '',
  ].join('\n');
}

/**
 * A /metrics server on loopback serving `first`, scraped by a fresh language server every
 * 200 ms: `serve` changes the body, `scrapes(n)` waits for n more scrapes, `restartSeen` reads
 * the session's restart note.
 */
async function scrapedServer(first: string) {
  const endpoint = await metricsEndpoint(first);
  const lsp = await startLanguageServer(storage);
  const info = await lsp.request('stageLens/scrape', { url: endpoint.url, intervalMs: 200 });
  return {
    serve: endpoint.serve,
    scrapes: (n: number) => {
      const until = endpoint.served() + n;
      return waitFor(`${n} more scrapes`, () => (endpoint.served() >= until ? true : undefined));
    },
    restartSeen: async () => (await lsp.request('stageLens/summary', { sessionId: info.id })).scrapeRestart ?? null,
  };
}

test('a counter that goes down between scrapes is a restart of the scraped server, histograms or not', async () => {
  const { serve, scrapes, restartSeen } = await scrapedServer(body(12, 3000));

  await scrapes(2);
  // Growing counts are no restart.
  serve(body(14, 3500));
  await scrapes(3);
  assert.equal(await restartSeen(), null, 'no restart while the counters grow');

  const restartedAt = Date.now();
  serve(body(3, 700));
  const restart = await waitFor('the restart to be seen', async () => (await restartSeen()) ?? undefined, 15_000);
  assert.ok(restart.atMs >= restartedAt, 'seen after the restart');
  assert.deepEqual(
    { series: restart.series, before: restart.before, after: restart.after },
    {
      series:
        'vllm:request_success_total{engine="0", finished_reason="stop", model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice"}',
      before: 14,
      after: 3,
    },
  );
});

test('a restart whose counts grew past the old ones between two scrapes is seen by `_created`', async () => {
  const { serve, scrapes, restartSeen } = await scrapedServer(createdBody('1-before.prom'));

  await scrapes(2);
  serve(createdBody('2-grown.prom'));
  await scrapes(3);
  assert.equal(await restartSeen(), null, 'no restart while one server counts on');

  const restartedAt = Date.now();
  const restarted = createdBody('3-restarted.prom');
  serve(restarted);
  const restart = await waitFor('the restart to be seen', async () => (await restartSeen()) ?? undefined, 15_000);
  assert.ok(restart.atMs >= restartedAt, 'seen after the restart');
  const created = (text: string): number => {
    const line = text.split('\n').find((l) => l.startsWith('vllm:request_success_created{'));
    return Number(line?.slice(line.lastIndexOf(' ') + 1));
  };
  assert.deepEqual(
    {
      series: restart.series,
      before: restart.before,
      after: restart.after,
      createdBefore: restart.createdBefore,
      createdAfter: restart.createdAfter,
    },
    {
      series:
        'vllm:request_success_total{engine="0", finished_reason="stop", model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice"}',
      before: 14,
      after: 20,
      createdBefore: created(createdBody('2-grown.prom')),
      createdAfter: created(restarted),
    },
  );
});
