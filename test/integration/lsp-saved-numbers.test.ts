// A saved session is replayed only when something asks about it: over a real connection,
// a language server starting on a storage folder with two saved sessions lists both
// without loading either; opening the deploy config one of them was launched with loads
// that one (and only that one) in the background, and its numbers appear after each
// stage_id once it is loaded (the editor is asked to refresh the hints).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { InlayHint } from 'vscode-languageserver-protocol';
import { SessionFiles } from '../../server/capture/sessionFiles';
import type { SessionInfo } from '../../server/protocol';
import { DeployLspClient, FIXTURES, positionOf, ROOT } from './support/lspDeployHarness';
import { waitFor } from './support/waitFor';

const SAMPLE = fs.readFileSync(path.join(ROOT, 'samples', 'qwen3-tts-first-audio-cold-start.log'));
// A server at INFO under async chunk: [OmniTiming] lines only, whose stage times overlap.
const INFO_LOG = fs.readFileSync(
  path.join(ROOT, 'test', 'fixtures', 'upstream-rendered', 'qwen3tts-info-level-omnitiming-only.log'),
);
let scratch: string;
let client: DeployLspClient;

function saved(storage: string, id: string, startedAt: number, deployConfig: string, log = SAMPLE): void {
  const files = new SessionFiles(storage, id);
  files.writeMeta({
    info: {
      id,
      kind: 'launch',
      description: 'vllm serve Qwen/Qwen3-TTS',
      startedAt,
      status: 'exited',
      requestCount: log === SAMPLE ? 25 : 6,
      deployConfig,
      lastError: null,
      exit: { code: 0, signal: null },
      problemCount: 0,
      title: '',
    },
    launch: { argv: ['vllm', 'serve'], cwd: '/' },
  });
  for (let i = 0; i < log.length; i += 65536)
    files.append({ stream: 'stdout', bytes: log.subarray(i, i + 65536), capturedAt: startedAt + i });
  files.close();
}

before(() => {
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'stage-lens-saved-numbers-'));
});
after(async () => {
  await client?.stop();
  fs.rmSync(scratch, { recursive: true, force: true });
});

test(
  "a deploy config asks for a saved session's numbers: that session, and only it, is replayed",
  { timeout: 60_000 },
  async () => {
    const yaml = path.join(scratch, 'qwen3_tts.yaml');
    fs.copyFileSync(path.join(FIXTURES, 'qwen3_tts.yaml'), yaml);
    const storage = path.join(scratch, 'storage');
    saved(storage, 'launch-with-this-yaml', Date.UTC(2025, 6, 24, 10), yaml);
    saved(storage, 'launch-with-another', Date.UTC(2025, 6, 24, 11), path.join(scratch, 'other.yaml'));
    client = await DeployLspClient.start({ diagnosticsDelayMs: 0, storageDir: storage });
    const loaded = async (): Promise<Record<string, boolean | undefined>> =>
      Object.fromEntries(
        (await client.request<SessionInfo[]>('stageLens/listSessions', {})).map((s) => [s.id, s.access?.loaded]),
      );
    assert.deepEqual(await loaded(), { 'launch-with-this-yaml': false, 'launch-with-another': false });

    const text = fs.readFileSync(yaml, 'utf8');
    const uri = await client.open(yaml);
    const refreshes = client.refreshRequests;
    const label = (h: InlayHint): string =>
      typeof h.label === 'string' ? h.label : h.label.map((p) => p.value).join('');
    // The first answer may come before the replay ends; the editor is asked to refresh when it does.
    await client.inlayHints(uri);
    await client.waitForRefreshes(refreshes + 1, 30_000);
    const hints = await waitFor("the saved session's numbers", async () => {
      const found = (await client.inlayHints(uri)) ?? [];
      return found.length >= 2 ? found : undefined;
    });
    const stage0 = positionOf(text, 'stage_id: 0').line;
    const [first, ...more] = hints.filter((h) => h.position.line === stage0);
    assert.equal(more.length, 0);
    assert.match(
      first === undefined ? '' : label(first),
      /^p50 prefill\+decode [\d,.]+ m?s · TTFT [\d,.]+ m?s( \(n=25\))?$/,
    );
    // The talker leads the p99 tail of the first audio (the codec's wait for it is not a lead):
    // its numbers fill the line's 43 characters (the editor counts a line's labels together), so
    // the tail lead is in their tooltip.
    const tip = typeof first?.tooltip === 'string' ? first.tooltip : (first?.tooltip?.value ?? '');
    assert.match(tip, /\n\nThe prefill\+decode \(one output\) of stage 0 has the largest mean excess/);
    assert.deepEqual(await loaded(), { 'launch-with-this-yaml': true, 'launch-with-another': false });
  },
);

test(
  "an INFO-level session under async chunk: each stage's time after its stage_id, the codec's said to hold the talker's",
  { timeout: 60_000 },
  async () => {
    await client?.stop();
    const yaml = path.join(scratch, 'qwen3_tts_info.yaml');
    fs.copyFileSync(path.join(FIXTURES, 'qwen3_tts.yaml'), yaml);
    const storage = path.join(scratch, 'storage-info');
    saved(storage, 'launch-at-info', Date.UTC(2025, 6, 24, 12), yaml, INFO_LOG);
    client = await DeployLspClient.start({ diagnosticsDelayMs: 0, storageDir: storage });
    const text = fs.readFileSync(yaml, 'utf8');
    const uri = await client.open(yaml);
    const label = (h: InlayHint): string =>
      typeof h.label === 'string' ? h.label : h.label.map((p) => p.value).join('');
    const hints = await waitFor("the saved INFO-level session's numbers", async () => {
      const found = (await client.inlayHints(uri)) ?? [];
      return found.length >= 2 ? found : undefined;
    });
    const at = (line: number): InlayHint | undefined => hints.find((h) => h.position.line === line);
    const stage0 = at(positionOf(text, 'stage_id: 0').line);
    const stage1 = at(positionOf(text, 'stage_id: 1').line);
    // [OmniTiming] p50s: talker 1.275 s; the codec 1.415 s, which holds the talker's time (6 of 6 requests overlap).
    // The stage time first, within the 43 characters the editor shows: no phase split is shown as none (no queued, prefill or decode
    // 0), and the notice in full leads the hover.
    assert.equal(stage0 && label(stage0), 'p50 stage time 1.28 s · no split: INFO log');
    assert.equal(stage1 && label(stage1), 'p50 stage time 1.42 s incl. upstream (n=6)');
    assert.ok(label(stage0!).length <= 43);
    const tooltip = typeof stage0?.tooltip === 'string' ? stage0.tooltip : (stage0?.tooltip?.value ?? '');
    assert.equal(
      tooltip.split('\n\n')[0],
      'no phase split: the server logs at INFO (fix: VLLM_LOGGING_LEVEL=DEBUG) · stage time p50 1,275 ms (n=6)',
    );
    // The stage time and the notice's mark fill the line: the tail lead, named as explain and the
    // side panel name it, is in their tooltip.
    assert.equal(hints.filter((h) => h.position.line === positionOf(text, 'stage_id: 0').line).length, 1);
    assert.match(tooltip, /\n\nThe gen time not split \(no prefill\/decode values\) of stage 0 has the largest/);
  },
);

test(
  'the same [OmniTiming]-only session with a line at DEBUG: its hints name no INFO level; the fix is the stats logger',
  { timeout: 60_000 },
  async () => {
    await client?.stop();
    const yaml = path.join(scratch, 'qwen3_tts_debug.yaml');
    fs.copyFileSync(path.join(FIXTURES, 'qwen3_tts.yaml'), yaml);
    const storage = path.join(scratch, 'storage-debug');
    // The log's own prefix at DEBUG, after its first line: a server that logs at DEBUG.
    const lines = INFO_LOG.toString('utf8').split('\n');
    const debugLog = Buffer.from(
      [
        lines[0],
        '(APIServer pid=5151) DEBUG 10-19 07:12:05 [omni.py:862] [Orchestrator] generate() called',
        ...lines.slice(1),
      ].join('\n'),
    );
    saved(storage, 'launch-with-debug-line', Date.UTC(2025, 6, 24, 13), yaml, debugLog);
    client = await DeployLspClient.start({ diagnosticsDelayMs: 0, storageDir: storage });
    const text = fs.readFileSync(yaml, 'utf8');
    const uri = await client.open(yaml);
    const label = (h: InlayHint): string =>
      typeof h.label === 'string' ? h.label : h.label.map((p) => p.value).join('');
    const hints = await waitFor("the saved session's numbers", async () => {
      const found = (await client.inlayHints(uri)) ?? [];
      return found.length >= 2 ? found : undefined;
    });
    const stage0 = hints.find((h) => h.position.line === positionOf(text, 'stage_id: 0').line);
    assert.equal(stage0 && label(stage0), 'p50 stage time 1.28 s · no split: no tables');
    const tooltip = typeof stage0?.tooltip === 'string' ? stage0.tooltip : (stage0?.tooltip?.value ?? '');
    assert.equal(
      tooltip.split('\n\n')[0],
      'no phase split: no stats tables, though the log has DEBUG lines (fix: vllm_omni.metrics.stats at DEBUG) · stage time p50 1,275 ms (n=6)',
    );
    for (const h of hints) {
      const tip = typeof h.tooltip === 'string' ? h.tooltip : (h.tooltip?.value ?? '');
      assert.doesNotMatch(`${label(h)}\n${tip}`, /INFO/);
    }
    assert.match(
      tooltip,
      /\n\nNo request has a \[StageRequestStats\] table, only \[OmniTiming\] lines, though this log has DEBUG lines: /,
    );
  },
);
