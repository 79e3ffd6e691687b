// Which session's numbers a deploy config shows when several sessions are tied to it, over a
// real connection: a live one first (a log being followed), else the one imported last; the
// hint's hover names the session the numbers come from.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { InlayHint } from 'vscode-languageserver-protocol';
import type { SessionInfo } from '../../server/protocol';
import { DeployLspClient, FIXTURES, positionOf, ROOT } from './support/lspDeployHarness';
import { waitFor } from './support/waitFor';

const RENDERED = path.join(ROOT, 'test', 'fixtures', 'upstream-rendered');
let scratch: string;
let client: DeployLspClient;

before(async () => {
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'stage-lens-session-choice-'));
  client = await DeployLspClient.start({ diagnosticsDelayMs: 0, storageDir: path.join(scratch, 'sessions') });
});
after(async () => {
  await client.stop();
  fs.rmSync(scratch, { recursive: true, force: true });
});

const label = (h: InlayHint): string => (typeof h.label === 'string' ? h.label : h.label.map((p) => p.value).join(''));
const tooltip = (h: InlayHint): string => (typeof h.tooltip === 'string' ? h.tooltip : (h.tooltip?.value ?? ''));

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
  const uri = await client.open(yaml);
  /**
   * The hint after stage 0's stage_id once `wanted` says it is the one: its label, and its
   * hover's numbers and source (what leads the p99 tail, when the line has no room for it, sits between).
   */
  const stage0Hint = (what: string, wanted: (tip: string) => boolean): Promise<string[]> =>
    waitFor(what, async () => {
      const hint = ((await client.inlayHints(uri)) ?? []).find((h) => h.position.line === stage0);
      const blocks = hint === undefined ? [] : tooltip(hint).split('\n\n');
      return hint !== undefined && wanted(tooltip(hint))
        ? [label(hint), blocks[0] ?? '', blocks.find((b) => b.startsWith('Measured in ')) ?? '']
        : undefined;
    });

  // A log being followed (live until stopped), then an older run imported after it.
  const followed = await client.request<SessionInfo>('stageLens/tail', {
    path: logCopy(path.join(RENDERED, 'qwen3tts-talker-first-audio-before-fix.log')),
    fromStart: true,
    deployConfig: yaml,
  });
  const imported = await client.request<SessionInfo>('stageLens/import', {
    path: logCopy(path.join(RENDERED, 'qwen3tts-talker-first-audio-after-fix.log')),
    deployConfig: yaml,
  });
  await waitFor('the import read to its end', async () => {
    const sessions = await client.request<SessionInfo[]>('stageLens/listSessions', {});
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
  await client.request<SessionInfo>('stageLens/stop', { sessionId: followed.id });
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
  await client.request<SessionInfo>('stageLens/import', {
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
