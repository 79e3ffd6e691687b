// Which session's numbers a deploy config shows when several sessions are tied to it, over a
// real connection: a live one first (a log being followed), else the one imported last; the
// hint's hover names the session the numbers come from.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import type { InlayHint } from 'vscode-languageserver-protocol';
import type { MatchDeployConfigResult, SessionInfo } from '../../server/protocol';
import { deployServerForFile, FIXTURES, positionOf, ROOT, hintTooltip, hintLabel } from './support/lspDeployHarness';
import { waitFor } from './support/waitFor';

const RENDERED = path.join(ROOT, 'test', 'fixtures', 'upstream-rendered');

const deploy = deployServerForFile('stage-lens-session-choice-');
const { scratch } = deploy;

const label = hintLabel;
const tooltip = hintTooltip;

/** A log copied into the scratch folder under its own name (a session's title names its file). */
function logCopy(from: string): string {
  const to = path.join(scratch, path.basename(from));
  fs.copyFileSync(from, to);
  return to;
}

test('a deploy config shows its live session first, else the session imported last', { timeout: 60_000 }, async () => {
  const yaml = path.join(scratch, 'qwen3_tts.yaml');
  fs.copyFileSync(path.join(FIXTURES, 'qwen3_tts.yaml'), yaml);
  const text = fs.readFileSync(yaml, 'utf8');
  const stage0 = positionOf(text, 'stage_id: 0').line;
  const uri = await deploy.client.open(yaml);
  /**
   * The hint after stage 0's stage_id once `wanted` says it is the one: its label, and its
   * hover's numbers and source (what leads the p99 tail, when the line has no room for it, sits between).
   */
  const stage0Hint = (what: string, wanted: (tip: string) => boolean): Promise<string[]> =>
    waitFor(what, async () => {
      const hint = ((await deploy.client.inlayHints(uri)) ?? []).find((h) => h.position.line === stage0);
      const blocks = hint === undefined ? [] : tooltip(hint).split('\n\n');
      return hint !== undefined && wanted(tooltip(hint))
        ? [label(hint), blocks[0] ?? '', blocks.find((b) => b.startsWith('Measured in ')) ?? '']
        : undefined;
    });

  // A log being followed (live until stopped), then an older run imported after it.
  const followed = await deploy.client.request<SessionInfo>('stageLens/tail', {
    path: logCopy(path.join(RENDERED, 'qwen3tts-talker-first-audio-before-fix.log')),
    fromStart: true,
    deployConfig: yaml,
  });
  const imported = await deploy.client.request<SessionInfo>('stageLens/import', {
    path: logCopy(path.join(RENDERED, 'qwen3tts-talker-first-audio-after-fix.log')),
    deployConfig: yaml,
  });
  await waitFor('the import read to its end', async () => {
    const sessions = await deploy.client.request<SessionInfo[]>('stageLens/listSessions', {});
    const done = sessions.find((s) => s.id === imported.id);
    return done?.status === 'exited' && done.requestCount === 6 ? true : undefined;
  });
  assert.ok(imported.startedAt >= followed.startedAt);
  // Its six requests read (the last one final once the file is quiet).
  const live = await stage0Hint(
    'the followed log numbers',
    (tip) => tip.includes(followed.title) && tip.includes('(n=6)'),
  );
  assert.deepEqual(live, [
    'p50 prefill+decode 1.11 s · TTFT 1.11 s',
    'TTFT p50 1,109 ms · prefill+decode (one output) p50 1,107 ms · queued p50 0.4 ms (n=6)',
    `Measured in ${followed.title} (running)`,
  ]);

  // Followed no more: the import is the latest.
  await deploy.client.request<SessionInfo>('stageLens/stop', { sessionId: followed.id });
  const latest = await stage0Hint(
    'the imported log numbers',
    (tip) => tip.includes('after-fix.log') && tip.includes('(imported)'),
  );
  assert.deepEqual(latest, [
    'p50 prefill+decode 1.27 s · TTFT 1.27 s',
    'TTFT p50 1,271 ms · prefill+decode (one output) p50 1,268 ms · queued p50 0.4 ms (n=6)',
    // An import is named by its file and its log span.
    'Measured in qwen3tts-talker-first-audio-after-fix.log · qwen3_tts.yaml · logged 10-19 07:12:05 – 07:12:12 (imported)',
  ]);

  // A newer import of another log with the same config takes over.
  await deploy.client.request<SessionInfo>('stageLens/import', {
    path: logCopy(path.join(ROOT, 'samples', 'qwen3-tts-first-audio-cold-start.log')),
    deployConfig: yaml,
  });
  const newest = await stage0Hint(
    'the newer import numbers',
    (tip) => tip.includes('cold-start.log') && tip.includes('(imported)'),
  );
  assert.deepEqual(newest, [
    'p50 prefill+decode 1.07 s · TTFT 1.07 s',
    // This log prints the input split (on stage 1): stage 0's is named as `analyze` prints it.
    'TTFT p50 1,069 ms · prefill+decode (one output) p50 1,068 ms · queued p50 0.2 ms · input wait not measured · ready queued hidden (n=25)',
    'Measured in qwen3-tts-first-audio-cold-start.log · qwen3_tts.yaml · logged 08-21 18:00:10 – 18:00:17 (imported)',
  ]);
});

test(
  'a launch that never started claims nothing; the latest launch takes over from a /metrics session, which says it has no numbers',
  { timeout: 60_000 },
  async () => {
    const yaml = path.join(scratch, 'launched', 'qwen3_tts.yaml');
    fs.mkdirSync(path.dirname(yaml));
    fs.copyFileSync(path.join(FIXTURES, 'qwen3_tts.yaml'), yaml);
    const text = fs.readFileSync(yaml, 'utf8');
    const stage0 = positionOf(text, 'stage_id: 0').line;
    const uri = await deploy.client.open(yaml);
    const hintsWhen = (what: string, wanted: (hints: InlayHint[]) => boolean): Promise<string[][]> =>
      waitFor(what, async () => {
        const hints = (await deploy.client.inlayHints(uri)) ?? [];
        return wanted(hints) ? hints.map((h) => [String(h.position.line), label(h), tooltip(h)]) : undefined;
      });
    const session = async (id: string): Promise<SessionInfo | undefined> =>
      (await deploy.client.request<SessionInfo[]>('stageLens/listSessions', {})).find((s) => s.id === id);

    // A /metrics endpoint (histograms over all requests, no request's own times), scraped and shown in the file.
    const server = http.createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain; version=0.0.4' });
      res.end(
        [
          '# TYPE vllm:time_to_first_token_seconds histogram',
          'vllm:time_to_first_token_seconds_bucket{model_name="m",stage="0",replica="0",le="0.5"} 1',
          'vllm:time_to_first_token_seconds_bucket{model_name="m",stage="0",replica="0",le="+Inf"} 2',
          'vllm:time_to_first_token_seconds_sum{model_name="m",stage="0",replica="0"} 1.2',
          'vllm:time_to_first_token_seconds_count{model_name="m",stage="0",replica="0"} 2',
        ].join('\n') + '\n',
      );
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const port = (server.address() as AddressInfo).port;
      const metrics = await deploy.client.request<SessionInfo>('stageLens/scrape', {
        url: `http://127.0.0.1:${port}/metrics`,
        intervalMs: 200,
      });
      const shown = await deploy.client.request<MatchDeployConfigResult>('stageLens/matchDeployConfig', {
        sessionId: metrics.id,
        deployConfig: yaml,
        acceptStageMismatch: true,
      });
      assert.ok(shown.matched);
      // Named now with the file it is shown in.
      assert.match(shown.session.title, /^\/metrics of 127\.0\.0\.1:\d+ · qwen3_tts\.yaml · /);
      // Not blank: the first stage's hint says there is nothing per request to show, and where its histograms are.
      const notice = await hintsWhen('the /metrics notice', (hints) => hints.length > 0);
      assert.equal(notice.length, 1);
      assert.deepEqual(notice[0]!.slice(0, 2), [String(stage0), 'no per-request numbers: /metrics only']);
      assert.equal(
        notice[0]![2],
        `${shown.session.title} (running) reads /metrics: histograms over every request the server observed, not each ` +
          "request's stage times, so there are no numbers to show after each stage_id. Its histograms are in Stage " +
          "Lens: Latency Summary; for numbers here, show a session that reads the server's log (Show This " +
          "Session's Numbers in This Deploy Config…).",
      );

      // Launched from the file with a command that is not there: it fails and claims nothing.
      const failed = await deploy.client.request<SessionInfo>('stageLens/launch', {
        argv: ['vllm-not-on-this-path', 'serve'],
        cwd: scratch,
        deployConfig: yaml,
      });
      await waitFor('the failed launch', async () =>
        (await session(failed.id))?.status === 'error' ? true : undefined,
      );
      const still = await hintsWhen('the hints after the failed launch', (hints) => hints.length > 0);
      assert.deepEqual(
        still.map((h) => h.slice(0, 2)),
        [[String(stage0), 'no per-request numbers: /metrics only']],
      );

      // Launched again with a command that serves six requests and then dies: its numbers, while /metrics is still scraped.
      const log = logCopy(path.join(RENDERED, 'qwen3tts-talker-first-audio-after-fix.log'));
      const crashed = await deploy.client.request<SessionInfo>('stageLens/launch', {
        argv: [
          process.execPath,
          '-e',
          `process.stdout.write(require('node:fs').readFileSync(${JSON.stringify(log)})); process.exitCode = 1;`,
        ],
        cwd: scratch,
        deployConfig: yaml,
      });
      await waitFor('the launch read its log and crashed', async () => {
        const s = await session(crashed.id);
        return s?.status === 'crashed' && s.requestCount === 6 ? true : undefined;
      });
      assert.equal((await session(metrics.id))?.status, 'running');
      const numbers = await hintsWhen('the launched numbers', (hints) =>
        hints.some((h) => tooltip(h).includes(crashed.title)),
      );
      const first = numbers.find(([line]) => line === String(stage0));
      assert.deepEqual(first?.slice(0, 2), [String(stage0), 'p50 prefill+decode 1.27 s · TTFT 1.27 s']);
      assert.match(
        first?.[2] ?? '',
        new RegExp(`Measured in ${crashed.title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\(crashed, exit code 1\\)$`),
      );

      // Chosen by hand, the session shown already: it showed no other ("instead of" names none),
      // though the failed launch and the /metrics session were tied to the file too.
      const again = await deploy.client.request<MatchDeployConfigResult>('stageLens/matchDeployConfig', {
        sessionId: crashed.id,
        deployConfig: yaml,
      });
      assert.ok(again.matched);
      assert.equal(again.shownBefore, null);
      assert.deepEqual(again.replaced.map((s) => s.id).sort(), [failed.id, metrics.id].sort());
      // The /metrics session chosen again: it replaces the launch the file showed.
      const back = await deploy.client.request<MatchDeployConfigResult>('stageLens/matchDeployConfig', {
        sessionId: metrics.id,
        deployConfig: yaml,
        acceptStageMismatch: true,
      });
      assert.ok(back.matched);
      assert.equal(back.shownBefore?.id, crashed.id);
      await deploy.client.request<SessionInfo>('stageLens/stop', { sessionId: metrics.id });
    } finally {
      server.close();
    }
  },
);
