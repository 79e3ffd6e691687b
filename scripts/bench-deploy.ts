// Latency of the deploy features on a 5,000-line deploy YAML while a live session
// updates its numbers 4 times a second. Prints figures; not a timed test.
//   node --import tsx scripts/bench-deploy.ts
// Over the connection (dist/server.js --stdio, built by the harness): hover, inlay hints
// (a 60-line viewport and the whole file), and diagnostics (didChange to
// publishDiagnostics with the debounce set to 0). In process: parse, analysis and checks.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { analyzeDeployText, deployDiagnostics, DeployFileCache, deployHover, liveHints, type LiveStageNumbers } from '../server/core/deploy';
import { bigDeployFile } from '../test/integration/lsp-deploy-bigfile';
import { DeployLspClient, positionOf } from '../test/integration/lsp-deploy-harness';

function percentile(samples: number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

function report(name: string, samples: number[]): void {
  const f = (n: number) => n.toFixed(2).padStart(8);
  console.log(`${name.padEnd(44)} n=${String(samples.length).padStart(4)}  p50 ${f(percentile(samples, 50))} ms  p99 ${f(percentile(samples, 99))} ms  max ${f(Math.max(...samples))} ms`);
}

function numbers(stageCount: number, tick: number): LiveStageNumbers {
  return {
    sessionLabel: 'bench session',
    stages: Array.from({ length: stageCount }, (_, stageId) => ({ stageId, ttftP50Ms: 40 + (tick % 7), prefillP50Ms: 38, queuedP50Ms: 0.4, n: 100 + tick, ttftNotRecorded: stageId === stageCount - 1 })),
  };
}

async function timed<T>(run: () => Promise<T>): Promise<number> {
  const start = performance.now();
  await run();
  return performance.now() - start;
}

async function overTheConnection(): Promise<void> {
  const big = bigDeployFile();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stage-lens-bench-'));
  const file = path.join(dir, 'big.yaml');
  fs.writeFileSync(file, big.text);
  const client = await DeployLspClient.start({ testNumbers: { [file]: numbers(big.stageCount, 0) }, diagnosticsDelayMs: 0 });
  const uri = await client.open(file);
  await client.diagnostics(uri, 1, 30000);

  let tick = 0;
  const live = setInterval(() => void client.notify('stageLensTest/setStageNumbers', { deployConfig: file, numbers: numbers(big.stageCount, ++tick) }), 250);

  const lines = big.text.split('\n').length - 1;
  const hover: number[] = [];
  for (let i = 0; i < 400; i++) {
    const position = positionOf(big.text, 'max_num_batched_tokens', 6, (i * 37) % big.stageCount);
    hover.push(await timed(() => client.hover(uri, position)));
  }
  const viewport: number[] = [];
  const whole: number[] = [];
  for (let i = 0; i < 200; i++) {
    const top = (i * 97) % (lines - 60);
    viewport.push(await timed(() => client.inlayHints(uri, { start: { line: top, character: 0 }, end: { line: top + 60, character: 0 } })));
    whole.push(await timed(() => client.inlayHints(uri)));
  }
  const diagnostics: number[] = [];
  for (let i = 0; i < 60; i++) {
    const text = big.text.replace('max_num_seqs: 64', `max_num_seqs: ${65 + i}`);
    const start = performance.now();
    const version = await client.change(uri, text);
    await client.diagnostics(uri, version, 30000);
    diagnostics.push(performance.now() - start);
  }
  clearInterval(live);
  console.log(`\nOver the connection (${lines} lines, ${big.stageCount} stages, session updates 4/s, ${tick} updates sent):`);
  report('hover', hover);
  report('inlay hints, 60-line viewport', viewport);
  report('inlay hints, whole file', whole);
  report('diagnostics (didChange -> publish, no debounce)', diagnostics);
  await client.stop();
  fs.rmSync(dir, { recursive: true, force: true });
}

function inProcess(): void {
  const big = bigDeployFile();
  const file = path.resolve('/bench/big.yaml');
  const parse: number[] = [];
  const check: number[] = [];
  const hover: number[] = [];
  const hints: number[] = [];
  for (let i = 0; i < 40; i++) {
    const text = big.text.replace('max_num_seqs: 64', `max_num_seqs: ${65 + i}`);
    const cache = new DeployFileCache(() => undefined);
    let start = performance.now();
    const analysis = analyzeDeployText(file, text, cache);
    parse.push(performance.now() - start);
    start = performance.now();
    deployDiagnostics(analysis);
    check.push(performance.now() - start);
    start = performance.now();
    deployHover(analysis, text.indexOf('max_num_batched_tokens', (i * 3001) % text.length) + 3);
    hover.push(performance.now() - start);
    start = performance.now();
    liveHints(analysis, numbers(big.stageCount, i));
    hints.push(performance.now() - start);
  }
  console.log('\nIn process (same file):');
  report('parse + overlay resolution', parse);
  report('checks (all diagnostics)', check);
  report('hover (analysis cached)', hover);
  report('inlay hints (analysis cached)', hints);
}

void (async () => {
  inProcess();
  await overTheConnection();
})();
