// Latency of the deploy features on a 5,000-line deploy YAML while a live session updates
// its numbers 4 times a second. Prints figures; not a timed test.
//   node --import tsx scripts/bench-deploy.ts [--rounds <n>]
//
// Over the connection: `dist/server.js --stdio` (built by the harness) in a child process,
// which launches the simulator (`dist/cli.js simulate`, a real child process serving
// /metrics) as a session matched to the big file, so `stageLens/sessionChanged` arrives
// at its throttled 4 per second and the inlay hints carry that session's numbers. Times
// are measured at the client, from sending the message to receiving the answer:
//   - hover, inlay hints (a 60-line viewport and the whole file): request -> response;
//   - diagnostics: one didChange (an incremental edit, as VS Code sends it) -> the
//     publishDiagnostics of that version, with the debounce set to 0 ms (the server's own
//     quiet time, 200 ms by default, is a deliberate wait and not counted). Each edit is
//     sent once the previous edit's diagnostics arrived, at most one per 40 ms; hovers and
//     inlay-hint requests at most one per 10 ms, so the measurement spans about 100 updates.
// The edits are keystrokes of typing and deleting a new key (half-typed YAML on the way),
// retyping a value, near the top of the file (every stage below moves), in the middle
// and near the end. In process: the same edits without the connection, step by step.
import { waitFor as waitUntil } from '../test/integration/support/waitFor';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { Range } from 'vscode-languageserver-protocol';
import {
  analyzeDeployText,
  deployDiagnostics,
  DeployFileCache,
  deployHover,
  liveHints,
  type LiveStageNumbers,
} from '../server/core/deploy';
import { parseDeployFile } from '../server/core/deploy/parsedFile';
import type { SessionInfo } from '../server/protocol';
import { bigDeployFile } from '../test/integration/support/bigDeployFile';
import { buildCli, DeployLspClient, positionOf } from '../test/integration/support/lspDeployHarness';

const roundsAt = process.argv.indexOf('--rounds');
const rounds = roundsAt >= 0 ? Number(process.argv[roundsAt + 1]) : 3;

function percentile(samples: readonly number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

function report(name: string, samples: readonly number[]): void {
  const f = (n: number) => n.toFixed(2).padStart(7);
  console.log(
    `${name.padEnd(52)} n=${String(samples.length).padStart(4)}  p50 ${f(percentile(samples, 50))} ms  p99 ${f(percentile(samples, 99))} ms  max ${f(Math.max(...samples))} ms`,
  );
}

interface Edit {
  readonly where: 'top' | 'middle' | 'end';
  readonly range: Range;
  readonly text: string;
}

/** Keystrokes at three places of the big file; applied in order to `document`, they end where they began. */
export function* keystrokes(document: TextDocument, stageCount: number): Generator<Edit> {
  const text0 = document.getText();
  const at = (offset: number): Range => ({ start: document.positionAt(offset), end: document.positionAt(offset) });
  const over = (start: number, end: number): Range => ({
    start: document.positionAt(start),
    end: document.positionAt(end),
  });
  // Near the top: a word typed into the first comment line and deleted again.
  const top = text0.indexOf(' deploy config');
  for (const [i, ch] of [...' edited'].entries()) yield { where: 'top', range: at(top + i), text: ch };
  for (let i = ' edited'.length; i > 0; i--) yield { where: 'top', range: over(top + i - 1, top + i), text: '' };
  for (const [where, stage] of [
    ['middle', Math.floor(stageCount / 2)],
    ['end', stageCount - 5],
  ] as const) {
    const text = document.getText();
    const line = positionOf(text, 'gpu_memory_utilization: 0.003', 0, stage).line;
    const lineEnd = document.offsetAt({ line: line + 1, character: 0 }) - 1;
    // A new key typed character by character after Enter (`    e`, `    en`... do not parse
    // as a map entry until the colon), then deleted character by character.
    const typed = '\n    enforce_eager: true';
    for (const [i, ch] of [...typed].entries()) yield { where, range: at(lineEnd + i), text: ch };
    for (let i = typed.length; i > 0; i--) yield { where, range: over(lineEnd + i - 1, lineEnd + i), text: '' };
    // `devices: "0"` becomes "0,1" inside its quotes and back.
    const quoted = document.offsetAt(positionOf(document.getText(), 'devices: "0"', 11, stage));
    yield { where, range: at(quoted), text: ',' };
    yield { where, range: at(quoted + 1), text: '1' };
    yield { where, range: over(quoted + 1, quoted + 2), text: '' };
    yield { where, range: over(quoted, quoted + 1), text: '' };
    // `max_num_seqs: 64` retyped as 128 and back.
    const value = document.offsetAt(positionOf(document.getText(), 'max_num_seqs: 64', 14, stage));
    yield { where, range: over(value + 1, value + 2), text: '' };
    yield { where, range: over(value, value + 1), text: '' };
    for (const [i, ch] of [...'128'].entries()) yield { where, range: at(value + i), text: ch };
    yield { where, range: over(value, value + 3), text: '64' };
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const port = (server.address() as net.AddressInfo).port;
      server.close(() => resolve(port));
    });
  });
}

/** Runs `run` and waits out the rest of `everyMs`, so requests are spread over the session's updates. */
async function timed(run: () => Promise<unknown>, everyMs: number): Promise<number> {
  const start = performance.now();
  await run();
  const ms = performance.now() - start;
  if (ms < everyMs) await new Promise((resolve) => setTimeout(resolve, everyMs - ms));
  return ms;
}

async function overTheConnection(): Promise<void> {
  const big = bigDeployFile();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stage-lens-bench-'));
  const file = path.join(dir, 'big.yaml');
  fs.writeFileSync(file, big.text);
  const cli = buildCli();
  const client = await DeployLspClient.start({ diagnosticsDelayMs: 0, storageDir: path.join(dir, 'sessions') });
  const uri = await client.open(file);
  const initial = await client.diagnostics(uri, 1, 30_000);

  // The live session: the simulator launched with this deploy config.
  const port = await freePort();
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
    '8',
    '--port',
    String(port),
  ];
  const session = await client.request<SessionInfo>('stageLens/launch', {
    argv,
    cwd: dir,
    deployConfig: file,
    metricsUrl: `http://127.0.0.1:${port}/metrics`,
  });
  const labelOf = (label: string | { value: string }[]) =>
    typeof label === 'string' ? label : label.map((part) => part.value).join('');
  const firstHints = await waitFor('measured numbers from the live session in the inlay hints', async () => {
    const hints = (await client.inlayHints(uri)) ?? [];
    return hints.some((hint) => /\(n=\d+\)/.test(labelOf(hint.label))) ? hints : undefined;
  });
  const changesBefore = client.sessionChanges;
  const refreshesBefore = client.refreshRequests;
  const started = performance.now();

  const lines = big.text.split('\n').length - 1;
  const hover: number[] = [];
  const viewport: number[] = [];
  const whole: number[] = [];
  for (let i = 0; i < 400; i++) {
    const position = positionOf(big.text, 'max_num_batched_tokens', 6, (i * 37) % big.stageCount);
    hover.push(await timed(() => client.hover(uri, position), 10));
  }
  for (let i = 0; i < 200; i++) {
    const top = (i * 97) % (lines - 60);
    viewport.push(
      await timed(
        () => client.inlayHints(uri, { start: { line: top, character: 0 }, end: { line: top + 60, character: 0 } }),
        10,
      ),
    );
    whole.push(await timed(() => client.inlayHints(uri), 10));
  }

  const document = TextDocument.create(uri, 'yaml', 1, big.text);
  const diagnostics: number[] = [];
  const byPlace = new Map<string, number[]>();
  let version = 1;
  for (let round = 0; round < rounds; round++) {
    for (const edit of keystrokes(document, big.stageCount)) {
      // A keystroke every 40 ms at most: a fast typist, and the session updates in between.
      const ms = await timed(async () => {
        version = await client.edit(uri, edit.range, edit.text);
        await client.diagnostics(uri, version, 30_000);
      }, 40);
      diagnostics.push(ms);
      byPlace.set(edit.where, [...(byPlace.get(edit.where) ?? []), ms]);
      TextDocument.update(document, [{ range: edit.range, text: edit.text }], version);
    }
  }
  const seconds = (performance.now() - started) / 1000;
  const final = await client.diagnostics(uri, version);
  const lastHints = ((await client.inlayHints(uri)) ?? []).map(
    (hint) => `line ${hint.position.line + 1}: ${labelOf(hint.label)}`,
  );

  console.log(
    `\nOver the connection (${lines} lines, ${big.stageCount} stages; live simulator session ${session.id} matched to the file):`,
  );
  console.log(
    `  during the ${seconds.toFixed(1)} s of measurement: ${client.sessionChanges - changesBefore} stageLens/sessionChanged (${((client.sessionChanges - changesBefore) / seconds).toFixed(1)}/s), ${client.refreshRequests - refreshesBefore} inlay-hint refreshes`,
  );
  console.log(
    `  hints at the end: ${firstHints.length} at first, now ${lastHints.map((label) => JSON.stringify(label)).join(', ')}`,
  );
  report('hover', hover);
  report('inlay hints, 60-line viewport', viewport);
  report('inlay hints, whole file', whole);
  report('diagnostics, every keystroke (didChange -> publish)', diagnostics);
  for (const [where, samples] of byPlace)
    report(`  ${where === 'top' ? 'in the first line (every stage moves)' : `in a stage near the ${where}`}`, samples);
  if (document.getText() !== big.text || JSON.stringify(final) !== JSON.stringify(initial))
    throw new Error('the edits did not end where they began');

  await client.request('stageLens/stop', { sessionId: session.id });
  await client.stop();
  fs.rmSync(dir, { recursive: true, force: true });
}

function inProcess(): void {
  const big = bigDeployFile();
  const file = path.resolve('/bench/big.yaml');
  const numbers: LiveStageNumbers = {
    sessionLabel: 'bench session',
    stages: Array.from({ length: big.stageCount }, (_, stageId) => ({
      stageId,
      ttftP50Ms: 41,
      prefillP50Ms: 39,
      queuedP50Ms: 0.4,
      n: 100,
      ttftNotRecorded: stageId === 1,
    })),
  };
  const whole: number[] = [];
  for (let i = 0; i < 10; i++) {
    const start = performance.now();
    parseDeployFile(file, big.text.replace('max_num_seqs: 64', `max_num_seqs: ${65 + i}`));
    whole.push(performance.now() - start);
  }
  const cache = new DeployFileCache(() => undefined);
  analyzeDeployText(file, big.text, cache);
  const document = TextDocument.create('file:///bench/big.yaml', 'yaml', 1, big.text);
  const parse: number[] = [];
  const check: number[] = [];
  const hover: number[] = [];
  const hints: number[] = [];
  let inPieces = 0;
  for (let round = 0; round < rounds; round++) {
    for (const edit of keystrokes(document, big.stageCount)) {
      TextDocument.update(document, [{ range: edit.range, text: edit.text }], document.version + 1);
      const text = document.getText();
      let start = performance.now();
      const analysis = analyzeDeployText(file, text, cache);
      parse.push(performance.now() - start);
      if (cache.lastParse(file)?.mode === 'pieces') inPieces++;
      start = performance.now();
      deployDiagnostics(analysis);
      check.push(performance.now() - start);
      start = performance.now();
      deployHover(analysis, text.indexOf('max_num_batched_tokens', (parse.length * 3001) % text.length) + 3);
      hover.push(performance.now() - start);
      start = performance.now();
      liveHints(analysis, numbers);
      hints.push(performance.now() - start);
    }
  }
  console.log('\nIn process (same file, same keystrokes):');
  report('whole-text parse (for comparison)', whole);
  report(`parse of the edited text (${inPieces} of ${parse.length} in pieces)`, parse);
  report('checks (all diagnostics)', check);
  report('hover (analysis cached)', hover);
  report('inlay hints, all stages measured (analysis cached)', hints);
}

if (require.main === module)
  void (async () => {
    console.log(
      `node ${process.version}, ${os.cpus().length} CPUs, load average ${os
        .loadavg()
        .map((n) => n.toFixed(1))
        .join(' ')}`,
    );
    inProcess();
    await overTheConnection();
  })().catch((err: unknown) => {
    console.error(err);
    process.exitCode = 1;
  });

/** waitFor with this file's defaults (60_000 ms, every 100 ms). */
function waitFor<T>(what: string, probe: () => Promise<T | undefined> | T | undefined, timeoutMs = 60_000): Promise<T> {
  return waitUntil(what, probe, timeoutMs, 100);
}
