// Extension-host integration tests inside a real VS Code.
//
//   node --import tsx test/editor/harness/run-extension-tests.ts      (normally via test/editor/run.sh)
//
// Starts the VS Code server, opens the workbench in headless Chromium with
//   ?payload=[["extensionDevelopmentPath", <repo>], ["extensionTestsPath", <repo>/dist/test/editor/index.js]]
// on a fresh workspace holding the deploy fixtures, then once more on a workspace whose YAML files
// are not deploy configs (the `light window` suite; STAGE_LENS_EDITOR_WINDOW=light). The extension
// host loads our extension, requires the tests bundle and awaits its run(); the workbench then
// calls window.codeAutomationExit(code).
// Prints the ok/FAIL lines and the closing line `N passed, N failed[, N skipped]`.
//
// Environment: VERBOSE=1 prints the extension host's console as it comes;
// STAGE_LENS_EDITOR_TIMEOUT_MS (default 180000) bounds the whole run.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as util from 'node:util';
import { openBrowser, type BrowserPage } from './browser';
import {
  envNumber,
  extensionBundle,
  extensionTestsBundle,
  failureScreenshotDir,
  isKnownNoise,
  loadInstall,
  outputDir,
  repoRoot,
  verbose,
  type VSCodeInstall,
} from './config';
import { startServer, type VSCodeServer } from './server';
import { type Counts, finish, isSummaryLine, parseSummaryLine } from './summary';
import { createPlainYamlWorkspace, createWorkspace, type TestWorkspace } from './workspace';

const KIND = 'extension-tests';

type Outcome = { kind: 'exit'; code: number } | { kind: 'timeout' } | { kind: 'error'; message: string };

/**
 * The windows the extension-host tests run in: the deploy workspace (every suite but the light
 * window's), and a workspace with YAML files that are not deploy configs, where the suite
 * `light window` checks that Stage Lens stays out of the way until it is used.
 */
const WINDOWS: readonly { readonly name: string; readonly workspace: () => TestWorkspace }[] = [
  { name: 'deploy', workspace: () => createWorkspace() },
  { name: 'light', workspace: () => createPlainYamlWorkspace() },
];

async function main(): Promise<never> {
  for (const f of [extensionBundle, extensionTestsBundle]) {
    if (!fs.existsSync(f))
      return finish(
        KIND,
        { passed: 0, failed: 0, skipped: 0 },
        `${path.relative(repoRoot, f)} is missing: run npm run build`,
      );
  }
  const install = loadInstall();
  const total: Counts = { passed: 0, failed: 0, skipped: 0 };
  const problems: string[] = [];
  const t0 = Date.now();
  for (const window of WINDOWS) {
    const { counts, problem } = await runWindow(install, window.name, window.workspace);
    total.passed += counts.passed;
    total.failed += counts.failed;
    total.skipped += counts.skipped;
    if (problem !== undefined) problems.push(`${window.name} window: ${problem}`);
  }
  console.log(`extension-host tests: ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  return finish(KIND, total, problems.length > 0 ? problems.join('; ') : undefined);
}

async function runWindow(
  install: VSCodeInstall,
  windowName: string,
  makeWorkspace: () => TestWorkspace,
): Promise<{ counts: Counts; problem: string | undefined }> {
  const timeoutMs = envNumber('STAGE_LENS_EDITOR_TIMEOUT_MS', 180_000);
  const name = windowName === 'deploy' ? KIND : `${KIND}-${windowName}`;
  const resultsFile = path.join(outputDir, `${name}.results.txt`);
  fs.mkdirSync(outputDir, { recursive: true });
  fs.rmSync(resultsFile, { force: true });

  const hostLog: string[] = [];
  let server: VSCodeServer | undefined;
  let browser: BrowserPage | undefined;
  let workspace: TestWorkspace | undefined;
  let outcome: Outcome;
  try {
    workspace = makeWorkspace();
    server = await startServer({
      install,
      name,
      env: { STAGE_LENS_TEST_RESULTS: resultsFile, STAGE_LENS_EDITOR_WINDOW: windowName },
    });
    browser = await openBrowser(install);
    const { page } = browser;

    let resolveExit: (code: number) => void = () => undefined;
    const exited = new Promise<number>((resolve) => {
      resolveExit = resolve;
    });
    await page.exposeFunction('codeAutomationExit', (code: unknown) => {
      resolveExit(typeof code === 'number' ? code : Number(code));
    });
    await page.exposeFunction('codeAutomationLog', (type: unknown, args: unknown) => {
      const line = `[${String(type)}] ${Array.isArray(args) ? util.format(...(args as unknown[])) : String(args)}`;
      hostLog.push(line);
      if (verbose) console.log(line);
    });
    page.on('pageerror', (err) => hostLog.push(`[pageerror] ${err.message}`));

    const url = server.workbenchUrl(workspace.dir, [
      ['extensionDevelopmentPath', server.remoteUri(repoRoot)],
      ['extensionTestsPath', server.remoteUri(extensionTestsBundle)],
    ]);
    if (verbose)
      console.log(
        `VS Code ${install.vscodeVersion} (code-server ${install.codeServerVersion}) at ${server.base}, ${windowName} window`,
      );
    await page.goto(url);
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), timeoutMs);
    });
    const result = await Promise.race([exited, timedOut]);
    clearTimeout(timer);
    outcome = result === 'timeout' ? { kind: 'timeout' } : { kind: 'exit', code: result };
    if (outcome.kind !== 'exit' || outcome.code !== 0) {
      await page.screenshot({ path: path.join(failureScreenshotDir(), `${name}-fail.png`) }).catch(() => undefined);
    }
  } catch (err) {
    outcome = { kind: 'error', message: err instanceof Error ? err.message : String(err) };
  } finally {
    await browser?.close();
    await server?.stop();
    workspace?.remove();
  }

  // Results written by test/editor/suite/index.ts inside the extension host.
  const lines = fs.existsSync(resultsFile)
    ? fs
        .readFileSync(resultsFile, 'utf8')
        .split('\n')
        .filter((l) => l.trim() !== '')
    : [];
  let counts: Counts | undefined;
  for (const line of lines) {
    if (isSummaryLine(line)) counts = parseSummaryLine(line);
    else console.log(line);
  }
  if (!counts) {
    counts = {
      passed: lines.filter((l) => l.startsWith('ok ')).length,
      failed: lines.filter((l) => l.startsWith('FAIL ')).length,
      skipped: lines.filter((l) => l.startsWith('skip ')).length,
    };
  }

  let problem: string | undefined;
  if (outcome.kind === 'timeout')
    problem = `no exit code from the extension host within ${timeoutMs} ms (STAGE_LENS_EDITOR_TIMEOUT_MS)`;
  else if (outcome.kind === 'error') problem = outcome.message;
  else if (outcome.code !== 0 && counts.failed === 0)
    problem = `the extension host exited with code ${outcome.code} (tests module failed to load?)`;
  else if (outcome.code === 0 && counts.failed > 0) problem = 'the extension host exited with 0 although tests failed';
  else if (counts.passed === 0) problem = 'no test ran';

  const failedRun = problem !== undefined || counts.failed > 0;
  if (failedRun && !verbose) {
    const shown = hostLog.filter((l) => !isKnownNoise(l.replace(/^\[\w+\] /, '')));
    console.log(
      `--- extension host log, ${windowName} window (${shown.length} entries; the server log is ${path.relative(repoRoot, server?.logFile ?? '')}):`,
    );
    for (const l of shown.slice(-300)) console.log(l);
    console.log('--- end of extension host log');
  }
  return { counts, problem };
}

main().catch((err: unknown) => {
  finish(KIND, { passed: 0, failed: 0, skipped: 0 }, err instanceof Error ? (err.stack ?? err.message) : String(err));
});
