// One server boot of a session in the editor's live views: a log of two boots that served
// different pipelines (the upstream-rendered Qwen3-TTS log, then the Qwen3-Omni one, appended
// after a restart), imported through the language server (dist/server.js over stdio). The whole
// session's summary names its boots and their pipelines; `scope.boot` on the summary, the request
// page, a histogram and the Over time series keeps the requests `stage-lens analyze --boot N`
// keeps, with its numbers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startLanguageServer, storageForFile } from './support/lspProcess';
import { cliStdout } from './support/cliProcess';
import { appendFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { bootsLog, bootsLogFile, engineLinesBootsLog } from './support/bootLog';
import type { ExplainScope, OverTimeResult, SummaryResult } from '../../server/protocol';

const TTS_MODEL = 'Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice';
const OMNI_MODEL = 'Qwen/Qwen3-Omni-30B-A3B-Instruct';
const { dir, log } = bootsLogFile('stage-lens-lsp-session-boot-', 'server.log', [
  { model: TTS_MODEL, fixture: 'qwen3tts-talker-first-audio-after-fix.log' },
  { model: OMNI_MODEL, fixture: 'qwen3-omni-three-stage-transfers.log' },
]);
const storage = storageForFile('stage-lens-lsp-session-boot-storage-');

interface CliStat {
  readonly p50: number;
}
interface CliJson {
  readonly requests: readonly { readonly requestId: string }[];
  readonly stageSummary: Readonly<Record<string, Readonly<Record<string, CliStat>>>>;
  readonly endToEnd: CliStat;
}

function analyzeBoot(boot: number): CliJson {
  return JSON.parse(cliStdout(['analyze', log, '--boot', String(boot), '--format', 'json'])) as CliJson;
}

interface CliRequest {
  readonly requestId: string;
  readonly e2e: { readonly e2e_total_ms: number | null };
}

/** `analyze --boot N`'s requests, in log order, with their end to end. */
function analyzeBootRequests(boot: number): readonly CliRequest[] {
  return (
    JSON.parse(cliStdout(['analyze', log, '--boot', String(boot), '--format', 'json'])) as { requests: CliRequest[] }
  ).requests;
}

/** The CLI's JSON precision. */
const ms3 = (v: number | null | undefined): number | null =>
  v === null || v === undefined ? null : Math.round(v * 1000) / 1000;

/** Per stage (all replicas): its first output p50 at the CLI's JSON precision, as the status bar and the side panel read it. */
function firstOutputP50s(summary: SummaryResult): Record<string, number | null> {
  const out: Record<string, number | null> = {};
  for (const s of summary.stages)
    if (s.replicaId === null) out[String(s.stageId)] = ms3(s.fields['serving_time_to_first_output_ms']?.p50);
  return out;
}

test(
  'a session of two boots of different pipelines: its boots in the summary, one boot as analyze --boot reads it',
  { timeout: 180_000 },
  async () => {
    const lsp = await startLanguageServer(storage);
    const session = await lsp.importLog(log);
    const boots = [
      { boot: 1, requests: 6, model: TTS_MODEL },
      { boot: 2, requests: 3, model: OMNI_MODEL },
    ];

    const whole = await lsp.request('stageLens/summary', { sessionId: session.id });
    assert.equal(whole.requestCount, 9);
    assert.deepEqual(whole.boots?.boots, boots);
    assert.equal(whole.boots?.selected, null);
    assert.deepEqual(whole.boots?.pipelines, [
      `boot 1 (6 requests, ${TTS_MODEL}): stages 0 llm → latent, 1 llm → audio`,
      `boot 2 (3 requests, ${OMNI_MODEL}): stages 0 llm → text, 1 llm → latent, 2 llm → audio`,
    ]);
    assert.ok(whole.findings.some((f) => f.code === 'boots-differ-in-pipeline'));

    for (const boot of [1, 2]) {
      const expected = analyzeBoot(boot);
      const summary = await lsp.request('stageLens/summary', { sessionId: session.id, scope: { boot } });
      assert.equal(summary.requestCount, expected.requests.length);
      assert.deepEqual(summary.boots, { ...whole.boots, selected: boot });
      // One boot served one pipeline: no warning about pooling.
      assert.ok(!summary.findings.some((f) => f.code === 'boots-differ-in-pipeline'));
      const cliFirstOutput: Record<string, number | null> = {};
      for (const [stageId, fields] of Object.entries(expected.stageSummary))
        cliFirstOutput[stageId] = fields['serving_time_to_first_output_ms']?.p50 ?? null;
      assert.deepEqual(firstOutputP50s(summary), cliFirstOutput);
      assert.equal(ms3(summary.endToEnd?.ms.p50), expected.endToEnd.p50);

      const page = await lsp.request('stageLens/requests', {
        sessionId: session.id,
        offset: 0,
        limit: 50,
        sortBy: 'line',
        scope: { boot },
      });
      assert.equal(page.total, expected.requests.length);
      assert.deepEqual(
        page.requests.map((r) => r.requestId),
        expected.requests.map((r) => r.requestId),
      );
      const histogram = await lsp.request('stageLens/histogram', {
        sessionId: session.id,
        stageKey: '1',
        metric: 'field:serving_time_to_first_output_ms',
        bins: 10,
        scope: { boot },
      });
      assert.equal(
        ms3(histogram.distribution?.p50),
        expected.stageSummary['1']?.['serving_time_to_first_output_ms']?.p50,
      );
    }
    // Boot 1's stage 1 is the TTS codec, boot 2's the Omni talker: pooled, its first output p50 is neither's.
    const [one, two] = await Promise.all(
      [1, 2].map((boot) => lsp.request('stageLens/summary', { sessionId: session.id, scope: { boot } })),
    );
    const pooled = firstOutputP50s(whole)['1'];
    assert.notEqual(pooled, firstOutputP50s(one!)['1']);
    assert.notEqual(pooled, firstOutputP50s(two!)['1']);
  },
);

test(
  "the Each request chart's columns are of the scope the tables are of: one boot, a time window, cold left out",
  { timeout: 180_000 },
  async () => {
    const lsp = await startLanguageServer(storage);
    const session = await lsp.importLog(log);
    const whole = await lsp.request('stageLens/requestSpans', { sessionId: session.id });
    assert.equal(whole.scope, null);
    assert.equal(whole.requestIds.length, 9);
    const at = (id: string): number => {
      const i = whole.requestIds.indexOf(id);
      assert.ok(i >= 0, id);
      return i;
    };
    /** The whole session's columns at these requests: a scope keeps a request's values as they are. */
    const columnsOf = (ids: readonly string[]) => ({
      endMs: ids.map((id) => whole.endMs[at(id)]),
      e2eMs: ids.map((id) => whole.e2eMs[at(id)]),
      slowestStage: ids.map((id) => whole.slowestStage[at(id)]),
      cold: ids.map((id) => whole.cold[at(id)]),
    });
    /** The request table's ids in the scope, in log order. */
    const tableIds = async (scope: ExplainScope): Promise<string[]> =>
      (
        await lsp.request('stageLens/requests', { sessionId: session.id, offset: 0, limit: 50, sortBy: 'line', scope })
      ).requests.map((r) => r.requestId);
    const spansIn = async (scope: ExplainScope) => {
      const spans = await lsp.request('stageLens/requestSpans', { sessionId: session.id, scope });
      assert.deepEqual(spans.scope, scope);
      assert.equal(spans.sessionRequests, 9);
      assert.deepEqual(spans.requestIds, await tableIds(scope));
      assert.deepEqual(
        { endMs: spans.endMs, e2eMs: spans.e2eMs, slowestStage: spans.slowestStage, cold: spans.cold },
        columnsOf(spans.requestIds),
      );
      return spans;
    };

    // One boot: its requests, as analyze --boot lists them, with their end to end.
    for (const boot of [1, 2]) {
      const expected = analyzeBootRequests(boot);
      const spans = await spansIn({ boot });
      assert.deepEqual(
        spans.requestIds,
        expected.map((r) => r.requestId),
      );
      assert.deepEqual(
        spans.e2eMs.map((v) => ms3(v)),
        expected.map((r) => r.e2e.e2e_total_ms),
      );
    }
    const bootOne = analyzeBootRequests(1).map((r) => r.requestId);
    const [coldOne, ...warmOne] = bootOne;
    assert.deepEqual(columnsOf(bootOne).cold, [true, false, false, false, false, false]);

    // Cold left out: each boot's first request is not in the chart.
    const warm = await spansIn({ excludeCold: true });
    assert.equal(warm.requestIds.length, 7);
    assert.ok(!warm.requestIds.includes(coldOne!));
    assert.ok(warm.cold.every((c) => !c));
    assert.deepEqual((await spansIn({ boot: 1, excludeCold: true })).requestIds, warmOne);

    // A window on the log clock from boot 1's second request's end to its fifth's: those four only.
    const window = { fromMs: whole.endMs[at(bootOne[1]!)]!, toMs: whole.endMs[at(bootOne[4]!)]! };
    assert.deepEqual((await spansIn(window)).requestIds, bootOne.slice(1, 5));
    assert.deepEqual((await spansIn({ ...window, boot: 2 })).requestIds, []);
    lsp.child.kill('SIGTERM');
  },
);

test(
  "the Over time chart's series are of the scope the Each request chart is of: one boot, cold left out",
  { timeout: 180_000 },
  async () => {
    const lsp = await startLanguageServer(storage);
    const session = await lsp.importLog(log);
    // A window longer than the log (its boots are days apart): the last step's percentiles are over every request in scope.
    const overTimeIn = (scope?: ExplainScope) =>
      lsp.request('stageLens/overTime', {
        sessionId: session.id,
        metrics: ['e2e'],
        windowMs: 30 * 86_400_000,
        ...(scope === undefined ? {} : { scope }),
      });
    const lastE2e = (result: OverTimeResult) => {
      const e2e = result.series.series.find((s) => s.metric === 'e2e');
      assert.ok(e2e !== undefined, 'e2e is charted');
      return { count: e2e.count.at(-1), p50: ms3(e2e.p50.at(-1)) };
    };
    const whole = await overTimeIn();
    assert.deepEqual([whole.scope, whole.requests, whole.sessionRequests], [null, 9, 9]);
    assert.equal(lastE2e(whole).count, 9);

    for (const boot of [1, 2]) {
      const expected = analyzeBoot(boot);
      const measured = analyzeBootRequests(boot).filter((r) => r.e2e.e2e_total_ms !== null).length;
      const result = await overTimeIn({ boot });
      assert.deepEqual(
        [result.scope, result.requests, result.sessionRequests],
        [{ boot }, expected.requests.length, 9],
      );
      // Its axis spans that boot's requests, as the Each request chart places them.
      const ends = (await lsp.request('stageLens/requestSpans', { sessionId: session.id, scope: { boot } })).endMs;
      assert.deepEqual(result.series.span, { fromMs: Math.min(...ends), toMs: Math.max(...ends) });
      // The rolling e2e over that boot's requests is analyze --boot's.
      assert.deepEqual(lastE2e(result), { count: measured, p50: expected.endToEnd.p50 });
    }
    // Boot 1's cold request left out: five of its six.
    const warm = await overTimeIn({ boot: 1, excludeCold: true });
    assert.deepEqual([warm.scope, warm.requests], [{ boot: 1, excludeCold: true }, 5]);
    assert.equal(lastE2e(warm).count, 5);
    lsp.child.kill('SIGTERM');
  },
);

test(
  "a followed log that grows by boots: a boot's summary stays its own, and a scope's summary takes in each request that joins it",
  { timeout: 180_000 },
  async () => {
    const lsp = await startLanguageServer(storage);
    const file = path.join(dir, 'followed.log');
    const tts = { model: TTS_MODEL, fixture: 'qwen3tts-talker-first-audio-after-fix.log' };
    writeFileSync(file, bootsLog([tts]));
    const session = await lsp.request('stageLens/tail', { path: file, fromStart: true });
    await lsp.requestsRead(session.id, 6);
    const summary = (scope: ExplainScope): Promise<SummaryResult> =>
      lsp.request('stageLens/summary', { sessionId: session.id, scope });
    const count = async (scope: ExplainScope): Promise<number> => (await summary(scope)).requestCount;
    assert.equal(await count({ excludeCold: true }), 5);
    // Asked again while nothing changed: the same answer.
    assert.equal(await count({ excludeCold: true }), 5);
    const bootOne = await summary({ boot: 1 });
    assert.equal(bootOne.requestCount, 6);

    // The server restarts with the same pipeline and logs on: each request that joins a scope is in its summary.
    appendFileSync(file, bootsLog([tts]));
    await lsp.requestsRead(session.id, 12);
    assert.equal(await count({ excludeCold: true }), 10);
    assert.equal(await count({ boot: 2 }), 6);
    // Boot 1's requests are the same, and so is its summary (it names the boots it is one of).
    const sameRoles = await summary({ boot: 1 });
    assert.deepEqual({ ...sameRoles, boots: null }, { ...bootOne, boots: null });
    assert.deepEqual(
      sameRoles.boots?.boots.map((b) => b.requests),
      [6, 6],
    );

    // Then with another pipeline.
    appendFileSync(file, bootsLog([{ model: OMNI_MODEL, fixture: 'qwen3-omni-three-stage-transfers.log' }]));
    await lsp.requestsRead(session.id, 15);
    assert.equal(await count({ excludeCold: true }), 12);
    assert.equal(await count({ boot: 3 }), 3);
    // Boot 1's figures are the same. Its findings no longer name the stages by role (the session's
    // stages served two pipelines): asked again, not kept from before.
    const again = await summary({ boot: 1 });
    assert.deepEqual(
      [again.requestCount, again.stages, again.endToEnd, again.edges],
      [bootOne.requestCount, bootOne.stages, bootOne.endToEnd, bootOne.edges],
    );
    assert.deepEqual(
      again.findings.map((f) => [f.code, f.stageId, f.requestIds]),
      bootOne.findings.map((f) => [f.code, f.stageId, f.requestIds]),
    );
    const preempted = (s: SummaryResult): string | undefined =>
      s.findings.find((f) => f.code === 'preempted-requests')?.message;
    assert.match(preempted(bootOne) ?? '', /^Stage 0 · talker preempted 1 of 6 requests/);
    assert.match(preempted(again) ?? '', /^Stage 0 preempted 1 of 6 requests/);
    await lsp.request('stageLens/stop', { sessionId: session.id });
    lsp.child.kill('SIGTERM');
  },
);

test(
  "the Over time chart's gauges are of the boot picked: the engines' lines printed in it, not the boot before's",
  { timeout: 180_000 },
  async () => {
    // Boot 1 prints its engine's load during its requests, and once more a moment before the restart
    // (the last line before boot 2's start, in boot 2's first step); boot 2 prints its own.
    const file = path.join(dir, 'engine-lines.log');
    writeFileSync(file, engineLinesBootsLog());
    const lsp = await startLanguageServer(storage);
    const session = await lsp.importLog(file);
    // Steps of 30 s: boot 2's first step (09:30:30-09:31:00] holds boot 1's last line, its second its own.
    const overTimeIn = (scope?: ExplainScope) =>
      lsp.request('stageLens/overTime', {
        sessionId: session.id,
        stepMs: 30_000,
        ...(scope === undefined ? {} : { scope }),
      });
    /** The running and waiting readings charted, per gauge. */
    const readings = (r: OverTimeResult) =>
      r.series.gauges.map((g) => ({
        engine: g.engine,
        running: [...new Set(g.running.filter((v) => v !== null))],
        waiting: [...new Set(g.waiting.filter((v) => v !== null))],
      }));

    const whole = await overTimeIn();
    assert.equal(whole.gaugeScope, null);
    const bootTwo = await overTimeIn({ boot: 2 });
    assert.deepEqual(bootTwo.gaugeScope, { boot: 2 });
    assert.deepEqual(readings(bootTwo), [{ engine: '000', running: [2], waiting: [0] }]);
    const bootOne = await overTimeIn({ boot: 1 });
    assert.deepEqual(readings(bootOne), [{ engine: '000', running: [3], waiting: [1] }]);
    // Cold left out cuts no gauge: the engines' load is no request's.
    const warm = await overTimeIn({ boot: 2, excludeCold: true });
    assert.deepEqual(warm.gaugeScope, { boot: 2 });
    assert.deepEqual(readings(warm), readings(bootTwo));

    // Boot 2 without a line of its own: it charts no gauge, in the editor and in `explain --boot 2`,
    // rather than boot 1's last reading.
    const silent = path.join(dir, 'engine-lines-boot-2-silent.log');
    writeFileSync(silent, engineLinesBootsLog({ bootTwoSilent: true }));
    const quiet = await lsp.importLog(silent);
    const quietTwo = await lsp.request('stageLens/overTime', { sessionId: quiet.id, scope: { boot: 2 } });
    assert.deepEqual([quietTwo.series.times.length > 0, quietTwo.series.gauges], [true, []]);
    const cli = JSON.parse(cliStdout(['explain', silent, '--boot', '2', '--format', 'json'])) as {
      overTime: { times: number[]; gauges: OverTimeResult['series']['gauges'] };
    };
    assert.deepEqual([cli.overTime.times.length > 0, cli.overTime.gauges], [true, []]);
    lsp.child.kill('SIGTERM');
  },
);
