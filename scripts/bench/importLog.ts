// Import Log benchmark: the editor's Import Log... of the bench log in a real VS Code
// (the cached VS Code server, the workbench in headless Chromium, as the UI tests drive it),
// from the path accepted in the command's file dialog to
//   first table  the side panel's stage table shows rows of the imported log;
//   complete     the side panel says "imported" with every request of the log counted;
// against `stage-lens analyze <log>` (dist/cli.js, the table) on the same file, as a fresh
// process, alternated: analyze, import, analyze, import, ... (median of each).
// Skipped with a message when the VS Code server is not cached (test/editor/ensure-vscode.sh).
// Run alone (after npm run build), through the editor lock:
//   flock /tmp/stage-lens-editor.lock node --import tsx scripts/bench/importLog.ts [--quick] [--rounds n]
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { loadInstall, type VSCodeInstall } from '../../test/editor/harness/config';
import { startServer } from '../../test/editor/harness/server';
import { startWorkbench, type Workbench } from '../../test/editor/harness/workbench';
import { createWorkspace } from '../../test/editor/harness/workspace';
import { sideBarWebview, waitText } from '../../test/editor/ui/uiHelpers';
import { generateBenchLogApart } from './generateLog';

const ROOT = resolve(__dirname, '..', '..');
const CLI = join(ROOT, 'dist', 'cli.js');
const MB = 1e6;

export interface ImportLogBenchOptions {
  readonly quick?: boolean;
  readonly rounds?: number;
  readonly log?: (line: string) => void;
}

export interface ImportLogFigures {
  readonly requests: number;
  readonly analyzeS: number;
  readonly firstTableS: number;
  readonly completeS: number;
}

const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const n = s.length;
  return n === 0
    ? NaN
    : n % 2 === 1
      ? (s[(n - 1) / 2] as number)
      : ((s[n / 2 - 1] as number) + (s[n / 2] as number)) / 2;
};
const f = (n: number, d = 2): string =>
  n.toLocaleString('en-US', { minimumFractionDigits: d, maximumFractionDigits: d });
const grouped = (n: number): string => n.toLocaleString('en-US');

function installOrNull(): VSCodeInstall | null {
  try {
    return loadInstall();
  } catch {
    return null;
  }
}

/** `stage-lens analyze <log>` as a fresh process, output discarded: wall seconds. */
function analyzeOnce(logPath: string): number {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(process.execPath, [CLI, 'analyze', logPath], {
    stdio: ['ignore', 'ignore', 'pipe'],
    encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(`analyze exited ${r.status}: ${r.stderr}`);
  return Number(process.hrtime.bigint() - t0) / 1e9;
}

/**
 * Runs Import Log... from the command palette, types the path into VS Code's own file dialog
 * (the web host's) and returns the time it was accepted. (Not Workbench.runCommand: it waits
 * for the palette to close, and here the dialog takes its place at once.)
 */
async function importThroughDialog(wb: Workbench, filePath: string): Promise<number> {
  const input = await wb.openPalette();
  await input.fill('>Stage Lens: Import Log...');
  await wb.page
    .locator('.quick-input-widget .quick-input-list .monaco-list-row[aria-label^="Stage Lens: Import Log..."]')
    .first()
    .waitFor({ state: 'visible', timeout: 30_000 });
  await wb.page.waitForTimeout(500);
  await input.press('Enter');
  // The dialog's box holds its start folder once it is open.
  const opened = Date.now() + 30_000;
  while (!(await input.inputValue()).startsWith('/')) {
    if (Date.now() > opened)
      throw new Error(`the file dialog did not open; the box shows "${await input.inputValue()}"`);
    await wb.page.waitForTimeout(100);
  }
  // The dialog fills in its start folder and lists it after it opens: type once it has, and
  // press Enter only when the typed path has stayed in the box.
  await wb.page
    .locator('.quick-input-widget .quick-input-list .monaco-list-row')
    .first()
    .waitFor({ state: 'visible', timeout: 30_000 });
  const deadline = Date.now() + 30_000;
  for (;;) {
    await input.fill(filePath);
    await wb.page.waitForTimeout(700);
    if ((await input.inputValue()) === filePath) break;
    if (Date.now() > deadline)
      throw new Error(`the file dialog did not take the path; it shows "${await input.inputValue()}"`);
  }
  const t0 = Date.now();
  await input.press('Enter');
  return t0;
}

/** One import in a fresh workbench (fresh profile and workspace, the same server): seconds to the first table and to the complete one. */
async function importOnce(
  install: VSCodeInstall,
  logPath: string,
  fileName: string,
  requests: number,
): Promise<{ firstTableS: number; completeS: number }> {
  const server = await startServer({ install, name: 'bench-import-log' });
  const workspace = createWorkspace();
  let wb: Workbench | undefined;
  try {
    wb = await startWorkbench({ install, server, workspace: workspace.dir });
    // As a user has it: a deploy YAML open (the extension loads with it) and the side panel shown.
    await wb.openFile('qwen3_tts.yaml');
    await wb.runCommand('Stage Lens: Open Latency Details');
    const view = await sideBarWebview(wb, 60_000);
    const t0 = await importThroughDialog(wb, logPath).catch(async (error: unknown) => {
      // What the window showed when the palette or the dialog failed: kept for a look.
      const shot = join(tmpdir(), `stage-lens-import-bench-failure-${Date.now()}.png`);
      await wb?.page.screenshot({ path: shot }).catch(() => undefined);
      throw new Error(`${error instanceof Error ? error.message : String(error)} (screenshot: ${shot})`);
    });
    const deadline = Date.now() + 600_000;
    // The imported log's rows in the stage table (polled every 50 ms).
    for (;;) {
      const title = await view
        .locator('[data-testid="session-title"]')
        .first()
        .textContent()
        .catch(() => null);
      if (title?.includes(fileName) === true && (await view.locator('[data-testid="stage-row"]').count()) > 0) break;
      if (Date.now() > deadline) throw new Error('no table of the imported log after 600 s');
      await new Promise((r) => setTimeout(r, 50));
    }
    const firstTableS = (Date.now() - t0) / 1000;
    const want = `imported · ${grouped(requests)} requests`;
    await waitText(view, '[data-testid="session-meta"]', (t) => t.startsWith(want), `"${want}"`, 600_000);
    const completeS = (Date.now() - t0) / 1000;
    return { firstTableS, completeS };
  } finally {
    await wb?.close();
    await server.stop();
    workspace.remove();
  }
}

export async function runImportLogBench(options: ImportLogBenchOptions = {}): Promise<ImportLogFigures | null> {
  const log = options.log ?? ((line: string) => console.log(line));
  if (!existsSync(CLI)) throw new Error('dist/cli.js is missing: run npm run build first');
  const install = installOrNull();
  if (install === null) {
    log('skipped: the VS Code server is not cached (bash test/editor/ensure-vscode.sh installs it)');
    return null;
  }
  const rounds = Math.max(options.rounds ?? (options.quick === true ? 1 : 3), 1);
  const dir = mkdtempSync(join(tmpdir(), 'stage-lens-import-bench-'));
  try {
    const fileName = 'bench.log';
    const logPath = join(dir, fileName);
    const generated = generateBenchLogApart(logPath, options.quick === true ? 40 * MB : 200 * MB);
    const analyze: number[] = [];
    const first: number[] = [];
    const complete: number[] = [];
    const load0 = loadavg()[0] ?? 0;
    analyze.push(analyzeOnce(logPath));
    for (let round = 0; round < rounds; round++) {
      const r = await importOnce(install, logPath, fileName, generated.requests);
      first.push(r.firstTableS);
      complete.push(r.completeS);
      analyze.push(analyzeOnce(logPath));
      log(
        `  round ${round + 1}: import first table ${f(r.firstTableS)} s, complete ${f(r.completeS)} s; analyze ${f(analyze[analyze.length - 2] ?? NaN)} s, ${f(analyze[analyze.length - 1] ?? NaN)} s`,
      );
    }
    const figures: ImportLogFigures = {
      requests: generated.requests,
      analyzeS: median(analyze),
      firstTableS: median(first),
      completeS: median(complete),
    };
    log(
      `${f(generated.bytes / MB, 1)} MB, ${grouped(generated.requests)} requests; ${rounds} imports alternated with ${analyze.length} analyze runs; 1-minute load average ${f(load0, 1)} -> ${f(loadavg()[0] ?? 0, 1)}`,
    );
    log(`  stage-lens analyze (table)         ${f(figures.analyzeS)} s median`);
    log(
      `  Import Log... to the first table   ${f(figures.firstTableS)} s median (${f(figures.firstTableS / figures.analyzeS)}x analyze)`,
    );
    log(
      `  Import Log... to the complete one  ${f(figures.completeS)} s median (${f(figures.completeS / figures.analyzeS)}x analyze; target <= 1.5x)`,
    );
    return figures;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (require.main === module) {
  const args = process.argv.slice(2);
  const at = args.indexOf('--rounds');
  runImportLogBench({ quick: args.includes('--quick'), rounds: at === -1 ? undefined : Number(args[at + 1]) }).then(
    () => process.exit(0),
    (err: unknown) => {
      console.error(err instanceof Error ? (err.stack ?? err.message) : String(err));
      process.exit(1);
    },
  );
}
