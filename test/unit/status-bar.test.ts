// The status bar's pure parts: what the item says (statusBarView) and the feed that asks the
// language server for the summary (StatusBarFeed), with a fake data source whose answers the
// test settles: an answer that fails or does not come leaves the last numbers marked not
// current (reason in the tooltip), logged once per outage; the next answer makes them current.
import assert from 'node:assert/strict';
import { test, type TestContext } from 'node:test';
import type {
  RequestParams,
  RequestResult,
  ServerRequestMethod,
  SessionInfo,
  SummaryResult,
} from '../../server/protocol';
import type { FeedLog } from '../../src/views/answerHealth';
import { StatusBarFeed } from '../../src/statusBarFeed';
import { statusBarView, type StatusBarView } from '../../src/statusBarView';
import { formatDurationMs } from '../../webview/shared/format';

const session = (requestCount: number, status: SessionInfo['status'] = 'running'): SessionInfo => ({
  id: 's1',
  kind: 'tail',
  description: '/var/log/vllm.log',
  title: 'vllm.log',
  startedAt: 0,
  status,
  requestCount,
  deployConfig: null,
  lastError: null,
  exit: null,
  problemCount: 0,
});

const summary = (requestCount: number, e2eP50: number): SummaryResult => ({
  sessionId: 's1',
  requestCount,
  stages: [],
  findings: [],
  histograms: [],
  prometheus: null,
  endToEnd: {
    ms: { count: requestCount, mean: e2eP50, p50: e2eP50, p90: e2eP50, p99: e2eP50, max: e2eP50 },
    fromOmniTiming: 0,
  },
  tablesMissing: null,
  edges: [],
});

interface Pending {
  resolve(s: SummaryResult): void;
  reject(err: Error): void;
}

class FakeSource {
  current: SessionInfo | null = session(3);
  readonly asked: Pending[] = [];
  private listener: ((s: SessionInfo | null) => void) | null = null;
  readonly onDidChangeSession = (l: (s: SessionInfo | null) => void): { dispose(): void } => {
    this.listener = l;
    return { dispose: () => (this.listener = null) };
  };
  currentSession(): SessionInfo | null {
    return this.current;
  }
  summary(): Promise<SummaryResult> {
    return new Promise((resolve, reject) => this.asked.push({ resolve, reject }));
  }
  /** `stageLens/summary` of one boot (the params asked, in order). */
  readonly askedBoot: { params: RequestParams<'stageLens/summary'>; answer: Pending }[] = [];
  request<M extends ServerRequestMethod>(method: M, params: RequestParams<M>): Promise<RequestResult<M>> {
    assert.equal(method, 'stageLens/summary');
    return new Promise((resolve, reject) =>
      this.askedBoot.push({
        params: params as RequestParams<'stageLens/summary'>,
        answer: { resolve: (s) => resolve(s as RequestResult<M>), reject },
      }),
    );
  }
  change(s: SessionInfo): void {
    this.current = s;
    this.listener?.(s);
  }
}

const tick = (ms = 5): Promise<void> => new Promise((r) => setTimeout(r, ms));

function feed(t: TestContext, waitMs = 10_000) {
  const source = new FakeSource();
  const shown: StatusBarView[] = [];
  const lines: string[] = [];
  const log: FeedLog = { warn: (l) => lines.push(`warn ${l}`), info: (l) => lines.push(`info ${l}`) };
  const f = new StatusBarFeed(
    source,
    (s, sum, outage, lastBoot) => {
      if (s !== null) shown.push(statusBarView(s, sum, outage, lastBoot));
    },
    log,
    waitMs,
  );
  t.after(() => f.dispose());
  return { source, shown, lines };
}

test('a failed summary keeps the last numbers marked not current, logged once; the next answer is current again', async (t) => {
  const { source, shown, lines } = feed(t);
  source.change(session(3));
  source.asked[0]!.resolve(summary(3, 812));
  await tick();
  assert.deepEqual(shown.at(-1), {
    text: '$(pulse) 3 req · e2e p50 812 ms',
    label: 'Stage Lens: running, 3 requests, e2e p50 812 ms',
    tooltip: 'Stage Lens: vllm.log\nrunning · /var/log/vllm.log\nClick to open Latency Details.',
    tone: null,
  });

  source.change(session(5));
  source.asked[1]!.reject(new Error('Pending response rejected since connection got disposed'));
  await tick();
  source.change(session(6));
  source.asked[2]!.reject(new Error('Pending response rejected since connection got disposed'));
  await tick();
  assert.deepEqual(shown.at(-1), {
    text: '$(warning) 6 req · e2e p50 812 ms · not current',
    label: 'Stage Lens: running, 6 requests, e2e p50 812 ms, not current: the language server is not answering',
    tooltip:
      'Stage Lens: vllm.log\nrunning · /var/log/vllm.log\n' +
      'Not current: the language server is not answering (Pending response rejected since connection got disposed); these are the last numbers it gave.\n' +
      'Click to open Latency Details.',
    tone: 'warning',
  });
  assert.deepEqual(lines, [
    "warn status bar: session summary: the language server's answer failed: Pending response rejected since connection got disposed (logged once until it answers)",
  ]);

  source.change(session(7));
  source.asked[3]!.resolve(summary(7, 640));
  await tick();
  assert.equal(shown.at(-1)?.text, '$(pulse) 7 req · e2e p50 640 ms');
  assert.equal(shown.at(-1)?.tone, null);
  assert.equal(lines.length, 2);
  assert.match(lines[1]!, /^info status bar: session summary: answered again, after 2 rounds without an answer/);
});

test('a summary that does not come within the wait is marked not current, waited for again, and current when it comes', async (t) => {
  const { source, shown, lines } = feed(t, 40);
  source.change(session(2));
  await tick(70);
  assert.equal(shown.at(-1)?.text, '$(warning) 2 req · not current');
  assert.match(shown.at(-1)!.tooltip, /Not current: the language server is not answering \(no answer within 40 ms\)/);
  assert.equal(lines.length, 1);
  assert.match(
    lines[0]!,
    /^warn status bar: session summary: no answer from the language server within 40 ms; the view keeps/,
  );
  // Asked again meanwhile (the client answers a session's revision once: the same request).
  assert.ok(source.asked.length >= 2);
  source.asked.at(-1)!.resolve(summary(2, 900));
  await tick();
  assert.equal(shown.at(-1)?.text, '$(pulse) 2 req · e2e p50 900 ms');
});

test("an older round's late answer does not replace a newer one's", async (t) => {
  const { source, shown } = feed(t);
  source.change(session(1));
  source.change(session(2));
  source.asked[1]!.resolve(summary(2, 500));
  await tick();
  source.asked[0]!.reject(new Error('late failure'));
  await tick();
  assert.equal(shown.length, 1);
  assert.equal(shown[0]?.text, '$(pulse) 2 req · e2e p50 500 ms');
});

test('a live session with no request yet says it is waiting for the first one', () => {
  const view = statusBarView(session(0), null, null);
  assert.equal(view.text, '$(pulse) 0 req');
  assert.match(view.tooltip, /\nWaiting for the first request: a request shows once the server prints its stats/);
  assert.doesNotMatch(statusBarView(session(0, 'stopped'), null, null).tooltip, /Waiting/);
});

test("the headline latency is written as the side panel's headline writes it: 2.04 s, not 2,044 ms", () => {
  const view = statusBarView(session(3, 'stopped'), summary(3, 2044.4), null);
  assert.equal(view.text, '$(history) 3 req · e2e p50 2.04 s');
  assert.equal(view.label, 'Stage Lens: stopped, 3 requests, e2e p50 2.04 s');
  // The side panel's trend shows the same p50 through formatDurationMs.
  assert.equal(formatDurationMs(2044.4), '2.04 s');
});

test('an import whose gzip data broke off says "partial" beside its numbers, and where the data was cut', () => {
  const imported: SessionInfo = {
    ...session(12, 'exited'),
    kind: 'import',
    description: '/logs/server.log.1.gz',
    title: 'server.log.1.gz',
    gzipDamaged: { logBytes: 101_470 },
  };
  const view = statusBarView(imported, summary(12, 812), null);
  assert.equal(view.text, '$(history) 12 req · e2e p50 812 ms · partial');
  assert.equal(view.label, 'Stage Lens: imported, 12 requests, e2e p50 812 ms, partial: gzip data cut after 99 KB');
  assert.equal(
    view.tooltip,
    'Stage Lens: server.log.1.gz\nimported · /logs/server.log.1.gz\n' +
      'Partial log: the gzip data broke off after 99 KB of log (input-gzip-damaged). These numbers are of the log before the break; the rest of the file was not read.\n' +
      'Click to open Latency Details.',
  );
  assert.equal(view.tone, null);
  // Not current as well: both said, partial first (it stays true when the server answers again).
  assert.equal(
    statusBarView(imported, summary(12, 812), 'no answer within 5 s').text,
    '$(warning) 12 req · e2e p50 812 ms · partial · not current',
  );
  // A whole input says nothing of it.
  assert.doesNotMatch(statusBarView(session(12, 'stopped'), summary(12, 812), null).tooltip, /artial/);
});

const TTS = 'boot 1 (6 requests, Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice): stages 0 llm → latent, 1 llm → audio';
const OMNI =
  'boot 2 (3 requests, Qwen/Qwen3-Omni-30B-A3B-Instruct): stages 0 llm → text, 1 llm → latent, 2 llm → audio';
const BOOTS = [
  { boot: 1, requests: 6, model: 'Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice' },
  { boot: 2, requests: 3, model: 'Qwen/Qwen3-Omni-30B-A3B-Instruct' },
];
/** A summary of a session whose two boots served different pipelines, over every boot or `selected`'s. */
const bootsSummary = (requestCount: number, e2eP50: number, selected: number | null): SummaryResult => ({
  ...summary(requestCount, e2eP50),
  boots: { boots: BOOTS, pipelines: [TTS, OMNI], selected },
});

test("boots of different pipelines: the headline is the last boot's, asked apart, and the tooltip names the boots", async (t) => {
  const { source, shown } = feed(t);
  source.change(session(9, 'stopped'));
  source.asked[0]!.resolve(bootsSummary(9, 20_000, null));
  await tick();
  // The pooled p50 (20 s) is never shown: none until the last boot's comes.
  assert.equal(shown.at(-1)?.text, '$(history) 9 req');
  assert.match(shown.at(-1)!.tooltip, /No latency until boot 2's \(the last boot with requests\) comes/);
  assert.deepEqual(
    source.askedBoot.map((a) => a.params),
    [{ sessionId: 's1', scope: { boot: 2 } }],
  );
  source.askedBoot[0]!.answer.resolve(bootsSummary(3, 33_726.25, 2));
  await tick();
  assert.deepEqual(shown.at(-1), {
    text: '$(history) 9 req · boot 2: e2e p50 33.7 s',
    label: 'Stage Lens: stopped, 9 requests, boot 2: e2e p50 33.7 s',
    tooltip:
      'Stage Lens: vllm.log\nstopped · /var/log/vllm.log\n' +
      `The server restarted with a different pipeline: ${TTS}; ${OMNI}.\n` +
      "The latency is boot 2's, the last boot with requests (3 of 9 requests): one over every boot would mix their pipelines. Pick a boot in the side panel or Latency Details.\n" +
      'Click to open Latency Details.',
    tone: null,
  });
});

test('boots of one pipeline keep the headline over every boot, asked once', async (t) => {
  const { source, shown } = feed(t);
  source.change(session(12));
  source.asked[0]!.resolve({ ...summary(12, 700), boots: { boots: BOOTS, pipelines: [`${TTS}`], selected: null } });
  await tick();
  assert.equal(shown.at(-1)?.text, '$(pulse) 12 req · e2e p50 700 ms');
  assert.doesNotMatch(shown.at(-1)!.tooltip, /boot/);
  assert.equal(source.askedBoot.length, 0);
});

test("a TTS session's first output is its first audio, named as the side panel's trend and explain name it", () => {
  const tts: SessionInfo = { ...session(6, 'stopped'), stageRoles: { '0': 'talker', '1': 'code2wav' } };
  const dist = (p50: number) => ({ count: 6, mean: p50, p50, p90: p50, p99: p50, max: p50 });
  const stage = (stageId: number, firstOutputP50: number) =>
    ({
      stageId,
      stageKey: String(stageId),
      replicaId: null,
      fields: { serving_time_to_first_output_ms: dist(firstOutputP50) },
    }) as unknown as SummaryResult['stages'][number];
  const withStages = { ...summary(6, 1500), stages: [stage(0, 40), stage(1, 1275)] };
  const view = statusBarView(tts, withStages, null);
  assert.equal(view.text, '$(history) 6 req · 1st audio p50 1.28 s');
  assert.equal(view.label, 'Stage Lens: stopped, 6 requests, 1st audio p50 1.28 s');
  assert.match(view.tooltip, /\n1st audio: p50 time to first audio \(stage 1 · code2wav\)\n/);
  // Roles unknown: the figure keeps its general name, said in full the same way.
  const plain = statusBarView(session(6, 'stopped'), withStages, null);
  assert.equal(plain.text, '$(history) 6 req · 1st output p50 1.28 s');
  assert.match(plain.tooltip, /\n1st output: p50 stage 1 time to first output\n/);
});
