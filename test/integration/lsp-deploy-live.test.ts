// Inlay hints from a live session, end to end over a real connection: the language server
// (dist/server.js) launches the simulator (dist/cli.js simulate, a real child process with
// real HTTP /metrics) with a deploy config; that session's measured numbers appear after
// each stage_id and after `talker_first_audio: true`, refresh as it updates, and disappear
// when the session is no longer matched to the file.
import { waitFor } from './support/waitFor';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { InlayHint } from 'vscode-languageserver-protocol';
import type {
  Finding,
  MatchDeployConfigResult,
  RequestDetail,
  RequestPage,
  SessionInfo,
  SummaryResult,
} from '../../server/protocol';
import { buildCli, deployServerForFile, FIXTURES, positionOf } from './support/lspDeployHarness';
import { unusedPort } from './support/unusedPort';

const deploy = deployServerForFile('stage-lens-deploy-live-');
const { scratch } = deploy;
const cli = buildCli();

/** What leads the p99 tail: a hint of its own after the stage's numbers. */
const isTailLead = (label: string): boolean => label.startsWith('p99');

function labels(hints: InlayHint[] | null): [number, string][] {
  return (hints ?? []).map((hint) => [
    hint.position.line + 1,
    typeof hint.label === 'string' ? hint.label : hint.label.map((part) => part.value).join(''),
  ]);
}

test('a launched simulator session shows its numbers in the deploy config, and they go when it is unmatched', async () => {
  // A copy of the single-GPU overlay with its bases: talker_first_audio on, stages 0 and 1.
  for (const name of [
    'qwen3_tts_high_concurrency_mrv2_single_gpu.yaml',
    'qwen3_tts_high_concurrency_mrv2.yaml',
    'qwen3_tts_high_concurrency.yaml',
  ]) {
    fs.copyFileSync(path.join(FIXTURES, name), path.join(scratch, name));
  }
  const file = path.join(scratch, 'qwen3_tts_high_concurrency_mrv2_single_gpu.yaml');
  const text = fs.readFileSync(file, 'utf8');
  const uri = await deploy.client.open(file);
  assert.deepEqual(await deploy.client.inlayHints(uri), []);

  const port = await unusedPort();
  const argv = [
    process.execPath,
    cli,
    'simulate',
    '--scenario',
    'qwen3-tts',
    '--talker-first-audio',
    '--stats-build',
    'before-fix',
    '--debug-tables',
    '--rps',
    '20',
    '--seed',
    '7',
    '--port',
    String(port),
  ];
  const session = await deploy.client.request<SessionInfo>('stageLens/launch', {
    argv,
    cwd: scratch,
    deployConfig: file,
    metricsUrl: `http://127.0.0.1:${port}/metrics`,
  });
  assert.equal(session.deployConfig, file);

  const stage0 = positionOf(text, 'stage_id: 0').line + 1;
  const stage1 = positionOf(text, 'stage_id: 1').line + 1;
  const flag = positionOf(text, 'talker_first_audio: true').line + 1;
  const first = await waitFor('hints with both stages measured', async () => {
    const found = labels(await deploy.client.inlayHints(uri)).filter(([, label]) => !isTailLead(label));
    return found.length === 3 ? found : undefined;
  });
  assert.deepEqual(
    first.map(([line]) => line),
    [stage0, stage1, flag],
  );
  // The talker emits one output (Model Runner V2 + async chunk): its prefill covers decode and is never called prefill.
  assert.match(first[0][1], /^p50 prefill\+decode [\d,.]+ m?s · TTFT [\d,.]+ m?s( \(n=\d+\))?$/);
  // The codec's TTFT under talker first audio on a build without the stats fix: not recorded, never 0.
  // The codec prints the input-wait split: its wait for the talker is named so, never "queued".
  assert.match(first[1][1], /^p50 input wait [\d,.]+ m?s · TTFT not recorded( \(n=\d+\))?$/);
  assert.equal(first[2][1], 'codec TTFT not recorded (no stats fix)');

  // The same session's summary over the connection: the finding with the matched config's evidence, two overlays deep.
  const summary = await deploy.client.request<SummaryResult>('stageLens/summary', { sessionId: session.id });
  const talker = summary.stages.find((s) => s.stageKey === '0' && s.replicaId === null);
  assert.ok(talker !== undefined && talker.oneOutputRequests === talker.requestCount && talker.requestCount > 0);
  assert.equal(talker.split.prefillMs, undefined);
  assert.equal(talker.prefillDecodeMs?.count, talker.requestCount);
  const evidence =
    'The deploy config qwen3_tts_high_concurrency_mrv2_single_gpu.yaml agrees: stage 0 runs with model_runner: v2 (qwen3_tts_high_concurrency_mrv2.yaml line 3) and async_chunk: true (qwen3_tts_high_concurrency.yaml line 13).';
  const finding = summary.findings.find((f) => f.code === 'prefill-covers-decode');
  assert.ok(finding?.message.endsWith(` ${evidence}`), finding?.message);
  // The launched config names the pipeline: the stage is named with its role, as the views name it.
  assert.match(finding?.message ?? '', /^Stage 0 · talker emits one output/);
  // The codec's unrecorded TTFT with what the launched config says of talker_first_audio.
  const ttft = summary.findings.find((f) => f.code === 'ttft-not-recorded');
  assert.ok(
    ttft?.message.endsWith(
      ' The deploy config qwen3_tts_high_concurrency_mrv2_single_gpu.yaml agrees: it turns talker_first_audio on (qwen3_tts_high_concurrency_mrv2_single_gpu.yaml line 21, connector connector_of_shared_memory) with stage 1 as its codec.',
    ),
    ttft?.message,
  );
  // A hint's hover has every number of the stage (the label only the first ones) and names the session by its title.
  const hints = ((await deploy.client.inlayHints(uri)) ?? []).filter((h) => !isTailLead(labels([h])[0]?.[1] ?? ''));
  assert.equal(hints.length, 3);
  const tooltip = (h: (typeof hints)[number]): string =>
    typeof h.tooltip === 'string' ? h.tooltip : (h.tooltip?.value ?? '');
  const measuredIn = `\n\nMeasured in ${session.title} (`;
  assert.match(
    tooltip(hints[0]!).split(measuredIn)[0] ?? '',
    /^TTFT p50 .* · prefill\+decode \(one output\) p50 .* · queued p50 /,
  );
  assert.match(
    tooltip(hints[1]!).split(measuredIn)[0] ?? '',
    /^TTFT not recorded · prefill not measured · decode hidden · input wait p50 [\d,.]+ m?s · ready queued p50 ≈?[\d,.]+ m?s( \(inferred 0: hidden row, other half of the split measured\))? \(n=\d+\)$/,
  );
  for (const h of hints) assert.ok(tooltip(h).includes(measuredIn), tooltip(h));
  const all = await deploy.client.request<Finding[]>('stageLens/findings', { sessionId: session.id });
  assert.ok(all.find((f) => f.code === 'prefill-covers-decode')?.message.endsWith(evidence));
  const page = await deploy.client.request<RequestPage>('stageLens/requests', {
    sessionId: session.id,
    offset: 0,
    limit: 1,
  });
  const detail = await deploy.client.request<RequestDetail | null>('stageLens/request', {
    sessionId: session.id,
    requestId: page.requests[0]?.requestId ?? '',
  });
  assert.deepEqual(
    detail?.timeline.filter((s) => s.stageKey === '0').map((s) => s.phase),
    ['queued', 'prefillDecode', 'stage'],
  );

  // The session updates (throttled to 4 per second): the editor is asked to refresh, and the counts grow
  // (in the hover: the label leaves the count out when it does not fit).
  const n = (text: string) => Number(/\(n=(\d+)\)/.exec(text)?.[1]);
  const firstCount = n(tooltip(hints[0]!));
  const refreshes = deploy.client.refreshRequests;
  await deploy.client.waitForRefreshes(refreshes + 2, 15_000);
  await waitFor('more requests counted', async () => {
    const found = (await deploy.client.inlayHints(uri)) ?? [];
    return found.length >= 3 && n(tooltip(found[0]!)) > firstCount ? found : undefined;
  });
  // With a tail: the talker leads the p99 of time to first audio (the cold request's JIT build
  // sits in its prefill+decode). The editor counts a line's labels together against its 43
  // characters: where the talker's numbers leave no room, the tail lead is in their tooltip, and
  // no line's labels add up to more than 43.
  const led = await waitFor('the tail lead on the talker', async () => {
    const found = (await deploy.client.inlayHints(uri)) ?? [];
    return found.some((h) => tooltip(h).includes('largest mean excess')) ? found : undefined;
  });
  for (const line of new Set(labels(led).map(([at]) => at)))
    assert.ok(
      labels(led)
        .filter(([at]) => at === line)
        .reduce((sum, [, text]) => sum + text.length, 0) <= 43,
      JSON.stringify(labels(led)),
    );
  // Each stage's numbers say their percentile, with a tail lead on the line or not.
  for (const [line, text] of labels(led))
    if (line !== flag && !isTailLead(text)) assert.match(text, /^p50 /, JSON.stringify(labels(led)));
  const leadHint = led.find((h) => tooltip(h).includes('largest mean excess'));
  assert.equal(leadHint?.position.line, stage0 - 1);
  // The target in the side panel's words: the codec's first output is the first audio.
  const leadTip = tooltip(leadHint!);
  assert.match(leadTip, /The prefill\+decode \(one output\) of stage 0 has the largest mean excess/, leadTip);
  assert.match(leadTip, /at or above the p99 of time to first audio \(stage 1 · code2wav\) \(/, leadTip);
  assert.ok(!led.some((h) => h.position.line === stage1 - 1 && tooltip(h).includes('largest mean excess')));

  assert.ok(tooltip(led[0]!).includes(`${measuredIn}running)`), tooltip(led[0]!));
  // Stopped: the same numbers, and the hover says the session no longer runs (its request count is unchanged).
  const stopped = await deploy.client.request<SessionInfo>('stageLens/stop', { sessionId: session.id });
  assert.notEqual(stopped.status, 'running');
  await waitFor('the hover says the session stopped', async () => {
    const found = (await deploy.client.inlayHints(uri)) ?? [];
    const tip = found[0] === undefined ? '' : tooltip(found[0]);
    return tip.includes(measuredIn) && !tip.includes(`${measuredIn}running)`) ? tip : undefined;
  });

  // Unmatched: no hints (and the hints of another config never showed these numbers).
  assert.deepEqual(await deploy.client.inlayHints(await deploy.client.open(path.join(FIXTURES, 'qwen3_tts.yaml'))), []);
  await deploy.client.request<MatchDeployConfigResult>('stageLens/matchDeployConfig', {
    sessionId: session.id,
    deployConfig: null,
  });
  await waitFor(
    'no hints once unmatched',
    async () => ((await deploy.client.inlayHints(uri)) ?? []).length === 0 || undefined,
  );
});
