// One boot's summary over the language server's connection (dist/server.js, a real child
// process over stdio): a log of two boots of different pipelines (the simulator's Qwen3-TTS, then
// its Qwen3-Omni, `requests` each) is imported, then `stageLens/summary` is asked 30 times per
// scope, as each update of a session asks it (the status bar for the last boot, a view for its
// pick): the first answer and the repeats' median, min and max, in ms, the whole session's too.
// Run alone (after npm run build): node --import tsx scripts/bench/bootSummary.ts [requests]
import { spawnSync } from 'node:child_process';
import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startLanguageServer } from '../../test/integration/support/lspProcess';
import type { ExplainScope } from '../../server/protocol';

const ROOT = resolve(__dirname, '..', '..');
const REQUESTS = Number(process.argv[2] ?? 3000);
const ASKED = 30;

function simulated(scenario: string, rps: number, seed: number): string {
  const args = ['--scenario', scenario, '--requests', String(REQUESTS), '--rps', String(rps), '--speed', '1000'];
  const run = spawnSync(
    process.execPath,
    [join(ROOT, 'dist', 'cli.js'), 'simulate', ...args, '--debug-tables', '--seed', String(seed), '--port', '0'],
    { maxBuffer: 1 << 30, encoding: 'utf8' },
  );
  if (run.status !== 0) throw new Error(`simulate ${scenario}: ${run.stderr}`);
  return run.stdout;
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'stage-lens-boot-summary-'));
  try {
    const log = join(dir, 'server.log');
    writeFileSync(log, simulated('qwen3-tts', 50, 1));
    appendFileSync(log, simulated('qwen3-omni', 20, 2));
    const lsp = await startLanguageServer(join(dir, 'storage'));
    const session = await lsp.importLog(log);
    console.log(
      `${session.requestCount} requests; load ${loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}`,
    );
    const time = async (label: string, scope?: ExplainScope): Promise<void> => {
      const ms: number[] = [];
      for (let i = 0; i < ASKED; i++) {
        const t = process.hrtime.bigint();
        await lsp.request('stageLens/summary', { sessionId: session.id, ...(scope === undefined ? {} : { scope }) });
        ms.push(Number(process.hrtime.bigint() - t) / 1e6);
      }
      const repeats = ms.slice(1).sort((a, b) => a - b);
      const f = (v: number | undefined): string => (v ?? Number.NaN).toFixed(2);
      console.log(
        `${label}: first ${f(ms[0])} ms; repeats median ${f(repeats[repeats.length >> 1])}, min ${f(repeats[0])}, max ${f(repeats.at(-1))}`,
      );
    };
    await time('whole session');
    await time('boot 1', { boot: 1 });
    await time('boot 2', { boot: 2 });
    await time('boot 1, cold left out', { boot: 1, excludeCold: true });
    lsp.child.kill('SIGTERM');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

void main();
