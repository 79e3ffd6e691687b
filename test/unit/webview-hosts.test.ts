// The extension-side hosts' pure parts: the session feed (coalescing, dedup, visibility)
// and the latency panel's query answers, with a fake data source.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type {
  HostToWebview,
  RequestParams,
  RequestResult,
  ServerRequestMethod,
  SessionInfo,
  SummaryResult,
} from '../../server/protocol';
import type { LatencyDataSource } from '../../src/views/dataSource';
import { answerPanelQuery } from '../../src/views/panelQueries';
import type { FeedLog } from '../../src/views/answerHealth';
import { SessionFeed } from '../../src/views/sessionFeed';

const session = (id: string, requestCount = 1): SessionInfo => ({
  id,
  kind: 'launch',
  description: 'vllm serve',
  title: 'vllm',
  startedAt: 0,
  status: 'running',
  requestCount,
  deployConfig: null,
  lastError: null,
  exit: null,
  problemCount: 0,
});

const summaryOf = (sessionId: string, requestCount: number): SummaryResult => ({
  sessionId,
  requestCount,
  stages: [],
  findings: [],
  histograms: [],
  prometheus: null,
  endToEnd: null,
  tablesMissing: null,
  edges: [],
});

class FakeSource implements LatencyDataSource {
  current: SessionInfo | null = session('s1');
  calls: { method: string; params: unknown }[] = [];
  count = 1;
  delayMs = 0;
  fail = false;
  private listeners: ((s: SessionInfo | null) => void)[] = [];

  readonly onDidChangeSession = (listener: (s: SessionInfo | null) => void): { dispose(): void } => {
    this.listeners.push(listener);
    return { dispose: () => (this.listeners = this.listeners.filter((l) => l !== listener)) };
  };

  fire(): void {
    for (const l of this.listeners) l(this.current);
  }

  async start(): Promise<void> {}

  currentSession(): SessionInfo | null {
    return this.current;
  }

  stageNames(): Readonly<Record<string, string>> {
    return { '0': 'talker' };
  }

  summary(session: SessionInfo): Promise<SummaryResult> {
    return this.request('stageLens/summary', { sessionId: session.id });
  }

  async request<M extends ServerRequestMethod>(method: M, params: RequestParams<M>): Promise<RequestResult<M>> {
    this.calls.push({ method, params });
    await new Promise((r) => setTimeout(r, this.delayMs));
    if (this.fail) throw new Error('server gone');
    const p = params as { sessionId: string };
    const answers: Partial<Record<ServerRequestMethod, unknown>> = {
      'stageLens/summary': summaryOf(p.sessionId, this.count),
      'stageLens/requests': { total: 1, offset: 0, requests: [] },
      'stageLens/request': null,
      'stageLens/histogram': {
        metric: 'm',
        stageKey: '0',
        edges: [],
        counts: [],
        notMeasured: 0,
        hidden: 0,
        notRecorded: 0,
      },
      'stageLens/requestSpans': {
        scope: null,
        sessionRequests: 0,
        requestIds: [],
        endMs: [],
        e2eMs: [],
        slowestStage: [],
        colourBy: 'slowestStage',
        slowestPhase: [],
        cold: [],
      },
    };
    return answers[method] as RequestResult<M>;
  }
}

const tick = (ms = 30): Promise<void> => new Promise((r) => setTimeout(r, ms));

function feedWith(source: FakeSource, visible = { value: true }): { feed: SessionFeed; posted: HostToWebview[] } {
  const posted: HostToWebview[] = [];
  const feed = new SessionFeed(source, { post: (m) => void posted.push(m), isVisible: () => visible.value }, 5);
  return { feed, posted };
}

/** A feed for a view that shows the tail too (the side panel). */
function feedWithTail(source: FakeSource): { feed: SessionFeed; posted: HostToWebview[] } {
  const posted: HostToWebview[] = [];
  const feed = new SessionFeed(source, { post: (m) => void posted.push(m), isVisible: () => true, wantsTail: true }, 5);
  return { feed, posted };
}

describe('session feed', () => {
  test('a boot picked: the summary and the tail are asked for that boot, in the session it was picked in only', async () => {
    const source = new FakeSource();
    const { feed } = feedWithTail(source);
    await feed.resend();
    source.calls = [];
    feed.selectBoot('s1', 2);
    await until(() => source.calls.length >= 2);
    await tick();
    // In either order: a tail round already scheduled asks for the boot too.
    assert.deepEqual(
      [...source.calls].sort((a, b) => a.method.localeCompare(b.method)),
      [
        { method: 'stageLens/summary', params: { sessionId: 's1', scope: { boot: 2 } } },
        { method: 'stageLens/tailAttribution', params: { sessionId: 's1', scope: { boot: 2 } } },
      ],
    );
    // Another session shows every boot; back to all boots asks the shared summary again.
    source.calls = [];
    source.current = session('s2');
    source.fire();
    await until(() => source.calls.length >= 1);
    assert.deepEqual(source.calls[0], { method: 'stageLens/summary', params: { sessionId: 's2' } });
    source.current = session('s1');
    feed.selectBoot('s1', null);
    source.calls = [];
    source.fire();
    await until(() => source.calls.length >= 1);
    assert.deepEqual(source.calls[0], { method: 'stageLens/summary', params: { sessionId: 's1' } });
    feed.dispose();
  });

  test("a server picked: the summary and the tail are that server's, with the boot picked too, in its session only", async () => {
    const source = new FakeSource();
    const { feed } = feedWithTail(source);
    await feed.resend();
    source.calls = [];
    feed.selectServer('s1', 'pod/vllm-omni-0/vllm');
    await until(() => source.calls.length >= 2);
    await tick();
    const sorted = (): { method: string; params: unknown }[] =>
      [...source.calls].sort((a, b) => a.method.localeCompare(b.method));
    assert.deepEqual(sorted(), [
      { method: 'stageLens/summary', params: { sessionId: 's1', scope: { server: 'pod/vllm-omni-0/vllm' } } },
      { method: 'stageLens/tailAttribution', params: { sessionId: 's1', scope: { server: 'pod/vllm-omni-0/vllm' } } },
    ]);
    // A boot picked as well: that server's requests of that boot.
    source.calls = [];
    feed.selectBoot('s1', 2);
    await until(() => source.calls.length >= 2);
    await tick(1100);
    assert.deepEqual(sorted(), [
      { method: 'stageLens/summary', params: { sessionId: 's1', scope: { boot: 2, server: 'pod/vllm-omni-0/vllm' } } },
      {
        method: 'stageLens/tailAttribution',
        params: { sessionId: 's1', scope: { boot: 2, server: 'pod/vllm-omni-0/vllm' } },
      },
    ]);
    // (A tail round a pick scheduled may ask too: the summary asked is what is checked.)
    const summaryAsked = async (): Promise<unknown> => {
      await until(() => source.calls.some((c) => c.method === 'stageLens/summary'));
      return source.calls.find((c) => c.method === 'stageLens/summary')?.params;
    };
    // Another session shows every server and boot: the picks were made in s1.
    source.calls = [];
    source.current = session('s2');
    source.fire();
    assert.deepEqual(await summaryAsked(), { sessionId: 's2' });
    // A server picked in s2 replaces s1's; back in s1, its boot is still picked, its server not.
    feed.selectServer('s2', 'web-1');
    source.current = session('s1');
    source.calls = [];
    source.fire();
    assert.deepEqual(await summaryAsked(), { sessionId: 's1', scope: { boot: 2 } });
    // Back to every server and boot: the shared summary again.
    feed.selectServer('s1', null);
    feed.selectBoot('s1', null);
    source.calls = [];
    source.fire();
    assert.deepEqual(await summaryAsked(), { sessionId: 's1' });
    feed.dispose();
  });

  test('resend posts the session (with role names) and then its summary', async () => {
    const source = new FakeSource();
    const { feed, posted } = feedWith(source);
    await feed.resend();
    assert.deepEqual(
      posted.map((m) => m.type),
      ['session', 'summary'],
    );
    assert.deepEqual(posted[0], { type: 'session', session: source.current, stageNames: { '0': 'talker' } });
    feed.dispose();
  });

  test('a burst of changes becomes one summary request; an unchanged summary is not posted again', async () => {
    const source = new FakeSource();
    const { feed, posted } = feedWith(source);
    await feed.resend();
    source.calls = [];
    for (let i = 0; i < 10; i++) source.fire();
    await until(() => source.calls.length >= 1);
    await tick();
    assert.equal(source.calls.length, 1);
    assert.deepEqual(
      posted.map((m) => m.type),
      ['session', 'summary'],
    );
    source.count = 2;
    source.fire();
    await until(() => posted.length >= 3);
    assert.deepEqual(
      posted.map((m) => m.type),
      ['session', 'summary', 'summary'],
    );
    feed.dispose();
  });

  test('changes during a slow request fold into one more round', async () => {
    const source = new FakeSource();
    source.delayMs = 40;
    const { feed } = feedWith(source);
    source.fire();
    await tick(10);
    for (let i = 0; i < 5; i++) source.fire();
    await tick(150);
    assert.equal(source.calls.length, 2);
    feed.dispose();
  });

  test('a hidden view is not fed; it catches up when shown', async () => {
    const source = new FakeSource();
    const visible = { value: false };
    const { feed, posted } = feedWith(source, visible);
    source.fire();
    await tick();
    assert.equal(posted.length, 0);
    visible.value = true;
    feed.visibilityChanged();
    await tick();
    assert.deepEqual(
      posted.map((m) => m.type),
      ['session', 'summary'],
    );
    feed.dispose();
  });

  test('no session: the page is told so, and no summary is asked for', async () => {
    const source = new FakeSource();
    source.current = null;
    const { feed, posted } = feedWith(source);
    await feed.resend();
    assert.deepEqual(posted, [{ type: 'session', session: null, stageNames: {} }]);
    assert.equal(source.calls.length, 0);
    feed.dispose();
  });

  test('a summary for a session switched away from meanwhile is dropped', async () => {
    const source = new FakeSource();
    source.delayMs = 30;
    const { feed, posted } = feedWith(source);
    const done = feed.resend();
    await tick(5);
    source.current = session('s2');
    await done;
    assert.deepEqual(
      posted.map((m) => m.type),
      ['session'],
    );
    feed.dispose();
  });

  test('a failing summary request becomes an error message', async () => {
    const source = new FakeSource();
    source.fail = true;
    const { feed, posted } = feedWith(source);
    await feed.resend();
    assert.equal(posted[1]?.type, 'error');
    feed.dispose();
  });

  test('after dispose, changes are ignored', async () => {
    const source = new FakeSource();
    const { feed, posted } = feedWith(source);
    feed.dispose();
    source.fire();
    await tick();
    assert.equal(posted.length, 0);
  });
});

/** The feed's promise, or 'stuck' if it has not settled within `ms` (a feed that waits forever fails, not hangs). */
const settles = (p: Promise<void>, ms = 500): Promise<'settled' | 'stuck'> =>
  Promise.race([p.then(() => 'settled' as const), tick(ms).then(() => 'stuck' as const)]);

/** Waits (real time, polling) until `done` holds or `ms` pass: robust on a busy machine, and a feed that never gets there fails the assertion after. */
async function until(done: () => boolean, ms = 2000): Promise<void> {
  for (const deadline = Date.now() + ms; !done() && Date.now() < deadline;) await tick(5);
}

describe('session feed: nothing holds it forever', () => {
  // VS Code 1.100 keeps webview.postMessage's promise unsettled until the webview's frame is ready;
  // a frame that is replaced (a reload, a re-created view) may never be.
  test('a post whose promise never settles: later changes and a reloaded page still get the session', async () => {
    const source = new FakeSource();
    const posted: HostToWebview[] = [];
    let frameReady = false;
    const feed = new SessionFeed(
      source,
      {
        post: (m) => {
          posted.push(m);
          return frameReady ? true : new Promise<boolean>(() => undefined);
        },
        isVisible: () => true,
      },
      5,
    );
    source.fire(); // the first round posts into the frame that never becomes ready
    await until(() => posted.length >= 2);
    frameReady = true;
    source.current = session('s2', 33);
    source.count = 33;
    source.fire();
    await until(() => posted.length >= 4);
    assert.deepEqual(
      posted.map((m) => (m.type === 'session' ? `session ${m.session?.id}` : m.type)),
      ['session s1', 'summary', 'session s2', 'summary'],
    );
    // The reloaded page says ready: it is sent the current session and summary at once.
    posted.length = 0;
    assert.equal(await settles(feed.resend()), 'settled');
    assert.deepEqual(posted, [
      { type: 'session', session: source.current, stageNames: { '0': 'talker' } },
      { type: 'summary', summary: summaryOf('s2', 33) },
    ]);
    feed.dispose();
  });

  test('a summary that never comes: a reloaded page gets the session now, and the summary is asked again', async () => {
    const source = new FakeSource();
    let hang = true;
    const answer = source.summary.bind(source);
    source.summary = (s) => (hang ? new Promise<SummaryResult>(() => undefined) : answer(s));
    const posted: HostToWebview[] = [];
    const { log, lines } = recordingLog();
    const feed = new SessionFeed(source, { post: (m) => void posted.push(m), isVisible: () => true }, 5, log, 100);
    source.fire();
    await until(() => posted.length >= 1);
    posted.length = 0;
    // The page reloads while that round still waits: it is not held behind it.
    const resent = feed.resend();
    assert.deepEqual(posted, [{ type: 'session', session: source.current, stageNames: { '0': 'talker' } }]);
    hang = false; // the server answers again: the next round, after the wait, gets it
    assert.equal(await settles(resent), 'settled');
    await until(() => posted.length >= 2);
    assert.deepEqual(
      posted.map((m) => m.type),
      ['session', 'summary'],
    );
    assert.match(
      lines[0] ?? '',
      /^warn Stage Lens view: session summary: no answer from the language server within 100 ms/,
    );
    feed.dispose();
  });
});

function recordingLog(): { log: FeedLog; lines: string[] } {
  const lines: string[] = [];
  return { log: { warn: (l) => lines.push(`warn ${l}`), info: (l) => lines.push(`info ${l}`) }, lines };
}

describe('session feed: a server that does not answer leaves a trace in the log', () => {
  test('minutes of timed-out rounds log one warning, and one line when answers come again', async (t) => {
    const source = new FakeSource();
    let hang = true;
    let asked = 0;
    const answer = source.summary.bind(source);
    source.summary = (s) => (asked++, hang ? new Promise<SummaryResult>(() => undefined) : answer(s));
    const { log, lines } = recordingLog();
    const posted: HostToWebview[] = [];
    const feed = new SessionFeed(
      source,
      { post: (m) => void posted.push(m), isVisible: () => true, name: 'side panel' },
      5,
      log,
      20,
    );
    // A failed assertion must not leave the feed asking forever (the process would not end).
    t.after(() => feed.dispose());
    source.fire();
    // A timed-out round asks again by itself: many rounds, and more changes on top.
    await until(() => asked >= 6);
    source.fire();
    await until(() => asked >= 8);
    assert.deepEqual(lines, [
      'warn side panel: session summary: no answer from the language server within 20 ms; ' +
        'the view keeps what it shows and asks again (logged once until it answers)',
    ]);
    hang = false;
    await until(() => posted.some((m) => m.type === 'summary'));
    assert.equal(lines.length, 2);
    assert.match(
      lines[1] ?? '',
      /^info side panel: session summary: answered again, after \d+ rounds without an answer over \d/,
    );
    const rounds = Number(/after (\d+) rounds/.exec(lines[1] ?? '')?.[1]);
    assert.ok(rounds >= 6, `${rounds} rounds counted`);
    // Answers keep coming: nothing more is logged.
    source.count = 2;
    source.fire();
    await until(() => posted.filter((m) => m.type === 'summary').length >= 2);
    assert.equal(lines.length, 2);
    feed.dispose();
  });

  test('a failing answer is logged once per outage with its reason; a timeout in the same outage once more', async (t) => {
    const source = new FakeSource();
    const { log, lines } = recordingLog();
    const posted: HostToWebview[] = [];
    const feed = new SessionFeed(source, { post: (m) => void posted.push(m), isVisible: () => true }, 5, log, 30);
    t.after(() => feed.dispose());
    source.fail = true;
    for (let i = 0; i < 4; i++) {
      source.fire();
      await until(() => posted.filter((m) => m.type === 'error').length > i);
    }
    assert.equal(posted.filter((m) => m.type === 'error').length, 4);
    assert.deepEqual(lines, [
      "warn Stage Lens view: session summary: the language server's answer failed: server gone (logged once until it answers)",
    ]);
    // Then the server is slow: the rounds time out (and ask again by themselves).
    source.fail = false;
    source.delayMs = 200;
    const asked = source.calls.length;
    source.fire();
    await until(() => source.calls.length >= asked + 3);
    assert.equal(lines.length, 2);
    assert.match(
      lines[1] ?? '',
      /^warn Stage Lens view: session summary: no answer from the language server within 30 ms/,
    );
    source.delayMs = 0;
    await until(() => posted.some((m) => m.type === 'summary'));
    assert.equal(lines.length, 3);
    assert.match(
      lines[2] ?? '',
      /^info Stage Lens view: session summary: answered again, after (\d+) rounds without an answer over/,
    );
    assert.ok(Number(/after (\d+) rounds/.exec(lines[2] ?? '')?.[1]) >= 7);
    feed.dispose();
  });
});

describe('latency panel queries', () => {
  test('each query goes to its server method with the current session id; seq is echoed', async () => {
    const source = new FakeSource();
    assert.deepEqual(
      await answerPanelQuery(
        { type: 'queryRequests', seq: 7, params: { offset: 200, limit: 200, sortBy: '1.prefillMs' } },
        source,
      ),
      {
        type: 'requestPage',
        seq: 7,
        page: { total: 1, offset: 0, requests: [] },
      },
    );
    assert.deepEqual(source.calls[0], {
      method: 'stageLens/requests',
      params: { offset: 200, limit: 200, sortBy: '1.prefillMs', sessionId: 's1' },
    });
    assert.equal((await answerPanelQuery({ type: 'queryRequest', requestId: 'r' }, source)).type, 'requestDetail');
    assert.deepEqual(source.calls[1], { method: 'stageLens/request', params: { sessionId: 's1', requestId: 'r' } });
    const h = await answerPanelQuery(
      { type: 'queryHistogram', seq: 9, params: { stageKey: '0', metric: 'split:prefillMs', bins: 40 } },
      source,
    );
    assert.equal(h.type === 'histogram' && h.seq, 9);
    // The answer names the session it is for: the page drops one for a session no longer shown.
    const spans = await answerPanelQuery({ type: 'querySpans', seq: 4 }, source);
    assert.equal(spans.type === 'spans' && spans.sessionId, 's1');
    assert.equal(spans.type === 'spans' && spans.seq, 4);
    assert.deepEqual(source.calls[3], { method: 'stageLens/requestSpans', params: { sessionId: 's1' } });
    // The chart is of the scope every view is over: asked of the server, not filtered in the page.
    await answerPanelQuery({ type: 'querySpans', seq: 5, scope: { boot: 1, excludeCold: true } }, source);
    assert.deepEqual(source.calls[4], {
      method: 'stageLens/requestSpans',
      params: { sessionId: 's1', scope: { boot: 1, excludeCold: true } },
    });
  });

  test('no session or a failing server: an error message, not a throw', async () => {
    const source = new FakeSource();
    source.current = null;
    assert.equal((await answerPanelQuery({ type: 'querySpans', seq: 1 }, source)).type, 'error');
    source.current = session('s1');
    source.fail = true;
    const answer = await answerPanelQuery({ type: 'queryRequest', requestId: 'x' }, source);
    assert.equal(answer.type, 'error');
    assert.match(answer.type === 'error' ? answer.message : '', /server gone/);
  });
});
