// The "why" views' pure parts: the message guard on the new queries and the tail filter,
// the side panel feed's tail (after a summary, at most once a second), the tail rows'
// words (residual kept, one-output prefill named, a part not measured named with why), the Over Time brush geometry,
// its time axis shared with the Each request chart and its one-unit duration axis.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type {
  ExplainScope,
  HostToWebview,
  OverTimeResult,
  RequestParams,
  RequestResult,
  ServerRequestMethod,
  SessionInfo,
  SummaryResult,
  TailAttribution,
  TailAttributionResult,
} from '../../server/protocol';
import type { LatencyDataSource } from '../../src/views/dataSource';
import { MAX_SERVER_NAME, parseWebviewMessage } from '../../src/views/messageGuard';
import { answerPanelQuery } from '../../src/views/panelQueries';
import { SessionFeed, TAIL_REFRESH_MS } from '../../src/views/sessionFeed';
import { additiveTail } from '../../server/shared';
import {
  contributionLimit,
  contributionNote,
  notMeasuredRows,
  partText,
  tailColdNote,
  tailOverlapNote,
  tailRows,
  targetText,
} from '../../webview/shared/tailModel';
import {
  brushWindow,
  layoutOverTime,
  points,
  seriesSpan,
  valueAxis,
  xOfTime,
} from '../../webview/latencyPanel/overTime/overTimeLayout';
import {
  gaugeName,
  gaugeScopeText,
  metricChoices,
  overTimeEmptyText,
  rateNote,
} from '../../webview/latencyPanel/overTime/overTimeModel';
import { buildSpanIndex, fullView, keptView, xOf } from '../../webview/latencyPanel/spans/spansLayout';
import { durationAxis, timePlotX, timeTickStep, timeTicks } from '../../webview/shared/axis';
import { formatLogClock, timeTickText } from '../../webview/shared/format';

describe('message guard: the why-views', () => {
  test('queryTail / queryLoad / queryOverTime keep only well-formed fields', () => {
    assert.deepEqual(
      parseWebviewMessage({
        type: 'queryTail',
        seq: 4,
        params: {
          target: 'stage1.firstOutput',
          quantile: 'p95',
          byBoot: true,
          scope: { fromMs: 1, toMs: 2, excludeCold: true },
          extra: 'x',
        },
      }),
      {
        type: 'queryTail',
        seq: 4,
        params: {
          target: 'stage1.firstOutput',
          quantile: 'p95',
          scope: { fromMs: 1, toMs: 2, excludeCold: true },
          byBoot: true,
        },
      },
    );
    assert.equal(parseWebviewMessage({ type: 'queryTail', seq: 4, params: { quantile: 'p42' } }), null);
    // One server boot: a boot number (0: before the log's first boot marker), nothing else.
    assert.deepEqual(parseWebviewMessage({ type: 'queryTail', seq: 4, params: { scope: { boot: 0 } } }), {
      type: 'queryTail',
      seq: 4,
      params: { scope: { boot: 0 } },
    });
    for (const boot of [-1, 1.5, '2', null])
      assert.equal(parseWebviewMessage({ type: 'queryTail', seq: 4, params: { scope: { boot } } }), null);
    assert.deepEqual(parseWebviewMessage({ type: 'selectBoot', sessionId: 's1', boot: 2, extra: 1 }), {
      type: 'selectBoot',
      sessionId: 's1',
      boot: 2,
    });
    assert.deepEqual(parseWebviewMessage({ type: 'selectBoot', sessionId: 's1', boot: null }), {
      type: 'selectBoot',
      sessionId: 's1',
      boot: null,
    });
    for (const bad of [{ sessionId: 's1' }, { sessionId: 's1', boot: -2 }, { boot: 1 }])
      assert.equal(parseWebviewMessage({ type: 'selectBoot', ...bad }), null);
    // One server of a merged log: its name (the log's text, up to MAX_SERVER_NAME), with a boot too.
    const longest = 'p'.repeat(MAX_SERVER_NAME);
    assert.equal(MAX_SERVER_NAME, 512);
    assert.deepEqual(
      parseWebviewMessage({
        type: 'queryTail',
        seq: 5,
        params: { scope: { server: 'pod/vllm-omni-0/vllm', boot: 1, extra: 'x' } },
      }),
      { type: 'queryTail', seq: 5, params: { scope: { boot: 1, server: 'pod/vllm-omni-0/vllm' } } },
    );
    assert.deepEqual(parseWebviewMessage({ type: 'querySpans', seq: 6, scope: { server: longest } }), {
      type: 'querySpans',
      seq: 6,
      scope: { server: longest },
    });
    assert.deepEqual(
      parseWebviewMessage({
        type: 'queryRequests',
        seq: 7,
        params: { offset: 0, limit: 50, scope: { server: '<img src=x onerror=alert(1)>' } },
      }),
      {
        type: 'queryRequests',
        seq: 7,
        params: { offset: 0, limit: 50, scope: { server: '<img src=x onerror=alert(1)>' } },
      },
    );
    assert.deepEqual(
      parseWebviewMessage({
        type: 'queryHistogram',
        seq: 8,
        params: { stageKey: '0', metric: 'split:prefillMs', bins: 40, scope: { server: 'web-1' } },
      }),
      {
        type: 'queryHistogram',
        seq: 8,
        params: { stageKey: '0', metric: 'split:prefillMs', bins: 40, scope: { server: 'web-1' } },
      },
    );
    assert.deepEqual(parseWebviewMessage({ type: 'queryOverTime', seq: 9, params: { scope: { server: 'web-1' } } }), {
      type: 'queryOverTime',
      seq: 9,
      params: { scope: { server: 'web-1' } },
    });
    assert.deepEqual(parseWebviewMessage({ type: 'queryLoad', seq: 10, params: { scope: { server: 'web-1' } } }), {
      type: 'queryLoad',
      seq: 10,
      params: { scope: { server: 'web-1' } },
    });
    // Anything else makes the scope malformed, and the message is dropped.
    for (const server of ['', `${longest}p`, 7, null, ['pod/a'], { name: 'pod/a' }]) {
      assert.equal(parseWebviewMessage({ type: 'queryTail', seq: 4, params: { scope: { server } } }), null);
      assert.equal(parseWebviewMessage({ type: 'querySpans', seq: 4, scope: { server } }), null);
      assert.equal(
        parseWebviewMessage({ type: 'queryRequests', seq: 4, params: { offset: 0, limit: 50, scope: { server } } }),
        null,
      );
    }
    assert.deepEqual(parseWebviewMessage({ type: 'selectServer', sessionId: 's1', server: 'pod/a', extra: 1 }), {
      type: 'selectServer',
      sessionId: 's1',
      server: 'pod/a',
    });
    assert.deepEqual(parseWebviewMessage({ type: 'selectServer', sessionId: 's1', server: null }), {
      type: 'selectServer',
      sessionId: 's1',
      server: null,
    });
    assert.deepEqual(parseWebviewMessage({ type: 'selectServer', sessionId: 's1', server: longest }), {
      type: 'selectServer',
      sessionId: 's1',
      server: longest,
    });
    for (const bad of [
      { sessionId: 's1' },
      { sessionId: 's1', server: '' },
      { sessionId: 's1', server: `${longest}p` },
      { sessionId: 's1', server: 3 },
      { sessionId: 's1', server: { name: 'pod/a' } },
      { sessionId: 2, server: 'pod/a' },
      { server: 'pod/a' },
    ])
      assert.equal(parseWebviewMessage({ type: 'selectServer', ...bad }), null, JSON.stringify(bad));
    assert.equal(parseWebviewMessage({ type: 'queryTail', seq: 4, params: { scope: { fromMs: 'yesterday' } } }), null);
    assert.equal(parseWebviewMessage({ type: 'queryTail', seq: 4, params: { target: 'x'.repeat(65) } }), null);
    assert.deepEqual(parseWebviewMessage({ type: 'queryLoad', seq: 5, params: { byBoot: true, quantile: 'p99' } }), {
      type: 'queryLoad',
      seq: 5,
      params: { quantile: 'p99' },
    });
    assert.deepEqual(
      parseWebviewMessage({
        type: 'queryOverTime',
        seq: 6,
        params: { scope: { excludeCold: true }, metrics: ['e2e'] },
      }),
      { type: 'queryOverTime', seq: 6, params: { scope: { excludeCold: true }, metrics: ['e2e'] } },
    );
    assert.equal(
      parseWebviewMessage({ type: 'queryOverTime', seq: 6, params: { stepMs: 1 } }),
      null,
      'a step of 1 ms over a day of requests would be a flood',
    );
    assert.equal(
      parseWebviewMessage({
        type: 'queryOverTime',
        seq: 6,
        params: { metrics: Array.from({ length: 33 }, () => 'e2e') },
      }),
      null,
    );
  });

  test('request pages and histograms carry a scope and a tail; an open carries a tail filter', () => {
    assert.deepEqual(
      parseWebviewMessage({
        type: 'queryRequests',
        seq: 1,
        params: {
          offset: 0,
          limit: 50,
          sortBy: 'target:e2e',
          descending: true,
          scope: { excludeCold: true },
          atLeast: { target: 'e2e', ms: 812.5 },
        },
      }),
      {
        type: 'queryRequests',
        seq: 1,
        params: {
          offset: 0,
          limit: 50,
          sortBy: 'target:e2e',
          descending: true,
          scope: { excludeCold: true },
          atLeast: { target: 'e2e', ms: 812.5 },
        },
      },
    );
    assert.equal(
      parseWebviewMessage({
        type: 'queryRequests',
        seq: 1,
        params: { offset: 0, limit: 50, atLeast: { target: 'e2e', ms: Number.NaN } },
      }),
      null,
    );
    assert.deepEqual(
      parseWebviewMessage({
        type: 'queryHistogram',
        seq: 2,
        params: { stageKey: '0', metric: 'split:prefillMs', bins: 10, scope: { fromMs: 5, toMs: 9 } },
      }),
      {
        type: 'queryHistogram',
        seq: 2,
        params: { stageKey: '0', metric: 'split:prefillMs', bins: 10, scope: { fromMs: 5, toMs: 9 } },
      },
    );
    assert.deepEqual(
      parseWebviewMessage({
        type: 'openLatencyPanel',
        filter: { tail: { target: 'stage1.firstOutput', quantile: 'p99', ms: 3803 } },
      }),
      {
        type: 'openLatencyPanel',
        filter: { tail: { target: 'stage1.firstOutput', quantile: 'p99', ms: 3803 } },
      },
    );
    assert.equal(
      parseWebviewMessage({ type: 'openLatencyPanel', filter: { tail: { target: 'e2e', ms: 1 } } }),
      null,
      'a tail without its quantile',
    );
  });
});

const session = (id: string): SessionInfo => ({
  id,
  kind: 'launch',
  description: 'vllm serve',
  title: 'vllm',
  startedAt: 0,
  status: 'running',
  requestCount: 1,
  deployConfig: null,
  lastError: null,
  exit: null,
  problemCount: 0,
});

function tailOf(requestCount: number): TailAttribution {
  return {
    target: 'stage1.firstOutput',
    quantile: 'p99',
    thresholdMs: 3803,
    requestCount,
    scopeCount: 6,
    targetMedianMs: 96.7,
    excessMs: 3900,
    parts: [
      {
        key: '0/prefill',
        stageId: 0,
        stageKey: '0',
        phase: 'prefill',
        excessMs: 3899,
        share: 3899 / 3900,
        medianMs: 84.9,
        measuredIn: 1,
      },
      {
        key: '1/genOther',
        stageId: 1,
        stageKey: '1',
        phase: 'genOther',
        excessMs: 1987,
        share: 1987 / 3900,
        medianMs: 0,
        measuredIn: 1,
        afterTarget: { requests: 5, of: 6 },
      },
      {
        key: '1/decode',
        stageId: 1,
        stageKey: '1',
        phase: 'decode',
        excessMs: 1250,
        share: 1250 / 3900,
        medianMs: 0,
        measuredIn: 1,
        afterTarget: { requests: 5, of: 6 },
      },
      {
        key: '0/queued',
        stageId: 0,
        stageKey: '0',
        phase: 'queued',
        excessMs: 0.1,
        share: 0.1 / 3900,
        medianMs: 0.4,
        measuredIn: 1,
      },
    ],
    residualMs: 3900 - 3899 - 1987 - 1250 - 0.1,
    // Under talker first audio the codec cannot have started after the talker ended (stagePlacement.ts).
    alongsideStages: ['1'],
    requestIds: ['speech-628f'],
  };
}

class Source implements LatencyDataSource {
  current: SessionInfo | null = session('s1');
  calls: string[] = [];
  count = 1;
  private listeners: ((s: SessionInfo | null) => void)[] = [];
  readonly onDidChangeSession = (l: (s: SessionInfo | null) => void): { dispose(): void } => {
    this.listeners.push(l);
    return { dispose: () => (this.listeners = this.listeners.filter((x) => x !== l)) };
  };
  fire(): void {
    for (const l of this.listeners) l(this.current);
  }
  async start(): Promise<void> {}
  currentSession(): SessionInfo | null {
    return this.current;
  }
  stageNames(): Readonly<Record<string, string>> {
    return {};
  }
  summary(s: SessionInfo): Promise<SummaryResult> {
    return this.request('stageLens/summary', { sessionId: s.id });
  }
  async request<M extends ServerRequestMethod>(method: M, params: RequestParams<M>): Promise<RequestResult<M>> {
    this.calls.push(method);
    const sessionId = (params as { sessionId: string }).sessionId;
    const answers: Partial<Record<ServerRequestMethod, unknown>> = {
      'stageLens/summary': {
        sessionId,
        requestCount: this.count,
        stages: [],
        findings: [],
        histograms: [],
        prometheus: null,
        endToEnd: null,
        tablesMissing: null,
        edges: [],
      } satisfies SummaryResult,
      'stageLens/tailAttribution': {
        sessionId,
        requestCount: this.count,
        targets: ['e2e', 'stage1.firstOutput'],
        mainTarget: 'stage1.firstOutput',
        tails: [tailOf(this.count)],
        oneRequest: [],
      } satisfies TailAttributionResult,
      'stageLens/loadAtArrival': { sessionId, load: null },
      'stageLens/overTime': {
        sessionId,
        series: { times: [], stepMs: 1000, windowMs: 1000, requestRate: [], series: [], gauges: [] },
      },
    };
    return answers[method] as RequestResult<M>;
  }
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

describe('side panel feed: the tail', () => {
  test("after a new summary the main target's tail is posted; a burst of updates asks at most once a second", async () => {
    const source = new Source();
    const posted: HostToWebview[] = [];
    const feed = new SessionFeed(
      source,
      { post: (m) => void posted.push(m), isVisible: () => true, wantsTail: true },
      5,
    );
    await feed.resend();
    await sleep(30);
    const tails = (): HostToWebview[] => posted.filter((m) => m.type === 'tail');
    assert.equal(tails().length, 1);
    assert.deepEqual(tails()[0], {
      type: 'tail',
      seq: 0,
      tail: {
        sessionId: 's1',
        requestCount: 1,
        targets: ['e2e', 'stage1.firstOutput'],
        mainTarget: 'stage1.firstOutput',
        tails: [tailOf(1)],
        oneRequest: [],
      },
    });
    // Five new summaries within 0.3 s: one more tail query, a second after the first.
    for (let i = 2; i <= 6; i++) {
      source.count = i;
      source.fire();
      await sleep(60);
    }
    assert.equal(source.calls.filter((c) => c === 'stageLens/tailAttribution').length, 1, 'throttled');
    await sleep(TAIL_REFRESH_MS);
    assert.equal(source.calls.filter((c) => c === 'stageLens/tailAttribution').length, 2);
    assert.equal(
      (tails().at(-1) as Extract<HostToWebview, { type: 'tail' }>).tail.requestCount,
      6,
      'the last update is not lost',
    );
    feed.dispose();
  });

  test('a view that does not want it (Latency Details) gets no tail', async () => {
    const source = new Source();
    const posted: HostToWebview[] = [];
    const feed = new SessionFeed(source, { post: (m) => void posted.push(m), isVisible: () => true }, 5);
    await feed.resend();
    await sleep(30);
    assert.equal(posted.filter((m) => m.type === 'tail').length, 0);
    assert.ok(!source.calls.includes('stageLens/tailAttribution'));
    feed.dispose();
  });

  test('panel queries go to the explain methods with the session id, seq echoed', async () => {
    const source = new Source();
    const tail = await answerPanelQuery({ type: 'queryTail', seq: 3, params: { quantile: 'p95' } }, source);
    assert.equal(tail.type === 'tail' && tail.seq, 3);
    assert.equal((await answerPanelQuery({ type: 'queryLoad', seq: 4, params: {} }, source)).type, 'loadAtArrival');
    assert.equal((await answerPanelQuery({ type: 'queryOverTime', seq: 5, params: {} }, source)).type, 'overTime');
    assert.deepEqual(source.calls, ['stageLens/tailAttribution', 'stageLens/loadAtArrival', 'stageLens/overTime']);
  });
});

describe('tail rows', () => {
  test('a median that is the part lying after the target reads so, never "0 ms"; a measured 0 ms does', () => {
    const names = { '0': 'talker', '1': 'code2wav' };
    const t = tailOf(1);
    const rows = tailRows(t, names, 8, new Set(['0']));
    const row = (key: string) => rows.find((r) => r.key === key)!;
    assert.equal(row('0/prefill').medianText, 'median 84.9 ms');
    assert.equal(row('0/prefill').medianTitle, '');
    for (const key of ['1/genOther', '1/decode']) {
      assert.equal(row(key).medianText, 'after the target');
      assert.match(
        row(key).medianTitle,
        /in 5 of the 6 requests that measured it, it lies wholly after time to first audio \(stage 1 · code2wav\) ends/,
      );
      assert.match(row(key).medianTitle, /Not a 0 ms measurement/);
      assert.doesNotMatch(row(key).title, /0 ms/);
      assert.match(row(key).title, /over its median \(none of it before the target's end: in 5 of the 6 requests/);
    }
    // The same 0 without afterTarget is a measurement, shown as one.
    const { afterTarget: _a, ...measured } = t.parts[1]!;
    const plain = tailRows({ ...t, parts: [measured] }, names, 8);
    assert.equal(plain[0]!.medianText, 'median 0 ms');
    assert.equal(rows.at(-1)!.medianText, '');
  });

  test("under a first-output target, what a part's excess and median are over is said; under e2e and TTFT, where parts count whole, nothing", () => {
    const names = { '0': 'talker', '1': 'code2wav' };
    assert.equal(
      contributionNote('stage1.firstOutput', names),
      'Each part counts only up to time to first audio (stage 1 · code2wav): its excess and median are of its time before that first output, less than its own time where it runs on after it.',
    );
    assert.equal(contributionNote('e2e', names), null);
    assert.equal(contributionNote('stage0.ttft', names), null);
    // The side panel's short line: the note's first words.
    assert.equal(
      contributionLimit('stage1.firstOutput', names),
      'Each part counts only up to time to first audio (stage 1 · code2wav)',
    );
    assert.equal(
      contributionLimit('stage0.firstOutput', names),
      'Each part counts only up to stage 0 time to first output (talker)',
    );
    assert.equal(contributionLimit('e2e', names), null);
    assert.equal(contributionLimit('stage1.ttft', names), null);
  });

  test('the top parts, a single leftover named, the residual kept and named for what it is', () => {
    const names = { '0': 'talker', '1': 'code2wav' };
    // Under async chunk the codec ran alongside the talker: its parts are apart, after the others.
    // One part beyond the top is named, never folded as "1 other part".
    const rows = tailRows(tailOf(1), names, 1, new Set(['0']));
    assert.deepEqual(
      rows.map((r) => [r.label, r.kind]),
      [
        ['stage 0 · talker prefill+decode (one output)', 'part'],
        ['stage 0 · talker queued', 'part'],
        ['stage 1 · code2wav rest of gen time', 'overlap'],
        ['stage 1 · code2wav decode', 'overlap'],
        ['residual', 'residual'],
      ],
    );
    const residual = rows.at(-1)!;
    assert.ok(Math.abs(residual.excessMs - 0.9) < 1e-9, String(residual.excessMs));
    assert.ok(Math.abs((residual.share ?? 0) - 0.9 / 3900) < 1e-12);
    // Parts of the first stage that overlap each other: nothing to set apart, the residual says so.
    const t = tailOf(1);
    const firstOnly = {
      ...t,
      parts: [t.parts[0]!, { ...t.parts[2]!, key: '0/decode', stageId: 0, stageKey: '0', excessMs: 3000 }],
      residualMs: 3900 - 3899 - 3000,
    };
    const overlapping = tailRows(firstOnly, names, 3).at(-1)!;
    assert.deepEqual([overlapping.label, overlapping.excessMs], ['residual (overlap)', -2999]);
    assert.equal(targetText('stage1.firstOutput', names), 'time to first audio (stage 1 · code2wav)');
    assert.equal(targetText('stage0.ttft', names), 'stage 0 TTFT (talker)');
    assert.equal(targetText('e2e', names), 'end-to-end time');
    assert.equal(
      partText({ stageKey: null, phase: 'transfer', edge: '0->1', component: 'inFlight' }, names),
      '0 → 1 in flight',
    );
  });

  test('a part whose contribution no tail request measured: its own row with the reason, never a number', () => {
    const names = { '0': 'talker', '1': 'code2wav' };
    const t: TailAttribution = {
      ...tailOf(1),
      notMeasured: [
        {
          key: '1/genOther',
          stageId: 1,
          stageKey: '1',
          phase: 'genOther',
          withUnmeasuredPhases: true,
          reason: "stage 1's first output lies inside its gen time, which the log does not split",
        },
      ],
    };
    assert.deepEqual(notMeasuredRows(t, names), [
      {
        key: '1/genOther',
        label: 'stage 1 · code2wav gen time not split (no prefill/decode values)',
        title:
          "Not measured: stage 1's first output lies inside its gen time, which the log does not split. Its time is in the residual.",
        // The note the Tail tab and the side panel write under the bars (not only a hover).
        note: "Not measured: stage 1's first output lies inside its gen time, which the log does not split; its time is in the residual.",
      },
    ]);
    assert.deepEqual(notMeasuredRows(tailOf(1), names), []);
  });
});

describe('tail causes', () => {
  // The codec's TTFT at p99 on the upstream after-fix log: queued and prefill, and a residual
  // that is its wait for the talker's first-audio frame (TTFT 4,000 − queued 250 − prefill 500).
  const codecTtft = (waited: boolean): TailAttribution => ({
    target: 'stage1.ttft',
    quantile: 'p99',
    thresholdMs: 3810,
    requestCount: 1,
    scopeCount: 6,
    targetMedianMs: 148,
    excessMs: 3852,
    parts: [
      {
        key: '1/prefill',
        stageId: 1,
        stageKey: '1',
        phase: 'prefill',
        excessMs: 452,
        share: 452 / 3852,
        medianMs: 48,
        measuredIn: 1,
      },
      {
        key: '1/queued',
        stageId: 1,
        stageKey: '1',
        phase: 'queued',
        excessMs: 151,
        share: 151 / 3852,
        medianMs: 99,
        measuredIn: 1,
      },
    ],
    residualMs: 3852 - 452 - 151,
    ...(waited ? { ttftWaitedUpstream: { requests: 1, waitMs: 3250 } } : {}),
    requestIds: ['speech-628f'],
  });

  test("a downstream TTFT's residual that holds its wait upstream says so, in explain's words", () => {
    const names = { '0': 'talker', '1': 'code2wav' };
    const residual = tailRows(codecTtft(true), names, 6).at(-1)!;
    assert.equal(residual.kind, 'residual');
    assert.equal(
      residual.title,
      "In the tail request, stage 1 · code2wav's TTFT includes a wait for upstream output (finding ttft-includes-upstream-wait; +3.25 s on average over the tail): it runs to the first output handled, which waited for the stages upstream (under talker first audio, the talker's first-audio frame), so it counts time spent waiting upstream, not this stage's own queueing and prefill; that time is in the residual. Time to first audio (stage 1 · code2wav) measures it, with the upstream parts that make it.",
    );
    assert.equal(
      tailRows(codecTtft(false), names, 6).at(-1)!.title,
      'What no measured part explains (final output, orchestration, gaps between stages, parts not measured in some tail requests).',
    );
  });

  test('cold requests in the tail: how many and their share; the way to leave them out only when they make it', () => {
    const t = tailOf(4);
    assert.equal(tailColdNote({ ...t, coldRequests: 0, coldExcessMs: 0 }), null);
    assert.equal(
      tailColdNote({ ...t, coldRequests: 1, coldExcessMs: 975 }),
      'Cold start: 1 of 4 tail requests is cold (the first after a server boot), bringing +975 ms of the +3.90 s excess (25%).',
    );
    assert.equal(
      tailColdNote({ ...t, coldRequests: 2, coldExcessMs: 3500 }),
      'Cold start: 2 of 4 tail requests are cold (the first after a server boot), bringing +3.50 s of the +3.90 s excess (90%): this tail is mostly cold start, not steady-state serving. Exclude cold (Latency Details) leaves them out.',
    );
  });
});

describe('tail overlap note', () => {
  const names = { '0': 'talker', '1': 'code2wav' };
  const waitPart = (
    phase: 'inputWait' | 'queued',
    stageId: number,
    excessMs: number,
  ): TailAttribution['parts'][number] => ({
    key: `${stageId}/${phase}`,
    stageId,
    stageKey: String(stageId),
    phase,
    excessMs,
    share: excessMs / 3900,
    medianMs: 60,
    measuredIn: 1,
  });
  // The talker's parts alone (the codec's, which ran alongside it, have tests of their own below).
  const withParts = (parts: TailAttribution['parts']): TailAttribution => {
    const t = tailOf(1);
    const all = [...t.parts.filter((p) => p.stageId === 0), ...parts];
    return { ...t, parts: all, residualMs: t.excessMs - all.reduce((a, p) => a + p.excessMs, 0) };
  };

  test("names a downstream stage's input wait (or queued time) as the wait for the upstream parts when the residual is negative", () => {
    assert.equal(
      tailOverlapNote(withParts([waitPart('inputWait', 1, 3850)]), names, new Set(['0'])),
      'stage 1 · code2wav input wait (+3.85 s) is the wait for its input from the stages upstream: it runs while their parts do, the same time seen from downstream; shown apart and not added to them (no share; the residual leaves it out).',
    );
    // Without the input split, the downstream queued time holds the wait (and any wait for a slot, which
    // cannot be told apart): the largest such part is named, never as if all of it were the input wait.
    assert.equal(
      tailOverlapNote(withParts([waitPart('queued', 1, 5000), waitPart('inputWait', 1, 20)]), names),
      'stage 1 · code2wav queued (+5.00 s) holds the wait for its input from the stages upstream: it runs while their parts do, the same time seen from downstream; a queued time the log does not split (no vllm_input_wait_ms / vllm_ready_queued_ms) also holds any wait for a scheduling slot after the input came, which cannot be told apart from it; shown apart and not added to them (no share; the residual leaves it out).',
    );
  });

  test('the rows show the wait apart: no share, after the parts, and the residual without it', () => {
    const t = withParts([waitPart('inputWait', 1, 3850)]);
    const rows = tailRows(t, names, 8, new Set(['0']));
    const overlap = rows.filter((r) => r.kind === 'overlap');
    assert.deepEqual(
      overlap.map((r) => [r.key, r.label, r.excessMs, r.share]),
      [['1/inputWait', 'stage 1 · code2wav input wait', 3850, null]],
    );
    assert.ok(!rows.some((r) => r.kind === 'part' && r.key === '1/inputWait'), 'not among the parts');
    assert.deepEqual(
      rows.slice(-2).map((r) => r.kind),
      ['overlap', 'residual'],
    );
    const residual = rows.at(-1)!;
    assert.equal(residual.excessMs, t.residualMs + 3850);
    assert.ok(Math.abs(residual.excessMs - 0.9) < 1e-6, String(residual.excessMs));
    // The parts' and the residual's shares add up to the whole excess without the wait.
    const sum = rows.filter((r) => r.kind !== 'overlap').reduce((a, r) => a + r.excessMs, 0);
    assert.ok(Math.abs(sum - t.excessMs) < 1e-6, `${sum} vs ${t.excessMs}`);
    // Without a wait behind the overlap, the residual is the attribution's with the stage that ran alongside given back.
    const alongside = tailOf(1);
    assert.equal(tailRows(alongside, names, 8).at(-1)?.excessMs, alongside.residualMs + 1987 + 1250);
    // A queued time set apart: its row's title says it holds the input wait, not that it is all of it.
    const queued = tailRows(withParts([waitPart('queued', 1, 5000)]), names, 8).find((r) => r.kind === 'overlap');
    assert.match(
      queued?.title ?? '',
      /It holds the wait for its input from the stages upstream, the same time as their parts above seen from downstream \(a queued time the log does not split .* cannot be told apart from it\): shown apart/,
    );
  });

  test('a downstream stage that ran alongside its upstream (async chunk): its parts apart together, one sentence for the stage', () => {
    const t = tailOf(1);
    assert.equal(
      tailOverlapNote(t, names, new Set(['0'])),
      'stage 1 · code2wav ran alongside the stages upstream (async chunk feeds it as they produce), so its 2 parts (+3.24 s together) lie within their time, the same time seen from downstream; shown apart and not added to them (no share; the residual leaves it out).',
    );
    const rows = tailRows(t, names, 8, new Set(['0']));
    const overlap = rows.filter((r) => r.kind === 'overlap');
    assert.deepEqual(
      overlap.map((r) => [r.key, r.excessMs, r.share]),
      [
        ['1/genOther', 1987, null],
        ['1/decode', 1250, null],
      ],
    );
    assert.match(
      overlap[0]!.title,
      /stage 1 · code2wav ran alongside the stages upstream .*: shown apart, not added to them, no share\.$/,
    );
    // The parts and the residual add up to the target's excess without them.
    const sum = rows.filter((r) => r.kind !== 'overlap').reduce((a, r) => a + r.excessMs, 0);
    assert.ok(Math.abs(sum - t.excessMs) < 1e-6, `${sum} vs ${t.excessMs}`);
    // A downstream stage far longer than the overlap has time of its own beyond it: it stays in the
    // sum, but for what of the overlap (4,149.1) the upstream parts can hold (3,899.1): the same time.
    const longer = {
      ...t,
      excessMs: 10_000,
      parts: t.parts.map((p) => (p.key === '1/genOther' ? { ...p, excessMs: 9000 } : p)),
      residualMs: 10_000 - 3899 - 9000 - 1250 - 0.1,
    };
    const longerApart = additiveTail(longer).apart;
    assert.deepEqual(
      longerApart.map((a) => [a.part.key, Math.round(a.part.excessMs * 10) / 10, a.ofMs]),
      [['1/genOther', 3899.1, 9000]],
    );
    const longerRows = tailRows(longer, names, 8, new Set(['0']));
    assert.deepEqual(
      longerRows.filter((r) => r.key.startsWith('1/genOther')).map((r) => [r.key, r.kind]),
      [
        ['1/genOther', 'part'],
        ['1/genOther:withinUpstream', 'overlap'],
      ],
    );
    // An overlap within rounding (under 5% of the excess) sets nothing apart.
    const small = { ...t, parts: [t.parts[0]!, { ...t.parts[1]!, excessMs: 100 }], residualMs: 3900 - 3899 - 100 };
    assert.equal(additiveTail(small).apart.length, 0);
  });

  test('no note without a negative residual, or without a downstream part that adds to the tail', () => {
    const tail = tailOf(1);
    assert.equal(tailOverlapNote({ ...tail, residualMs: 12 }, names), null);
    // The residual is negative here, but the only queued part is the first stage's own, and no
    // downstream stage's parts hold the overlap (the talker's decode overlaps its prefill).
    const t = {
      ...tail,
      parts: [tail.parts[0]!, tail.parts[3]!, { ...tail.parts[2]!, key: '0/decode', stageId: 0, stageKey: '0' }],
      residualMs: 3900 - 3899 - 0.1 - 1250,
    };
    assert.ok(t.residualMs < 0);
    assert.equal(tailOverlapNote(t, names), null);
    const plus = (p: TailAttribution['parts'][number]): TailAttribution => ({
      ...t,
      parts: [...t.parts, p],
      residualMs: t.residualMs - p.excessMs,
    });
    assert.equal(tailOverlapNote(plus(waitPart('inputWait', 1, -5)), names), null);
    // A wait far smaller than the overlap is not what overlaps: no note rather than the wrong part.
    assert.equal(tailOverlapNote(plus(waitPart('queued', 1, 10)), names), null);
    // Under async chunk the waiting can sit in the downstream stage's rest of gen time: a small
    // wait beside it is not named as the wait, the stage is named as running alongside.
    assert.match(
      tailOverlapNote(
        { ...tail, parts: [...tail.parts, waitPart('queued', 1, 10)], residualMs: tail.residualMs - 10 },
        names,
      ) ?? '',
      /^stage 1 · code2wav ran alongside the stages upstream .* its 3 parts \(\+3\.25 s together\)/,
    );
  });
});

describe('over time geometry', () => {
  const series = {
    times: [10_000, 20_000, 30_000],
    stepMs: 10_000,
    windowMs: 30_000,
    span: { fromMs: 500, toMs: 30_000 },
    requestRate: [1, 2, 3],
    series: [],
    gauges: [],
  };

  test('a step without a value is a gap, never a point at 0', () => {
    const l = layoutOverTime(series, 676, false, { t0: 0, t1: 30_000 });
    const pane = l.panes[0]!;
    const pts = points(l, pane, series.times, [100, null, 50], 100);
    assert.equal(pts[1], null);
    assert.deepEqual(pts[0], { x: 64 + (10_000 / 30_000) * 600, y: pane.top });
    assert.deepEqual(pts[2], { x: 664, y: pane.top + pane.height / 2 });
  });

  test("without the Each request chart's view: the log's span, a little air either side, every point off the borders", () => {
    // A log within one step: its one point at the last finish.
    const one = { ...series, times: [12_500], span: { fromMs: 4_500, toMs: 12_500 }, requestRate: [0.6] };
    const l = layoutOverTime(one, 676, false);
    assert.deepEqual([l.t0, l.t1], [4_500 - 160, 4_500 + 8_160]);
    const [p] = points(l, l.panes[0]!, one.times, [50], 100);
    assert.ok(p!.x - 1.5 > l.x0 && p!.x + 1.5 < l.x1, JSON.stringify({ p, x0: l.x0, x1: l.x1 }));
  });

  test('a drag becomes a window on the log clock; a click does not', () => {
    const l = layoutOverTime(series, 676, false, { t0: 0, t1: 30_000 });
    assert.deepEqual(brushWindow(l, 364, 64), { fromMs: 0, toMs: 15_000 });
    assert.equal(brushWindow(l, 100, 102), null);
    // Beyond the plot: clamped to its ends.
    assert.deepEqual(brushWindow(l, 0, 2000), { fromMs: 0, toMs: 30_000 });
  });

  test('value axes: distinct labels with the decimals their step needs, 0 written as the others', () => {
    const labels = (max: number, unit: string, whole = false): string[] => {
      const a = valueAxis(max, unit, whole);
      return a.ticks.map((t) => a.format(t));
    };
    // 1 request in 80-odd seconds: 0.005/s steps.
    assert.deepEqual(labels(0.012, '/s'), ['0.000/s', '0.005/s', '0.010/s', '0.015/s']);
    assert.deepEqual(labels(0.67, '/s'), ['0.0/s', '0.5/s', '1.0/s']);
    assert.deepEqual(labels(2.4, '/s'), ['0/s', '1/s', '2/s', '3/s']);
    assert.deepEqual(labels(120, '/s'), ['0/s', '50/s', '100/s', '150/s']);
    assert.deepEqual(valueAxis(0.012, '/s').max, 0.015);
    // Nothing above 0 (a rate of 0/s in every step): still an axis, not a division by 0.
    assert.deepEqual(labels(0, '/s'), ['0.0/s', '0.5/s', '1.0/s']);
    // Requests running: whole requests only.
    assert.deepEqual(labels(1, '', true), ['0', '1']);
    assert.deepEqual(labels(7, '', true), ['0', '5', '10']);
    assert.deepEqual(labels(100, '%'), ['0%', '50%', '100%']);
    for (const max of [0.0013, 0.004, 0.02, 0.3, 1, 7.5, 42, 999])
      assert.equal(new Set(labels(max, '/s')).size, valueAxis(max, '/s').ticks.length, `labels of ${max} alike`);
  });
});

describe('over time: words', () => {
  const base = { stepMs: 30_000, windowMs: 120_000, gauges: [] };

  test('no request with a time: one sentence, no picker', () => {
    const empty = { ...base, times: [], span: null, requestRate: [], series: [] };
    assert.equal(overTimeEmptyText(null, false), 'Loading…');
    assert.equal(
      overTimeEmptyText(empty, false),
      "Nothing to chart over time: no request in this session has a log time yet. The rolling percentiles, the request rate and the engines' load appear here as requests finish.",
    );
    assert.match(overTimeEmptyText(empty, true) ?? '', /no request other than the cold ones/);
    // One boot picked: its requests are what is missing a time, not the session's.
    assert.equal(
      overTimeEmptyText(empty, false, 2),
      'Nothing to chart over time: no request of boot 2 has a log time.',
    );
    assert.equal(
      overTimeEmptyText(empty, true, 2),
      'Nothing to chart over time: no request of boot 2 other than its cold one has a log time.',
    );
    // One server picked (of a boot or not): that server's requests.
    assert.equal(
      overTimeEmptyText(empty, false, undefined, 'pod/vllm-omni-0/vllm'),
      'Nothing to chart over time: no request of server pod/vllm-omni-0/vllm has a log time.',
    );
    assert.equal(
      overTimeEmptyText(empty, true, 2, 'pod/vllm-omni-0/vllm'),
      'Nothing to chart over time: no request of server pod/vllm-omni-0/vllm in boot 2 other than the cold ones has a log time.',
    );
    assert.deepEqual(metricChoices(empty), []);
    const one = {
      ...base,
      times: [1],
      span: { fromMs: 1, toMs: 1 },
      requestRate: [null],
      series: [{ metric: 'e2e' as const, count: [3], p50: [1], p90: [1], p99: [1] }],
    };
    assert.equal(overTimeEmptyText(one, false), null);
    assert.deepEqual(metricChoices(one), ['e2e']);
    // A stage no request in scope measured (another boot's pipeline) is not offered.
    const otherBoot = {
      ...one,
      series: [...one.series, { metric: '2.firstOutput' as const, count: [0], p50: [null], p90: [null], p99: [null] }],
    };
    assert.deepEqual(metricChoices(otherBoot), ['e2e']);
  });

  test('a step without a rate says why; none missing, no note', () => {
    const series = (rate: (number | null)[], count: number[]) => ({
      ...base,
      times: rate.map((_, i) => i),
      span: { fromMs: 0, toMs: rate.length },
      requestRate: rate,
      series: [{ metric: 'e2e' as const, count, p50: count, p90: count, p99: count }],
    });
    assert.equal(rateNote(series([0.5, 0], [2, 2])), null);
    assert.equal(
      rateNote(series([null], [3])),
      'Requests per second: not shown, the log covers under 2 s, too short for a rate on a clock printed to the second.',
    );
    assert.equal(
      rateNote(series([null, 0.5], [1, 2])),
      'Requests per second: no value where a step covers under 2 s of the log, too short for a rate on a clock printed to the second.',
    );
    assert.equal(
      rateNote(series([null, null], [0, 0])),
      "Requests per second: not measured, no request in view has a log time (the load shown is the engines' own).",
    );
  });

  test("the gauges' scope follows the requests' caption: the boot and window they were cut to, cold cutting none", () => {
    const gauge = {
      stage: '0',
      replica: '0',
      source: 'log' as const,
      engine: '000',
      mapping: 'inferred' as const,
      running: [1],
      waiting: [0],
      kvCacheUsagePerc: [5],
    };
    const result = (scope: ExplainScope | null, gaugeScope: OverTimeResult['gaugeScope'], gauges = [gauge]) => ({
      sessionId: 's',
      series: { ...base, times: [1], span: { fromMs: 1, toMs: 1 }, requestRate: [null], series: [], gauges },
      scope,
      gaugeScope,
      requests: 3,
      sessionRequests: 9,
    });
    assert.equal(gaugeScopeText(result(null, null)), null);
    assert.equal(gaugeScopeText(result({ boot: 1 }, { boot: 1 }, [])), null);
    assert.equal(
      gaugeScopeText(result({ boot: 1 }, { boot: 1 })),
      "Running, waiting and KV cache usage: boot 1's readings only.",
    );
    assert.equal(
      gaugeScopeText(result({ boot: 1, excludeCold: true }, { boot: 1 })),
      "Running, waiting and KV cache usage: boot 1's readings only, cold left out or not (they are the engines' load, not a request's).",
    );
    assert.equal(
      gaugeScopeText(result({ excludeCold: true }, null)),
      "Running, waiting and KV cache usage: every reading, cold left out or not (they are the engines' load, not a request's).",
    );
    const at = Date.UTC(2026, 9, 22, 9, 30, 0);
    assert.equal(
      gaugeScopeText(result({ boot: 2, fromMs: at, toMs: at + 65_000 }, { boot: 2, fromMs: at, toMs: at + 65_000 })),
      "Running, waiting and KV cache usage: boot 2's readings within 09:30:00–09:31:05 only.",
    );
    // One server of a merged log: its own engines' readings (of a boot, when one is picked too).
    assert.equal(
      gaugeScopeText(result({ server: 'pod/a' }, { server: 'pod/a' })),
      "Running, waiting and KV cache usage: server pod/a's readings only.",
    );
    assert.equal(
      gaugeScopeText(result({ server: 'pod/a', boot: 1 }, { server: 'pod/a', boot: 1, fromMs: at, toMs: at + 65_000 })),
      "Running, waiting and KV cache usage: server pod/a's readings of boot 1 within 09:30:00–09:31:05 only.",
    );
  });
});

describe('over time and each request: one time axis', () => {
  const at = (s: number): number => Date.UTC(2026, 9, 19, 7, 12, s);
  // The Qwen3-TTS shape: requests finishing within seconds (one 4.472 s) on a 15 s step: one
  // rolling point, at the last finish.
  const series = {
    times: [at(10)],
    stepMs: 15_000,
    windowMs: 60_000,
    span: { fromMs: at(4), toMs: at(10) },
    requestRate: [0.5],
    series: [],
    gauges: [],
  };
  const index = buildSpanIndex({
    requestIds: ['a', 'b', 'c'],
    endMs: [at(4), at(6), at(10)],
    e2eMs: [4472, 1000, 800],
    slowestStage: ['1', '1', '0'],
    colourBy: 'slowestStage',
    slowestPhase: [],
    cold: [false, false, false],
  });

  test("the view is the log's span: the rolling point adds no time after it; both charts put an instant at one x", () => {
    const span = seriesSpan(series);
    assert.deepEqual(span, { t0: at(4), t1: at(10) });
    // First start 07:11:59.528 to the last end 07:12:10, 2% of that span (10,472 ms) either side:
    // the same view as the requests' own.
    const view = fullView(index, span);
    assert.deepEqual(view, fullView(index));
    assert.deepEqual(view, { t0: at(0) - 472 - 209.44, t1: at(10) + 209.44 });
    const width = 676;
    const l = layoutOverTime(series, width, false, view);
    const { x0, x1 } = timePlotX(width);
    assert.deepEqual([l.x0, l.x1, x0, x1], [64, 664, 64, 664]);
    const box = { left: x0, top: 10, width: x1 - x0, height: 326 };
    for (const t of [at(4), at(10), view.t0, view.t1]) assert.equal(xOfTime(l, t), xOf(view, box, t));
    // The slow request's end is at 07:12:04: (4 s + 472 ms + 209.44 ms) of 10,890.88 ms into 600 px.
    const slowX = xOfTime(l, at(4));
    assert.ok(Math.abs(slowX - (64 + (4681.44 / 10_890.88) * 600)) < 1e-3, String(slowX));
    // The rolling point, at the last finish, is inside the plot, whole (a 3 px dot).
    const pointX = xOfTime(l, at(10));
    assert.ok(pointX + 1.5 < x1 && pointX > x1 - 20, String(pointX));
    // No request: the Over Time span alone.
    const empty = buildSpanIndex({
      requestIds: [],
      endMs: [],
      e2eMs: [],
      slowestStage: [],
      colourBy: 'slowestStage',
      slowestPhase: [],
      cold: [],
    });
    assert.deepEqual(fullView(empty, span), { t0: at(4) - 120, t1: at(10) + 120 });
  });

  test("a zoom kept for new spans: clamped to them, or dropped when it holds none of them (another session's)", () => {
    // Zoomed on a demo session at 09:30-09:31 of another day; the next session is this one.
    const demoZoom = { t0: Date.UTC(2026, 9, 20, 9, 30, 10), t1: Date.UTC(2026, 9, 20, 9, 30, 40) };
    assert.equal(keptView(demoZoom, index), null);
    assert.equal(keptView(demoZoom, index, seriesSpan(series)), null);
    assert.equal(keptView(null, index), null);
    // A zoom on this session's own seconds stays, clamped to its whole view.
    assert.deepEqual(keptView({ t0: at(3), t1: at(7) }, index), { t0: at(3), t1: at(7) });
    // One reaching past the session's end, wider than its whole view: that whole view.
    assert.deepEqual(keptView({ t0: at(8), t1: at(20) }, index), fullView(index));
  });

  test('time labels are the log clock as printed, on its round seconds', () => {
    const ticks = timeTicks(at(0) - 1081.44, at(30) + 609.44, 5, false);
    assert.deepEqual(
      ticks.map((t) => formatLogClock(t, false)),
      ['07:12:00', '07:12:10', '07:12:20', '07:12:30'],
    );
    assert.equal(formatLogClock(at(4) + 7, true), '07:12:04.007');
  });

  test('time tick labels carry the precision their spacing needs, no trailing zeros', () => {
    const labelled = (t0: number, t1: number, count: number): string[] => {
      const step = timeTickStep(t0, t1, count);
      return timeTicks(t0, t1, count, false).map((t) => timeTickText(t, step));
    };
    // Whole seconds under 10 s: no ".000".
    assert.deepEqual(labelled(at(0), at(8), 4), ['07:12:00', '07:12:02', '07:12:04', '07:12:06', '07:12:08']);
    // Whole minutes: no ":00" seconds.
    assert.deepEqual(labelled(at(0), at(0) + 20 * 60_000, 4), ['07:15', '07:20', '07:25', '07:30']);
    // Under a second: the digits the step needs (each label as many), a whole second without them.
    assert.deepEqual(labelled(at(4) - 400, at(4) + 400, 4), [
      '07:12:03.6',
      '07:12:03.8',
      '07:12:04',
      '07:12:04.2',
      '07:12:04.4',
    ]);
    assert.deepEqual(labelled(at(4), at(4) + 100, 5), [
      '07:12:04',
      '07:12:04.02',
      '07:12:04.04',
      '07:12:04.06',
      '07:12:04.08',
      '07:12:04.10',
    ]);
  });

  test('a duration axis labels every tick in one unit, chosen from its range', () => {
    const labels = (maxMs: number, count = 4): string[] => {
      const a = durationAxis(maxMs, count);
      return a.ticks.map((t) => a.format(t));
    };
    // Not "500 ms" beside "1 s".
    assert.deepEqual(labels(950), ['0 s', '0.5 s', '1.0 s']);
    assert.deepEqual(labels(1400, 3), ['0 s', '0.5 s', '1.0 s', '1.5 s']);
    assert.equal(durationAxis(1400, 3).max, 1500);
    assert.deepEqual(durationAxis(1400, 3).ticks, [0, 500, 1000, 1500]);
    assert.deepEqual(labels(450), ['0 ms', '200 ms', '400 ms', '600 ms']);
    assert.deepEqual(labels(4472), ['0 s', '2 s', '4 s', '6 s']);
    assert.deepEqual(labels(90_000), ['0 s', '50 s', '100 s']);
    // From 2 min, ticks are nice in minutes.
    assert.deepEqual(labels(300_000), ['0 min', '2 min', '4 min', '6 min']);
    assert.deepEqual(durationAxis(300_000).ticks, [0, 120_000, 240_000, 360_000]);
    assert.deepEqual(labels(12.3), ['0 ms', '5 ms', '10 ms', '15 ms']);
  });
});

test('a gauge is named by its stage, replica and source, and in a merged log by its server', () => {
  const gauge = {
    stage: '0',
    replica: '0',
    source: 'log' as const,
    engine: 'Engine 000',
    mapping: 'inferred' as const,
    running: [],
    waiting: [],
    kvCacheUsagePerc: [],
  };
  assert.equal(gaugeName(gauge, { '0': 'talker' }), 'stage 0 · talker replica 0 (log)');
  assert.equal(
    gaugeName({ ...gauge, server: 'pod/vllm-omni-1/vllm' }, { '0': 'talker' }),
    'pod/vllm-omni-1/vllm: stage 0 · talker replica 0 (log)',
  );
  assert.equal(gaugeName({ ...gauge, stage: null, replica: null }, {}), 'Engine 000 (log)');
});
